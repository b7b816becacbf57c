/**
 * One store per simulator instance (xyflow's pattern): a factory, slices (simulation, playback,
 * ui prefs, links, explore) and actions that delegate to the engine. The `Simulation` lives outside the
 * reactive state; after each action the store publishes plain derived data. Derivations keep the
 * previous object when nothing changed, so a step re-renders only the components whose data moved.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { Lang } from '../../i18n';
import type { ScenarioDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import type { Choice } from '../../engine/schedule';
import type { Simulation } from '../../engine/simulation';
import type { LockView, TraceEvent, ViolationEvent } from '../../engine/trace';
import { SCENARIOS } from '../../scenarios';
import { createStoreWith } from './create-store';
import { staticLibrary, type ScenarioLibrary } from './library';
import type { OutcomeReport, OutcomeService } from '../worker/protocol';
import type { ExploreService } from '../worker/explore-protocol';
import type { ExploreSlice } from './slices/explore';
import type { WorkbenchSlice } from './slices/workbench';
import type { MyScenariosSlice } from './slices/my-scenarios';
import type { DraftsSlice } from './slices/drafts';
import type { LearnInit, LearnSlice } from './slices/learn';
import type { IoSlice } from './slices/io';
import type { CompareSlice } from './slices/compare';
import type { ConsoleSlice } from './slices/console';
import type { NodeFaultsSlice } from './slices/node-faults';
import type { DraftCheckService } from '../worker/draft-check-protocol';
import type { NodeStatus } from '../../session/node-status';
import type { ClientView, KeyView, LinkError, LocalizedText, MyScenarioStorage, Notice, PlaybackTimers, RunInfo, RunLog, SavedRun, ScenarioSummary, Theme } from './types';

export interface RunSpec {
  readonly scenarioId: string;
  readonly variantId?: string;
  readonly seed?: number;
  /** Schedule text or choices; the scenario's default schedule when absent. */
  readonly schedule?: string | readonly Choice[];
  /** Step to show; the start (0) when absent, null for the end. */
  readonly cursor?: number | null;
  /**
   * A scenario from a definition (`lockstep.load({ definition })`) instead of a built-in one:
   * `scenarioId` is its id. The worker gets the definition to replay the other variants.
   */
  readonly custom?: { readonly scenario: Scenario; readonly definition: ScenarioDefinition };
  /** Keep the choices that fit (with a notice saying where the rest stopped) instead of refusing. */
  readonly cutToFit?: boolean;
  /** A link's challenge (`ch=`) and predict mode (`predict=1`): applied after the run loads. */
  readonly challengeId?: string | null;
  readonly predict?: boolean;
}

export type { NodeStatus } from '../../session/node-status';

/**
 * A built-in scenario the page has not loaded yet (its body, or the Lua engine it needs): only
 * before `window.lockstep.ready`. The page's own paths wait for it instead (`runLoading`).
 */
export interface NotReadyError {
  readonly reason: 'not-ready';
  readonly detail: string;
}

export type LoadResult = { readonly ok: true } | { readonly ok: false; readonly error: LinkError | NotReadyError };

/** A scenario being loaded before its run can be shown (the page shows a loading state meanwhile). */
export interface RunLoading {
  readonly scenarioId: string;
  readonly title: LocalizedText;
}

export type ViewTab = 'timeline' | 'sequence' | 'events';

export type { VariantOutcome } from '../worker/protocol';
export type { ExploreProgress, ExploreResult } from '../worker/explore-protocol';
export type { ExploreForm, ExploreState, ExploreStatus } from './slices/explore';
export type { CompareState } from './slices/compare';
export type { OutcomeDivergence } from '../worker/protocol';
export type { MyScenarioSummary } from './slices/my-scenarios';
export type { ConsoleNote, ConsoleOutcome } from './slices/console';
export type { ProgramEdit, StepOption, WorkbenchTab } from './slices/workbench';
export type { IoDownload } from './slices/io';
export type { HistoryLaneEvent, HistoryReport, IoHistoryState } from './slices/io-history';
export { historyFileBytesMax } from './slices/io-history';

export { SPEEDS_STEPS_PER_S, advanceMsMax } from './limits';
/** A share link's definition payload (characters) and a scenario file (bytes), at most. */
export { definitionLinkCharsMax, scenarioFileBytesMax } from '../../definition/bounds';

export interface SimulationSlice {
  /** Every scenario, for the picker (fixed for the store's life). */
  readonly scenarios: readonly ScenarioSummary[];
  /**
   * Set while the page loads a scenario (its body, or the Lua engine) before showing its run: the
   * run on screen then is a placeholder, not shown; actions on it are refused with a notice.
   */
  readonly runLoading: RunLoading | null;
  /** What the page shows of the current scenario and variant (the one source: no component looks it up). */
  readonly runInfo: RunInfo;
  readonly scenarioId: string;
  readonly variantId: string;
  readonly seed: number;
  readonly clientIds: readonly string[];
  /** Bumps whenever the timeline itself (not just the cursor) changes. */
  readonly timelineVersion: number;
  readonly cursor: number;
  readonly length: number;
  readonly nowMs: number;
  readonly clients: readonly ClientView[];
  /**
   * The run as an append-only log: the consumer's way to grow with the run (docs/ARCHITECTURE.md).
   * A new object whenever the timeline changed; the same `generation` means only appended.
   */
  readonly runLog: RunLog;
  /**
   * Every event of the whole timeline (past and future of the cursor): `runLog.events`, the same
   * append-only array for a whole generation (not a copy per step). Its identity changes only when
   * the timeline is replaced; to see appends, watch `runLog` or `timelineVersion`.
   */
  readonly events: readonly TraceEvent[];
  readonly eventCountToCursor: number;
  /** Events of the step just before the cursor (what just happened). */
  readonly lastStepEvents: readonly TraceEvent[];
  readonly keys: readonly KeyView[];
  readonly lock: LockView;
  readonly violations: readonly ViolationEvent[];
  readonly schedule: string;
  /** Several Redis nodes: each node at the cursor (empty with one node). */
  readonly nodes: readonly NodeStatus[];
  /** clientId -> token, and token -> clientId. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly tokenOwners: Readonly<Record<string, string>>;
  readonly onDefaultPath: boolean;
  readonly finished: boolean;
  /** Earliest expiry time of a live key at or after now, or null. */
  readonly nextExpiryAtMs: number | null;
  readonly notice: Notice | null;
  readonly outcomes: OutcomeReport | null;
  readonly outcomesPending: boolean;
  /** False after a refused link until the user acts: a broken link must not overwrite saved work. */
  readonly persistRun: boolean;

  loadRun(spec: RunSpec): LoadResult;
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

export interface PlaybackSlice {
  readonly playing: boolean;
  readonly speedStepsPerS: number;
  readonly autoplayStepCountMax: number;
  play(): void;
  pause(): void;
  togglePlay(): void;
  setSpeed(stepsPerS: number): void;
  /** One autoplay tick (the driver calls it; exposed for tests). Returns false when playback stopped. */
  tick(): boolean;
}

export interface UiSlice {
  readonly lang: Lang;
  readonly theme: Theme;
  readonly presentation: boolean;
  readonly embed: boolean;
  /** An embed shows the variant toggle (`variants=0` in its query hides it). */
  readonly embedVariants: boolean;
  readonly view: ViewTab;
  readonly shortcutsOpen: boolean;
  /** The "Replay on a real Redis" dialog (the CLI command for the run shown) is open. */
  readonly replayOpen: boolean;
  /** The nodes dialog (several nodes only). */
  readonly nodesOpen: boolean;
  /** The Redlock debate lesson's dialog (node scenarios' lesson). */
  readonly debateOpen: boolean;
  readonly linkError: LinkError | null;
  setLang(lang: Lang): void;
  setTheme(theme: Theme): void;
  togglePresentation(): void;
  setView(view: ViewTab): void;
  setShortcutsOpen(open: boolean): void;
  setReplayOpen(open: boolean): void;
  setNodesOpen(open: boolean): void;
  setDebateOpen(open: boolean): void;
  dismissLinkError(): void;
}

export interface LinkSlice {
  /**
   * Opens a share-link hash (typed into the address bar, pasted): loads its run, or refuses it.
   * An empty hash changes nothing.
   */
  openLink(hash: string): void;
  /** Shows why a link was refused, loads the default run, and stops saving until the user acts. */
  refuseLink(error: LinkError): void;
}

type Slices = [SimulationSlice, PlaybackSlice, UiSlice, LinkSlice, ExploreSlice, CompareSlice, WorkbenchSlice, MyScenariosSlice, LearnSlice, DraftsSlice, IoSlice, ConsoleSlice, NodeFaultsSlice];
export type SimState = SimulationSlice & PlaybackSlice & UiSlice & LinkSlice & ExploreSlice & CompareSlice & WorkbenchSlice & MyScenariosSlice & LearnSlice & DraftsSlice & IoSlice & ConsoleSlice & NodeFaultsSlice;

/**
 * No two slices may name the same field or action: spread into one store, the later one would
 * silently replace the earlier (two branches once both added `applyScheduleText`). A shared name
 * fails the typecheck here, naming it.
 */
type KeysOfRest<R extends readonly unknown[]> = { [K in keyof R]: keyof R[K] }[number];
type Disjoint<T extends readonly unknown[]> = T extends readonly [infer Head, ...infer Rest]
  ? [keyof Head & KeysOfRest<Rest>] extends [never]
    ? Disjoint<Rest>
    : { sharedName: keyof Head & KeysOfRest<Rest> }
  : true;
const slicesAreDisjoint: Disjoint<Slices> = true;
void slicesAreDisjoint;
export type SimStore = StoreApi<SimState> & {
  /** The engine instance behind the store: read-only access for the test API. */
  readonly simulation: () => Simulation;
  readonly dispose: () => void;
};

export interface SimStoreInit extends LearnInit {
  /** The page's link (location hash): its run, or a refusal shown over the default run. */
  readonly link?: string;
  /** The last run this browser saved, loaded when `link` is empty; refused in words if it cannot be. */
  readonly savedRun?: SavedRun;
  readonly run?: RunSpec;
  readonly lang?: Lang;
  readonly theme?: Theme;
  readonly presentation?: boolean;
  readonly embed?: boolean;
  readonly embedVariants?: boolean;
  /** A link refused before the store existed (shape, scenario...), shown with the default run. */
  readonly linkError?: LinkError | null;
  readonly outcomes?: OutcomeService | null;
  /** Runs "Find a race" searches (the explorer worker); without it the button reports an error. */
  readonly explorer?: ExploreService | null;
  /** Replays a found schedule against every variant (an outcome worker of its own); without it no comparison. */
  readonly comparer?: OutcomeService | null;
  /** Replays an edited scenario off the page's thread before the page runs it (the draft-check worker); inline without it. */
  readonly draftChecker?: DraftCheckService | null;
  /** Where the user's own scenarios live (localStorage in the page); without it they cannot be saved. */
  readonly myScenarioStorage?: MyScenarioStorage | null;
  readonly timers?: PlaybackTimers;
  readonly autoplayStepCountMax?: number;
  /** The scenarios (Node, tests): all loaded from the start. Default: every built-in one. */
  readonly scenarios?: readonly Scenario[];
  /** Where scenarios come from when some load later (the page's `pageLibrary`); overrides `scenarios`. */
  readonly library?: ScenarioLibrary;
}

/**
 * A store over every built-in scenario (or `options.scenarios`), all loaded: what Node and the
 * tests use. The page builds its store with `createStoreWith(pageLibrary(), ...)` instead, so the
 * scenario registry stays out of its first screen.
 */
export function createSimStore(options: SimStoreInit = {}): SimStore {
  return createStoreWith(options.library ?? staticLibrary(options.scenarios ?? SCENARIOS), options);
}

