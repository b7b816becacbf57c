/**
 * What the page asks the outcome worker and what it answers: every variant of the current
 * scenario replayed under the current schedule. The worker owns this protocol; the store uses it.
 */
import type { ScenarioDefinition } from '../../definition';
import type { TraceEvent, ViolationKind } from '../../engine/trace';

/** Where a variant's run first differs from the base variant's (engine/divergence.ts). */
export interface OutcomeDivergence {
  /** 0-based step (choice) of the first event that differs. */
  readonly step: number;
  /** That event in this variant's run, and in the base's; null where a run has none (it stopped, or did less). */
  readonly event: TraceEvent | null;
  readonly baseEvent: TraceEvent | null;
}

/** What one variant does under the current schedule (computed in the worker). */
export interface VariantOutcome {
  readonly variantId: string;
  /** Choices that applied before the schedule stopped fitting (== stepCount when all did). */
  readonly stepsApplied: number;
  readonly stepCount: number;
  /** Why the replay stopped early (the ChoiceError message), or null. */
  readonly stopReason: string | null;
  /** The same without its step ("cannot step A: it has finished"), or null. */
  readonly stopDetail: string | null;
  readonly violations: readonly { readonly kind: ViolationKind; readonly step: number; readonly message: string; readonly clients: readonly string[] }[];
  /** First step (0-based) with an event that differs from the base variant's run; null if none (`divergence.step`). */
  readonly firstDivergentStep: number | null;
  /** The first differing event of both runs; null for the base itself and for a run the same as the base's. */
  readonly divergence: OutcomeDivergence | null;
  readonly commandCount: number;
}

export interface OutcomeRequest {
  readonly id: number;
  readonly scenarioId: string;
  readonly seed: number;
  readonly schedule: string;
  readonly baseVariantId: string;
  /** The scenario as a definition when it is not a built-in (loaded with `lockstep.load({ definition })`). */
  readonly definition?: ScenarioDefinition;
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
