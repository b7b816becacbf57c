import type { ViolationKind } from '../../engine/trace';
import type { BlockReason, ClientStatus } from '../../engine/world';
import type { RedisType } from '../../engine/redis/keyspace';
import type { StringKey, Params } from '../i18n';

/** One client as the lanes show it: plain, compared field by field so unchanged lanes keep their object. */
export interface ClientView {
  readonly id: string;
  /** 0-based position: colour, number key. */
  readonly index: number;
  readonly pc: number;
  readonly status: ClientStatus;
  readonly blockReason: BlockReason | null;
  /** While blocked: when the wait ends; null for a wait with no end (a hang). */
  readonly blockedUntilMs: number | null;
  /** Its process is frozen by a stall until this time (null: running). */
  readonly stalledUntilMs: number | null;
  readonly inCriticalSection: boolean;
  readonly believesHoldsLock: boolean;
  readonly token: string;
  readonly live: boolean;
}

export type KeyChange = 'created' | 'changed' | 'deleted' | 'expired' | null;

/** One key as the inspector shows it, with how it changed since the previous step. */
export interface KeyView {
  readonly key: string;
  readonly type: RedisType;
  /** Value as text (hash fields `f=v`, lists `[a, b]`), cut for display. */
  readonly text: string;
  /** The client whose token this value is (or contains), or null. */
  readonly tokenOwner: string | null;
  readonly expireAtMs: number | null;
  readonly change: KeyChange;
}

/** A message for the user, translated when shown. */
export interface Notice {
  readonly key: StringKey;
  readonly params?: Params;
  readonly tone: 'info' | 'warning';
}

/** What one variant does under the current schedule (computed in the worker). */
export interface VariantOutcome {
  readonly variantId: string;
  /** Choices that applied before the schedule stopped fitting (== stepCount when all did). */
  readonly stepsApplied: number;
  readonly stepCount: number;
  /** Why the replay stopped early (the ChoiceError message), or null. */
  readonly stopReason: string | null;
  readonly violations: readonly { readonly kind: ViolationKind; readonly step: number; readonly message: string; readonly clients: readonly string[] }[];
  /** First step (0-based) whose lock state or violations differ from the base variant's; null if none. */
  readonly firstDivergentStep: number | null;
  readonly commandCount: number;
}

export interface OutcomeRequest {
  readonly id: number;
  readonly scenarioId: string;
  readonly seed: number;
  readonly schedule: string;
  readonly baseVariantId: string;
}

export interface OutcomeReport {
  readonly id: number;
  readonly scenarioId: string;
  readonly seed: number;
  readonly schedule: string;
  readonly baseVariantId: string;
  readonly outcomes: readonly VariantOutcome[];
  /** Where the replays ran: 'worker' (a dedicated Web Worker) or 'page' (fallback). */
  readonly ranIn: 'worker' | 'page';
  /** Redis commands executed to compute this report. */
  readonly commandCount: number;
}

/** Computes variant outcomes off the page's thread. Only the latest request matters. */
export interface OutcomeService {
  request(request: OutcomeRequest, onReport: (report: OutcomeReport) => void): void;
  dispose(): void;
}

/** Wall-clock timers for the playback driver (the only wall time Lockstep reads). Injected for tests. */
export interface PlaybackTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}
