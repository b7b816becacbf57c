/**
 * One store per simulator instance (xyflow's pattern): a factory, slices (simulation, playback,
 * ui prefs, links, explore) and actions that delegate to the engine. The `Simulation` lives outside the
 * reactive state; after each action the store publishes plain derived data. Derivations keep the
 * previous object when nothing changed, so a step re-renders only the components whose data moved.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Lang } from '../../i18n';
import type { ScenarioDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import type { Choice } from '../../engine/schedule';
import { RunProjection } from '../../engine/projection';
import { Simulation } from '../../engine/simulation';
import type { LockView, TraceEvent, ViolationEvent } from '../../engine/trace';
import { SCENARIOS } from '../../scenarios';
import type { OutcomeReport, OutcomeService } from '../worker/protocol';
import type { ExploreService } from '../worker/explore-protocol';
import { clip, parseRunLink } from './run-link';
import type { Runtime } from './runtime';
import { createExploreSlice, type ExploreSlice } from './slices/explore';
import { createLinkSlice } from './slices/links';
import { createPlaybackSlice } from './slices/playback';
import { createSimulationSlice } from './slices/simulation';
import { createUiSlice } from './slices/ui';
import { createWorkbenchSlice, type WorkbenchSlice } from './slices/workbench';
import { createMyScenariosSlice, type MyScenariosSlice } from './slices/my-scenarios';
import { createDraftsSlice, type DraftsSlice } from './slices/drafts';
import { createLearnSlice, type LearnInit, type LearnSlice } from './slices/learn';
import { createNodeFaultsSlice, type NodeFaultsSlice } from './slices/node-faults';
import type { DraftCheckService } from '../worker/draft-check-protocol';
import type { NodeStatus } from './node-status';
import type { ClientView, KeyView, LinkError, MyScenarioStorage, Notice, PlaybackTimers, RunInfo, RunLog, SavedRun, ScenarioSummary, Theme } from './types';

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

export type { NodeStatus } from './node-status';

export type LoadResult = { readonly ok: true } | { readonly ok: false; readonly error: LinkError };

export type ViewTab = 'timeline' | 'sequence' | 'events';

export type { VariantOutcome } from '../worker/protocol';
export type { ExploreProgress, ExploreResult } from '../worker/explore-protocol';
export type { ExploreForm, ExploreState, ExploreStatus } from './slices/explore';
export type { MyScenarioSummary } from './slices/my-scenarios';
export type { ProgramEdit, WorkbenchTab } from './slices/workbench';

export { SPEEDS_STEPS_PER_S } from './slices/playback';
/** Longest clock advance or stall the engine accepts (ms): the bound of the duration fields. */
export { advanceMsMax } from '../../engine/schedule';

export interface SimulationSlice {
  /** Every scenario, for the picker (fixed for the store's life). */
  readonly scenarios: readonly ScenarioSummary[];
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

type Slices = [SimulationSlice, PlaybackSlice, UiSlice, LinkSlice, ExploreSlice, WorkbenchSlice, MyScenariosSlice, LearnSlice, DraftsSlice, NodeFaultsSlice];
export type SimState = SimulationSlice & PlaybackSlice & UiSlice & LinkSlice & ExploreSlice & WorkbenchSlice & MyScenariosSlice & LearnSlice & DraftsSlice & NodeFaultsSlice;

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
  /** Replays an edited scenario off the page's thread before the page runs it (the draft-check worker); inline without it. */
  readonly draftChecker?: DraftCheckService | null;
  /** Where the user's own scenarios live (localStorage in the page); without it they cannot be saved. */
  readonly myScenarioStorage?: MyScenarioStorage | null;
  readonly timers?: PlaybackTimers;
  readonly autoplayStepCountMax?: number;
  readonly scenarios?: readonly Scenario[];
}

interface InitialRun extends SimStoreInit {
  /** The saved run's text when `run` came from it: a run that no longer fits is reported as saved work. */
  readonly savedText?: string;
}

/** The run to show first: the link's, else the saved one, else `init.run`. */
function initialRun(init: SimStoreInit, scenarios: readonly Scenario[]): InitialRun {
  if (init.link === undefined) return init;
  const fromLink = parseRunLink(init.link, scenarios);
  if (fromLink.kind === 'ok') return { ...init, run: fromLink.link };
  if (fromLink.kind === 'error') return { ...init, linkError: fromLink.error };
  const saved = init.savedRun ?? { kind: 'none' };
  if (saved.kind === 'none') return init;
  if (saved.kind === 'unreadable') {
    return { ...init, linkError: { reason: 'bad-format', detail: clip(saved.text), savedText: saved.text } };
  }
  const fromSaved = parseRunLink(saved.hash, scenarios);
  if (fromSaved.kind === 'ok') return { ...init, run: fromSaved.link, savedText: saved.hash };
  if (fromSaved.kind === 'error') return { ...init, linkError: { ...fromSaved.error, savedText: saved.hash } };
  return init;
}

export function createSimStore(options: SimStoreInit = {}): SimStore {
  const scenarios = options.scenarios ?? SCENARIOS;
  const init = initialRun(options, scenarios);
  const firstScenario = scenarios[0];
  const rt: Runtime = {
    // The default run always exists; a requested run replaces it below if it loads.
    engine: {
      sim: new Simulation(firstScenario, {}),
      scenario: firstScenario,
      defaultChoices: [],
      projection: new RunProjection(0),
      entriesByCursor: new Map(),
      policy: null,
      autoplaySteps: 0,
      timer: null,
      outcomeRequestId: 0,
      definition: null,
    },
    scenarios,
    timers: init.timers ?? {
      setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
      clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
    },
    outcomeService: init.outcomes ?? null,
    act: () => {
      throw new Error('createSimStore: the simulation slice has not been created');
    },
  };

  const api = createStore<SimState>()((...a) => ({
    ...createSimulationSlice(rt, init)(...a),
    ...createPlaybackSlice(rt, init)(...a),
    ...createUiSlice(init)(...a),
    ...createLinkSlice(rt)(...a),
    ...createExploreSlice(rt, init)(...a),
    ...createWorkbenchSlice(rt, init)(...a),
    ...createMyScenariosSlice(rt, init)(...a),
    ...createLearnSlice(scenarios, init)(...a),
    ...createDraftsSlice()(...a),
    ...createNodeFaultsSlice(rt)(...a),
  }));
  // Load the requested run; if its schedule does not fit, show why and load the default instead.
  const result = api.getState().loadRun(init.run ?? { scenarioId: firstScenario.id });
  if (!result.ok) api.getState().refuseLink(init.savedText === undefined ? result.error : { ...result.error, savedText: init.savedText });
  else if (init.run) api.getState().applyLinkExtras(init.run);
  if (init.progressError) api.setState({ notice: { key: 'progressUnreadable', params: init.progressError, tone: 'warning' } });
  return Object.assign(api, {
    simulation: () => rt.engine.sim,
    dispose: () => {
      api.getState().pause();
      rt.outcomeService?.dispose();
      init.explorer?.dispose();
      init.draftChecker?.dispose();
      init.shortestWay?.dispose?.();
    },
  });
}
