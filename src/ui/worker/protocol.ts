/**
 * What the page asks the outcome worker and what it answers: every variant of the current
 * scenario replayed under the current schedule. The worker owns this protocol; the store uses it.
 */
import type { ScenarioDefinition } from '../../definition';
import type { VariantOutcome } from '../../engine/variant-outcomes';

export type { OutcomeDivergence, VariantOutcome } from '../../engine/variant-outcomes';

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
