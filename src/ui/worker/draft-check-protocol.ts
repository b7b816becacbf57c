/**
 * What the page asks the draft-check worker and what it answers. An edited scenario runs in the
 * worker before it runs on the page: a script that only a budget stops (an endless loop) keeps a
 * thread busy for seconds, and that thread must not be the page's.
 */
import type { ScenarioDefinition } from '../../definition';

export interface DraftCheckRequest {
  readonly id: number;
  readonly definition: ScenarioDefinition;
  readonly seed: number;
  /** The schedule the page will replay the draft under (every variant). */
  readonly schedule: string;
  /** The variant whose replay must take the whole schedule (an import never loads half a run): reported as `misfit`. */
  readonly fitVariant?: string;
}

/** A script the work or memory budget stopped while a variant replayed the schedule. */
export interface DraftBudgetStop {
  readonly variantId: string;
  /** 0-based schedule step. */
  readonly step: number;
  readonly clientId: string | null;
  /** Redis's error text as the client got it (`ERR Script exceeded Lockstep's work budget ...`). */
  readonly message: string;
}

export interface DraftCheckReport {
  readonly id: number;
  /** Empty when every variant ran the schedule with no script stopped by a budget. */
  readonly stops: readonly DraftBudgetStop[];
  /** The definition did not validate or a replay failed unexpectedly (text for the user). */
  readonly failure: string | null;
  /** Why `fitVariant` could not replay the whole schedule (the choice that did not fit), or absent. */
  readonly misfit?: string;
}

/** Runs draft checks off the page's thread; a newer check replaces one in flight. */
export interface DraftCheckService {
  check(request: DraftCheckRequest): Promise<DraftCheckReport>;
  dispose(): void;
}
