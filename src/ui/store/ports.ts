/**
 * The ports features get instead of the whole store (xyflow hands each framework-free feature a
 * declared `getStoreItems()` the same way): the run's identity, the few actions on the run a
 * feature may use, and a feed of run changes. The store's factory implements them once
 * (wire-ports.ts) over the simulation slice; a feature sees only its own view of them.
 *
 * Types only, importing nothing of the store's slices: every slice may import this file and it
 * imports none back, so the store's files form no import circle.
 */
import type { MessageRef } from '../../i18n';
import type { ScenarioDefinition } from '../../definition';
import type { ExploreSpec, Scenario } from '../../engine/scenario';
import type { Choice, NodeChoice } from '../../engine/schedule';
import type { TraceEvent, ViolationEvent } from '../../engine/trace';
import type { LoadResult, LinkError, Notice, PlaybackTimers, RunInfo, RunSpec } from './types';
import type { CommandResult, SessionCommand } from '../../session/commands';

/** Who the run on screen is and where its cursor stands. */
export interface RunIdentity {
  readonly scenarioId: string;
  readonly variantId: string;
  readonly seed: number;
  /** The run's schedule as text. */
  readonly schedule: string;
  readonly cursor: number;
  /** The definition the run's scenario came from (edited, loaded, the user's), or null for a built-in. */
  readonly definition: ScenarioDefinition | null;
}

/**
 * What one update of the run changed: the identity before and after. Delivered inside that update:
 * what a listener writes to its own state joins the same store update (one update per step).
 */
export interface RunChange {
  readonly before: RunIdentity;
  readonly after: RunIdentity;
}

/** A feature's own state: read it, patch it (a shallow merge, as Zustand's `set`). */
export interface SliceStore<S> {
  get(): S;
  set(patch: Partial<S>): void;
}

/** The page's Lua engine, loaded on demand (library.ts): edited scenarios need it before they run. */
export interface LuaLoader {
  ready(): boolean;
  load(): Promise<void>;
}

/** The run as every feature may see it. Each feature takes the narrow view below that it needs. */
export interface RunPort {
  run(): RunIdentity;
  /** The scenario on screen (built-in, edited or loaded). */
  scenario(): Scenario;
  /** The scenario on screen as a definition (the edited one, else the built-in's), or null when it cannot be one (a client runs code outside the engine). */
  definitionOnScreen(): ScenarioDefinition | null;
  /** What the page shows of the scenario and variant (its challenges, questions...). */
  runInfo(): RunInfo;
  /** `then` gets the final result: at once in this thread, or when the engine worker has replayed the run. */
  loadRun(spec: RunSpec, then?: (result: LoadResult) => void): LoadResult;
  /** Shows a message for the user (null clears it). */
  notify(notice: Notice | null): void;
  /** Calls `listener` on each update that changes the run's identity; returns the unsubscribe. */
  onRunChanged(listener: (change: RunChange) => void): () => void;
  /** Runs `then` once the session has answered everything asked so far (at once when it has): `run()` is then the run those requests made. */
  whenSettled(then: () => void): void;
}

/** "Find a race": bounds come from the scenario; a found violation is loaded, then compared across variants. */
export interface ExplorePort extends Pick<RunPort, 'run' | 'scenario' | 'loadRun' | 'whenSettled'> {
  /** Replays the run on screen against every variant (the compare feature). */
  compareVariants(): void;
}

/** Compare a schedule across variants, then show one variant's run in the timeline. */
export interface ComparePort extends Pick<RunPort, 'run' | 'scenario' | 'loadRun' | 'whenSettled'> {
  /** Closes the explorer's dialog, so the timeline shows the loaded variant. */
  closeExplorer(): void;
}

/** The lesson path: follows the run's changes into the progress, starts challenges as runs. */
export interface LearnPort extends Pick<RunPort, 'run' | 'runInfo' | 'loadRun' | 'onRunChanged'> {
  /** Violations found up to the cursor, and whether every client has finished: a challenge's facts. */
  verdict(): { readonly violations: readonly ViolationEvent[]; readonly finished: boolean };
  /** Opens a lesson's scenario (it may load first). */
  selectScenario(scenarioId: string): void;
  /** Whether the run on screen is saved for the next visit (off after a refused link until the user acts). */
  setPersistRun(persist: boolean): void;
}

/** The user's own scenarios: save the one on screen, open one as a run. */
export interface MyScenariosPort extends Pick<RunPort, 'run' | 'definitionOnScreen' | 'loadRun' | 'notify'> {
  readonly lua: LuaLoader;
}

/** The workbench: edits become definitions, replayed as runs. */
export interface WorkbenchPort extends Pick<RunPort, 'run' | 'scenario' | 'definitionOnScreen' | 'loadRun' | 'notify'> {
  readonly lua: LuaLoader;
  /** The run's choices (the whole timeline, past and future of the cursor). */
  timeline(): readonly Choice[];
  clientIds(): readonly string[];
  /** The scenario's Redis nodes (empty with one node). */
  nodeIds(): readonly string[];
  /** Every event of the timeline, and how many of them come before the cursor. */
  events(): { readonly events: readonly TraceEvent[]; readonly eventCountToCursor: number };
  /** A built-in scenario of the library (the one an edited copy came from). */
  isBuiltIn(scenarioId: string): boolean;
}

/** The Properties tab's check: the definition on screen judged in the worker; a found schedule loaded as the run. */
export interface PropertyCheckPort extends Pick<RunPort, 'run' | 'scenario' | 'definitionOnScreen' | 'loadRun' | 'onRunChanged'> {
  /**
   * The explorer bounds the scenario on screen declares, or, for an edited copy of a lesson (which
   * as a definition carries none), the lesson's; undefined when neither declares any.
   */
  declaredExplore(): ExploreSpec | undefined;
}

/** The user's scenarios as the io feature stores and opens an imported file. */
export interface MyScenarioShelf {
  find(name: string): { readonly id: string; readonly name: string } | null;
  /** Stores an entry (a new one, or in place of `replaceId`); its id, or null when it could not be written. */
  put(entry: { readonly name: string; readonly variant: string; readonly seed: number; readonly schedule: string; readonly definition: ScenarioDefinition }, replaceId: string | null): string | null;
  open(id: string): void;
  /** The name of the user's scenario on screen when it is `definitionId`, or null. */
  nameOnScreen(definitionId: string): string | null;
}

/** A scenario in and out of the page: files, regression tests, links that carry a definition. */
export interface IoPort extends Pick<RunPort, 'run' | 'scenario' | 'definitionOnScreen' | 'loadRun' | 'notify' | 'onRunChanged'> {
  readonly lua: LuaLoader;
  readonly myScenarios: MyScenarioShelf;
  /** The run's violations (all of the timeline), for a regression test. */
  violations(): readonly ViolationEvent[];
  /** Shows (or clears) why a link was refused. */
  showLinkError(error: LinkError | null): void;
  setPersistRun(persist: boolean): void;
  /** Applies what a link carries besides the run (its challenge, predict mode). */
  applyLinkExtras(extras: { readonly challengeId?: string | null; readonly predict?: boolean }): void;
  /** Opens the workbench's import/export panel (a scenario too large for a link is shared as a file). */
  openExportPanel(): void;
}

/** A console choice the console feature runs at the cursor. */
export type ConsoleChoice = Extract<Choice, { kind: 'console' }>;

/** The Redis console: a typed line becomes a choice at the cursor. */
export interface ConsolePort extends Pick<RunPort, 'run'> {
  /** The nodes at the cursor (empty with one node). */
  nodes(): readonly { readonly id: string }[];
  /**
   * Applies the choice at the cursor, as a clicked step is (a later future is dropped); a choice
   * the engine refuses changes nothing, and `refused` gets the engine's words (once the session answers).
   */
  apply(choice: ConsoleChoice, refused: (detail: string) => void): void;
}

/** Node faults: each is a schedule token written after the cursor. */
export interface NodeFaultsPort {
  appendScheduleText(text: string): void;
  /** Why the fault cannot apply at the cursor (the engine's words, from the session's frame), or null when it can. */
  faultRefusal(choice: NodeChoice): MessageRef | null;
}

/** Share links: a hash in, a run (or a refusal) out. */
export interface LinkPort extends Pick<RunPort, 'loadRun'> {
  /** A built-in scenario the page has not loaded yet (its body loads on demand). */
  needsLoading(scenarioId: string): boolean;
  /** Runs `then` once the scenario is ready (at once if it is; the page shows a loading state meanwhile). */
  whenReady(scenarioId: string, then: () => void): void;
  findScenario(id: string): Scenario | undefined;
  firstScenarioId(): string;
  showLinkError(error: LinkError | null): void;
  setPersistRun(persist: boolean): void;
  applyLinkExtras(extras: { readonly challengeId?: string | null; readonly predict?: boolean }): void;
  /** Opens a link that carries its scenario (`def=`): the io feature decodes and checks it. */
  openDefinitionLink(hash: string): void;
}

/** Autoplay: refuses while a scenario loads, says why it stopped. */
export interface PlaybackPort extends Pick<RunPort, 'notify'> {
  /** The title (in the page's language) of the scenario still loading, or null when the run is shown. */
  loadingTitle(): string | null;
  /** Where the run on screen stands. */
  position(): { readonly cursor: number; readonly length: number; readonly finished: boolean; readonly seed: number };
}

/**
 * What autoplay drives: the run's simulation and its own counters (kept with the run, outside
 * React state), the wall-clock timers, and `command` to apply a step. The store's runtime is one.
 */
export interface AutoplayRuntime {
  readonly runState: { play: number; policySeed: number; autoplaySteps: number; timer: unknown };
  readonly timers: PlaybackTimers;
  command(command: SessionCommand, then?: (result: CommandResult) => void): void;
  /** Whether the session still has requests to answer (autoplay waits for them rather than queue more). */
  sessionPending(): boolean;
}
