/**
 * Runs one exploration in slices, yielding between them so a cancel can arrive and progress can
 * be posted. Shared by the worker and the in-page fallback. Wall time is read here (progress and
 * the figure shown), never in the engine.
 */
import { createExploration, type Exploration } from '../../engine/explore';
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

/** Starts `request`; `yieldThen` schedules the next slice (a macrotask, so messages get in). */
export function runExploration(request: ExploreRequest, handlers: ExploreHandlers, yieldThen: (next: () => void) => void): RunningExploration {
  const startedMs = performance.now();
  let exploration: Exploration;
  try {
    exploration = createExploration({
      scenario: findScenario(request.scenarioId),
      variantId: request.variantId,
      seed: request.seed,
      bounds: request.bounds,
      invariants: request.invariants,
      offenders: request.offenders,
      stopAt: request.stopAt,
    });
  } catch (error) {
    handlers.onError(error instanceof Error ? error.message : String(error));
    return { id: request.id, cancel() {} };
  }
  let lastPostMs = startedMs;
  const slice = () => {
    try {
      const sliceStartMs = performance.now();
      let done = exploration.done;
      // Work for about one progress period per slice, then yield.
      while (!done && performance.now() - sliceStartMs < progressEveryMs) done = exploration.run(sliceTransitions);
      const nowMs = performance.now();
      if (done) {
        handlers.onDone({ id: request.id, result: exploration.result(), elapsedMs: nowMs - startedMs });
        return;
      }
      if (nowMs - lastPostMs >= progressEveryMs) {
        lastPostMs = nowMs;
        handlers.onProgress({ id: request.id, progress: exploration.progress(), elapsedMs: nowMs - startedMs });
      }
      yieldThen(slice);
    } catch (error) {
      handlers.onError(error instanceof Error ? error.message : String(error));
    }
  };
  handlers.onProgress({ id: request.id, progress: exploration.progress(), elapsedMs: 0 });
  yieldThen(slice);
  return {
    id: request.id,
    cancel() {
      exploration.cancel();
    },
  };
}
