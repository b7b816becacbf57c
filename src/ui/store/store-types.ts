/**
 * The store's types, and nothing else: the state all slices make together (`SimState`), the
 * store (`SimStore`) and its options (`SimStoreInit`). Each slice owns its state type in its own
 * file (slices/*.ts) and imports nothing of this file, so the store's files form no import
 * circle.
 * The factories are create-store.ts (over a scenario library: the page) and create-sim-store.ts
 * (every built-in scenario, all loaded: Node and the tests).
 */
import type { StoreApi } from 'zustand/vanilla';
import type { Scenario } from '../../engine/scenario';
import type { Simulation } from '../../engine/simulation';
import type { ScenarioLibrary } from './library';
import type { SessionHost } from './session-host';
import type { RunLinkSchedule } from './run-link';
import type { OutcomeReport, OutcomeService } from '../worker/protocol';
import type { ExploreInit, ExploreSlice } from './slices/explore';
import type { WorkbenchInit, WorkbenchSlice } from './slices/workbench';
import type { PropertyCheckInit, PropertyCheckSlice } from './slices/property-check';
import type { MyScenariosInit, MyScenariosSlice } from './slices/my-scenarios';
import type { DraftsSlice } from './slices/drafts';
import type { LearnInit, LearnSlice } from './slices/learn';
import type { IoInit, IoSlice } from './slices/io';
import type { CompareInit, CompareSlice } from './slices/compare';
import type { ConsoleSlice } from './slices/console';
import type { NodeFaultsSlice } from './slices/node-faults';
import type { PlaybackInit, PlaybackSlice } from './slices/playback';
import type { UiInit, UiSlice } from './slices/ui';
import type { LinkSlice } from './slices/links';
import type { SessionFrame } from '../../session/frame';
import type { LoadResult, Notice, RunInfo, RunLoading, RunLog, RunSpec, SavedRun, ScenarioSummary } from './types';

export type { LinkError, LoadResult, NotReadyError, RunLoading, RunSpec } from './types';
export type { NodeStatus } from '../../session/node-status';
export type { PlaybackSlice } from './slices/playback';
export type { UiSlice, ViewTab } from './slices/ui';
export type { LinkSlice } from './slices/links';

export type { VariantOutcome } from '../worker/protocol';
export type { ExploreProgress, ExploreResult } from '../worker/explore-protocol';
export type { ExploreForm, ExploreState, ExploreStatus } from './slices/explore';
export type { CompareState } from './slices/compare';
export type { OutcomeDivergence } from '../worker/protocol';
export type { MyScenarioSummary } from './slices/my-scenarios';
export type { ConsoleNote, ConsoleOutcome } from './slices/console';
export type { ProgramEdit, PropertyDraft, StepOption, WorkbenchTab } from './slices/workbench';
export type { IoDownload } from './slices/io';
export type { HistoryLaneEvent, HistoryReport, IoHistoryState } from './io-history';

/** The run as the session publishes it (its frame: src/session/frame.ts), plus what the store adds. */
export interface SimulationSlice extends SessionFrame {
  /** Every scenario, for the picker (fixed for the store's life). */
  readonly scenarios: readonly ScenarioSummary[];
  /**
   * Set while the page loads a scenario (its body, or the Lua engine) before showing its run: the
   * run on screen then is a placeholder, not shown; actions on it are refused with a notice.
   */
  readonly runLoading: RunLoading | null;
  /** What the page shows of the current scenario and variant (the one source: no component looks it up). */
  readonly runInfo: RunInfo;
  /**
   * The run as an append-only log: the consumer's way to grow with the run (docs/ARCHITECTURE.md).
   * A new object whenever the timeline changed; the same `generation` means only appended.
   */
  readonly runLog: RunLog;
  /** The run's schedule as its link writes it, extended with the log (run-link.ts `runLinkScheduleOf`). */
  readonly runLink: RunLinkSchedule;
  readonly notice: Notice | null;
  readonly outcomes: OutcomeReport | null;
  readonly outcomesPending: boolean;
  /** False after a refused link until the user acts: a broken link must not overwrite saved work. */
  readonly persistRun: boolean;
  /** A request to the run session has waited long (a heavy script in the engine worker): the page offers Stop. */
  readonly sessionBusy: boolean;
  /** The variant a press asked for while the session replays the run under it (null: none pending); the radio shows it at once. */
  readonly requestedVariantId: string | null;

  /** `then` gets the final result: at once in this thread, or when the engine worker has replayed the run. */
  loadRun(spec: RunSpec, then?: (result: LoadResult) => void): LoadResult;
  /** `loadRun`, resolving once the run is loaded or refused wherever the session runs (the engine worker on the page). */
  loadRunSettled(spec: RunSpec): Promise<LoadResult>;
  /** Resolves once the run session has answered everything asked so far. */
  sessionIdle(): Promise<void>;
  /** Stops the session's long request (a heavy script): the run stays as it was before it. */
  stopSession(): void;
  selectScenario(scenarioId: string): void;
  selectVariant(variantId: string): void;
  setSeed(seed: number): void;
  stepClient(clientId: string): void;
  runToNextCommand(clientId: string): void;
  stallClient(clientId: string, ms: number): void;
  crashClient(clientId: string): void;
  /** Applies schedule text after the cursor (a node fault such as `!@r1`), as one or more choices. */
  appendScheduleText(text: string): void;
  /** Replaces the run's schedule with `text` (same scenario, variant and seed); the cursor goes to its end. */
  runSchedule(text: string): LoadResult;
  advanceClock(ms: number): void;
  jumpToNextExpiry(): void;
  stepBack(): void;
  stepForward(): void;
  seek(cursor: number): void;
  dismissNotice(): void;
}

type Slices = [SimulationSlice, PlaybackSlice, UiSlice, LinkSlice, ExploreSlice, CompareSlice, WorkbenchSlice, PropertyCheckSlice, MyScenariosSlice, LearnSlice, DraftsSlice, IoSlice, ConsoleSlice, NodeFaultsSlice];
export type SimState = SimulationSlice & PlaybackSlice & UiSlice & LinkSlice & ExploreSlice & CompareSlice & WorkbenchSlice & PropertyCheckSlice & MyScenariosSlice & LearnSlice & DraftsSlice & IoSlice & ConsoleSlice & NodeFaultsSlice;

/**
 * No two slices may name the same field or action. Each slice now types only its own state and
 * reaches the run through its port, but all of them are still spread into one Zustand object:
 * a shared name would silently replace the earlier slice's (two branches once both added
 * `applyScheduleText`). A shared name fails the typecheck here, naming it.
 */
type KeysOfRest<R extends readonly unknown[]> = { [K in keyof R]: keyof R[K] }[number];
type Disjoint<T extends readonly unknown[]> = T extends readonly [infer Head, ...infer Rest]
  ? [keyof Head & KeysOfRest<Rest>] extends [never]
    ? Disjoint<Rest>
    : { sharedName: keyof Head & KeysOfRest<Rest> }
  : true;
type MustBeTrue<T extends true> = T;
export type SlicesAreDisjoint = MustBeTrue<Disjoint<Slices>>;
export type SimStore = StoreApi<SimState> & {
  /** The engine instance behind the store, read-only, while the session is in this thread (Node, tests); throws once it moved to a worker. */
  readonly simulation: () => Simulation;
  /**
   * Moves the run session to `host` (the page: into the engine worker, after the first screen).
   * The run on screen is loaded there first; resolves false (and keeps the session here) if it could not be.
   */
  readonly moveSession: (host: SessionHost) => Promise<boolean>;
  readonly dispose: () => void;
};

/** What a store is made from: its first run (a link, a saved run or a spec) and the services each feature uses. */
export interface SimStoreInit extends LearnInit, ExploreInit, CompareInit, WorkbenchInit, PropertyCheckInit, MyScenariosInit, IoInit, PlaybackInit, UiInit {
  /** The page's link (location hash): its run, or a refusal shown over the default run. */
  readonly link?: string;
  /** The last run this browser saved, loaded when `link` is empty; refused in words if it cannot be. */
  readonly savedRun?: SavedRun;
  readonly run?: RunSpec;
  readonly outcomes?: OutcomeService | null;
  /** The scenarios (Node, tests): all loaded from the start. Default: every built-in one. */
  readonly scenarios?: readonly Scenario[];
  /** Where scenarios come from when some load later (the page's `pageLibrary`); overrides `scenarios`. */
  readonly library?: ScenarioLibrary;
}
