/**
 * What the timeline draws, derived from a whole run's events (pure, no React, no DOM).
 *
 * The lesson of a lock scenario is a disagreement between two truths: who Redis says holds the
 * lock (the value's writer, until it is deleted, overwritten or expires) and who believes it holds
 * the lock (from entering the critical section until its release command, a crash or the end).
 * This model builds both as bands, plus what each client did (commands, waits) and where checkers
 * reported violations, and a layout that turns virtual time into x without letting several events
 * of the same millisecond overlap.
 */
import type { Reply, TraceEvent, ViolationKind } from '../store/published';
import { commandParts, replyParts, tokenSplitter, type TextPart } from './text-parts';

/**
 * A point of the run: an event (`seq`), a pure time (`seq: null`, e.g. an expiry nobody observed
 * at that instant), or the end of the run (`runEnd`). Pure times come before the events of the
 * same millisecond: a key that expires at t=8000 is already gone for a command at t=8000.
 */
export interface Moment {
  readonly ms: number;
  readonly seq: number | null;
  readonly runEnd?: true;
}

export interface Span {
  readonly start: Moment;
  readonly end: Moment;
  /** Still going when the run's last event happened. */
  readonly open: boolean;
}

export interface CommandMark {
  readonly seq: number;
  readonly step: number;
  readonly atMs: number;
  readonly clientId: string;
  /** Upper-case command name: SET, GET, DEL, EVAL. */
  readonly verb: string;
  /** The key it touches, when there is one (EVAL's first key). */
  readonly key: string | null;
  readonly command: readonly TextPart[];
  readonly reply: readonly TextPart[];
  readonly replyType: Reply['type'];
  /** When the reply reached the client, if later than the command (a slow script). */
  readonly replyAtMs: number | null;
  readonly releases: boolean;
  /** The command changed the lock's value (acquired, deleted, overwrote). */
  readonly changedLock: boolean;
  /** Violations this command caused (their seqs). */
  readonly violationSeqs: readonly number[];
}

/** Why a client waits (the engine's reasons), or `stall`: its process is frozen by a fault. */
export type BlockReason = 'work' | 'sleep' | 'retry' | 'hang' | 'reply' | 'busy' | 'network' | 'stall';

export interface BlockSpan extends Span {
  readonly seq: number;
  readonly step: number;
  readonly clientId: string;
  readonly reason: BlockReason;
  /** How long the wait was meant to take; null for a wait with no end (a hang). */
  readonly durationMs: number | null;
  /** When it was due to end; null for a wait with no end. */
  readonly untilMs: number | null;
  /** Cut short by a crash. */
  readonly cut: boolean;
  /** How much later than due it ended (a stall held it), in ms. */
  readonly lateMs: number;
}

export type PointKind = 'enter' | 'leave' | 'end' | 'crash' | 'give-up' | 'write' | 'mark';

export interface ClientPoint {
  readonly kind: PointKind;
  readonly seq: number;
  readonly step: number;
  readonly atMs: number;
  readonly clientId: string;
  /** write: the value (tokens marked) and whether it was accepted; mark: the count; give-up: attempts. */
  readonly detail: readonly TextPart[];
  readonly rejected: boolean;
}

export type BeliefEnd = 'released' | 'crashed' | 'ended' | 'open';

/** "Client X believes it holds the lock": from entering the critical section to its release. */
export interface BeliefBand extends Span {
  readonly clientId: string;
  readonly endReason: BeliefEnd;
}

/** Part of a belief during which Redis says someone else (or nobody) holds the lock. */
export interface StaleBelief extends Span {
  readonly clientId: string;
  readonly redisHolder: string | null;
}

export type HolderEnd = 'expired' | 'deleted' | 'overwritten' | 'open';

/** "Redis says X holds the lock": the lock key holds a value X's command wrote. */
export interface HolderBand extends Span {
  /** The client whose command wrote the value; null when it was written outside the clients. */
  readonly holder: string | null;
  readonly value: readonly TextPart[];
  readonly endReason: HolderEnd;
  /** The client whose command ended it (deleted, overwritten). */
  readonly endedBy: string | null;
}

/** One lease: the lock's expiry as set by a command, until it expires or is cut. */
export interface TtlBar extends Span {
  readonly holder: string | null;
  /** null: the key has no expiry (PTTL -1). */
  readonly expireAtMs: number | null;
  readonly cut: 'deleted' | 'overwritten' | 'renewed' | null;
  /** The expiry lies after the run's last event: drawn as what would happen next. */
  readonly projected: boolean;
}

export interface ViolationMarker {
  readonly seq: number;
  readonly step: number;
  readonly causeSeq: number;
  readonly at: Moment;
  readonly kind: ViolationKind;
  readonly message: string;
  readonly clients: readonly string[];
  /** foreign-release: the lock was deleted (not overwritten). */
  readonly deleted: boolean;
}

export interface ClockMark {
  readonly seq: number;
  readonly step: number;
  readonly atMs: number;
  readonly fromMs: number;
  readonly toMs: number;
  readonly reason: 'advance' | 'wait';
  readonly clientId: string | null;
}

export interface ClientRow {
  readonly clientId: string;
  readonly commands: readonly CommandMark[];
  readonly blocks: readonly BlockSpan[];
  readonly points: readonly ClientPoint[];
  readonly beliefs: readonly BeliefBand[];
  readonly criticalSections: readonly Span[];
  readonly staleBeliefs: readonly StaleBelief[];
}

export interface StepInfo {
  readonly step: number;
  readonly atMs: number;
  /** Events of the step in order, violations left out (they sit at their cause). */
  readonly seqs: readonly number[];
  /** Virtual time of each event in `seqs` (a step that lets time pass spans several times). */
  readonly times: readonly number[];
  /** Which events in `seqs` are Redis commands. */
  readonly isCommand: readonly boolean[];
}

export interface TimelineModel {
  readonly clientIds: readonly string[];
  readonly rows: readonly ClientRow[];
  readonly holders: readonly HolderBand[];
  readonly ttlBars: readonly TtlBar[];
  readonly violations: readonly ViolationMarker[];
  readonly clocks: readonly ClockMark[];
  readonly steps: readonly StepInfo[];
  readonly firstMs: number;
  readonly lastEventMs: number;
  /** Latest time the drawing needs: the last event, or a pending expiry or wake-up after it. */
  readonly horizonMs: number;
  readonly eventCount: number;
}

const RUN_END: Moment = { ms: Number.POSITIVE_INFINITY, seq: null, runEnd: true };
/** The reply of a command whose answer comes later (a slow script), until its `reply` event. */
const PENDING_REPLY: readonly TextPart[] = ['…'];

/** Orders moments: by time, pure times before the events of their millisecond, the run's end last. */
export function compareMoments(a: Moment, b: Moment): number {
  if (a.runEnd || b.runEnd) return (a.runEnd ? 1 : 0) - (b.runEnd ? 1 : 0);
  if (a.ms !== b.ms) return a.ms - b.ms;
  return (a.seq ?? -1) - (b.seq ?? -1);
}

function at(e: TraceEvent): Moment {
  return { ms: e.atMs, seq: e.seq };
}

interface OpenHolder {
  holder: string | null;
  value: string;
  start: Moment;
  expireAtMs: number | null;
}

interface OpenTtl {
  holder: string | null;
  start: Moment;
  expireAtMs: number | null;
}

/** Builds the timeline model of a whole run. O(events); call once per run, not per step. */
export function buildTimelineModel(
  events: readonly TraceEvent[],
  clientIds: readonly string[],
  tokenOwners: Readonly<Record<string, string>>,
): TimelineModel {
  const splitter = tokenSplitter(tokenOwners);
  type MutableRow = {
    commands: CommandMark[];
    blocks: BlockSpan[];
    points: ClientPoint[];
    beliefs: BeliefBand[];
    criticalSections: Span[];
  };
  const rowOf = new Map<string, MutableRow>();
  const ids = [...clientIds];
  const row = (id: string): MutableRow => {
    let r = rowOf.get(id);
    if (!r) {
      r = { commands: [], blocks: [], points: [], beliefs: [], criticalSections: [] };
      rowOf.set(id, r);
      if (!ids.includes(id)) ids.push(id);
    }
    return r;
  };
  for (const id of clientIds) row(id);

  const holders: HolderBand[] = [];
  const ttlBars: TtlBar[] = [];
  const violations: ViolationMarker[] = [];
  const clocks: ClockMark[] = [];
  const steps: StepInfo[] = [];
  const violationsByCause = new Map<number, number[]>();

  const openBelief = new Map<string, Moment>();
  const openSection = new Map<string, Moment>();
  const openBlock = new Map<string, TraceEvent & { kind: 'block' }>();
  // Mutated from the helpers below; an object so TypeScript does not narrow it at its declaration.
  const lock: { band: OpenHolder | null; ttl: OpenTtl | null } = { band: null, ttl: null };

  const closeBlock = (id: string, end: Moment, cut: boolean, lateMs = 0) => {
    const b = openBlock.get(id);
    if (!b) return;
    openBlock.delete(id);
    const start = at(b);
    row(id).blocks.push({
      seq: b.seq,
      step: b.step,
      clientId: id,
      reason: b.reason,
      durationMs: b.durationMs,
      untilMs: b.untilMs,
      start,
      end: compareMoments(end, start) < 0 ? start : end,
      open: false,
      cut,
      lateMs,
    });
  };

  /** A stall freezes its process's clients from the stall to its end (or their crash). */
  const stallSpans: { e: TraceEvent & { kind: 'stall' } }[] = [];

  const closeTtl = (end: Moment, cut: TtlBar['cut']) => {
    if (!lock.ttl) return;
    ttlBars.push({ holder: lock.ttl.holder, start: lock.ttl.start, end, open: false, expireAtMs: lock.ttl.expireAtMs, cut, projected: false });
    lock.ttl = null;
  };

  const closeHolder = (e: TraceEvent, reason: HolderEnd, endedBy: string | null) => {
    if (!lock.band) return;
    const expiry = lock.band.expireAtMs;
    const end: Moment = reason === 'expired' && expiry !== null && expiry <= e.atMs ? { ms: expiry, seq: null } : at(e);
    holders.push({
      holder: lock.band.holder,
      value: splitter.split(lock.band.value),
      start: lock.band.start,
      end,
      open: false,
      endReason: reason,
      endedBy,
    });
    closeTtl(end, reason === 'deleted' || reason === 'overwritten' ? reason : null);
    lock.band = null;
  };

  const openHolder = (e: TraceEvent, value: string, holder: string | null) => {
    lock.band = { holder, value, start: at(e), expireAtMs: null };
  };

  /** Keeps the lease bar in step with the lock's PTTL as this event saw it. */
  const syncTtl = (e: TraceEvent, pttlMs: number) => {
    if (!lock.band) return;
    const expireAtMs = pttlMs >= 0 ? e.atMs + pttlMs : null;
    if (lock.ttl && lock.ttl.expireAtMs === expireAtMs) return;
    if (lock.ttl) closeTtl(at(e), 'renewed');
    lock.band.expireAtMs = expireAtMs;
    lock.ttl = { holder: lock.band.holder, start: at(e), expireAtMs };
  };

  let currentStep: { step: number; atMs: number; seqs: number[]; times: number[]; isCommand: boolean[] } | null = null;
  const flushStep = () => {
    if (currentStep) steps.push(currentStep);
    currentStep = null;
  };

  for (const e of events) {
    if (!currentStep || currentStep.step !== e.step) {
      flushStep();
      // Steps that produced no event (a zero advance) still occupy a slot, at the previous time.
      const prev = steps[steps.length - 1];
      for (let s = (prev?.step ?? -1) + 1; s < e.step; s++) steps.push({ step: s, atMs: prev?.atMs ?? e.atMs, seqs: [], times: [], isCommand: [] });
      currentStep = { step: e.step, atMs: e.atMs, seqs: [], times: [], isCommand: [] };
    }

    if (e.kind === 'violation') {
      violations.push({
        seq: e.seq,
        step: e.step,
        causeSeq: e.causeSeq,
        at: { ms: e.atMs, seq: e.causeSeq },
        kind: e.violation,
        message: e.message,
        clients: e.clients,
        deleted: e.lockAfter.value === null,
      });
      const list = violationsByCause.get(e.causeSeq) ?? [];
      list.push(e.seq);
      violationsByCause.set(e.causeSeq, list);
      continue;
    }
    currentStep.seqs.push(e.seq);
    currentStep.times.push(e.atMs);
    currentStep.isCommand.push(e.kind === 'command');

    // Redis's truth, first as it was before this event (a lease may have expired in between)...
    const before = e.lockBefore;
    if (lock.band && before.value !== lock.band.value) closeHolder(e, before.value === null ? 'expired' : 'overwritten', null);
    if (!lock.band && before.value !== null) openHolder(e, before.value, before.holder);
    // ...then what this event did to it.
    const after = e.lockAfter;
    if (after.value !== before.value || after.holder !== before.holder) {
      if (e.kind === 'command') closeHolder(e, after.value === null ? 'deleted' : 'overwritten', e.clientId);
      else closeHolder(e, after.value === null ? 'expired' : 'overwritten', null);
      if (after.value !== null) openHolder(e, after.value, after.holder);
    }
    if (after.value !== null) syncTtl(e, after.pttlMs);

    const id = e.clientId;
    if (e.kind === 'clock') {
      // One mark per choice that let time pass: an advance moves the clock in segments (to each due
      // time on the way); the mark shows the whole move, where it began.
      const last = clocks[clocks.length - 1];
      if (last && last.step === e.step && last.reason === e.reason) clocks[clocks.length - 1] = { ...last, toMs: e.toMs };
      else clocks.push({ seq: e.seq, step: e.step, atMs: e.atMs, fromMs: e.fromMs, toMs: e.toMs, reason: e.reason, clientId: id });
      continue;
    }
    if (id === null) continue;
    const r = row(id);
    // A wait ends at its wake event (late when a stall held it); a crash cuts it.
    if (e.kind === 'wake') closeBlock(id, at(e), false, e.lateMs);
    else if (e.kind === 'crash') closeBlock(id, at(e), true);

    switch (e.kind) {
      case 'command': {
        const verb = (e.argv[0] ?? '').toUpperCase();
        const key = verb === 'EVAL' || verb === 'EVALSHA' ? (Number(e.argv[2]) > 0 ? (e.argv[3] ?? null) : null) : (e.argv[1] ?? null);
        r.commands.push({
          seq: e.seq,
          step: e.step,
          atMs: e.atMs,
          clientId: id,
          verb,
          key,
          command: commandParts(e.argv, splitter),
          reply: e.reply === null ? PENDING_REPLY : replyParts(e.reply, splitter),
          replyType: e.reply === null ? 'status' : e.reply.type,
          replyAtMs: e.replyAtMs ?? null,
          releases: e.releases,
          changedLock: e.lockAfter.value !== e.lockBefore.value,
          violationSeqs: [],
        });
        if (e.releases) {
          const start = openBelief.get(id);
          if (start) {
            r.beliefs.push({ clientId: id, start, end: at(e), open: false, endReason: 'released' });
            openBelief.delete(id);
          }
        }
        break;
      }
      case 'block':
        openBlock.set(id, e);
        break;
      case 'stall':
        stallSpans.push({ e });
        break;
      case 'reply': {
        // A slow script's reply: shown on its command, which drew a placeholder until now.
        let index = r.commands.length - 1;
        while (index >= 0 && r.commands[index].reply !== PENDING_REPLY) index--;
        if (index >= 0) r.commands[index] = { ...r.commands[index], reply: replyParts(e.reply, splitter), replyType: e.reply.type };
        break;
      }
      case 'enter':
        if (!openBelief.has(id)) openBelief.set(id, at(e));
        if (!openSection.has(id)) openSection.set(id, at(e));
        r.points.push(point(e, id, []));
        break;
      case 'leave': {
        const start = openSection.get(id);
        if (start) r.criticalSections.push({ start, end: at(e), open: false });
        openSection.delete(id);
        r.points.push(point(e, id, []));
        break;
      }
      case 'crash':
      case 'end': {
        const start = openBelief.get(id);
        if (start) r.beliefs.push({ clientId: id, start, end: at(e), open: false, endReason: e.kind === 'crash' ? 'crashed' : 'ended' });
        openBelief.delete(id);
        const section = openSection.get(id);
        if (section) r.criticalSections.push({ start: section, end: at(e), open: false });
        openSection.delete(id);
        r.points.push(point(e, id, []));
        break;
      }
      case 'give-up':
        r.points.push(point(e, id, [String(e.attempts)]));
        break;
      case 'write':
        r.points.push({ ...point(e, id, [e.resource, ' = ', ...splitter.split(e.value)]), rejected: !e.accepted });
        break;
      case 'mark':
        r.points.push(point(e, id, [e.counter, ` #${e.count}`]));
        break;
      case 'branch':
      case 'set':
      case 'start':
      case 'wake':
      case 'expire':
        break;
    }
  }
  flushStep();

  const firstMs = events.length > 0 ? events[0].atMs : 0;
  const lastEventMs = events.length > 0 ? events[events.length - 1].atMs : 0;
  let horizonMs = lastEventMs;

  // Whatever is still going at the end runs to the end of the run (leases and waits: to when they would end).
  for (const [id, b] of openBlock) {
    if (b.untilMs !== null) horizonMs = Math.max(horizonMs, b.untilMs);
    closeBlock(id, b.untilMs === null ? RUN_END : { ms: b.untilMs, seq: null }, false);
    const blocks = row(id).blocks;
    blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], open: true };
  }
  for (const { e } of stallSpans) {
    horizonMs = Math.max(horizonMs, e.untilMs);
    for (const id of e.clients) {
      const crash = row(id).points.find((p) => p.kind === 'crash' && p.atMs >= e.atMs && p.atMs < e.untilMs);
      const end: Moment = crash ? { ms: crash.atMs, seq: crash.seq } : { ms: e.untilMs, seq: null };
      row(id).blocks.push({
        seq: e.seq,
        step: e.step,
        clientId: id,
        reason: 'stall',
        durationMs: e.durationMs,
        untilMs: e.untilMs,
        start: at(e),
        end,
        open: e.untilMs > lastEventMs,
        cut: crash !== undefined,
        lateMs: 0,
      });
    }
  }
  for (const [id, start] of openBelief) row(id).beliefs.push({ clientId: id, start, end: RUN_END, open: true, endReason: 'open' });
  for (const [id, start] of openSection) row(id).criticalSections.push({ start, end: RUN_END, open: true });
  const finalHolder = lock.band as OpenHolder | null;
  if (finalHolder) {
    holders.push({
      holder: finalHolder.holder,
      value: splitter.split(finalHolder.value),
      start: finalHolder.start,
      end: RUN_END,
      open: true,
      endReason: 'open',
      endedBy: null,
    });
  }
  const finalTtl = lock.ttl as OpenTtl | null;
  if (finalTtl) {
    const expireAtMs = finalTtl.expireAtMs;
    if (expireAtMs !== null) horizonMs = Math.max(horizonMs, expireAtMs);
    ttlBars.push({
      holder: finalTtl.holder,
      start: finalTtl.start,
      end: expireAtMs === null ? RUN_END : { ms: expireAtMs, seq: null },
      open: true,
      expireAtMs,
      cut: null,
      projected: expireAtMs === null || expireAtMs > lastEventMs,
    });
  }

  for (const r of rowOf.values()) {
    for (const c of r.commands) {
      const caused = violationsByCause.get(c.seq);
      if (caused) (c as { violationSeqs: readonly number[] }).violationSeqs = caused;
    }
    r.blocks.sort((a, b) => a.seq - b.seq);
    r.beliefs.sort((a, b) => compareMoments(a.start, b.start));
    r.criticalSections.sort((a, b) => compareMoments(a.start, b.start));
  }

  const rows: ClientRow[] = ids.map((id) => {
    const r = row(id);
    return { clientId: id, ...r, staleBeliefs: staleBeliefs(id, r.beliefs, holders) };
  });

  return {
    clientIds: ids,
    rows,
    holders,
    ttlBars,
    violations,
    clocks,
    steps,
    firstMs,
    lastEventMs,
    horizonMs,
    eventCount: events.length,
  };
}

function point(e: TraceEvent, clientId: string, detail: TextPart[]): ClientPoint {
  return { kind: e.kind as PointKind, seq: e.seq, step: e.step, atMs: e.atMs, clientId, detail, rejected: false };
}

/** The parts of `id`'s beliefs during which Redis's lock is not `id`'s: free, or someone else's. */
function staleBeliefs(id: string, beliefs: readonly BeliefBand[], holders: readonly HolderBand[]): StaleBelief[] {
  const out: StaleBelief[] = [];
  // Beliefs and Redis bands are both in time order and bands do not overlap: one pass over each.
  let first = 0;
  for (const belief of beliefs) {
    while (first < holders.length && compareMoments(holders[first].end, belief.start) <= 0) first++;
    let cursor = belief.start;
    const emit = (end: Moment, redisHolder: string | null, open: boolean) => {
      if (compareMoments(cursor, end) < 0) out.push({ clientId: id, start: cursor, end, open, redisHolder });
    };
    for (let i = first; i < holders.length; i++) {
      const band = holders[i];
      if (compareMoments(band.end, cursor) <= 0) continue;
      if (compareMoments(band.start, belief.end) >= 0) break;
      // Free time before this band.
      if (compareMoments(band.start, cursor) > 0) {
        emit(band.start, null, false);
        cursor = band.start;
      }
      const end = compareMoments(band.end, belief.end) < 0 ? band.end : belief.end;
      if (band.holder === id) cursor = end;
      else {
        emit(end, band.holder, end === belief.end && belief.open);
        cursor = end;
      }
    }
    emit(belief.end, null, belief.open);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Layout: virtual time to x.

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
  /** Stretch a short run to at least this width (a run that fits the view fills it). */
  readonly fitWidthPx: number;
  /** Never stretch more than this. */
  readonly fitScaleMax: number;
  /** Squeeze a run a little wider than the view to fit it, down to this factor (text is cut to fit). */
  readonly fitScaleMin: number;
  /** Time labels closer than this to the previous one are left out. */
  readonly tickLabelSpacingPx: number;
}

export const defaultLayoutOptions: TimelineLayoutOptions = {
  commandStepPx: 120,
  plainStepPx: 44,
  sameTimeGapPx: 6,
  gapPxMin: 28,
  gapPxMax: 220,
  pxPerMs: 0.03,
  padStartPx: 16,
  // Room after the last step for what is still going (open bands, their labels).
  padEndPx: 210,
  fitWidthPx: 0,
  fitScaleMax: 2.5,
  fitScaleMin: 0.7,
  tickLabelSpacingPx: 64,
};

export interface StepSlot {
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

export interface TimelineLayout {
  readonly widthPx: number;
  readonly slots: readonly StepSlot[];
  readonly ticks: readonly TimeTick[];
  /** Right edge of the last step. */
  readonly runEndX: number;
  /** Width after the run's end given to what would happen next (a lease's expiry, a wake-up). */
  readonly tailPx: number;
  xOfSeq(seq: number): number;
  xOfMs(ms: number): number;
  xOf(m: Moment): number;
  /** Where the cursor line goes after `cursorStep` choices. */
  cursorX(cursorStep: number): number;
}

interface TimeGroup {
  ms: number;
  x0: number;
  x1: number;
}

/**
 * Lays the run out left to right. Each step gets a slot (wider when it sent a command) so events
 * of the same millisecond never overlap; time between steps becomes a gap that grows with the
 * elapsed time up to a cap (a 6 s pause looks long, a day-long advance does not swallow the view).
 * Inside a slot the command sits in the middle, events before it to its left, after it to its right.
 */
export function layoutTimeline(model: TimelineModel, options: Partial<TimelineLayoutOptions> = {}): TimelineLayout {
  const o = { ...defaultLayoutOptions, ...options };
  const gapFor = (dtMs: number) => Math.min(o.gapPxMax, o.gapPxMin + dtMs * o.pxPerMs);

  // A step is cut into parts: a new part at each new time and at each further command, so marks
  // of one step that happened at different times, or several commands at one time, never overlap.
  type Part = { stepIndex: number; atMs: number; seqs: number[]; commandAt: number; x0: number; w: number; compressedBefore: boolean; newTime: boolean };
  const parts: Part[] = [];
  const stepParts: { first: number; last: number }[] = [];
  let x = o.padStartPx;
  let prevMs: number | null = null;
  const openPart = (stepIndex: number, atMs: number): Part => {
    let compressedBefore = false;
    let newTime = prevMs === null;
    if (prevMs !== null) {
      if (atMs > prevMs) {
        const dt = atMs - prevMs;
        compressedBefore = o.gapPxMin + dt * o.pxPerMs > o.gapPxMax;
        x += gapFor(dt);
        newTime = true;
      } else x += o.sameTimeGapPx;
    }
    prevMs = atMs;
    const part: Part = { stepIndex, atMs, seqs: [], commandAt: -1, x0: x, w: 0, compressedBefore, newTime };
    parts.push(part);
    return part;
  };
  const closePart = (part: Part) => {
    part.w = part.commandAt >= 0 ? o.commandStepPx : o.plainStepPx;
    x = part.x0 + part.w;
  };
  model.steps.forEach((s, stepIndex) => {
    const first = parts.length;
    let part: Part | null = null;
    s.seqs.forEach((seq, k) => {
      const atMs = s.times[k];
      if (part === null || atMs !== part.atMs || (s.isCommand[k] && part.commandAt >= 0)) {
        if (part !== null) closePart(part);
        part = openPart(stepIndex, atMs);
      }
      if (s.isCommand[k]) part.commandAt = part.seqs.length;
      part.seqs.push(seq);
    });
    if (part === null) part = openPart(stepIndex, s.atMs);
    closePart(part);
    stepParts.push({ first, last: parts.length - 1 });
  });
  const runEndRaw = parts.length > 0 ? x : o.padStartPx;
  const tailMs = model.horizonMs - model.lastEventMs;
  const tailRaw = tailMs > 0 ? gapFor(tailMs) : 0;
  const naturalWidth = runEndRaw + tailRaw + o.padEndPx;
  const scale =
    o.fitWidthPx > naturalWidth
      ? Math.min(o.fitScaleMax, o.fitWidthPx / naturalWidth)
      : o.fitWidthPx > 0 && o.fitWidthPx >= naturalWidth * o.fitScaleMin
        ? o.fitWidthPx / naturalWidth
        : 1;

  const slots: StepSlot[] = model.steps.map((s, i) => {
    const { first, last } = stepParts[i];
    return { step: s.step, atMs: s.atMs, x0: parts[first].x0 * scale, x1: (parts[last].x0 + parts[last].w) * scale };
  });
  const runEndX = runEndRaw * scale;
  const tailPx = tailRaw * scale;
  const widthPx = Math.max(naturalWidth * scale, o.fitWidthPx);

  // Events: x inside their part, the command in the middle.
  const xBySeq = new Map<number, number>();
  for (const part of parts) {
    const x0 = part.x0 * scale;
    const w = part.w * scale;
    const n = part.seqs.length;
    const c = part.commandAt;
    part.seqs.forEach((seq, k) => {
      let frac: number;
      if (c < 0) frac = 0.15 + (0.7 * (k + 0.5)) / n;
      else if (k === c) frac = 0.5;
      else if (k < c) frac = 0.08 + (0.3 * (k + 0.5)) / c;
      else frac = 0.62 + (0.3 * (k - c - 0.5)) / (n - c - 1);
      xBySeq.set(seq, x0 + frac * w);
    });
  }
  for (const v of model.violations) xBySeq.set(v.seq, xBySeq.get(v.causeSeq) ?? 0);

  // Time groups: consecutive parts of the same millisecond.
  const groups: TimeGroup[] = [];
  const ticks: TimeTick[] = [];
  let lastLabelX = Number.NEGATIVE_INFINITY;
  for (const part of parts) {
    const x0 = part.x0 * scale;
    const x1 = (part.x0 + part.w) * scale;
    if (part.newTime) {
      groups.push({ ms: part.atMs, x0, x1 });
      const labeled = x0 - lastLabelX >= o.tickLabelSpacingPx;
      if (labeled) lastLabelX = x0;
      ticks.push({ ms: part.atMs, x: x0, labeled, compressedBefore: part.compressedBefore });
    } else groups[groups.length - 1].x1 = x1;
  }

  const xOfMs = (ms: number): number => {
    if (groups.length === 0) return o.padStartPx * scale;
    if (ms <= groups[0].ms) return groups[0].x0;
    const last = groups[groups.length - 1];
    if (ms > last.ms) {
      if (tailMs <= 0) return runEndX;
      return runEndX + (Math.min(ms - last.ms, tailMs) / tailMs) * tailPx;
    }
    // Binary search for the last group at or before ms.
    let lo = 0;
    let hi = groups.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (groups[mid].ms <= ms) lo = mid;
      else hi = mid - 1;
    }
    const g = groups[lo];
    if (g.ms === ms) return g.x0;
    const next = groups[lo + 1];
    return g.x1 + ((ms - g.ms) / (next.ms - g.ms)) * (next.x0 - g.x1);
  };

  const xOfSeq = (seq: number): number => xBySeq.get(seq) ?? 0;
  const xOf = (m: Moment): number => (m.runEnd ? runEndX : m.seq !== null && xBySeq.has(m.seq) ? xOfSeq(m.seq) : xOfMs(m.ms));

  const cursorX = (cursorStep: number): number => {
    if (slots.length === 0) return o.padStartPx * scale;
    if (cursorStep <= 0) return Math.max(0, slots[0].x0 - 6 * scale);
    if (cursorStep > slots.length) return runEndX;
    const done = slots[cursorStep - 1];
    const next = slots[cursorStep];
    if (!next) return done.x1 + Math.min(6 * scale, (widthPx - done.x1) / 2);
    return done.x1 + Math.min(8 * scale, (next.x0 - done.x1) / 2);
  };

  return { widthPx, slots, ticks, runEndX, tailPx, xOfSeq, xOfMs, xOf, cursorX };
}
