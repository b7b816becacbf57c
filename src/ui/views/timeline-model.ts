/**
 * Builds the timeline model (timeline-types.ts) from a run's events, by appending: events are
 * append-only within a run, so the builder extends what it has from the last event it saw, and a
 * step at event 10,000 costs what it costs at event 10. What is still going at the end (an open
 * belief, a lease, a wait) is added as provisional items that the next append takes back first.
 */
import type { TraceEvent } from '../store/published';
import { commandParts, replyParts, tokenSplitter, type TextPart } from './text-parts';
import { createNodeRowsBuilder } from './timeline-nodes';
import {
  RUN_END,
  compareMoments,
  type BeliefBand,
  type BlockSpan,
  type ClientPoint,
  type ClientRow,
  type ClockMark,
  type CommandMark,
  type HolderBand,
  type HolderEnd,
  type Moment,
  type PointKind,
  type Span,
  type StaleBelief,
  type StepInfo,
  type TimelineModel,
  type TtlBar,
  type ViolationMarker,
} from './timeline-types';

/** The reply of a command whose answer comes later (a slow script), until its `reply` event. */
const PENDING_REPLY: readonly TextPart[] = ['…'];

type BlockEvent = Extract<TraceEvent, { kind: 'block' }>;
type StallEvent = Extract<TraceEvent, { kind: 'stall' }>;

interface RowState {
  readonly row: ClientRow & {
    commands: CommandMark[];
    blocks: BlockSpan[];
    points: ClientPoint[];
    beliefs: BeliefBand[];
    criticalSections: Span[];
    staleBeliefs: StaleBelief[];
  };
  openBelief: Moment | null;
  openSection: Moment | null;
  openBlock: BlockEvent | null;
}

interface OpenHolder {
  holder: string | null;
  holders: readonly string[] | undefined;
  value: string;
  start: Moment;
  expireAtMs: number | null;
}

type LockOf = TraceEvent['lockAfter'];

/**
 * The lock as the Redis row draws it: its value and writer; for a lock several hold at once
 * (the scenario's holder keys), the set of holders, held while it is not empty.
 */
function drawnLock(view: LockOf): { readonly value: string | null; readonly holder: string | null; readonly holders: readonly string[] | undefined; readonly pttlMs: number } {
  if (view.holders === undefined) return { value: view.value, holder: view.holder, holders: undefined, pttlMs: view.pttlMs };
  return { value: view.holders.length === 0 ? null : view.holders.join(', '), holder: null, holders: view.holders, pttlMs: view.pttlMs };
}

interface OpenTtl {
  holder: string | null;
  start: Moment;
  expireAtMs: number | null;
}

/** A stall whose end is not final yet: it lies after the last event (a crash may still cut it). */
interface PendingStall {
  readonly e: StallEvent;
  /** The first crash of each frozen client during the stall. */
  readonly crashes: Map<string, ClientPoint>;
}

export interface TimelineModelBuilder {
  /** Events seen so far. */
  readonly eventCount: number;
  /**
   * Extends the model with `events[eventCount..count)` (the same run's events, grown; `count`
   * defaults to all of them) and returns it. The model shares the builder's arrays: it is valid
   * until the next append.
   */
  append(events: readonly TraceEvent[], count?: number): TimelineModel;
}

function at(e: TraceEvent): Moment {
  return { ms: e.atMs, seq: e.seq };
}

function point(e: TraceEvent, clientId: string, detail: TextPart[]): ClientPoint {
  return { kind: e.kind as PointKind, seq: e.seq, step: e.step, atMs: e.atMs, clientId, detail, rejected: false };
}

/** Inserts `item` keeping `list` ordered by `before`; new items land at or near the end. */
function insertOrdered<T>(list: T[], item: T, before: (a: T, b: T) => boolean): void {
  let i = list.length;
  list.push(item);
  while (i > 0 && before(item, list[i - 1])) {
    list[i] = list[i - 1];
    i--;
  }
  list[i] = item;
}

const bySeq = (a: BlockSpan, b: BlockSpan) => a.seq < b.seq;

/** Builds the timeline model of a whole run at once. */
export function buildTimelineModel(
  events: readonly TraceEvent[],
  clientIds: readonly string[],
  tokenOwners: Readonly<Record<string, string>>,
): TimelineModel {
  return createTimelineModelBuilder(clientIds, tokenOwners).append(events);
}

export function createTimelineModelBuilder(clientIds: readonly string[], tokenOwners: Readonly<Record<string, string>>): TimelineModelBuilder {
  const splitter = tokenSplitter(tokenOwners);
  const ids: string[] = [];
  const rows: ClientRow[] = [];
  const rowOf = new Map<string, RowState>();
  const row = (id: string): RowState => {
    let r = rowOf.get(id);
    if (!r) {
      r = {
        row: { clientId: id, commands: [], blocks: [], points: [], beliefs: [], criticalSections: [], staleBeliefs: [] },
        openBelief: null,
        openSection: null,
        openBlock: null,
      };
      rowOf.set(id, r);
      ids.push(id);
      rows.push(r.row);
    }
    return r;
  };
  for (const id of clientIds) row(id);

  const holders: HolderBand[] = [];
  const ttlBars: TtlBar[] = [];
  const nodeRows = createNodeRowsBuilder(splitter);
  const violations: ViolationMarker[] = [];
  const clocks: ClockMark[] = [];
  const steps: (StepInfo & { seqs: number[]; times: number[]; isCommand: boolean[] })[] = [];
  /** Where each command sits, so a later violation or reply updates it in place. */
  const commandAt = new Map<number, { list: CommandMark[]; index: number }>();
  const pendingStalls: PendingStall[] = [];
  let stallUntilMsMax = Number.NEGATIVE_INFINITY;
  let band: OpenHolder | null = null;
  let ttl: OpenTtl | null = null;
  let eventCount = 0;
  let firstMs = 0;
  let lastEventMs = 0;
  /** Items added for what is still going, taken back before the next events are applied. */
  let provisional: { list: unknown[]; item: unknown }[] = [];

  const closeTtl = (end: Moment, cut: TtlBar['cut']) => {
    if (!ttl) return;
    ttlBars.push({ holder: ttl.holder, start: ttl.start, end, open: false, expireAtMs: ttl.expireAtMs, cut, projected: false });
    ttl = null;
  };

  const closeHolder = (e: TraceEvent, reason: HolderEnd, endedBy: string | null) => {
    if (!band) return;
    const expiry = band.expireAtMs;
    const end: Moment = reason === 'expired' && expiry !== null && expiry <= e.atMs ? { ms: expiry, seq: null } : at(e);
    holders.push({ holder: band.holder, holders: band.holders, value: splitter.split(band.value), start: band.start, end, open: false, endReason: reason, endedBy });
    closeTtl(end, reason === 'deleted' || reason === 'overwritten' ? reason : null);
    band = null;
  };

  /** Keeps the lease bar in step with the lock's PTTL as this event saw it. */
  const syncTtl = (e: TraceEvent, pttlMs: number) => {
    if (!band) return;
    const expireAtMs = pttlMs >= 0 ? e.atMs + pttlMs : null;
    if (ttl && ttl.expireAtMs === expireAtMs) return;
    // PTTL 0 once the expiry time has come (Redis drops the key just after it): the same lease.
    if (ttl && pttlMs === 0 && ttl.expireAtMs !== null && ttl.expireAtMs <= e.atMs) return;
    if (ttl) closeTtl(at(e), 'renewed');
    band.expireAtMs = expireAtMs;
    ttl = { holder: band.holder, start: at(e), expireAtMs };
  };

  const closeBlock = (r: RowState, end: Moment, cut: boolean, lateMs = 0) => {
    const b = r.openBlock;
    if (!b) return;
    r.openBlock = null;
    insertOrdered(r.row.blocks, blockOf(b, r.row.clientId, end, cut, lateMs), bySeq);
  };

  /** The open band "Redis says X holds the lock", drawn to the end of the run. */
  const openBand = (): HolderBand | null =>
    band === null
      ? null
      : { holder: band.holder, holders: band.holders, value: splitter.split(band.value), start: band.start, end: RUN_END, open: true, endReason: 'open', endedBy: null };

  const closeBelief = (r: RowState, end: Moment, endReason: BeliefBand['endReason']) => {
    if (!r.openBelief) return;
    const belief: BeliefBand = { clientId: r.row.clientId, start: r.openBelief, end, open: false, endReason };
    r.openBelief = null;
    r.row.beliefs.push(belief);
    r.row.staleBeliefs.push(...staleParts(belief, holders, openBand()));
  };

  const closeSection = (r: RowState, end: Moment) => {
    if (r.openSection) r.row.criticalSections.push({ start: r.openSection, end, open: false });
    r.openSection = null;
  };

  const apply = (e: TraceEvent) => {
    nodeRows.apply(e);
    let current = steps[steps.length - 1];
    if (!current || current.step !== e.step) {
      // Steps that produced no event (a zero advance) still occupy a slot, at the previous time.
      for (let s = (current?.step ?? -1) + 1; s < e.step; s++) steps.push({ step: s, atMs: current?.atMs ?? e.atMs, seqs: [], times: [], isCommand: [] });
      current = { step: e.step, atMs: e.atMs, seqs: [], times: [], isCommand: [] };
      steps.push(current);
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
      const cause = commandAt.get(e.causeSeq);
      if (cause) {
        const c = cause.list[cause.index];
        cause.list[cause.index] = { ...c, violationSeqs: [...c.violationSeqs, e.seq] };
      }
      return;
    }
    current.seqs.push(e.seq);
    current.times.push(e.atMs);
    current.isCommand.push(e.kind === 'command');

    // Redis's truth, first as it was before this event (a lease may have expired in between)...
    const before = drawnLock(e.lockBefore);
    if (band && before.value !== band.value) closeHolder(e, before.value === null ? 'expired' : 'overwritten', null);
    if (!band && before.value !== null) band = { holder: before.holder, holders: before.holders, value: before.value, start: at(e), expireAtMs: null };
    // ...then what this event did to it.
    const after = drawnLock(e.lockAfter);
    if (after.value !== before.value || after.holder !== before.holder) {
      if (e.kind === 'command') closeHolder(e, after.value === null ? 'deleted' : 'overwritten', e.clientId);
      else closeHolder(e, after.value === null ? 'expired' : 'overwritten', null);
      if (after.value !== null) band = { holder: after.holder, holders: after.holders, value: after.value, start: at(e), expireAtMs: null };
    }
    if (after.value !== null) syncTtl(e, after.pttlMs);

    const id = e.clientId;
    if (e.kind === 'clock') {
      // One mark per choice that let time pass: an advance moves the clock in segments (to each due
      // time on the way); the mark shows the whole move, where it began.
      const last = clocks[clocks.length - 1];
      if (last && last.step === e.step && last.reason === e.reason) clocks[clocks.length - 1] = { ...last, toMs: e.toMs };
      else clocks.push({ seq: e.seq, step: e.step, atMs: e.atMs, fromMs: e.fromMs, toMs: e.toMs, reason: e.reason, clientId: id });
      return;
    }
    if (id === null) return;
    const r = row(id);
    const { commands, points } = r.row;
    // A wait ends at its wake event (late when a stall held it); a crash cuts it.
    if (e.kind === 'wake') closeBlock(r, at(e), false, e.lateMs);
    else if (e.kind === 'crash') closeBlock(r, at(e), true);

    switch (e.kind) {
      case 'command': {
        const verb = (e.argv[0] ?? '').toUpperCase();
        const key = verb === 'EVAL' || verb === 'EVALSHA' ? (Number(e.argv[2]) > 0 ? (e.argv[3] ?? null) : null) : (e.argv[1] ?? null);
        commandAt.set(e.seq, { list: commands, index: commands.length });
        commands.push({
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
        if (e.releases) closeBelief(r, at(e), 'released');
        break;
      }
      case 'block':
        r.openBlock = e;
        break;
      case 'stall':
        addStall(e);
        break;
      case 'reply': {
        // A slow script's reply: shown on its command, which drew a placeholder until now.
        let index = commands.length - 1;
        while (index >= 0 && commands[index].reply !== PENDING_REPLY) index--;
        if (index >= 0) commands[index] = { ...commands[index], reply: replyParts(e.reply, splitter), replyType: e.reply.type };
        break;
      }
      case 'enter':
        r.openBelief ??= at(e);
        r.openSection ??= at(e);
        points.push(point(e, id, []));
        break;
      case 'leave':
        closeSection(r, at(e));
        points.push(point(e, id, []));
        break;
      case 'crash':
      case 'end': {
        closeBelief(r, at(e), e.kind === 'crash' ? 'crashed' : 'ended');
        closeSection(r, at(e));
        const p = point(e, id, []);
        points.push(p);
        if (e.kind === 'crash') for (const stall of pendingStalls) noteCrash(stall, id, p);
        break;
      }
      case 'give-up':
        points.push(point(e, id, [String(e.attempts)]));
        break;
      case 'write':
        points.push({ ...point(e, id, [e.resource, ' = ', ...splitter.split(e.value)]), rejected: !e.accepted });
        break;
      case 'mark':
        points.push(point(e, id, [e.counter, ` #${e.count}`]));
        break;
      case 'drop': {
        // A request or reply lost on its link (partition, lost-message fault, node down...): on the
        // client's row, short (the command's chip or wait is beside it; the events view has it whole).
        points.push(point(e, id, [e.message === 'request' ? `→ @${e.node}` : `@${e.node} →`]));
        break;
      }
      case 'branch':
      case 'set':
      case 'start':
      case 'wake':
      case 'expire':
        break;
    }
  };

  /** A stall freezes its process's clients from the stall to its end (or their crash). */
  const addStall = (e: StallEvent) => {
    const stall: PendingStall = { e, crashes: new Map() };
    stallUntilMsMax = Math.max(stallUntilMsMax, e.untilMs);
    // A crash of the same millisecond logged before the stall counts too (the first in the row).
    for (const id of e.clients) {
      const points = row(id).row.points;
      for (let i = points.length - 1; i >= 0 && points[i].atMs >= e.atMs; i--) {
        if (points[i].kind === 'crash' && points[i].atMs < e.untilMs) stall.crashes.set(id, points[i]);
      }
    }
    pendingStalls.push(stall);
  };

  const noteCrash = (stall: PendingStall, id: string, p: ClientPoint) => {
    if (!stall.e.clients.includes(id) || stall.crashes.has(id)) return;
    if (p.atMs >= stall.e.atMs && p.atMs < stall.e.untilMs) stall.crashes.set(id, p);
  };

  const stallBlocks = (stall: PendingStall): BlockSpan[] =>
    stall.e.clients.map((id) => {
      const crash = stall.crashes.get(id);
      const e = stall.e;
      return {
        seq: e.seq,
        step: e.step,
        clientId: id,
        reason: 'stall',
        durationMs: e.durationMs,
        untilMs: e.untilMs,
        start: at(e),
        end: crash ? { ms: crash.atMs, seq: crash.seq } : { ms: e.untilMs, seq: null },
        open: e.untilMs > lastEventMs,
        cut: crash !== undefined,
        lateMs: 0,
      };
    });

  const addProvisional = <T>(list: T[], item: T, before?: (a: T, b: T) => boolean) => {
    if (before) insertOrdered(list, item, before);
    else list.push(item);
    provisional.push({ list, item });
  };

  const takeBackProvisional = () => {
    for (let i = provisional.length - 1; i >= 0; i--) {
      const { list, item } = provisional[i];
      const index = list.lastIndexOf(item);
      if (index >= 0) list.splice(index, 1);
    }
    provisional = [];
  };

  /** What is still going at the end runs to the end of the run (leases and waits: to when they would end). */
  const addOpenItems = (): number => {
    let horizonMs = Math.max(lastEventMs, stallUntilMsMax);
    for (const r of rowOf.values()) {
      const b = r.openBlock;
      if (b) {
        if (b.untilMs !== null) horizonMs = Math.max(horizonMs, b.untilMs);
        const end: Moment = b.untilMs === null ? RUN_END : { ms: b.untilMs, seq: null };
        addProvisional(r.row.blocks, { ...blockOf(b, r.row.clientId, end, false, 0), open: true }, bySeq);
      }
    }
    for (const stall of pendingStalls) for (const block of stallBlocks(stall)) addProvisional(row(block.clientId).row.blocks, block, bySeq);
    for (const r of rowOf.values()) {
      if (r.openBelief) {
        const belief: BeliefBand = { clientId: r.row.clientId, start: r.openBelief, end: RUN_END, open: true, endReason: 'open' };
        addProvisional(r.row.beliefs, belief);
        for (const part of staleParts(belief, holders, openBand())) addProvisional(r.row.staleBeliefs, part);
      }
      if (r.openSection) addProvisional(r.row.criticalSections, { start: r.openSection, end: RUN_END, open: true });
    }
    const open = openBand();
    if (open) addProvisional(holders, open);
    for (const { list, item } of nodeRows.openSegments()) addProvisional(list, item);
    if (ttl) {
      const expireAtMs = ttl.expireAtMs;
      if (expireAtMs !== null) horizonMs = Math.max(horizonMs, expireAtMs);
      addProvisional(ttlBars, {
        holder: ttl.holder,
        start: ttl.start,
        end: expireAtMs === null ? RUN_END : { ms: expireAtMs, seq: null },
        open: true,
        expireAtMs,
        cut: null,
        projected: expireAtMs === null || expireAtMs > lastEventMs,
      });
    }
    return horizonMs;
  };

  return {
    get eventCount() {
      return eventCount;
    },
    append(events, count = events.length) {
      const end = Math.min(count, events.length);
      takeBackProvisional();
      for (let i = eventCount; i < end; i++) apply(events[i]);
      if (end > 0) {
        firstMs = events[0].atMs;
        lastEventMs = events[end - 1].atMs;
      }
      eventCount = Math.max(eventCount, end);
      // Stalls that ended before the last event are final: no later crash falls inside them.
      for (let i = pendingStalls.length - 1; i >= 0; i--) {
        const stall = pendingStalls[i];
        if (stall.e.untilMs > lastEventMs) continue;
        pendingStalls.splice(i, 1);
        for (const block of stallBlocks(stall)) insertOrdered(row(block.clientId).row.blocks, block, bySeq);
      }
      const horizonMs = addOpenItems();
      return { clientIds: ids, rows, nodes: nodeRows.rows, holders, ttlBars, violations, clocks, steps, firstMs, lastEventMs, horizonMs, eventCount };
    },
  };
}

function blockOf(b: BlockEvent, clientId: string, end: Moment, cut: boolean, lateMs: number): BlockSpan {
  const start = at(b);
  return {
    seq: b.seq,
    step: b.step,
    clientId,
    reason: b.reason,
    durationMs: b.durationMs,
    untilMs: b.untilMs,
    start,
    end: compareMoments(end, start) < 0 ? start : end,
    open: false,
    cut,
    lateMs,
  };
}

/**
 * The parts of a belief during which Redis's lock is not the believer's: free, or someone else's.
 * `holders` are the closed bands in time order (they do not overlap), `open` the band still going.
 */
function staleParts(belief: BeliefBand, holders: readonly HolderBand[], open: HolderBand | null): StaleBelief[] {
  const id = belief.clientId;
  const out: StaleBelief[] = [];
  // Only the last bands can reach into a recent belief: walk back to the first that ends after it starts.
  let first = holders.length;
  while (first > 0 && compareMoments(holders[first - 1].end, belief.start) > 0) first--;
  const bands = open ? [...holders.slice(first), open] : holders.slice(first);
  let cursor = belief.start;
  const emit = (end: Moment, redisHolder: string | null, isOpen: boolean) => {
    if (compareMoments(cursor, end) < 0) out.push({ clientId: id, start: cursor, end, open: isOpen, redisHolder });
  };
  for (const band of bands) {
    if (compareMoments(band.end, cursor) <= 0) continue;
    if (compareMoments(band.start, belief.end) >= 0) break;
    // Free time before this band.
    if (compareMoments(band.start, cursor) > 0) {
      emit(band.start, null, false);
      cursor = band.start;
    }
    const end = compareMoments(band.end, belief.end) < 0 ? band.end : belief.end;
    // A lock several hold: stale once the believer is not among them ("the lock is gone" for it).
    if (band.holders !== undefined ? !band.holders.includes(id) : band.holder !== id) emit(end, band.holders !== undefined ? null : band.holder, end === belief.end && belief.open);
    cursor = end;
  }
  emit(belief.end, null, belief.open);
  return out;
}
