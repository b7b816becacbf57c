/**
 * Virtual time to x (pure). The layout gives each step a slot (wider when it sent a command) so
 * events of the same millisecond never overlap; time between steps becomes a gap that grows with
 * the elapsed time up to a cap (a 6 s pause looks long, a day-long advance does not swallow the
 * view). It is built by appending, like the model: a new step lays out only itself (and the step
 * before it, which may have grown). Zoom multiplies x when it is read, so zooming costs nothing.
 */
import type { Moment, Span, TimelineModel } from './timeline-types';

export interface TimelineLayoutOptions {
  /** Width of a step that sent a Redis command (its mark needs room for text). */
  readonly commandStepPx: number;
  /** Width of any other step (a clock advance, a stall, a crash). */
  readonly plainStepPx: number;
  /** Space between two steps of the same millisecond. */
  readonly sameTimeGapPx: number;
  /** Space between steps at different times: gapPxMin + elapsed × pxPerMs, at most gapPxMax. */
  readonly gapPxMin: number;
  readonly gapPxMax: number;
  readonly pxPerMs: number;
  readonly padStartPx: number;
  readonly padEndPx: number;
}

const defaultLayoutOptions: TimelineLayoutOptions = {
  commandStepPx: 120,
  plainStepPx: 44,
  sameTimeGapPx: 6,
  gapPxMin: 28,
  gapPxMax: 220,
  pxPerMs: 0.03,
  padStartPx: 16,
  // Room after the last step for what is still going (open bands, their labels).
  padEndPx: 210,
};

interface StepSlot {
  readonly step: number;
  readonly atMs: number;
  readonly x0: number;
  readonly x1: number;
}

export interface TimeTick {
  readonly ms: number;
  readonly x: number;
  /** Draw the label (labels too close to the previous one are dropped). */
  readonly labeled: boolean;
  /** The time gap before this tick was shortened (drawn as an axis break). */
  readonly compressedBefore: boolean;
}

/** The layout at one zoom: every x it returns is already multiplied by `zoom`. */
export interface TimelineLayout {
  readonly zoom: number;
  readonly widthPx: number;
  readonly slotCount: number;
  slot(index: number): StepSlot | undefined;
  /** Right edge of the last step. */
  readonly runEndX: number;
  /** Width after the run's end given to what would happen next (a lease's expiry, a wake-up). */
  readonly tailPx: number;
  xOfSeq(seq: number): number;
  xOfMs(ms: number): number;
  xOf(m: Moment): number;
  /** Where the cursor line goes after `cursorStep` choices. */
  cursorX(cursorStep: number): number;
  /** Indexes [from, to) of the steps whose slots meet [x0, x1]. */
  stepRange(x0: number, x1: number): readonly [number, number];
  /** Time ticks in [x0, x1], labelled where a label has room (at least `labelSpacingPx` apart). */
  ticksIn(x0: number, x1: number, labelSpacingPx?: number): TimeTick[];
}

interface Part {
  atMs: number;
  seqs: number[];
  commandAt: number;
  x0: number;
  w: number;
  compressedBefore: boolean;
  newTime: boolean;
}

interface TimeGroup {
  ms: number;
  x0: number;
  x1: number;
}

/** Where the layout stood before a step, so the last step can be laid out again when it grows. */
interface StepStart {
  readonly partCount: number;
  readonly groupCount: number;
  readonly x: number;
  readonly prevMs: number | null;
}

export interface TimelineLayoutBuilder {
  /** Lays out the steps the model gained since the last call (the model of the same run, grown). */
  extend(model: TimelineModel): RawLayout;
}

/** The layout at zoom 1, shared by every zoom of it until the next `extend`. */
export interface RawLayout {
  readonly model: TimelineModel;
  readonly slots: readonly StepSlot[];
  readonly groups: readonly TimeGroup[];
  readonly xBySeq: ReadonlyMap<number, number>;
  readonly runEndX: number;
  readonly tailPx: number;
  readonly naturalWidthPx: number;
  readonly tailMs: number;
  readonly options: TimelineLayoutOptions;
}

export function createTimelineLayoutBuilder(options: Partial<TimelineLayoutOptions> = {}): TimelineLayoutBuilder {
  const o = { ...defaultLayoutOptions, ...options };
  const gapFor = (dtMs: number) => Math.min(o.gapPxMax, o.gapPxMin + dtMs * o.pxPerMs);
  const parts: Part[] = [];
  const slots: StepSlot[] = [];
  const starts: StepStart[] = [];
  const groups: TimeGroup[] = [];
  const xBySeq = new Map<number, number>();
  let x = o.padStartPx;
  let prevMs: number | null = null;
  let violationCount = 0;

  const openPart = (atMs: number): Part => {
    let compressedBefore = false;
    const newTime = prevMs === null || atMs > prevMs;
    if (prevMs !== null) {
      if (atMs > prevMs) {
        const dt = atMs - prevMs;
        compressedBefore = o.gapPxMin + dt * o.pxPerMs > o.gapPxMax;
        x += gapFor(dt);
      } else x += o.sameTimeGapPx;
    }
    prevMs = atMs;
    const part: Part = { atMs, seqs: [], commandAt: -1, x0: x, w: 0, compressedBefore, newTime };
    parts.push(part);
    return part;
  };

  const closePart = (part: Part) => {
    part.w = part.commandAt >= 0 ? o.commandStepPx : o.plainStepPx;
    x = part.x0 + part.w;
    // Events: x inside their part, the command in the middle, events before it to its left.
    const n = part.seqs.length;
    const c = part.commandAt;
    part.seqs.forEach((seq, k) => {
      let frac: number;
      if (c < 0) frac = 0.15 + (0.7 * (k + 0.5)) / n;
      else if (k === c) frac = 0.5;
      else if (k < c) frac = 0.08 + (0.3 * (k + 0.5)) / c;
      else frac = 0.62 + (0.3 * (k - c - 0.5)) / (n - c - 1);
      xBySeq.set(seq, part.x0 + frac * part.w);
    });
    if (part.newTime) groups.push({ ms: part.atMs, x0: part.x0, x1: x });
    else groups[groups.length - 1].x1 = x;
  };

  return {
    extend(model) {
      // The last step laid out may have gained events: lay it out again from where it began.
      const from = Math.max(0, Math.min(slots.length, model.steps.length) - 1);
      const start = starts[from];
      if (start) {
        parts.length = start.partCount;
        groups.length = start.groupCount;
        x = start.x;
        prevMs = start.prevMs;
      }
      slots.length = from;
      starts.length = from;
      for (let i = from; i < model.steps.length; i++) {
        const s = model.steps[i];
        starts.push({ partCount: parts.length, groupCount: groups.length, x, prevMs });
        // A step is cut into parts: a new part at each new time and at each further command, so
        // marks of one step that happened at different times, or several commands at one time, never overlap.
        const first = parts.length;
        let part: Part | null = null;
        s.seqs.forEach((seq, k) => {
          const atMs = s.times[k];
          if (part === null || atMs !== part.atMs || (s.isCommand[k] && part.commandAt >= 0)) {
            if (part !== null) closePart(part);
            part = openPart(atMs);
          }
          if (s.isCommand[k]) part.commandAt = part.seqs.length;
          part.seqs.push(seq);
        });
        part ??= openPart(s.atMs);
        closePart(part);
        slots.push({ step: s.step, atMs: s.atMs, x0: parts[first].x0, x1: x });
      }
      // Violations sit at their cause: those of the steps laid out again, and the new ones.
      const violations = model.violations;
      while (violationCount > 0 && violations[violationCount - 1].step >= from) violationCount--;
      for (; violationCount < violations.length; violationCount++) {
        const v = violations[violationCount];
        xBySeq.set(v.seq, xBySeq.get(v.causeSeq) ?? 0);
      }
      const runEndX = parts.length > 0 ? x : o.padStartPx;
      const tailMs = model.horizonMs - model.lastEventMs;
      const tailPx = tailMs > 0 ? gapFor(tailMs) : 0;
      return { model, slots, groups, xBySeq, runEndX, tailPx, tailMs, naturalWidthPx: runEndX + tailPx + o.padEndPx, options: o };
    },
  };
}

/** The layout of `raw` with every x multiplied by `zoom`, at least `minWidthPx` wide. */
export function zoomLayout(raw: RawLayout, zoom: number, minWidthPx = 0): TimelineLayout {
  const { slots, groups, xBySeq, tailMs } = raw;
  const padStartPx = raw.options.padStartPx;
  const runEndX = raw.runEndX * zoom;
  const tailPx = raw.tailPx * zoom;
  const widthPx = Math.max(raw.naturalWidthPx * zoom, minWidthPx);

  const slot = (index: number): StepSlot | undefined => {
    const s = slots[index];
    return s && { step: s.step, atMs: s.atMs, x0: s.x0 * zoom, x1: s.x1 * zoom };
  };

  const xOfMs = (ms: number): number => {
    if (groups.length === 0) return padStartPx * zoom;
    if (ms <= groups[0].ms) return groups[0].x0 * zoom;
    const last = groups[groups.length - 1];
    if (ms > last.ms) {
      if (tailMs <= 0) return runEndX;
      return runEndX + (Math.min(ms - last.ms, tailMs) / tailMs) * tailPx;
    }
    const index = lastAtOrBefore(groups.length, (i) => groups[i].ms <= ms);
    const g = groups[index];
    if (g.ms === ms) return g.x0 * zoom;
    const next = groups[index + 1];
    return (g.x1 + ((ms - g.ms) / (next.ms - g.ms)) * (next.x0 - g.x1)) * zoom;
  };

  const xOfSeq = (seq: number): number => (xBySeq.get(seq) ?? 0) * zoom;
  const xOf = (m: Moment): number => (m.runEnd ? runEndX : m.seq !== null && xBySeq.has(m.seq) ? xOfSeq(m.seq) : xOfMs(m.ms));

  const cursorX = (cursorStep: number): number => {
    if (slots.length === 0) return padStartPx * zoom;
    if (cursorStep <= 0) return Math.max(0, (slots[0].x0 - 6) * zoom);
    if (cursorStep > slots.length) return runEndX;
    const done = slots[cursorStep - 1].x1 * zoom;
    const next = slots[cursorStep];
    if (!next) return done + Math.min(6 * zoom, (widthPx - done) / 2);
    return done + Math.min(8 * zoom, (next.x0 * zoom - done) / 2);
  };

  const stepRange = (x0: number, x1: number): readonly [number, number] => {
    const from = lastAtOrBefore(slots.length, (i) => slots[i].x1 * zoom < x0) + 1;
    const to = lastAtOrBefore(slots.length, (i) => slots[i].x0 * zoom <= x1) + 1;
    return [from, Math.max(from, to)];
  };

  const ticksIn = (x0: number, x1: number, labelSpacingPx = 64): TimeTick[] => {
    const from = lastAtOrBefore(groups.length, (i) => groups[i].x0 * zoom < x0) + 1;
    const ticks: TimeTick[] = [];
    let lastLabelX = Number.NEGATIVE_INFINITY;
    for (let i = from; i < groups.length && groups[i].x0 * zoom <= x1; i++) {
      const g = groups[i];
      const x = g.x0 * zoom;
      const labeled = x - lastLabelX >= labelSpacingPx;
      if (labeled) lastLabelX = x;
      const prev = groups[i - 1];
      const compressedBefore = prev !== undefined && raw.options.gapPxMin + (g.ms - prev.ms) * raw.options.pxPerMs > raw.options.gapPxMax;
      ticks.push({ ms: g.ms, x, labeled, compressedBefore });
    }
    return ticks;
  };

  return { zoom, widthPx, slotCount: slots.length, slot, runEndX, tailPx, xOfSeq, xOfMs, xOf, cursorX, stepRange, ticksIn };
}

/** Lays out a whole model at once (export, tests). */
export function layoutTimeline(
  model: TimelineModel,
  options: Partial<TimelineLayoutOptions> & { readonly zoom?: number; readonly minWidthPx?: number } = {},
): TimelineLayout {
  return zoomLayout(createTimelineLayoutBuilder(options).extend(model), options.zoom ?? 1, options.minWidthPx ?? 0);
}

/**
 * The largest index i < count with `test(i)` true, for a test true on a prefix; -1 when none.
 * Binary search: the layout's lookups cost log(steps), never the run's length.
 */
function lastAtOrBefore(count: number, test: (i: number) => boolean): number {
  let lo = -1;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (test(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Items of a list in seq (so step) order whose step lies in [from, to). */
export function itemsInSteps<T extends { readonly step: number }>(list: readonly T[], from: number, to: number): readonly T[] {
  const first = lastAtOrBefore(list.length, (i) => list[i].step < from) + 1;
  const end = lastAtOrBefore(list.length, (i) => list[i].step < to) + 1;
  return first === 0 && end === list.length ? list : list.slice(first, end);
}

/** Spans, in start order, that meet [x0, x1]. Ends are in order too, but for a few overlaps (a stall over a wait). */
export function spansIn<S extends Span>(list: readonly S[], layout: TimelineLayout, x0: number, x1: number): readonly S[] {
  const last = lastAtOrBefore(list.length, (i) => layout.xOf(list[i].start) <= x1);
  const out: S[] = [];
  // Walk back from the last span that starts before x1; stop after a few that end before x0.
  let misses = 0;
  for (let i = last; i >= 0 && misses < 8; i--) {
    if (layout.xOf(list[i].end) >= x0) {
      out.push(list[i]);
      misses = 0;
    } else misses++;
  }
  return out.reverse();
}

