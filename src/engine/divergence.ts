/**
 * Where two runs of one schedule part ways: the first event that differs between two variants'
 * traces (the page's variant comparison, the CLI's `explore --compare-variants`).
 *
 * Two events are the **same** when they are equal in every field except `seq` and `pc`: what
 * happened, in which step, at what virtual time, to which client, with which command and reply,
 * and the lock before and after. `seq` only counts events, and `pc` is a position in a program,
 * which two variants number differently even where they do the same thing (a variant with one
 * more step before its release). The step index stays in: both runs replay the same schedule, so
 * step i is choice i in both, and an event that moved to another choice is a difference.
 */
import type { TraceEvent } from './trace';

/** A run as far as it got: its events in order and how many schedule choices applied. */
export interface RunEvents {
  readonly events: readonly TraceEvent[];
  readonly stepCount: number;
}

/** The first difference between runs `a` and `b`. */
export interface Divergence {
  /** 0-based step (choice) of the first difference: at most both runs' step counts. */
  readonly step: number;
  /** Index (in both event lists) of the first event that differs. */
  readonly eventIndex: number;
  /** That event in each run; null where the run has no event there (it stopped, or its step did less). */
  readonly a: TraceEvent | null;
  readonly b: TraceEvent | null;
}

/** Fields that say where an event sits, not what happened (see the module comment). */
const ignored = new Set(['seq', 'pc']);

function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x)) {
    const ys = y as unknown[];
    return x.length === ys.length && x.every((item, i) => sameValue(item, ys[i]));
  }
  const xr = x as Record<string, unknown>;
  const yr = y as Record<string, unknown>;
  const keys = Object.keys(xr).filter((k) => xr[k] !== undefined);
  if (keys.length !== Object.keys(yr).filter((k) => yr[k] !== undefined).length) return false;
  return keys.every((k) => Object.hasOwn(yr, k) && sameValue(xr[k], yr[k]));
}

/** Whether two events are the same (every field but `seq` and `pc`). */
export function sameEvent(a: TraceEvent, b: TraceEvent): boolean {
  if (a === b) return true;
  const ar = a as unknown as Record<string, unknown>;
  const br = b as unknown as Record<string, unknown>;
  const keys = Object.keys(ar).filter((k) => !ignored.has(k) && ar[k] !== undefined);
  if (keys.length !== Object.keys(br).filter((k) => !ignored.has(k) && br[k] !== undefined).length) return false;
  return keys.every((k) => Object.hasOwn(br, k) && sameValue(ar[k], br[k]));
}

/**
 * The first event where `a` and `b` differ, or null when the runs are the same event for event
 * and step for step. `agreed` is how many leading events the caller already knows to be the
 * same (it skips them: an incremental caller compares only what changed). When every event
 * matches but one run applied more choices, they differ at the shorter one's end.
 */
export function firstDivergence(a: RunEvents, b: RunEvents, agreed = 0): Divergence | null {
  const shared = Math.min(a.events.length, b.events.length);
  let i = Math.max(0, Math.min(agreed, shared));
  while (i < shared && sameEvent(a.events[i], b.events[i])) i++;
  const stepsMin = Math.min(a.stepCount, b.stepCount);
  const ea = a.events[i] ?? null;
  const eb = b.events[i] ?? null;
  if (ea === null && eb === null) {
    return a.stepCount === b.stepCount ? null : { step: stepsMin, eventIndex: i, a: null, b: null };
  }
  const step = Math.min(ea?.step ?? Infinity, eb?.step ?? Infinity, stepsMin);
  return { step, eventIndex: i, a: ea, b: eb };
}

/** How many leading events the two runs share (the `agreed` of the next call), from a divergence. */
export function agreedEvents(a: RunEvents, b: RunEvents, divergence: Divergence | null): number {
  return divergence === null ? Math.min(a.events.length, b.events.length) : divergence.eventIndex;
}
