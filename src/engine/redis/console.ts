import { decodeBytes, encodeString, isValidUtf8Text, toHex } from './commands/bytes';
import type { KeyEntry } from './keyspace';
import type { Reply } from './reply';
import type { Push, SimRedisServer } from './server';

/**
 * The pure part of the Redis console: redis-cli's argument splitting, redis-cli's reply
 * rendering, the JSON reply encoding, and `.directives` over one simulated server and a virtual
 * clock. No I/O: the CLI (src/cli/console.ts) and the UI console panel feed it lines.
 */

export type SplitResult = { ok: true; argv: string[] } | { ok: false; error: string };

const LINE_LENGTH_MAX = 1 << 20;

/**
 * Splits one line like redis-cli (sdssplitargs): whitespace separates words; "double quotes" take
 * \n \r \t \b \a \" \\ and \xHH escapes; 'single quotes' are literal except \'; a closing quote
 * must be followed by whitespace or the end; a quote inside a bare word opens a quoted part.
 */
export function splitArgs(line: string): SplitResult {
  if (line.length > LINE_LENGTH_MAX) return { ok: false, error: 'Invalid argument(s): line too long' };
  const bytes = encodeString(line);
  const argv: string[] = [];
  let p = 0;
  const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0b || b === 0x0c;
  const isHex = (b: number | undefined) => b !== undefined && /[0-9a-fA-F]/.test(String.fromCharCode(b));
  // Every iteration of both loops advances p, so they end within bytes.length steps.
  while (p < bytes.length) {
    while (p < bytes.length && isSpace(bytes[p])) p++;
    if (p >= bytes.length) break;
    const word: number[] = [];
    let inDouble = false;
    let inSingle = false;
    let done = false;
    while (!done) {
      const c = bytes[p];
      if (inDouble) {
        if (c === undefined) return { ok: false, error: 'Invalid argument(s): unbalanced quotes' };
        if (c === 0x5c && bytes[p + 1] === 0x78 && isHex(bytes[p + 2]) && isHex(bytes[p + 3])) {
          word.push(parseInt(String.fromCharCode(bytes[p + 2], bytes[p + 3]), 16));
          p += 3;
        } else if (c === 0x5c && p + 1 < bytes.length) {
          p++;
          const escaped = bytes[p];
          const map: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x61: 0x07 };
          word.push(map[escaped] ?? escaped);
        } else if (c === 0x22) {
          if (p + 1 < bytes.length && !isSpace(bytes[p + 1])) {
            return { ok: false, error: 'Invalid argument(s): closing quote must be followed by a space' };
          }
          done = true;
        } else word.push(c);
      } else if (inSingle) {
        if (c === undefined) return { ok: false, error: 'Invalid argument(s): unbalanced quotes' };
        if (c === 0x5c && bytes[p + 1] === 0x27) {
          p++;
          word.push(0x27);
        } else if (c === 0x27) {
          if (p + 1 < bytes.length && !isSpace(bytes[p + 1])) {
            return { ok: false, error: 'Invalid argument(s): closing quote must be followed by a space' };
          }
          done = true;
        } else word.push(c);
      } else if (c === undefined || isSpace(c)) done = true;
      else if (c === 0x22) inDouble = true;
      else if (c === 0x27) inSingle = true;
      else word.push(c);
      if (p < bytes.length) p++;
    }
    argv.push(decodeBytes(Uint8Array.from(word)));
  }
  return { ok: true, argv };
}

const BULK_ESCAPES = new Map<number, string>([
  [0x5c, '\\\\'],
  [0x22, '\\"'],
  [0x0a, '\\n'],
  [0x0d, '\\r'],
  [0x09, '\\t'],
  [0x07, '\\a'],
  [0x08, '\\b'],
]);

/** A bulk string as redis-cli prints it (sdscatrepr): quoted, C escapes, other bytes as \xhh. */
export function quoteBulk(value: string): string {
  const bytes = encodeString(value);
  const parts: string[] = ['"'];
  let plainStart = 0;
  const flushPlain = (end: number) => {
    // Printable ASCII in slices (one string per 8 KiB): linear in the value's length.
    for (let at = plainStart; at < end; at += 8192) parts.push(String.fromCharCode.apply(null, Array.from(bytes.subarray(at, Math.min(end, at + 8192)))));
  };
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 0x20 && b <= 0x7e && b !== 0x5c && b !== 0x22) continue;
    flushPlain(i);
    parts.push(BULK_ESCAPES.get(b) ?? `\\x${b.toString(16).padStart(2, '0')}`);
    plainStart = i + 1;
  }
  flushPlain(bytes.length);
  parts.push('"');
  return parts.join('');
}

/** redis-cli's TTY rendering (cliFormatReplyTTY), without the final newline. */
export function formatCli(r: Reply, prefix = ''): string {
  switch (r.type) {
    case 'status':
      return r.value;
    case 'bulk':
      return quoteBulk(r.value);
    case 'integer':
      return `(integer) ${r.value}`;
    case 'nil':
      return '(nil)';
    case 'error':
      return `(error) ${r.value}`;
    case 'array': {
      if (r.value.length === 0) return '(empty array)';
      const indexWidth = String(r.value.length).length;
      const nestedPrefix = prefix + ' '.repeat(indexWidth + 2);
      return r.value
        .map((item, i) => `${i === 0 ? '' : prefix}${String(i + 1).padStart(indexWidth)}) ${formatCli(item, nestedPrefix)}`)
        .join('\n');
    }
  }
}

/** A push (a message, a further confirmation) as text: labelled with its connection unless it is `own`. */
function formatPush(push: Push, own: string): string {
  if (push.connectionId === own) return formatCli(push.reply);
  const label = `[${push.connectionId}] `;
  return `${label}${formatCli(push.reply, ' '.repeat(label.length))}`;
}

/** A reply as JSON data: integers as decimal strings, non-UTF-8 bulk values as hex. */
export type JsonReply =
  | { type: 'status' | 'integer' | 'error'; value: string }
  | { type: 'bulk'; value: string }
  | { type: 'bulk'; hex: string }
  | { type: 'null'; value: null }
  | { type: 'array'; value: JsonReply[] };

export function toJsonReply(r: Reply): JsonReply {
  switch (r.type) {
    case 'status':
    case 'integer':
    case 'error':
      return { type: r.type, value: r.value };
    case 'bulk':
      return isValidUtf8Text(r.value) ? { type: 'bulk', value: r.value } : { type: 'bulk', hex: toHex(encodeString(r.value)) };
    case 'nil':
      return { type: 'null', value: null };
    case 'array':
      return { type: 'array', value: r.value.map(toJsonReply) };
  }
}

export const CONSOLE_HELP = [
  'Type Redis commands as in redis-cli, e.g.  SET lock:a token-1 NX PX 30000',
  'Quoting: "double quotes" with \\n \\t \\" \\\\ \\xHH escapes; \'single quotes\' are literal.',
  'Commands run on the console\'s connection; MULTI queues until EXEC (the prompt shows (TX)),',
  'SUBSCRIBE keeps reading lines (the prompt shows (subscribed)). A message or reply that reaches',
  'another connection is printed after the reply, labelled [connection].',
  'Directives:',
  '  .advance <ms>         move the virtual clock forward by <ms> milliseconds',
  '  .time                 print the virtual time in milliseconds',
  '  .keys                 list every live key with its type, TTL and value',
  '  .conn [name]          switch to connection <name> (created on first use); alone, list them',
  '  .as <name> <command>  run one command on connection <name>, e.g. .as pub PUBLISH news hi',
  '  .help                 this text',
  'quit or exit ends the session (.as <name> QUIT closes one connection).',
].join('\n');

/** One line's result: text mode output (may be multi-line, '' for nothing) and whether to stop. */
export interface ConsoleOutput {
  readonly text: string;
  readonly exit: boolean;
}

/** The connection the console runs commands on until `.conn` switches. */
const CONSOLE_CONNECTION = 'console';

/** Longest connection name `.conn` and `.as` accept. */
const CONNECTION_NAME_LENGTH_MAX = 64;

export interface ConsoleSessionOptions {
  readonly server: SimRedisServer;
  /** Virtual time at the start, in ms. */
  readonly startMs?: number;
}

/** Largest single `.advance`: about 300 years, far beyond any lesson, well inside exact doubles. */
const ADVANCE_MS_MAX = 10_000_000_000_000;

type DirectiveResult = { reply: Reply; text: string; pushes?: readonly Push[] };

/**
 * A console over one simulated server and its own virtual clock. Every command runs at the
 * current virtual time; only `.advance` moves it.
 */
export class ConsoleSession {
  private readonly server: SimRedisServer;
  private clockMs: number;
  private current = CONSOLE_CONNECTION;
  /** Connections this session has named, in first-use order (for `.conn`). */
  private readonly named: string[] = [CONSOLE_CONNECTION];
  /** Connections waiting in a blocking pop, with the virtual time their wait ends (null: never). */
  private readonly blockedUntil = new Map<string, number | null>();

  constructor(options: ConsoleSessionOptions) {
    this.server = options.server;
    this.clockMs = options.startMs ?? 0;
  }

  get nowMs(): number {
    return this.clockMs;
  }

  /** The connection commands run on. */
  get connection(): string {
    return this.current;
  }

  /** The prompt's state: `[name]` off the default connection, `(TX)` in MULTI, `(subscribed)`. */
  get promptTag(): string {
    const state = this.server.connection(this.current);
    const name = this.current === CONSOLE_CONNECTION ? '' : `[${this.current}]`;
    const tx = state?.multi !== undefined ? '(TX)' : '';
    const subscribed = (state?.channels?.length ?? 0) + (state?.patterns?.length ?? 0) > 0 ? '(subscribed)' : '';
    return `${name}${tx}${subscribed}`;
  }

  /** Runs one argv (a command, or a directive when argv[0] starts with '.'). */
  execute(argv: readonly string[]): DirectiveResult {
    if (argv.length > 0 && argv[0].startsWith('.')) return this.directive(argv);
    return this.command(argv, this.current);
  }

  /** One command on one connection: its reply, then whatever it sent to any connection besides. */
  private command(argv: readonly string[], connection: string): DirectiveResult {
    if (this.blockedUntil.has(connection)) {
      // Redis reads nothing more from a blocked connection until its wait ends.
      const r: Reply = { type: 'error', value: `ERR connection ${connection} waits in a blocking pop: a push from another connection (.as <name> ...) or .advance past its timeout ends the wait` };
      return { reply: r, text: formatCli(r) };
    }
    const result = this.server.execute(argv, this.clockMs, connection);
    const pushes = this.server.takePushes();
    // Served waits end; this command may have started one.
    for (const waiting of [...this.blockedUntil.keys()]) if (!this.server.isBlocked(waiting)) this.blockedUntil.delete(waiting);
    if (this.server.isBlocked(connection)) {
      const timeoutMs = this.server.blockedTimeoutMs(connection) ?? 0;
      this.blockedUntil.set(connection, timeoutMs === 0 ? null : this.clockMs + timeoutMs);
      const until = timeoutMs === 0 ? 'for ever' : `until ${this.clockMs + timeoutMs} ms`;
      return { reply: result, pushes, text: [`(blocked ${until}: a push from another connection serves it)`, ...pushes.map((push) => formatPush(push, connection))].join('\n') };
    }
    // Rendered only when read: JSON mode never needs redis-cli's text (a 16 MiB value made it slow).
    return {
      reply: result,
      pushes,
      get text() {
        return [formatCli(result), ...pushes.map((push) => formatPush(push, connection))].join('\n');
      },
    };
  }

  /** Text mode: one redis-cli style line in, redis-cli style text out. */
  runLine(line: string): ConsoleOutput {
    const split = splitArgs(line);
    if (!split.ok) return { text: `(error) ERR ${split.error}`, exit: false };
    if (split.argv.length === 0) return { text: '', exit: false };
    const name = split.argv[0].toLowerCase();
    if (split.argv.length === 1 && (name === 'quit' || name === 'exit')) return { text: '', exit: true };
    return { text: this.execute(split.argv).text, exit: false };
  }

  /** JSON mode: a JSON array of strings in, one JSON reply line out ('' for a blank line). */
  runJsonLine(line: string): string {
    if (line.trim() === '') return '';
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      return jsonError(`ERR malformed input: not JSON (${(error as Error).message})`);
    }
    if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((item) => typeof item === 'string')) {
      return jsonError('ERR malformed input: expected a non-empty JSON array of strings');
    }
    const result = this.execute(parsed as string[]);
    const json = toJsonReply(result.reply);
    // Pushes ride on the same line, so a reader still gets one line per input line.
    if (result.pushes !== undefined && result.pushes.length > 0) {
      return JSON.stringify({ ...json, pushes: result.pushes.map((push) => ({ connection: push.connectionId, reply: toJsonReply(push.reply) })) });
    }
    return JSON.stringify(json);
  }

  private directive(argv: readonly string[]): DirectiveResult {
    const name = argv[0].toLowerCase();
    const fail = (message: string): DirectiveResult => {
      const r: Reply = { type: 'error', value: message };
      return { reply: r, text: formatCli(r) };
    };
    switch (name) {
      case '.advance': {
        if (argv.length !== 2) return fail('ERR usage: .advance <ms>');
        // Plain decimal digits only: "00001", "1e3", "0x10", "-1", "1.5" are refused, not guessed at.
        if (!/^(0|[1-9][0-9]*)$/.test(argv[1]) || Number(argv[1]) > ADVANCE_MS_MAX) {
          return fail(`ERR .advance takes a whole number of milliseconds from 0 to ${ADVANCE_MS_MAX}, in plain decimal digits`);
        }
        const stepMs = Number(argv[1]);
        // Past 2^53 ms the clock could no longer move by 1 ms (doubles lose integers there).
        if (this.clockMs + stepMs > Number.MAX_SAFE_INTEGER) {
          return fail(`ERR .advance ${stepMs} would take the virtual clock past ${Number.MAX_SAFE_INTEGER} ms (2^53 - 1), where it could no longer count milliseconds; it stays at ${this.clockMs} ms`);
        }
        this.clockMs += stepMs;
        // Waits whose timeout has passed end with nil, as Redis's blocked-client timeout sends it.
        const timedOut: Push[] = [];
        for (const [waiting, untilMs] of [...this.blockedUntil]) {
          if (untilMs === null || untilMs > this.clockMs) continue;
          this.blockedUntil.delete(waiting);
          timedOut.push({ connectionId: waiting, reply: this.server.unblock(waiting) });
        }
        const timeText = `virtual time: ${this.clockMs} ms (+${stepMs} ms)`;
        return { reply: { type: 'integer', value: String(this.clockMs) }, pushes: timedOut, text: [timeText, ...timedOut.map((push) => formatPush(push, this.current))].join('\n') };
      }
      case '.time':
        if (argv.length !== 1) return fail('ERR usage: .time');
        return { reply: { type: 'integer', value: String(this.clockMs) }, text: `virtual time: ${this.clockMs} ms` };
      case '.keys': {
        if (argv.length !== 1) return fail('ERR usage: .keys');
        const entries = this.server.inspect(this.clockMs);
        return { reply: { type: 'array', value: entries.map((e) => this.keyReply(e)) }, text: this.keysText(entries) };
      }
      case '.conn': {
        if (argv.length > 2) return fail('ERR usage: .conn [name]');
        if (argv.length === 1) {
          const lines = this.named.map((name) => `${name === this.current ? '*' : ' '} ${name}${this.stateText(name)}`);
          return { reply: { type: 'array', value: this.named.map((name) => ({ type: 'bulk', value: name })) }, text: lines.join('\n') };
        }
        const invalid = connectionNameError(argv[1]);
        if (invalid !== null) return fail(invalid);
        this.remember(argv[1]);
        this.current = argv[1];
        return { reply: { type: 'status', value: 'OK' }, text: `connection: ${argv[1]}` };
      }
      case '.as': {
        if (argv.length < 3) return fail('ERR usage: .as <name> <command> [arg ...]');
        const invalid = connectionNameError(argv[1]);
        if (invalid !== null) return fail(invalid);
        this.remember(argv[1]);
        return this.command(argv.slice(2), argv[1]);
      }
      case '.help':
        return { reply: { type: 'bulk', value: CONSOLE_HELP }, text: CONSOLE_HELP };
      default:
        return fail(`ERR unknown directive '${argv[0]}' (try .help)`);
    }
  }

  private remember(name: string): void {
    if (!this.named.includes(name)) this.named.push(name);
  }

  /** `.conn`'s line for one connection: its transaction and subscriptions. */
  private stateText(name: string): string {
    const state = this.server.connection(name);
    if (state === null) return '';
    const parts: string[] = [];
    if (state.multi !== undefined) parts.push(`in MULTI, ${state.multi.length} queued`);
    if (state.watched !== undefined) parts.push(`watching ${state.watched.map(quoteBulk).join(' ')}`);
    const subscriptions = [...(state.channels ?? []), ...(state.patterns ?? [])];
    if (subscriptions.length > 0) parts.push(`subscribed to ${subscriptions.map(quoteBulk).join(' ')}`);
    return parts.length > 0 ? `  (${parts.join('; ')})` : '';
  }

  /** [key, type, pttl ms (-1: no expiry), value] */
  private keyReply(entry: KeyEntry): Reply {
    const pttlMs = entry.expireAtMs === null ? -1 : entry.expireAtMs - this.clockMs;
    return {
      type: 'array',
      value: [
        { type: 'bulk', value: entry.key },
        { type: 'status', value: entry.type },
        { type: 'integer', value: String(pttlMs) },
        valueReply(entry),
      ],
    };
  }

  private keysText(entries: readonly KeyEntry[]): string {
    if (entries.length === 0) return '(no keys)';
    return entries
      .map((entry) => {
        const ttl = entry.expireAtMs === null ? 'no expiry' : `pttl ${entry.expireAtMs - this.clockMs} ms`;
        const value = valueReply(entry);
        const shown = value.type === 'array' ? `[${value.value.map((v) => formatCli(v)).join(' ')}]` : formatCli(value);
        return `${quoteBulk(entry.key)}  ${entry.type}  ${ttl}  ${shown}`;
      })
      .join('\n');
  }
}

function valueReply(entry: KeyEntry): Reply {
  const bulk = (value: string): Reply => ({ type: 'bulk', value });
  switch (entry.type) {
    case 'string':
      return bulk(entry.value);
    case 'list':
    case 'set':
      return { type: 'array', value: entry.value.map(bulk) };
    case 'hash':
    case 'zset':
      return { type: 'array', value: entry.value.flatMap(([a, b]) => [bulk(a), bulk(b)]) };
  }
}

function connectionNameError(name: string): string | null {
  if (name.length === 0 || name.length > CONNECTION_NAME_LENGTH_MAX || !/^[A-Za-z0-9_.:-]+$/.test(name)) {
    return `ERR a connection name is 1 to ${CONNECTION_NAME_LENGTH_MAX} letters, digits or _ . : -`;
  }
  return null;
}

function jsonError(message: string): string {
  return JSON.stringify({ type: 'error', value: message } satisfies JsonReply);
}

/** Parses a JSON reply line back into a Reply (for tests and tools reading `--json` output). */
export function fromJsonReply(json: JsonReply): Reply {
  switch (json.type) {
    case 'null':
      return { type: 'nil' };
    case 'array':
      return { type: 'array', value: json.value.map(fromJsonReply) };
    case 'bulk':
      return { type: 'bulk', value: 'hex' in json ? decodeBytes(hexToBytes(json.hex)) : json.value };
    default:
      return { type: json.type, value: json.value };
  }
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
