/**
 * The plain data the store publishes for components, and the shapes of its inputs. Components
 * import these (and store/published.ts), never the engine.
 */
import type { MessageRef } from '../../i18n';
import type { LocalizedText } from '../../engine/program';
import type { RunProjection } from '../../engine/projection';
import type { TraceEvent } from '../../engine/trace';
import type { ChallengeSpec, ChallengeStatus } from '../../engine/learn/challenge';
import type { QuestionSpec } from '../../engine/learn/question';
import type { ScenarioDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import type { Choice } from '../../engine/schedule';

export type { ChallengeSpec, ChallengeStatus, QuestionSpec };

/** A text of the scenario's own (title, lesson, narration, a step's note): per-scenario content. */
export type { LocalizedText };

/** The run's clients and keys as the session derives them (src/session/views.ts). */
export type { ClientView, KeyView } from '../../session/views';

/** A message for the user, translated when shown (so it follows a language switch). */
export type Notice = MessageRef & { readonly tone: 'info' | 'warning' };

export type LinkErrorReason =
  | 'too-long'
  | 'bad-format'
  | 'bad-version'
  | 'unknown-scenario'
  | 'unknown-variant'
  | 'bad-seed'
  | 'bad-schedule'
  | 'schedule-does-not-fit'
  | 'bad-cursor'
  | 'unknown-challenge'
  /** The scenario a link carries (`def=`) is not a valid definition: `detail` lists the problems with their paths. */
  | 'bad-definition'
  /** The run was still being replayed when Stop was pressed: the run on screen is the one before. */
  | 'stopped';

/** Why a link (or a `lockstep.load`) was refused. */
export interface LinkError {
  readonly reason: LinkErrorReason;
  /** The offending piece, already cut to a safe length; shown as text, never as markup. */
  readonly detail: string;
  /**
   * Set when the refused run is the one this browser saved (not a link someone opened): its whole
   * text, kept so the reader can copy it; nothing saved is lost silently.
   */
  readonly savedText?: string;
  /** The refusal left the run on screen as it was (a link opened in a tab already at work). */
  readonly keptCurrent?: boolean;
}

export type Theme = 'light' | 'dark';

/**
 * The last run this browser saved: nothing, its share hash (validated like any link), or text
 * that cannot be a run (edited by hand, cut short, written by something else).
 */
export type SavedRun =
  | { readonly kind: 'none' }
  | { readonly kind: 'hash'; readonly hash: string }
  | { readonly kind: 'unreadable'; readonly text: string };

/** A scenario as the picker lists it. */
export interface ScenarioSummary {
  readonly id: string;
  readonly title: LocalizedText;
  readonly summary: LocalizedText;
  /** Its variants' titles (lessons that link to a variant name it). */
  readonly variants: readonly { readonly id: string; readonly title: LocalizedText }[];
}

/** One line of a client's program, as its lane shows it. */
export interface ProgramLine {
  readonly pc: number;
  readonly label: string | undefined;
  readonly code: string;
  readonly note: LocalizedText | undefined;
  readonly redis: boolean;
  /** Lua source lines of an EVAL step, shown under it. */
  readonly lua: readonly string[] | null;
  readonly scriptName: string | null;
}

/** What the page shows of the current scenario and variant; changes only when the run is replaced. */
export interface RunInfo {
  readonly scenarioId: string;
  readonly title: LocalizedText;
  readonly summary: LocalizedText;
  readonly lesson: LocalizedText;
  readonly variants: readonly { readonly id: string; readonly title: LocalizedText }[];
  /** What the variants differ in ("Release method", "Lease renewal"): the variant group's label. */
  readonly variantLabel: LocalizedText;
  /** The lesson's challenges (src/scenarios/learning.ts). */
  readonly challenges: readonly ChallengeSpec[];
  /** Predict-then-reveal questions asked before steps of the scenario's own schedule, for this variant. */
  readonly questions: readonly QuestionSpec[];
  /** The scripted narration by step (0-based), the variant's own lines first. */
  readonly story: ReadonlyMap<number, LocalizedText>;
  readonly programs: Readonly<Record<string, readonly ProgramLine[]>>;
  /** Script source -> name, so an EVAL reads by its script's name. */
  readonly scriptNames: Readonly<Record<string, string>>;
  /** The same for every variant (variant id -> source -> name): the variant comparison names each run's scripts. */
  readonly variantScriptNames: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Why the explorer's declared bounds for this scenario are what they are (docs/EXPLORER.md). */
  readonly exploreNote: LocalizedText | null;
  /** The Redis nodes as the scenario starts (empty with one node); the node rows and controls follow them. */
  readonly nodeIds: readonly string[];
  /** The simulated Redis is a Redis Cluster (its keys' hash slots matter): the replay needs `--cluster`. */
  readonly redisCluster: boolean;
  /** Redlock: how many nodes make a majority (the scenario's `quorum` param), else null. */
  readonly quorum: number | null;
}

/** Wall-clock timers for the playback driver (the only wall time Lockstep reads). Injected for tests. */
export interface PlaybackTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/**
 * The run as an append-only log, published per change in O(1) (no copy of the events). Within one
 * `generation` every array only grows, so a consumer that remembers `eventCount` extends its own
 * model by `events[eventCount..]`; a new generation means the timeline was cut or replaced
 * (fork, variant, seed, loaded run): rebuild.
 */
export interface RunLog {
  readonly generation: number;
  /** Append-only within the generation: read `[0, eventCount)`. */
  readonly events: readonly TraceEvent[];
  readonly eventCount: number;
  /** Choices in the timeline (past and future of the cursor). */
  readonly stepCount: number;
  /** Lanes per client, lock intervals, key history and step boundaries, extended per step (read-only). */
  readonly projection: RunProjectionView;
}

/** The projection's read side. */
export type RunProjectionView = Pick<
  RunProjection,
  'generation' | 'events' | 'choices' | 'eventCount' | 'stepCount' | 'schedule' | 'violations' | 'lockIntervals' | 'openLock' | 'lane' | 'keyHistory' | 'firstEventOfStep' | 'eventsOfStep' | 'violationCountBefore'
>;

/**
 * Where the user's own scenarios are stored (localStorage in the page, a Map in tests): text in,
 * text out; store/my-scenarios.ts reads and writes the document.
 */
export interface MyScenarioStorage {
  read(): string | null;
  /** Writes the document; returns why it could not (quota, forbidden storage), or null. */
  write(text: string): string | null;
  /** Keeps what could not be read, whole, apart from the list (never overwritten by it). */
  keepAside(entries: readonly { readonly text: string; readonly reason: string }[]): void;
  /** Calls back when another tab changed the stored document; returns the unsubscribe. */
  subscribe(onChange: () => void): () => void;
}

/** A run to load: a scenario (built-in or from a definition), its variant, seed, schedule and cursor. */
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
