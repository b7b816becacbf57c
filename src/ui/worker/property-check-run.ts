/**
 * Judges a definition's properties in slices, one breadth-first search per property (as
 * `withProperties` does in one go), yielding between slices so a cancel can arrive and progress
 * can be posted. Shared by the worker and the in-page fallback; wall time is read here, never in
 * the engine.
 */
import { formatProblems, parseDefinition } from '../../definition';
import { createExploration, propertyScenario, propertyVerdict, resolveBounds, type Exploration, type PropertyVerdict } from '../../engine/explore';
import { PROPERTY_VIOLATION_KIND } from '../../engine/trace';
import type { PropertyCheckHandlers, PropertyCheckRequest } from './property-check-protocol';

/** Moves per slice, and wall ms of work between two yields (a cancel is seen within about that). */
const sliceTransitions = 200;
const sliceMs = 100;

export interface RunningPropertyCheck {
  readonly id: number;
  cancel(): void;
}

/** Starts `request`; `yieldThen` schedules the next slice (a macrotask, so messages get in). */
export function runPropertyCheck(request: PropertyCheckRequest, handlers: PropertyCheckHandlers, yieldThen: (next: () => void) => void): RunningPropertyCheck {
  const startedMs = performance.now();
  const parsed = parseDefinition(request.definition);
  if (!parsed.ok) {
    handlers.onError(formatProblems(parsed.problems));
    return { id: request.id, cancel() {} };
  }
  const scenario = parsed.scenario;
  const properties = scenario.properties ?? [];
  const verdicts: PropertyVerdict[] = [];
  let current: Exploration | null = null;
  let cancelled = false;
  let bounds: ReturnType<typeof resolveBounds>;
  try {
    bounds = resolveBounds(scenario, request.bounds);
  } catch (error) {
    handlers.onError(error instanceof Error ? error.message : String(error));
    return { id: request.id, cancel() {} };
  }
  const searchOf = (index: number): Exploration =>
    createExploration({ scenario: propertyScenario(scenario, properties[index]), variantId: request.variantId, seed: request.seed, bounds: request.bounds, invariants: [PROPERTY_VIOLATION_KIND], stopAt: 'first' });
  const slice = () => {
    try {
      const sliceStartMs = performance.now();
      while (verdicts.length < properties.length && performance.now() - sliceStartMs < sliceMs) {
        const index = verdicts.length;
        current ??= searchOf(index);
        if (cancelled) current.cancel();
        if (!current.run(sliceTransitions)) continue;
        verdicts.push(propertyVerdict(properties[index], current.result()));
        current = null;
        // A cancelled check ends with the property it was on (its cut says cancelled).
        if (cancelled) break;
      }
      if (verdicts.length === properties.length || cancelled) {
        handlers.onDone({ id: request.id, verdicts, bounds, elapsedMs: performance.now() - startedMs });
        return;
      }
      handlers.onProgress({ id: request.id, index: verdicts.length, count: properties.length, statesExplored: current?.progress().statesExplored ?? 0 });
      yieldThen(slice);
    } catch (error) {
      handlers.onError(error instanceof Error ? error.message : String(error));
    }
  };
  handlers.onProgress({ id: request.id, index: 0, count: properties.length, statesExplored: 0 });
  yieldThen(slice);
  return {
    id: request.id,
    cancel() {
      cancelled = true;
    },
  };
}
