/**
 * Intake: each record becomes an event on the checker's timeline (an interval widened by the clock
 * skew allowed), counted, with the checks one line allows on its own: replies on a connection come
 * in order, and a wall clock keeps pace with its monotonic clock. It also finds the lock key from
 * the first SET ... NX when none was given.
 */
import type { HistoryRecord } from './format';
import type { Findings } from './findings';
import type { Ev } from './model';

const CONNECTIONS_MAX = 100_000;
/** A wall clock that moves this much more or less than the monotonic clock between two lines was stepped. */
const CLOCK_STEP_MS = 1000;

/** A connection: its last reply's end, and the commands a MULTI queued on it (null: none open). */
export interface ConnState {
  lastEndMs: number;
  multi: (readonly string[])[] | null;
}

interface ClockState {
  /** Wall minus monotonic at the clock's first line. */
  readonly offsetMs: number;
  stepped: boolean;
}

export class Intake {
  lockKey: string | null;
  lineCount = 0;
  commandCount = 0;
  markCount = 0;
  repliesMissing = 0;
  fromMs: number | null = null;
  toMs: number | null = null;
  private keyDetected: boolean;
  private readonly conns = new Map<string, ConnState>();
  private readonly clocks = new Map<string, ClockState>();

  constructor(
    private readonly findings: Findings,
    readonly skewHalfMs: number,
    lockKey: string | undefined,
  ) {
    this.lockKey = lockKey ?? null;
    this.keyDetected = lockKey !== undefined;
  }

  noteLine(line: number): void {
    this.lineCount = Math.max(this.lineCount, line);
  }

  /** The event of a command or mark (null: a header), with its clock checks done and the lock key looked for. */
  accept(record: HistoryRecord): Ev | null {
    const ev = this.event(record);
    if (ev !== null && !this.keyDetected && record.kind === 'command') this.detectKey(record.command.argv);
    return ev;
  }

  /** The connection's state (undefined once forgotten past the bound). */
  connection(conn: string): ConnState | undefined {
    return this.conns.get(conn);
  }

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
    if (endMs < state.lastEndMs) this.findings.problem(line, { key: 'hConnBackwards', params: { conn, endMs, lastEndMs: state.lastEndMs } });
    else state.lastEndMs = endMs;
    const clockState = this.clocks.get(clock);
    if (clockState === undefined) {
      if (this.clocks.size < CONNECTIONS_MAX) this.clocks.set(clock, { offsetMs: startWallMs - startMs, stepped: false });
    } else if (!clockState.stepped && Math.abs(endWallMs - endMs - clockState.offsetMs) > CLOCK_STEP_MS) {
      clockState.stepped = true;
      const ms = Math.round(endWallMs - endMs - clockState.offsetMs);
      this.findings.problem(line, clock === '' ? { key: 'hClockStepped', params: { ms } } : { key: 'hNamedClockStepped', params: { clock, ms } });
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
}
