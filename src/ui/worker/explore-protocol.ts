/**
 * What the page asks the explorer worker and what it answers (docs/EXPLORER.md). The worker owns
 * this protocol; the store uses it. Results are the engine's plain ExploreResult.
 */
import type { ScenarioDefinition } from '../../definition';
import type { BoundsOverrides, ExploreProgress, ExploreResult, ShardFile, ShardSpec } from '../../engine/explore';
import type { ViolationKind } from '../../engine/trace';

export type { BoundsOverrides, ExploreProgress, ExploreResult };

export interface ExploreRequest {
  readonly id: number;
  readonly scenarioId: string;
  /** The definition of a scenario that is not built in (an edited copy, the user's own): searched in its place. */
  readonly definition?: ScenarioDefinition;
  readonly variantId: string;
  readonly seed: number;
  readonly bounds: BoundsOverrides;
  /** Kinds to look for; all when absent. */
  readonly invariants?: readonly ViolationKind[];
  /** Only violations whose clients start with these, offender first; any when absent. */
  readonly offenders?: readonly string[];
  /** Stop at the first violation found (what a challenge's "shortest way" needs). */
  readonly stopAt?: 'first' | 'all';
  /** Search only this shard (0-based index of count): one of the page's parallel workers. */
  readonly shard?: ShardSpec;
}

/** A running search's figures, with the wall time it has taken so far (measured in the worker). */
export interface ExploreProgressReport {
  readonly id: number;
  readonly progress: ExploreProgress;
  readonly elapsedMs: number;
}

export interface ExploreDone {
  readonly id: number;
  readonly result: ExploreResult;
  readonly elapsedMs: number;
  /** A shard's file for the merge (requests with `shard`). */
  readonly shardFile?: ShardFile;
}

export type ExploreWorkerMessage =
  | ({ readonly kind: 'progress' } & ExploreProgressReport)
  | ({ readonly kind: 'done' } & ExploreDone)
  | { readonly kind: 'error'; readonly id: number; readonly message: string };

export type ExploreCommandMessage = { readonly kind: 'start'; readonly request: ExploreRequest } | { readonly kind: 'cancel'; readonly id: number };

export interface ExploreHandlers {
  onProgress(report: ExploreProgressReport): void;
  onDone(done: ExploreDone): void;
  onError(message: string): void;
}

/** Runs one search at a time off the page's thread; starting another cancels the one running. */
export interface ExploreService {
  start(request: ExploreRequest, handlers: ExploreHandlers): void;
  /** Stops the running search; its handlers get a `done` with the result so far (cut: cancelled). */
  cancel(id: number): void;
  dispose(): void;
}
