/**
 * `redis-cli MONITOR` output as a history: every command the server ran, in the server's order,
 * with the server's time, but no replies and no client names beyond an address. The replies are
 * worked out by running the same commands, in the same order and at the same server times, on
 * Lockstep's simulated Redis (exact for the lock's commands and scripts); what it cannot know is
 * what was in Redis before MONITOR started and what each client was told, and the header says so.
 */
import { SimRedisServer } from '../engine/redis/server';
import { historyReply } from './engine-reply';
import type { HistoryCommand, LineProblem } from './format';

/** `1733300000.123456 [0 127.0.0.1:52345] "SET" "lock" "x"`, or `[0 lua]` for a script's own calls. */
const MONITOR_LINE = /^(\d+)\.(\d{1,6}) \[(\d+) ([^\]]+)\] (.*)$/;

export class MonitorImport {
  private server: SimRedisServer | null = null;
  private firstMs = 0;

  /** A history command for one MONITOR line; null for lines that are not commands (OK, a script's inner calls). */
  line(text: string, line: number): HistoryCommand | LineProblem | null {
    const trimmed = text.trim();
    if (trimmed === '' || trimmed === 'OK') return null;
    const m = MONITOR_LINE.exec(trimmed);
    if (m === null) return { line, message: 'not a MONITOR line (want: <seconds>.<micros> [<db> <address>] "ARG" ...)' };
    const [, seconds, micros, db, address, rest] = m;
    // A script's calls ran inside its EVAL, which the simulated server runs itself.
    if (address === 'lua') return null;
    const argv = parseQuoted(rest);
    if (argv === null || argv.length === 0) return { line, message: 'a MONITOR line whose arguments are not a list of quoted strings (truncated?)' };
    const wallMs = Number(seconds) * 1000 + Number(micros.padEnd(6, '0')) / 1000;
    if (this.server === null) {
      // The simulated server's clock starts at the first line, in whole ms as Redis keeps expiries.
      this.firstMs = Math.floor(wallMs);
      this.server = new SimRedisServer({ unixEpochMs: this.firstMs });
    }
    const nowMs = Math.max(0, Math.floor(wallMs) - this.firstMs);
    if (db !== '0') this.server.execute(['SELECT', db], nowMs, address);
    const reply = this.server.execute(argv, nowMs, address);
    this.server.takePushes();
    const outcome = reply.type === 'error' ? { error: reply.value } : { reply: historyReply(reply) };
    return { client: address, conn: address, argv, ...outcome, startMs: wallMs, endMs: wallMs, startWallMs: wallMs, endWallMs: wallMs, clock: 'redis-server' };
  }
}

/** Redis's sdscatrepr quoting: "..." with \\ \" \n \r \t \a \b and \xHH. */
export function parseQuoted(text: string): string[] | null {
  const args: string[] = [];
  let i = 0;
  // Bounded by the text's length: every round consumes at least one character.
  while (i < text.length) {
    if (text[i] === ' ') {
      i++;
      continue;
    }
    if (text[i] !== '"') return null;
    i++;
    let arg = '';
    let closed = false;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        closed = true;
        i++;
        break;
      }
      if (c === '\\' && i + 1 < text.length) {
        const next = text[i + 1];
        if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
          arg += String.fromCharCode(parseInt(text.slice(i + 2, i + 4), 16));
          i += 4;
          continue;
        }
        arg += ({ n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' } as Record<string, string>)[next] ?? next;
        i += 2;
        continue;
      }
      arg += c;
      i++;
    }
    if (!closed) return null;
    args.push(arg);
  }
  return args;
}
