/**
 * The session's change feed (tldraw's store history, read by its indexes): a reader remembers a
 * mark and asks what changed since. Within one generation the log only grows, so the answer is
 * the events appended with their steps' bounds; a cut, forked or replaced timeline starts a new
 * generation, and the answer is a reset (read the log again from its start).
 */
import type { RunProjection } from '../engine/projection';
import type { TraceEvent } from '../engine/trace';

/** An opaque position in the feed: hand it back to `changesSince`. */
export interface FeedMark {
  readonly generation: number;
  readonly eventCount: number;
  readonly stepCount: number;
}

/** Where one step's events lie in the log: `[firstEvent, endEvent)`. */
export interface StepBounds {
  readonly step: number;
  readonly firstEvent: number;
  readonly endEvent: number;
}

export type FeedChange =
  | {
      readonly kind: 'append';
      /** The events appended since the mark, in order (they sit at `[mark.eventCount, mark.eventCount + events.length)`). */
      readonly events: readonly TraceEvent[];
      /** The steps appended since the mark, with their events' bounds. */
      readonly steps: readonly StepBounds[];
      readonly mark: FeedMark;
    }
  | { readonly kind: 'reset'; readonly mark: FeedMark };

export function markOf(projection: RunProjection): FeedMark {
  return { generation: projection.generation, eventCount: projection.eventCount, stepCount: projection.stepCount };
}

/** What `projection` gained since `mark`: appended events and steps, or a reset for another generation. */
export function changesOf(projection: RunProjection, mark: FeedMark): FeedChange {
  const now = markOf(projection);
  if (mark.generation !== now.generation || mark.eventCount > now.eventCount || mark.stepCount > now.stepCount) return { kind: 'reset', mark: now };
  const steps: StepBounds[] = [];
  for (let step = mark.stepCount; step < now.stepCount; step++) {
    steps.push({ step, firstEvent: projection.firstEventOfStep(step), endEvent: projection.firstEventOfStep(step + 1) });
  }
  return { kind: 'append', events: projection.events.slice(mark.eventCount, now.eventCount), steps, mark: now };
}
