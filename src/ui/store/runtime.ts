import type { StoreApi } from 'zustand/vanilla';
import { definitionOfScenario, type ScenarioDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import { RunSession } from '../../session/run-session';
import type { SessionCommand } from '../../session/commands';
import type { OutcomeService } from '../worker/protocol';
import type { SimState, SimStoreInit } from './store-types';
import type { ScenarioLibrary } from './library';
import { createRunClient, type RunClient, type StoreRunState } from './run-client';
import type { PlaybackTimers } from './types';

/** What the slices of one store share: the run session and the outside world it may touch. */
export interface Runtime {
  /** The run, headless (src/session): the simulation slice is its thin client. */
  readonly session: RunSession;
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
  /** Applies one of the session's commands and publishes the result (a refused choice becomes a notice). */
  readonly command: (command: SessionCommand) => void;
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
  const session = new RunSession(firstScenario);
  const runState: StoreRunState = {
    get sim() {
      return session.simulation;
    },
    get scenario() {
      return session.scenario;
    },
    policy: null,
    autoplaySteps: 0,
    timer: null,
    outcomeRequestId: 0,
    definition: null,
  };
  const outcomeService = options.outcomes ?? null;
  const run = createRunClient({ session, runState, library, outcomeService }, { get: () => api().getState(), set: (partial) => api().setState(partial), stopPlayback: () => api().getState().pause() });
  return {
    session,
    runState,
    library,
    firstScenario,
    timers: options.timers ?? {
      setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
      clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
    },
    outcomeService,
    run,
    command: (command) => run.command(command),
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
