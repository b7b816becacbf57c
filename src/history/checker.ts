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
 *
 * This file wires the parts, each with one job: intake.ts (events and clock checks), commands.ts
 * (a command's effect, MULTI/EXEC), ownership.ts over versions.ts and recent-writes.ts (who owned
 * the key), beliefs.ts (who thought it did), marks.ts and writes.ts (critical sections, stale and
 * fenced writes), hold.ts (holds too long), findings.ts and report.ts (what is reported).
 */
import { Beliefs } from './beliefs';
import { CommandEffects } from './commands';
import { Findings } from './findings';
import { HISTORY_LINE_BYTES_MAX, parseHistoryLine, type HistoryRecord } from './format';
import { Intake } from './intake';
import { Marks } from './marks';
import type { Ev } from './model';
import { Ownership } from './ownership';
import { RecentWrites } from './recent-writes';
import { violationsOf } from './report';
import { ReorderBuffer } from './reorder';
import type { HistoryVerdict } from './verdict';
import { Versions } from './versions';
import { WriteMarks } from './writes';

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

const DEFAULT_REORDER_CAPACITY = 65_536;

export class HistoryChecker {
  private readonly lockKeyFrom: 'option' | 'detected';
  private readonly findings = new Findings();
  private readonly intake: Intake;
  private readonly reorder: ReorderBuffer<Ev>;
  private readonly versions: Versions;
  private readonly beliefs: Beliefs;
  private readonly recent: RecentWrites;
  private readonly commands: CommandEffects;
  private readonly ownership: Ownership;
  private readonly marks: Marks;
  private finished = false;

  constructor(options: CheckOptions = {}) {
    this.lockKeyFrom = options.lockKey !== undefined ? 'option' : 'detected';
    this.intake = new Intake(this.findings, (options.clockSkewMs ?? 0) / 2, options.lockKey);
    this.reorder = new ReorderBuffer<Ev>(options.reorderCapacity ?? DEFAULT_REORDER_CAPACITY);
    this.versions = new Versions(this.findings, options.maxHoldMs, () => this.intake.toMs);
    this.beliefs = new Beliefs(this.findings);
    this.recent = new RecentWrites(this.findings);
    this.commands = new CommandEffects(this.intake, this.findings, this.versions);
    this.ownership = new Ownership(this.findings, this.versions, this.beliefs, this.recent);
    this.marks = new Marks(this.findings, this.beliefs, new WriteMarks(this.findings, this.versions));
  }

  /** One line of the file (1-based number). */
  pushLine(text: string, line: number): void {
    this.intake.noteLine(line);
    const parsed = parseHistoryLine(text, line);
    if (parsed === null) return;
    if ('message' in parsed) this.findings.inputProblem(parsed.line, parsed.message);
    else this.push(parsed);
  }

  /** A line another reader (MONITOR import) could not read. */
  pushProblem(line: number, message: string): void {
    this.intake.noteLine(line);
    this.findings.inputProblem(line, message);
  }

  /** A line longer than the reader's bound: skipped, and said. */
  pushTooLong(line: number, size: number): void {
    this.intake.noteLine(line);
    this.findings.problem(line, { key: 'hLineTooLong', params: { size, max: HISTORY_LINE_BYTES_MAX } });
  }

  push(record: HistoryRecord): void {
    this.intake.noteLine(record.line);
    if (record.kind === 'header') {
      if (record.header.repliesKnown === false) this.findings.unknown({ key: 'hNoReplies' });
      return;
    }
    const ev = this.intake.accept(record);
    if (ev === null) return;
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

  /** One event, in start order: a mark, or a command's effects on the lock key. */
  private process(ev: Ev, late: boolean): void {
    if (late) this.findings.problem(ev.line, { key: 'hLate' });
    const client = this.beliefs.client(ev.client, ev.line);
    if (ev.record.kind === 'mark') {
      client.markCount++;
      this.marks.mark(ev, client);
      return;
    }
    client.commandCount++;
    const lockKey = this.intake.lockKey;
    if (lockKey === null || ev.record.kind !== 'command') return;
    const command = ev.record.command;
    for (const effect of this.commands.of(ev, lockKey, command.argv, command.reply, command.error)) this.ownership.apply(ev, client, effect);
  }

  private endOfHistory(): void {
    this.versions.pruneExpired(null);
    this.recent.prune(Infinity);
    this.marks.atEnd();
    this.beliefs.atEnd();
    this.versions.atEnd();
    for (const found of this.findings.acquisitionOverlaps) {
      const marked = found.clients.some((id) => this.beliefs.clients.get(id)?.hasMarks === true);
      // Marks say when each client was really inside: they decide mutual exclusion for those clients.
      if (!marked) this.findings.push(found);
    }
    const { repliesMissing, commandCount } = this.intake;
    if (repliesMissing > 0 && commandCount > 0) {
      this.findings.unknown({ key: 'hRepliesMissing', params: { missing: repliesMissing, total: commandCount } });
    }
    if (this.intake.lockKey === null) this.findings.unknown({ key: 'hNoLockKey' });
  }

  private verdict(): HistoryVerdict {
    const { intake, findings } = this;
    return {
      lockKey: intake.lockKey,
      lockKeyFrom: intake.lockKey === null ? 'none' : this.lockKeyFrom,
      lineCount: intake.lineCount,
      commandCount: intake.commandCount,
      markCount: intake.markCount,
      lockCommandCount: this.commands.lockCommandCount,
      clients: this.beliefs.lanes(),
      violations: violationsOf(findings.found, intake.skewHalfMs),
      violationsNotListed: findings.foundNotListed,
      problems: [...findings.problems].sort((a, b) => a.line - b.line),
      problemsNotListed: findings.problemsNotListed,
      unknowns: [...findings.unknowns.keys()],
      unknownRefs: [...findings.unknowns.values()],
      fromMs: intake.fromMs,
      toMs: intake.toMs,
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
