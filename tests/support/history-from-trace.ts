import type { HistoryCommand, HistoryMark } from '../../src/history/format';
import { historyReply } from '../../src/history/engine-reply';
import type { Trace } from '../../src/engine/trace';

/**
 * A simulated run written as a recorded history (docs/HISTORIES.md): each command a line with its
 * reply, enter/leave/accepted writes as marks. Each event gets a point in time that keeps the
 * trace's order (its virtual ms plus a fraction by its position), then an interval around it:
 * `widenMs(index)` says how far each side, so a test can make orders uncertain on purpose while
 * the true order stays one of those the recording allows.
 */
export const HISTORY_EPOCH_MS = 1_700_000_000_000;

export interface TraceHistoryOptions {
  /** How far before and after its true instant each event's interval reaches (default none). */
  readonly widenMs?: (index: number) => readonly [number, number];
}

export function historyOfTrace(trace: Trace, options: TraceHistoryOptions = {}): string[] {
  const lines: string[] = [];
  const tokens = new Map<string, string>();
  const count = trace.events.length + 1;
  trace.events.forEach((event, index) => {
    const client = event.clientId;
    if (client === null) return;
    const point = HISTORY_EPOCH_MS + event.atMs + index / count;
    const [before, after] = options.widenMs?.(lines.length) ?? [0, 0];
    if (event.kind === 'command') {
      if (event.node !== undefined) return;
      const name = event.argv[0]?.toUpperCase();
      if ((name === 'SET' && event.argv.some((a) => a.toUpperCase() === 'NX')) || name === 'SETNX') tokens.set(client, event.argv[2] ?? '');
      const end = point + after + Math.max(0, (event.replyAtMs ?? event.atMs) - event.atMs);
      const reply = event.reply;
      const command: HistoryCommand = {
        client,
        argv: [...event.argv],
        ...(reply === null ? {} : reply.type === 'error' ? { error: reply.value } : { reply: historyReply(reply) }),
        startMs: point - before - HISTORY_EPOCH_MS,
        endMs: end - HISTORY_EPOCH_MS,
        startWallMs: point - before,
        endWallMs: end,
      };
      lines.push(JSON.stringify(command));
      return;
    }
    let mark: HistoryMark | null = null;
    if (event.kind === 'enter' || event.kind === 'leave') mark = { client, mark: event.kind, atMs: point - HISTORY_EPOCH_MS, atWallMs: point };
    if (event.kind === 'write' && event.accepted) {
      mark = { client, mark: 'write', resource: event.resource, token: tokens.get(client) ?? '', atMs: point - HISTORY_EPOCH_MS, atWallMs: point };
    }
    if (mark !== null) lines.push(JSON.stringify(mark));
  });
  return lines;
}
