/**
 * Runs one exploration in slices, yielding between them so a cancel can arrive and progress can
 * be posted. Shared by the worker and the in-page fallback. Wall time is read here (progress and
 * the figure shown), never in the engine.
 */
import { createExploration, createShardExploration, type Exploration, type ExploreProgress, type ShardFile, type ShardTally } from '../../engine/explore';
import { formatProblems, parseDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import { findScenario } from '../../scenarios';
import type { ExploreHandlers, ExploreRequest } from './explore-protocol';

/** Moves per slice: small enough that a cancel is seen within a few tens of milliseconds. */
const sliceTransitions = 200;
/** How often progress is posted (wall ms). */
const progressEveryMs = 100;

export interface RunningExploration {
  readonly id: number;
  cancel(): void;
}

/** The request's scenario: its definition when it has one (checked again: a worker trusts no message), else the built-in. */
function scenarioOf(request: ExploreRequest): Scenario {
  if (request.definition === undefined) return findScenario(request.scenarioId);
  const parsed = parseDefinition(request.definition);
  if (!parsed.ok) throw new Error(`the definition is not valid: ${formatProblems(parsed.problems)}`);
  return parsed.scenario;
}

/** Starts `request`; `yieldThen` schedules the next slice (a macrotask, so messages get in). */
export function runExploration(request: ExploreRequest, handlers: ExploreHandlers, yieldThen: (next: () => void) => void): RunningExploration {
  const startedMs = performance.now();
  let exploration: Exploration;
  // A shard reports only its share of the progress (shardShare) and ends with its file for the merge.
  let shard: { readonly file: () => ShardFile; readonly share: () => ExploreProgress } | null = null;
  try {
    const options = {
      scenario: scenarioOf(request),
      variantId: request.variantId,
      seed: request.seed,
      bounds: request.bounds,
      invariants: request.invariants,
      offenders: request.offenders,
      stopAt: request.stopAt,
    };
    if (request.shard === undefined) exploration = createExploration(options);
    else {
      const { search, file } = createShardExploration({ ...options, shard: request.shard });
      exploration = search;
      const index = request.shard.index;
      shard = { file, share: () => shardShare(search.progress(), search.shardTally(), index) };
    }
  } catch (error) {
    handlers.onError(error instanceof Error ? error.message : String(error));
    return { id: request.id, cancel() {} };
  }
  const progressNow = () => (shard === null ? exploration.progress() : shard.share());
  let lastPostMs = startedMs;
  const slice = () => {
    try {
      const sliceStartMs = performance.now();
      let done = exploration.done;
      // Work for about one progress period per slice, then yield.
      while (!done && performance.now() - sliceStartMs < progressEveryMs) done = exploration.run(sliceTransitions);
      const nowMs = performance.now();
      if (done) {
        handlers.onDone({ id: request.id, result: exploration.result(), elapsedMs: nowMs - startedMs, ...(shard === null ? {} : { shardFile: shard.file() }) });
        return;
      }
      if (nowMs - lastPostMs >= progressEveryMs) {
        lastPostMs = nowMs;
        handlers.onProgress({ id: request.id, progress: progressNow(), elapsedMs: nowMs - startedMs });
      }
      yieldThen(slice);
    } catch (error) {
      handlers.onError(error instanceof Error ? error.message : String(error));
    }
  };
  handlers.onProgress({ id: request.id, progress: progressNow(), elapsedMs: 0 });
  yieldThen(slice);
  return {
    id: request.id,
    cancel() {
      exploration.cancel();
    },
  };
}

/**
 * What one shard adds to the search's progress. Every shard searches the levels before the split
 * alike (shard.ts): shard 0 counts them, the others count only what they did past the split. A
 * state two shards reach past the split counts twice here; the merged result counts it once.
 */
function shardShare(progress: ExploreProgress, tally: ShardTally | null, index: number): ExploreProgress {
  if (index === 0 || tally === null) return progress;
  if (tally.splitDepth === null) return { ...progress, statesExplored: 0, transitionsExplored: 0, frontier: 0, violationsFound: 0 };
  return { ...progress, statesExplored: progress.statesExplored - tally.prefix.states, transitionsExplored: progress.transitionsExplored - tally.prefix.transitions };
}
