import type { StoreApi } from 'zustand/vanilla';
import { definitionOfScenario, type ScenarioDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import { RunSession } from '../../session/run-session';
import type { CommandResult, SessionCommand } from '../../session/commands';
import type { OutcomeService } from '../worker/protocol';
import type { SimState, SimStoreInit } from './store-types';
import { localSessionHost, type SessionHost } from './session-host';
import type { ScenarioLibrary } from './library';
import { createRunClient, type RunClient, type StoreRunState } from './run-client';
import type { PlaybackTimers } from './types';

/** What the slices of one store share: the run session and the outside world it may touch. */
export interface Runtime {
  /** Where the run session is (session-host.ts): this thread, until the page moves it into the engine worker. */
  readonly host: () => SessionHost;
  /** Moves the session to another host: the run on screen is loaded there first (`done`: how that went). */
  readonly moveSession: (host: SessionHost, done: (ok: boolean) => void) => void;
  /** The store's side of the run (autoplay, outcome requests, the definition on screen): not the engine. */
  readonly runState: StoreRunState;
  /** Where scenarios come from (library.ts): all loaded (Node), or some on demand (the page). */
  readonly library: ScenarioLibrary;
  /** The library's first scenario: the default run, always ready. */
  readonly firstScenario: Scenario;
  readonly timers: PlaybackTimers;
  readonly outcomeService: OutcomeService | null;
  /** The session's commands, published to the store (run-client.ts). */
  readonly run: RunClient;
  /** Whether the session still has requests to answer. */
  readonly sessionPending: () => boolean;
  /** Applies one of the session's commands and publishes the result (a refused choice becomes a notice). */
  readonly command: (command: SessionCommand, then?: (result: CommandResult) => void) => void;
  /**
   * Runs `then` once the scenario `id` is ready (library.ts): at once if it is; otherwise the store
   * shows `runLoading` while it loads. A later run replaces a pending one (its `then` never runs).
   */
  readonly whenReady: (id: string, then: () => void) => void;
}

/**
 * The runtime of one store, wired at once: the session starts with `firstScenario`'s run, and
 * `command` / `whenReady` are the run client's, publishing into the store `api()` returns (called
 * only once actions run, after the store exists).
 */
export function createRuntime(library: ScenarioLibrary, firstScenario: Scenario, options: SimStoreInit, api: () => StoreApi<SimState>): Runtime {
  let host = localSessionHost(new RunSession(firstScenario));
  const runState: StoreRunState = {
    scenario: firstScenario,
    play: 0,
    policySeed: 0,
    autoplaySteps: 0,
    timer: null,
    outcomeRequestId: 0,
    definition: null,
  };
  const outcomeService = options.outcomes ?? null;
  const run = createRunClient({ host: () => host, runState, library, outcomeService }, { get: () => api().getState(), set: (partial) => api().setState(partial), stopPlayback: () => api().getState().pause() });
  const moveSession = (next: SessionHost, done: (ok: boolean) => void) => {
    const s = api().getState();
    const definition = runState.definition;
    const request = { scenarioId: s.scenarioId, scenario: runState.scenario, definition, variantId: s.variantId, seed: s.seed, schedule: s.schedule, cursor: s.cursor, runnable: () => true };
    const previous = host;
    // From now on every request goes to `next`, after this load (a host answers in order).
    host = next;
    next.onBusyChange((busy) => api().setState({ sessionBusy: busy }));
    next.load(request, (outcome) => {
      if (outcome.ok) return done(true);
      host = previous;
      next.dispose();
      done(false);
    });
  };
  return {
    host: () => host,
    moveSession,
    runState,
    library,
    firstScenario,
    timers: options.timers ?? {
      setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
      clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
    },
    outcomeService,
    run,
    command: (command, then) => run.command(command, then),
    sessionPending: () => host.pending(),
    whenReady: run.whenReady,
  };
}

/** The definition of the scenario on screen (the edited or loaded one, else the built-in's), or null when it cannot be one (a client runs code outside the engine). */
export function definitionOnScreen(runState: Runtime['runState']): ScenarioDefinition | null {
  if (runState.definition) return runState.definition;
  try {
    return definitionOfScenario(runState.scenario);
  } catch {
    return null;
  }
}
