/**
 * Where the store's run session lives. In Node (tests, the Node API) and on the page's first
 * screen it is in this thread (`localSessionHost`); on the page, once the engine worker is up, in
 * that worker (`worker-session-host.ts` here, ui/worker/session-job.ts there), so no step or
 * script runs on the page's thread.
 * Either way the store sends the same commands and gets back a result and the frame after it:
 * `done` runs at once here, or when the worker answers (in order, one request at a time).
 */
import type { ScenarioDefinition } from '../../definition';
import type { RunProjection } from '../../engine/projection';
import type { Scenario } from '../../engine/scenario';
import type { Simulation } from '../../engine/simulation';
import type { CommandResult, LoadOutcome, SessionCommand, SessionSpec } from '../../session/commands';
import type { SessionFrame } from '../../session/frame';
import type { RunSession } from '../../session/run-session';

/** The run after a request: its frame and its log. */
export interface HostView {
  readonly frame: SessionFrame;
  readonly log: RunProjection;
}

/** A run to load, checked by nobody yet: the scenario as this thread's library has it. */
export interface HostLoad extends SessionSpec {
  readonly scenarioId: string;
  readonly scenario: Scenario | undefined;
  /** The definition it came from (null: a built-in): what a worker is sent instead of the scenario. */
  readonly definition: ScenarioDefinition | null;
  readonly runnable: (scenario: Scenario) => boolean;
}

export interface SessionHost {
  /** Loads a run; a refused one leaves the run as it was (`view` is then the unchanged run, or null from a worker). */
  load(request: HostLoad, done: (outcome: LoadOutcome, view: HostView | null) => void): void;
  command(command: SessionCommand, done: (result: CommandResult, view: HostView | null) => void): void;
  /** The loading tickets of run-client.ts's `whenReady` (a scenario's body loading in this thread). */
  beginLoading(scenarioId: string): number;
  isCurrentLoad(ticket: number): boolean;
  endLoading(ticket: number): void;
  /** The run now (null until a worker first answers). */
  view(): HostView | null;
  /** Resolves once every request sent so far is answered. */
  idle(): Promise<void>;
  /** Whether requests are waiting for an answer. */
  pending(): boolean;
  /** The simulation itself, only where it is in this thread (tests read it). */
  readonly simulation: Simulation | null;
  /** Whether a request has been waiting long (a heavy script): the page offers Stop. */
  onBusyChange(listener: (busy: boolean) => void): void;
  /** Stops a long request (only a worker can); `done` gets the run as it was before. */
  stop(done: (view: HostView | null) => void): void;
  dispose(): void;
}

/** The session in this thread: every request answered at once. */
export function localSessionHost(session: RunSession): SessionHost {
  const view = (): HostView => ({ frame: session.frame(), log: session.log });
  return {
    load(request, done) {
      done(session.load(request), view());
    },
    command(command, done) {
      done(session.apply(command), view());
    },
    beginLoading: (scenarioId) => session.beginLoading(scenarioId),
    isCurrentLoad: (ticket) => session.isCurrentLoad(ticket),
    endLoading: (ticket) => session.endLoading(ticket),
    view,
    idle: () => Promise.resolve(),
    pending: () => false,
    get simulation() {
      return session.simulation;
    },
    onBusyChange: () => {},
    // A command in this thread has finished before anyone could press Stop.
    stop: (done) => done(view()),
    dispose: () => {},
  };
}
