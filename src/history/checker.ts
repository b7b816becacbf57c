/**
 * The history checker: rebuilds who owned the lock key over time from recorded commands and their
 * replies, and reports foreign releases, mutual exclusion, stale writes, locks never released and
 * holds longer than a bound, each `certain` or `possible` with its evidence events.
 *
 * Streaming: records enter a bounded reorder buffer and are checked in the order they started;
 * only per-connection, per-client and per-version state is kept, each bounded, so memory is flat
 * in the file's length. Pure TypeScript (no node: imports): the page may run it too.
 *
 * Time: every event is an interval [t0, t1] of wall-clock ms (widened by the clock skew allowed
 * between recorders); Redis ran the command at one instant inside it. Two events whose intervals
 * overlap may have run in either order, unless a reply rules one out.
 */
import { HISTORY_LINE_BYTES_MAX, parseHistoryLine, type HistoryRecord, type HistoryReply } from './format';
import { lockEffect, type LockEffect } from './effects';
import { ReorderBuffer } from './reorder';
import { ScriptBook } from './scripts';
import type { Certainty, ClientLane, EvidenceEvent, HistoryProblem, HistoryVerdict, HistoryViolation, HistoryViolationKind } from './verdict';

export interface CheckOptions {
  /** The lock's key; default: the key of the first SET ... NX (or SETNX) in the file. */
  readonly lockKey?: string;
  /** Report a version of the lock that lived longer than this (ms). */
  readonly maxHoldMs?: number;
  /** How far apart two recorders' wall clocks may be (ms): widens every event by half of it on each side. */
  readonly clockSkewMs?: number;
  /** Records the reorder buffer holds (default 65,536). */
  readonly reorderCapacity?: number;
}

/** Bounds on what the checker keeps. */
const VIOLATIONS_LISTED_MAX = 1000;
const PROBLEMS_LISTED_MAX = 200;
const VERSIONS_BY_TOKEN_MAX = 4096;
const LIVE_VERSIONS_MAX = 64;
const PENDING_PER_CLIENT_MAX = 64;
const CONNECTIONS_MAX = 100_000;
const RESOURCES_MAX = 10_000;
const MULTI_QUEUE_MAX = 1000;
const TEXT_CHARS_MAX = 160;
const DEFAULT_REORDER_CAPACITY = 65_536;
/** A wall clock that moves this much more or less than the monotonic clock between two lines was stepped. */
const CLOCK_STEP_MS = 1000;

interface Ev {
  readonly line: number;
  readonly client: string;
  readonly conn: string;
  readonly t0: number;
  readonly t1: number;
  readonly record: HistoryRecord;
}

interface Version {
  readonly token: string;
  readonly client: string;
  readonly acquire: Ev;
  /**
   * It certainly exists: its acquisition's reply was seen, and no removal of uncertain target may
   * have taken it (false: a lost reply, or a removal that took it or an older one).
   */
  sure: boolean;
  /** When the key expires, as an interval (null: no expiry). */
  expiry: { lo: number; hi: number } | null;
  ended: { readonly ev: Ev | null; readonly by: 'remove' | 'acquire' | 'overwrite' | 'expire' | 'gone' } | null;
  supersededBy: Ev | null;
  /**
   * Another client's acquisition succeeded while this version seemed certainly there: a removal
   * that starts later but overlaps that acquisition may explain it, so the verdict waits.
   */
  displacedBy: Ev | null;
  /** It was certainly there when displaced: unless an overlapping removal explains it, the replies contradict. */
  displacedWhileCertain: boolean;
  heldTooLongReported: boolean;
}

interface PendingOverlap {
  readonly first: Ev;
  readonly second: Ev;
  readonly secondClient: string;
  readonly sure: boolean;
}

interface ClientState {
  readonly id: string;
  commandCount: number;
  markCount: number;
  acquisitionCount: number;
  firstLine: number;
  lastLine: number;
  /** The version the client believes it holds: from its acquisition to its release command. */
  holding: Version | null;
  /** Other clients' acquisitions while this one believed it held the lock. */
  pending: PendingOverlap[];
  /** `first`: the release certainly removed a version that was certainly there, so it ran before any acquisition that starts later. */
  lastRelease: { ev: Ev; own: boolean; first: boolean; version: Version } | null;
  inSection: Ev | null;
  sectionPending: PendingOverlap[];
  lastLeave: { ev: Ev; enter: Ev } | null;
  hasMarks: boolean;
}

interface ConnState {
  lastEndMs: number;
  multi: (readonly string[])[] | null;
}

interface ClockState {
  /** Wall minus monotonic at the clock's first line. */
  readonly offsetMs: number;
  stepped: boolean;
}

/**
 * A removal or extension that answered "done", kept while an acquisition starting later could
 * still have run before it. `orphan`: it found no version the recording showed (yet).
 */
interface RecentWrite {
  readonly ev: Ev;
  readonly first: boolean;
  readonly orphan: boolean;
  readonly token: string | null;
  matched: boolean;
}

interface Found {
  readonly kind: HistoryViolationKind;
  readonly certainty: Certainty;
  readonly clients: readonly string[];
  readonly message: string;
  readonly evidence: readonly Ev[];
}

export class HistoryChecker {
  private lockKey: string | null;
  private readonly lockKeyFrom: 'option' | 'detected' | 'none';
  private readonly skewHalfMs: number;
  private readonly reorder: ReorderBuffer<Ev>;
  private readonly scripts = new ScriptBook();
  private readonly clients = new Map<string, ClientState>();
  private readonly conns = new Map<string, ConnState>();
  private readonly clocks = new Map<string, ClockState>();
  private readonly byToken = new Map<string, Version>();
  private live: Version[] = [];
  /** Each client's newest version that no other client's acquisition has followed yet. */
  private readonly unsuperseded = new Map<string, Version>();
  private readonly resources = new Map<string, { token: bigint; ev: Ev }>();
  private readonly found: Found[] = [];
  /** Mutual exclusion read from acquisitions: kept apart, dropped at the end for clients with marks. */
  private readonly acquisitionOverlaps: Found[] = [];
  private foundNotListed = 0;
  private readonly problems: HistoryProblem[] = [];
  private problemsNotListed = 0;
  private readonly unknowns = new Set<string>();
  private lineCount = 0;
  private commandCount = 0;
  private markCount = 0;
  private lockCommandCount = 0;
  private repliesMissing = 0;
  private fromMs: number | null = null;
  private toMs: number | null = null;
  private ownerUnknownSince: Ev | null = null;
  /** Recent removals that may have run after acquisitions that start later (their intervals overlap). */
  private recentRemovals: RecentWrite[] = [];
  /** Recent extensions that found no version: the one they extended may be an acquisition that starts later. */
  private recentExtends: (RecentWrite & { ttlMs: number | null })[] = [];
  private finished = false;
  private keyDetected: boolean;

  constructor(private readonly options: CheckOptions = {}) {
    this.lockKey = options.lockKey ?? null;
    this.lockKeyFrom = options.lockKey !== undefined ? 'option' : 'detected';
    this.keyDetected = options.lockKey !== undefined;
    this.skewHalfMs = (options.clockSkewMs ?? 0) / 2;
    this.reorder = new ReorderBuffer<Ev>(options.reorderCapacity ?? DEFAULT_REORDER_CAPACITY);
  }

  /** One line of the file (1-based number). */
  pushLine(text: string, line: number): void {
    this.lineCount = Math.max(this.lineCount, line);
    const parsed = parseHistoryLine(text, line);
    if (parsed === null) return;
    if ('message' in parsed) this.problem(parsed.line, parsed.message);
    else this.push(parsed);
  }

  /** A line another reader (MONITOR import) could not read. */
  pushProblem(line: number, message: string): void {
    this.lineCount = Math.max(this.lineCount, line);
    this.problem(line, message);
  }

  /** A line longer than the reader's bound: skipped, and said. */
  pushTooLong(line: number, size: number): void {
    this.lineCount = Math.max(this.lineCount, line);
    this.problem(line, `a line of ${size} characters, longer than the checker reads (${HISTORY_LINE_BYTES_MAX}): skipped`);
  }

  push(record: HistoryRecord): void {
    this.lineCount = Math.max(this.lineCount, record.line);
    if (record.kind === 'header') {
      if (record.header.repliesKnown === false) this.unknowns.add('The recording has no replies (MONITOR): whether each command succeeded is worked out from the commands and the server clock, and what each client was told is unknown.');
      return;
    }
    const ev = this.event(record);
    if (ev === null) return;
    if (!this.keyDetected && record.kind === 'command') this.detectKey(record.command.argv);
    const out = this.reorder.push(ev);
    if (out !== null) this.process(out.item, out.late);
  }

  finish(): HistoryVerdict {
    if (!this.finished) {
      this.finished = true;
      // Bounded by the buffer's capacity.
      for (let out = this.reorder.pop(); out !== null; out = this.reorder.pop()) this.process(out.item, out.late);
      this.endOfHistory();
    }
    return this.verdict();
  }

  // ---- reading ------------------------------------------------------------------------------

  private event(record: HistoryRecord): Ev | null {
    if (record.kind === 'header') return null;
    if (record.kind === 'command') {
      const c = record.command;
      const conn = c.conn ?? c.client;
      this.checkClocks(record.line, conn, c.clock ?? '', c.startMs, c.endMs, c.startWallMs, c.endWallMs);
      this.commandCount++;
      if (c.reply === undefined && c.error === undefined) this.repliesMissing++;
      return this.timed(record, c.client, conn, c.startWallMs, c.endWallMs);
    }
    const m = record.mark;
    this.markCount++;
    return this.timed(record, m.client, m.conn ?? m.client, m.atWallMs, m.atWallMs);
  }

  private timed(record: HistoryRecord, client: string, conn: string, startMs: number, endMs: number): Ev {
    this.fromMs = this.fromMs === null ? startMs : Math.min(this.fromMs, startMs);
    this.toMs = this.toMs === null ? endMs : Math.max(this.toMs, endMs);
    return { line: record.line, client, conn, t0: startMs - this.skewHalfMs, t1: endMs + this.skewHalfMs, record };
  }

  /** Replies on one connection come in order, so its end times only grow; a wall clock keeps pace with the monotonic one. */
  private checkClocks(line: number, conn: string, clock: string, startMs: number, endMs: number, startWallMs: number, endWallMs: number): void {
    let state = this.conns.get(conn);
    if (state === undefined) {
      if (this.conns.size >= CONNECTIONS_MAX) this.conns.delete(this.conns.keys().next().value as string);
      state = { lastEndMs: -Infinity, multi: null };
      this.conns.set(conn, state);
    }
    if (endMs < state.lastEndMs) this.problem(line, `connection ${conn}: endMs ${endMs} is before the previous reply's ${state.lastEndMs} on the same connection (a clock running backwards, or lines out of order)`);
    else state.lastEndMs = endMs;
    const clockState = this.clocks.get(clock);
    if (clockState === undefined) {
      if (this.clocks.size < CONNECTIONS_MAX) this.clocks.set(clock, { offsetMs: startWallMs - startMs, stepped: false });
    } else if (!clockState.stepped && Math.abs(endWallMs - endMs - clockState.offsetMs) > CLOCK_STEP_MS) {
      clockState.stepped = true;
      this.problem(line, `the wall clock${clock === '' ? '' : ` of ${clock}`} moved ${Math.round(endWallMs - endMs - clockState.offsetMs)} ms away from its monotonic clock (stepped by NTP or by hand?): orders across it are less certain than they look`);
    }
  }

  private detectKey(argv: readonly string[]): void {
    const name = argv[0].toUpperCase();
    const nx = name === 'SETNX' || (name === 'SET' && argv.slice(3).some((a) => a.toUpperCase() === 'NX'));
    if (nx && argv[1] !== undefined) {
      this.lockKey = argv[1];
      this.keyDetected = true;
    }
  }

  // ---- checking -----------------------------------------------------------------------------

  private process(ev: Ev, late: boolean): void {
    if (late) this.problem(ev.line, 'starts before events the checker already passed (further out of order than its reorder buffer): checked in arrival order');
    const client = this.client(ev.client, ev.line);
    if (ev.record.kind === 'mark') {
      client.markCount++;
      this.processMark(ev, client);
      return;
    }
    client.commandCount++;
    if (this.lockKey === null || ev.record.kind !== 'command') return;
    const command = ev.record.command;
    for (const effect of this.effectsOf(ev, command.argv, command.reply, command.error)) this.apply(ev, client, effect);
  }

  /** Effects of one command, with MULTI/EXEC: queued commands take effect at EXEC, with its replies. */
  private effectsOf(ev: Ev, argv: readonly string[], reply: HistoryReply | undefined, error: string | undefined): LockEffect[] {
    const key = this.lockKey as string;
    const name = argv[0].toUpperCase();
    const conn = this.conns.get(ev.conn);
    if (conn !== undefined) {
      if (name === 'MULTI' && error === undefined) {
        conn.multi = [];
        return [];
      }
      if (name === 'DISCARD') {
        conn.multi = null;
        return [];
      }
      if (name === 'EXEC' && conn.multi !== null) {
        const queued = conn.multi;
        conn.multi = null;
        if (error !== undefined || reply === null) return [];
        const replies = Array.isArray(reply) ? reply : null;
        return queued.map((q, i) => {
          const r = replies === null ? undefined : replies[i];
          return this.countLock(lockEffect(q, key, { reply: r, error: undefined }, this.scripts), ev);
        });
      }
      if (conn.multi !== null && error === undefined) {
        if (conn.multi.length < MULTI_QUEUE_MAX) conn.multi.push(argv);
        return [];
      }
    }
    return [this.countLock(lockEffect(argv, key, { reply, error }, this.scripts), ev)];
  }

  private countLock(effect: LockEffect, ev: Ev): LockEffect {
    if (effect.op !== 'none') this.lockCommandCount++;
    if (effect.op === 'unknown') {
      this.unknowns.add(`Line ${ev.line} (${ev.client}): ${effect.why}: its effect on the lock key is unknown, so who owned the lock after it is uncertain.`);
      this.ownerUnknownSince = ev;
    }
    return effect;
  }

  private apply(ev: Ev, client: ClientState, effect: LockEffect): void {
    this.pruneExpired(ev);
    switch (effect.op) {
      case 'acquire':
        if (effect.applied === false) return;
        this.acquire(ev, client, effect.token, effect.ttlMs, effect.conditional, effect.applied === true);
        return;
      case 'remove':
        if (effect.token !== null) this.removeByToken(ev, client, effect.token, effect.applied);
        else this.removeWhatever(ev, client, effect.applied);
        return;
      case 'extend':
        this.extend(ev, effect.token, effect.ttlMs, effect.applied);
        return;
      case 'read':
      case 'none':
      case 'unknown':
        return;
    }
  }

  private acquire(ev: Ev, client: ClientState, token: string, ttlMs: number | null, conditional: boolean, sure: boolean): void {
    const candidates = this.candidates(ev);
    const own = this.byToken.get(token);
    if (conditional && own !== undefined && own.ended === null && own.client === client.id && candidates.includes(own)) {
      // A re-entrant lock taken again by its owner: the same version, its expiry renewed.
      own.expiry = ttlMs === null ? own.expiry : { lo: ev.t0 + ttlMs, hi: ev.t1 + ttlMs };
      return;
    }
    // A removal by another client that started earlier but may have run after this acquisition.
    this.pruneRecent(ev.t0);
    for (const r of this.recentRemovals) {
      if (r.ev.client !== client.id && !r.first && !r.matched) this.report('foreign-release', 'possible', [r.ev.client, client.id], `${r.ev.client}'s DEL may have run after ${client.id} acquired the lock`, [ev, r.ev]);
    }
    if (conditional) {
      // It set the key only if absent: every earlier version was gone by then.
      // Each stays a candidate for removals that start while this acquisition may not have run yet.
      for (const v of candidates) {
        if (!sure) this.end(v, ev, 'acquire');
        else if (v.displacedBy === null) {
          v.displacedWhileCertain = this.certainlyLive(v, ev);
          v.displacedBy = ev;
        }
      }
      if (sure) this.ownerUnknownSince = null;
    } else {
      for (const v of candidates) {
        if (v.client !== client.id) {
          const certain = sure && v.sure && this.certainlyLive(v, ev) && this.ownerKnown(v);
          this.report('foreign-release', certain ? 'certain' : 'possible', [client.id, v.client], `${client.id} overwrote ${v.client}'s lock`, [v.acquire, ev]);
        }
        this.end(v, ev, 'overwrite');
      }
    }
    const version: Version = {
      token,
      client: client.id,
      acquire: ev,
      sure,
      expiry: ttlMs === null ? null : { lo: ev.t0 + ttlMs, hi: ev.t1 + ttlMs },
      ended: null,
      supersededBy: null,
      displacedBy: null,
      displacedWhileCertain: false,
      heldTooLongReported: false,
    };
    client.acquisitionCount++;
    for (const [other, v] of this.unsuperseded) {
      if (other === client.id) continue;
      v.supersededBy = ev;
      this.unsuperseded.delete(other);
    }
    this.unsuperseded.set(client.id, version);
    this.byToken.delete(token);
    this.byToken.set(token, version);
    if (this.byToken.size > VERSIONS_BY_TOKEN_MAX) this.byToken.delete(this.byToken.keys().next().value as string);
    this.live.push(version);
    if (this.live.length > LIVE_VERSIONS_MAX) {
      const dropped = this.live.shift() as Version;
      this.problem(ev.line, `more than ${LIVE_VERSIONS_MAX} versions of the lock could be live at once; forgot the one from line ${dropped.acquire.line}`);
    }
    // Belief: another client that still believes it holds the lock, or let go only just now.
    if (client.holding !== null) this.letGo(client, ev, false);
    for (const other of this.clients.values()) {
      if (other === client) continue;
      if (other.holding !== null && other.pending.length < PENDING_PER_CLIENT_MAX) {
        other.pending.push({ first: other.holding.acquire, second: ev, secondClient: client.id, sure: sure && other.holding.sure });
      } else if (other.lastRelease !== null && !other.lastRelease.own && !other.lastRelease.first && other.lastRelease.ev.t1 > ev.t0) {
        const r = other.lastRelease;
        this.overlapFromAcquisitions('possible', other.id, client.id, [r.version.acquire, ev, r.ev]);
      }
    }
    client.holding = version;
    if (sure) this.matchOrphans(ev, client, version);
  }

  /**
   * A removal or extension that found nothing but answered "done" ran on something: if this
   * acquisition overlaps it (and has its token, when it names one), the reply says it ran after it, on it.
   */
  private matchOrphans(ev: Ev, client: ClientState, version: Version): void {
    for (const e of this.recentExtends) {
      if (e.matched || e.ev.t1 <= ev.t0 || (e.token !== null && e.token !== version.token)) continue;
      e.matched = true;
      version.expiry = e.ttlMs === null ? null : { lo: Math.max(e.ev.t0, ev.t0) + e.ttlMs, hi: e.ev.t1 + e.ttlMs };
    }
    for (const r of this.recentRemovals) {
      if (!r.orphan || r.matched || r.ev.t1 <= ev.t0 || (r.token !== null && r.token !== version.token)) continue;
      r.matched = true;
      this.end(version, r.ev, 'remove');
      if (r.ev.client === client.id) this.letGo(client, r.ev, true, true);
      return;
    }
  }

  /** Whether an acquisition that starts later could have run before `ev` (the reorder buffer holds what comes next). */
  private acquisitionMayFollow(ev: Ev): boolean {
    return ev.t1 > ev.t0;
  }

  /** Recent removals and extensions no acquisition starting at `t0` or later can precede any more. */
  private pruneRecent(t0: number): void {
    const gone = (r: RecentWrite) => r.ev.t1 <= t0;
    for (const r of this.recentRemovals) {
      if (gone(r) && r.orphan && !r.matched) this.unknowns.add(`Line ${r.ev.line}: ${r.ev.client} removed a lock value the recording never showed being written (written before the recording started, or by an unrecorded client).`);
    }
    for (const e of this.recentExtends) {
      if (gone(e) && e.orphan && !e.matched) this.unknowns.add(`Line ${e.ev.line}: ${e.ev.client} extended a lock value the recording never showed being written (written before the recording started, or by an unrecorded client).`);
    }
    if (this.recentRemovals.some(gone)) this.recentRemovals = this.recentRemovals.filter((r) => !gone(r));
    if (this.recentExtends.some(gone)) this.recentExtends = this.recentExtends.filter((e) => !gone(e));
  }

  private removeByToken(ev: Ev, client: ClientState, token: string, applied: boolean | null): void {
    const v = this.byToken.get(token);
    if (v === undefined) {
      if (applied === true) this.noteRemoval(ev, false, true, token);
      if (client.holding !== null) this.letGo(client, ev, false);
      return;
    }
    if (v.client !== client.id && applied !== false) {
      this.report('foreign-release', applied === true && v.sure ? 'certain' : 'possible', [client.id, v.client], `${client.id} released ${v.client}'s lock with its token (two clients share one token?)`, [v.acquire, ev]);
    }
    if (applied === false && v.ended === null && v.sure && this.certainlyLive(v, ev)) {
      this.problem(ev.line, `${ev.client}'s release found no lock with its token, yet line ${v.acquire.line}'s lock should still have been there (an unrecorded client?)`);
    }
    const first = applied === true && v.sure && this.certainlyLive(v, ev);
    if (applied !== false) this.noteRemoval(ev, first, false, token);
    if (v.ended === null && applied !== null) this.end(v, ev, applied ? 'remove' : 'gone');
    if (client.holding !== null) this.letGo(client, ev, applied === true && client.holding === v, first);
  }

  private noteRemoval(ev: Ev, first: boolean, orphan: boolean, token: string | null): void {
    this.recentRemovals.push({ ev, first, orphan, token, matched: false });
    if (this.recentRemovals.length > PENDING_PER_CLIENT_MAX) this.pruneRecent((this.recentRemovals.shift() as RecentWrite).ev.t1);
  }

  private removeWhatever(ev: Ev, client: ClientState, applied: boolean | null): void {
    const candidates = this.candidates(ev);
    if (applied !== false) {
      const foreign = candidates.filter((v) => v.client !== client.id);
      if (foreign.length > 0) {
        const certain = applied === true && foreign.length === candidates.length && foreign.every((v) => v.sure && this.ownerKnown(v));
        const owners = [...new Set(foreign.map((v) => v.client))];
        this.report('foreign-release', certain ? 'certain' : 'possible', [client.id, ...owners], `${client.id} deleted ${owners.join(' or ')}'s lock`, [foreign[foreign.length - 1].acquire, ev]);
      }
    } else {
      for (const v of candidates) {
        if (v.sure && this.certainlyLive(v, ev)) this.problem(ev.line, `${ev.client}'s DEL found no key, yet line ${v.acquire.line}'s lock should still have been there (an unrecorded client?)`);
      }
    }
    // A version certainly there through the whole removal: any acquisition that starts later ran after it.
    const first = applied === true && candidates.some((v) => v.sure && this.certainlyLive(v, ev));
    if (applied !== false) this.noteRemoval(ev, first, applied === true && candidates.length === 0, null);
    if (applied === true && candidates.length > 1) {
      // It removed one of them: the older ones were gone by then in either order, the newest may live on.
      const newest = candidates.reduce((a, b) => (b.acquire.t0 > a.acquire.t0 ? b : a));
      for (const v of candidates) if (v !== newest) this.end(v, ev, 'remove');
      newest.sure = false;
    } else if (applied !== null) for (const v of candidates) this.end(v, ev, applied ? 'remove' : 'gone');
    if (client.holding !== null) {
      const own = applied === true && candidates.length === 1 && candidates[0] === client.holding;
      this.letGo(client, ev, own, first);
    }
  }

  private extend(ev: Ev, token: string | null, ttlMs: number | null, applied: boolean | null): void {
    if (applied === false) return;
    const targets = (token === null ? this.candidates(ev) : [this.byToken.get(token)].filter((v): v is Version => v !== undefined)).filter((v) => v.ended === null);
    // A PEXPIRE names no token: it may have run on a version an acquisition that starts later wrote.
    const mayBeLater = applied === true && (targets.length === 0 || token === null);
    if (mayBeLater) {
      this.recentExtends.push({ ev, first: false, orphan: targets.length === 0, token, matched: false, ttlMs });
      if (this.recentExtends.length > PENDING_PER_CLIENT_MAX) this.recentExtends.shift();
    }
    const sureOfTarget = applied === true && !(token === null && (targets.length > 1 || this.acquisitionMayFollow(ev)));
    for (const v of targets) {
      const expiry = ttlMs === null ? null : { lo: ev.t0 + ttlMs, hi: ev.t1 + ttlMs };
      // Not sure it extended this one (an unknown reply, or another version it may have run on): keep the widest interval.
      v.expiry = sureOfTarget || v.expiry === null || expiry === null ? expiry : { lo: v.expiry.lo, hi: Math.max(v.expiry.hi, expiry.hi) };
    }
  }

  /** The client's belief that it holds the lock ends at `ev`; `own`: the reply shows it removed its own version. */
  private letGo(client: ClientState, ev: Ev, own: boolean, first = false): void {
    const version = client.holding as Version;
    for (const p of client.pending) {
      if (own) {
        if (p.second.t1 < ev.t0 && p.sure) {
          this.problem(ev.line, `${client.id} removed its own lock (line ${version.acquire.line}) after ${p.secondClient} acquired it (line ${p.second.line}): the replies contradict each other`);
        }
        continue;
      }
      const certain = p.sure && p.second.t1 < ev.t0;
      this.overlapFromAcquisitions(certain ? 'certain' : 'possible', client.id, p.secondClient, [p.first, p.second, ev]);
    }
    client.pending = [];
    client.holding = null;
    client.lastRelease = { ev, own, first, version };
  }

  private overlapFromAcquisitions(certainty: Certainty, first: string, second: string, evidence: Ev[]): void {
    const found = {
      kind: 'mutual-exclusion' as const,
      certainty,
      clients: [second, first],
      message: `${second} acquired the lock while ${first} still believed it held it (from ${first}'s acquisition to its release)`,
      evidence,
    };
    if (this.acquisitionOverlaps.length < VIOLATIONS_LISTED_MAX) this.acquisitionOverlaps.push(found);
    else this.foundNotListed++;
  }

  private processMark(ev: Ev, client: ClientState): void {
    const mark = ev.record.kind === 'mark' ? ev.record.mark : null;
    if (mark === null) return;
    client.hasMarks = true;
    if (mark.mark === 'enter') {
      for (const other of this.clients.values()) {
        if (other === client) continue;
        if (other.inSection !== null && other.sectionPending.length < PENDING_PER_CLIENT_MAX) {
          other.sectionPending.push({ first: other.inSection, second: ev, secondClient: client.id, sure: true });
        } else if (other.lastLeave !== null && other.lastLeave.ev.t1 > ev.t0) {
          this.reportOverlap('possible', other.id, client.id, [other.lastLeave.enter, ev, other.lastLeave.ev]);
        }
      }
      client.inSection = ev;
    } else if (mark.mark === 'leave') {
      for (const p of client.sectionPending) this.reportOverlap(p.second.t1 < ev.t0 ? 'certain' : 'possible', client.id, p.secondClient, [p.first, p.second, ev]);
      client.sectionPending = [];
      if (client.inSection !== null) client.lastLeave = { ev, enter: client.inSection };
      client.inSection = null;
    } else this.write(ev, client, mark.resource ?? '', mark.token ?? '');
  }

  private reportOverlap(certainty: Certainty, first: string, second: string, evidence: Ev[]): void {
    this.report('mutual-exclusion', certainty, [second, first], `${second} entered the critical section while ${first} was in it`, evidence);
  }

  private write(ev: Ev, client: ClientState, resource: string, token: string): void {
    const v = this.byToken.get(token);
    const superseding = v?.supersededBy ?? null;
    if (v !== undefined && superseding !== null && superseding.t0 < ev.t1) {
      const certain = superseding.t1 < ev.t0 && v.sure;
      this.report('stale-write', certain ? 'certain' : 'possible', [client.id, superseding.client], `${client.id} wrote ${resource} with token ${token} after ${superseding.client} acquired the lock`, [v.acquire, superseding, ev]);
      return;
    }
    if (!/^[0-9]{1,30}$/.test(token)) return;
    const value = BigInt(token);
    const seen = this.resources.get(resource);
    if (seen !== undefined && value < seen.token && seen.ev.t0 < ev.t1) {
      const certain = seen.ev.t1 < ev.t0;
      this.report('stale-write', certain ? 'certain' : 'possible', [client.id, seen.ev.client], `${client.id} wrote ${resource} with fencing token ${token} after ${seen.ev.client} wrote it with ${seen.token}`, [seen.ev, ev]);
      return;
    }
    if (seen === undefined && this.resources.size >= RESOURCES_MAX) {
      this.unknowns.add(`More than ${RESOURCES_MAX} resources written: fencing order checked for the first ${RESOURCES_MAX} only.`);
      return;
    }
    if (seen === undefined || value > seen.token) this.resources.set(resource, { token: value, ev });
  }

  // ---- versions -----------------------------------------------------------------------------

  /** Versions that may have been the key's value when `ev` ran. */
  private candidates(ev: Ev): Version[] {
    return this.live.filter((v) => v.ended === null && (v.displacedBy === null || v.displacedBy.t1 > ev.t0) && v.acquire.t0 < ev.t1 && (v.expiry === null || v.expiry.hi > ev.t0));
  }

  /** Certainly written before `ev` ran and certainly not expired by then. */
  private certainlyLive(v: Version, ev: Ev): boolean {
    return v.ended === null && v.displacedBy === null && v.acquire.t1 < ev.t0 && (v.expiry === null || v.expiry.lo > ev.t1);
  }

  /** No command of unknown effect on the key since the version was written. */
  private ownerKnown(v: Version): boolean {
    return this.ownerUnknownSince === null || this.ownerUnknownSince.t1 < v.acquire.t0;
  }

  private end(v: Version, ev: Ev | null, by: NonNullable<Version['ended']>['by']): void {
    if (v.ended !== null) return;
    v.ended = { ev, by };
    this.live = this.live.filter((x) => x !== v);
    this.checkHold(v, false);
  }

  /** Versions certainly expired before `ev` leave the live list; so do displaced ones no removal explained. */
  private pruneExpired(ev: Ev | null): void {
    if (this.live.length === 0) return;
    const t0 = ev?.t0 ?? Infinity;
    if (!this.live.some((v) => v.displacedBy !== null || (v.expiry !== null && v.expiry.hi <= t0))) return;
    for (const v of [...this.live]) {
      const by = v.displacedBy;
      if (v.ended === null && by !== null && (ev === null || by.t1 <= ev.t0)) {
        if (v.displacedWhileCertain) {
          this.problem(by.line, `${by.client}'s acquisition succeeded while ${v.client}'s lock (line ${v.acquire.line}) should still have been there: a command the recording does not have removed it (an unrecorded client?)`);
        }
        this.end(v, by, 'acquire');
      } else if (v.ended === null && v.expiry !== null && v.expiry.hi <= (ev?.t0 ?? -Infinity)) this.end(v, null, 'expire');
    }
  }

  /** How long the version held the key: from its write to its removal or expiry. */
  private checkHold(v: Version, recordingEnded: boolean): void {
    const limitMs = this.options.maxHoldMs;
    if (limitMs === undefined || v.heldTooLongReported) return;
    const endEv = v.ended?.ev ?? null;
    let endLo = endEv?.t0 ?? Infinity;
    let endHi = endEv?.t1 ?? Infinity;
    if (v.expiry !== null) {
      endLo = Math.min(endLo, v.expiry.lo);
      endHi = Math.min(endHi, v.expiry.hi);
    }
    if (recordingEnded) {
      const last = this.toMs ?? v.acquire.t1;
      endLo = Math.min(endLo, last);
      endHi = Math.min(endHi, last);
    }
    const certain = endLo - v.acquire.t1 > limitMs;
    const possible = endHi - v.acquire.t0 > limitMs;
    if (!possible) return;
    v.heldTooLongReported = true;
    const evidence = endEv === null ? [v.acquire] : [v.acquire, endEv];
    const heldMs = Math.round(Math.max(0, endLo - v.acquire.t1));
    this.report('lock-held-too-long', certain ? 'certain' : 'possible', [v.client], `${v.client} held the lock ${certain ? `${heldMs} ms` : 'possibly'} longer than ${limitMs} ms`, evidence);
  }

  private endOfHistory(): void {
    this.pruneExpired(null);
    this.pruneRecent(Infinity);
    for (const client of this.clients.values()) {
      // Marks say the first client was inside and never said it left: possible, as it may have crashed there.
      for (const p of client.sectionPending) this.reportOverlap('possible', client.id, p.secondClient, [p.first, p.second]);
      // The recording ends with the first client still holding: it may have stopped (crashed) or not.
      for (const p of client.pending) {
        this.unknowns.add(
          `${client.id} (line ${p.first.line}) never let go in the recording, and ${p.secondClient} went ahead at line ${p.second.line}: mutual exclusion if ${client.id} was still running then; the recording cannot tell whether it had stopped.`,
        );
      }
    }
    const lastMs = this.toMs ?? 0;
    for (const v of this.live) {
      if (v.ended !== null) continue;
      if (v.expiry === null) {
        this.report('lock-never-released', v.sure && this.ownerKnown(v) ? 'certain' : 'possible', [v.client], `${v.client}'s lock has no expiry and was never released: nobody else can acquire it`, [v.acquire]);
      }
      if (v.expiry === null || v.expiry.lo > lastMs) this.checkHold(v, true);
      else this.checkHold(v, false);
    }
    for (const found of this.acquisitionOverlaps) {
      const marked = found.clients.some((id) => this.clients.get(id)?.hasMarks === true);
      // Marks say when each client was really inside: they decide mutual exclusion for those clients.
      if (!marked) this.pushFound(found);
    }
    if (this.repliesMissing > 0 && this.commandCount > 0) {
      this.unknowns.add(`${this.repliesMissing} of ${this.commandCount} commands have no reply: their success is inferred, and violations that depend on them are at most possible.`);
    }
    if (this.lockKey === null) this.unknowns.add('No SET ... NX in the history: no lock key found (give --lock-key).');
  }

  // ---- output -------------------------------------------------------------------------------

  private report(kind: HistoryViolationKind, certainty: Certainty, clients: readonly string[], message: string, evidence: Ev[]): void {
    this.pushFound({ kind, certainty, clients, message, evidence });
  }

  private pushFound(found: Found): void {
    if (this.found.length >= VIOLATIONS_LISTED_MAX) {
      this.foundNotListed++;
      return;
    }
    this.found.push(found);
  }

  private problem(line: number, message: string): void {
    if (this.problems.length >= PROBLEMS_LISTED_MAX) this.problemsNotListed++;
    else this.problems.push({ line, message });
  }

  private client(id: string, line: number): ClientState {
    let state = this.clients.get(id);
    if (state === undefined) {
      state = {
        id,
        commandCount: 0,
        markCount: 0,
        acquisitionCount: 0,
        firstLine: line,
        lastLine: line,
        holding: null,
        pending: [],
        lastRelease: null,
        inSection: null,
        sectionPending: [],
        lastLeave: null,
        hasMarks: false,
      };
      this.clients.set(id, state);
    }
    state.firstLine = Math.min(state.firstLine, line);
    state.lastLine = Math.max(state.lastLine, line);
    return state;
  }

  private verdict(): HistoryVerdict {
    const evidence = (e: Ev): EvidenceEvent => ({ line: e.line, client: e.client, text: eventText(e.record), startMs: e.t0 + this.skewHalfMs, endMs: e.t1 - this.skewHalfMs });
    const violations: HistoryViolation[] = this.found
      .map((f) => ({ kind: f.kind, certainty: f.certainty, clients: f.clients, message: f.message, evidence: uniqueByLine(f.evidence).map(evidence) }))
      .sort((a, b) => (a.evidence.at(-1)?.line ?? 0) - (b.evidence.at(-1)?.line ?? 0));
    const clients: ClientLane[] = [...this.clients.values()]
      .map((c) => ({ client: c.id, commandCount: c.commandCount, markCount: c.markCount, acquisitionCount: c.acquisitionCount, firstLine: c.firstLine, lastLine: c.lastLine }))
      .sort((a, b) => a.firstLine - b.firstLine);
    return {
      lockKey: this.lockKey,
      lockKeyFrom: this.lockKey === null ? 'none' : this.lockKeyFrom,
      lineCount: this.lineCount,
      commandCount: this.commandCount,
      markCount: this.markCount,
      lockCommandCount: this.lockCommandCount,
      clients,
      violations,
      violationsNotListed: this.foundNotListed,
      problems: [...this.problems].sort((a, b) => a.line - b.line),
      problemsNotListed: this.problemsNotListed,
      unknowns: [...this.unknowns],
      fromMs: this.fromMs,
      toMs: this.toMs,
    };
  }
}

/** Checks a whole history held in memory (tests, the page). */
export function checkHistoryText(text: string, options: CheckOptions = {}): HistoryVerdict {
  const checker = new HistoryChecker(options);
  const lines = text.split('\n');
  lines.forEach((line, i) => checker.pushLine(line, i + 1));
  return checker.finish();
}

/** An event in a few words, made only for the evidence (never per line: 1M lines must stay cheap). */
function eventText(record: HistoryRecord): string {
  if (record.kind === 'command') {
    const c = record.command;
    const reply = c.error !== undefined ? `(error) ${c.error}` : c.reply === undefined ? '?' : replyText(c.reply);
    return clip(`${c.argv.map(argText).join(' ')} -> ${reply}`);
  }
  if (record.kind === 'mark') {
    const m = record.mark;
    return clip(m.mark === 'write' ? `mark write ${m.resource ?? ''} ${m.token ?? ''}` : `mark ${m.mark}`);
  }
  return 'header';
}

function uniqueByLine(events: readonly Ev[]): Ev[] {
  return [...new Map(events.map((e) => [e.line, e])).values()].sort((a, b) => a.line - b.line);
}

function replyText(reply: HistoryReply): string {
  if (reply === null) return '(nil)';
  if (typeof reply === 'number') return `(integer) ${reply}`;
  if (typeof reply === 'string') return argText(reply);
  return `[${reply.map(replyText).join(', ')}]`;
}

function argText(arg: string): string {
  const short = arg.length > 40 ? `${arg.slice(0, 40)}…` : arg;
  return /^[\x21-\x7e]+$/.test(short) ? short : JSON.stringify(short);
}

function clip(text: string): string {
  return text.length > TEXT_CHARS_MAX ? `${text.slice(0, TEXT_CHARS_MAX)}…` : text;
}
