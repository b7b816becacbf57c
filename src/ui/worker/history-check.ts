/**
 * A recorded history (docs/HISTORIES.md) read in chunks and checked by src/history, for the page's
 * Import: the verdict, and the lanes a read-only timeline
 * draws (each client's recorded commands, bounded; every violation's evidence always included).
 * Pure (no DOM): it runs in the history worker, and on the calling thread in tests.
 */
import { HISTORY_LINE_BYTES_MAX, HistoryChecker, MonitorImport, type HistoryCommand, type HistoryVerdict } from '../../history';
import type { HistoryFormat } from './history-check-protocol';

/** Events drawn on the lanes (the first ones; evidence events are added beyond it). */
const LANE_EVENTS_MAX = 2000;

/** One recorded event on a lane. */
export interface HistoryLaneEvent {
  readonly line: number;
  readonly client: string;
  /** A few words: `SET lock` or `mark enter`. */
  readonly label: string;
  readonly startMs: number;
  readonly endMs: number;
  /** It touches the lock key (drawn on the Redis row too). */
  readonly onLock: boolean;
}

export interface HistoryReport {
  readonly fileName: string;
  readonly format: HistoryFormat;
  readonly verdict: HistoryVerdict;
  /** Events to draw, in line order. */
  readonly events: readonly HistoryLaneEvent[];
  /** Recorded events beyond the drawing's bound. */
  readonly eventsNotShown: number;
}

/** Reads a history chunk by chunk (any split), checks it, and keeps the first events for the lanes. */
export class HistoryReading {
  private readonly checker = new HistoryChecker();
  private readonly monitor: MonitorImport | null;
  private readonly events: HistoryLaneEvent[] = [];
  private eventsNotShown = 0;
  private tail = '';
  /** Characters of the current line while it is over the bound (-1: it is not). */
  private skippedChars = -1;
  private line = 0;
  /** The lock key the lanes mark: the first SET ... NX's key (the checker's default). */
  private lockKey: string | null = null;

  constructor(
    private readonly fileName: string,
    private readonly format: HistoryFormat,
  ) {
    this.monitor = format === 'monitor' ? new MonitorImport() : null;
    if (this.monitor !== null) this.checker.push({ kind: 'header', line: 0, header: { history: 1, recorder: 'monitor', repliesKnown: false } });
  }

  push(chunk: string): void {
    let text = chunk;
    if (this.skippedChars >= 0) {
      // The rest of a line over the bound: counted, never kept, up to its end.
      const end = text.indexOf('\n');
      if (end < 0) {
        this.skippedChars += text.length;
        return;
      }
      this.line++;
      this.checker.pushTooLong(this.line, this.skippedChars + end);
      this.skippedChars = -1;
      text = text.slice(end + 1);
    }
    const parts = (this.tail + text).split('\n');
    this.tail = parts.pop() ?? '';
    for (const line of parts) this.pushLine(line);
    if (this.tail.length > HISTORY_LINE_BYTES_MAX) {
      this.skippedChars = this.tail.length;
      this.tail = '';
    }
  }

  finish(): HistoryReport {
    if (this.skippedChars >= 0) this.checker.pushTooLong(++this.line, this.skippedChars);
    else if (this.tail !== '') this.pushLine(this.tail);
    this.skippedChars = -1;
    this.tail = '';
    const verdict = this.checker.finish();
    const shown = new Set(this.events.map((e) => e.line));
    // Every violation's evidence is drawn, even past the bound.
    for (const violation of verdict.violations) {
      for (const e of violation.evidence) {
        if (shown.has(e.line)) continue;
        shown.add(e.line);
        this.events.push({ line: e.line, client: e.client, label: e.text.split(' -> ')[0].split(' ').slice(0, 2).join(' '), startMs: e.startMs, endMs: e.endMs, onLock: true });
      }
    }
    this.events.sort((a, b) => a.line - b.line);
    return { fileName: this.fileName, format: this.format, verdict, events: this.events, eventsNotShown: this.eventsNotShown };
  }

  private pushLine(text: string): void {
    this.line++;
    const line = this.line;
    if (text.length > HISTORY_LINE_BYTES_MAX) {
      this.checker.pushTooLong(line, text.length);
      return;
    }
    if (this.monitor === null) {
      this.checker.pushLine(text, line);
      if (text.trim() !== '') this.keepJsonEvent(text, line);
      return;
    }
    const command = this.monitor.line(text, line);
    if (command === null) return;
    if ('message' in command) this.checker.pushProblem(line, command.message);
    else {
      this.checker.push({ kind: 'command', line, command });
      this.keepCommand(command, line);
    }
  }

  /** Reads the line again only while the lanes have room: past the bound it costs nothing. */
  private keepJsonEvent(text: string, line: number): void {
    if (this.events.length >= LANE_EVENTS_MAX) {
      this.eventsNotShown++;
      return;
    }
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    if (Array.isArray(data.argv) && typeof data.client === 'string') this.keepCommand(data as unknown as HistoryCommand, line);
    else if (typeof data.mark === 'string' && typeof data.client === 'string' && typeof data.atWallMs === 'number') {
      const label = data.mark === 'write' ? `write ${String(data.resource ?? '')}` : `mark ${data.mark}`;
      this.events.push({ line, client: data.client, label, startMs: data.atWallMs, endMs: data.atWallMs, onLock: false });
    }
  }

  private keepCommand(command: HistoryCommand, line: number): void {
    const argv = command.argv.map(String);
    const name = argv[0].toUpperCase();
    if (this.lockKey === null && (name === 'SETNX' || (name === 'SET' && argv.slice(3).some((a) => a.toUpperCase() === 'NX')))) this.lockKey = argv[1] ?? null;
    if (this.events.length >= LANE_EVENTS_MAX) {
      this.eventsNotShown++;
      return;
    }
    if (typeof command.startWallMs !== 'number' || typeof command.endWallMs !== 'number') return;
    const keys = name === 'EVAL' || name === 'EVALSHA' ? argv.slice(3, 3 + Number(argv[2] ?? 0)) : argv.slice(1, 2);
    const label = `${name} ${name === 'EVAL' || name === 'EVALSHA' ? (keys[0] ?? '') : (argv[1] ?? '')}`.trim();
    this.events.push({ line, client: command.client, label: label.length > 40 ? `${label.slice(0, 40)}…` : label, startMs: command.startWallMs, endMs: command.endWallMs, onLock: this.lockKey !== null && keys.includes(this.lockKey) });
  }
}

/** A whole text (tests, the page without workers). */
export function checkHistoryFileText(text: string, fileName: string, format: HistoryFormat): HistoryReport {
  const reading = new HistoryReading(fileName, format);
  reading.push(text);
  return reading.finish();
}
