/**
 * The history format, version 1 (docs/HISTORIES.md): one JSON object per line, either a command a
 * connection sent with what Redis answered, or a mark the application wrote ("I entered the
 * critical section", "I wrote this resource with this token"). One valibot schema is the source
 * of truth; `parseHistoryLine` turns a line into a record or a problem with the line's number.
 * Pure TypeScript: the checker may later run in the page.
 */
import * as v from 'valibot';

const HISTORY_VERSION = 1;

/** The longest line the checker reads, in characters (a reply of many MB is not a lock's business). */
export const HISTORY_LINE_BYTES_MAX = 1 << 20;

/**
 * A reply as JSON: a string (status or bulk), a number (an integer reply; a string when it does
 * not fit a double exactly is fine too), null (nil), or an array of replies. Errors go in `error`.
 */
export type HistoryReply = string | number | null | readonly HistoryReply[];

const replySchema: v.GenericSchema<HistoryReply> = v.union([v.string(), v.number(), v.null(), v.array(v.lazy(() => replySchema))]);

const time = v.pipe(v.number(), v.finite('a finite number of ms'));
const name = v.pipe(v.string(), v.minLength(1, 'a non-empty name'), v.maxLength(200, 'at most 200 characters'));

/** One command: who sent it, what, what came back, and when (monotonic and wall clock, ms). */
const commandSchema = v.object({
  /** The application's name for the client (`worker-1`); several connections may share it. */
  client: name,
  /** One connection (socket); defaults to `client`. Replies on one connection come in order. */
  conn: v.optional(name),
  argv: v.pipe(v.array(v.string()), v.minLength(1, 'at least the command name')),
  /** Absent with `error` absent: the reply is not known (a MONITOR import, a lost connection). */
  reply: v.optional(replySchema),
  error: v.optional(v.string()),
  /** Monotonic ms of the recorder's clock (`clock`) when the command was sent and answered. */
  startMs: time,
  endMs: time,
  /** Wall-clock ms (Unix epoch) at the same two instants: the checker's common timeline. */
  startWallMs: time,
  endWallMs: time,
  /** Which monotonic clock `startMs`/`endMs` read (a process); absent: one clock for the file. */
  clock: v.optional(name),
});

const markSchema = v.object({
  client: name,
  conn: v.optional(name),
  /** enter / leave the critical section; write: the code wrote `resource` with `token`. */
  mark: v.picklist(['enter', 'leave', 'write']),
  resource: v.optional(v.string()),
  token: v.optional(v.string()),
  atMs: time,
  atWallMs: time,
  clock: v.optional(name),
});

/** The first line may say what the file is; the checker reads it when it is there. */
const headerSchema = v.object({
  history: v.literal(HISTORY_VERSION),
  /** What recorded it: `ioredis`, `proxy`, `monitor`, `replay`. */
  recorder: v.optional(v.string()),
  /** The recording has commands only, no replies (MONITOR). */
  repliesKnown: v.optional(v.boolean()),
});

export type HistoryCommand = v.InferOutput<typeof commandSchema>;
export type HistoryMark = v.InferOutput<typeof markSchema>;
export type HistoryHeader = v.InferOutput<typeof headerSchema>;

/** A record and where it came from: `line` is its 1-based line number, the event's index everywhere. */
export type HistoryRecord =
  | { readonly kind: 'command'; readonly line: number; readonly command: HistoryCommand }
  | { readonly kind: 'mark'; readonly line: number; readonly mark: HistoryMark }
  | { readonly kind: 'header'; readonly line: number; readonly header: HistoryHeader };

export interface LineProblem {
  readonly line: number;
  readonly message: string;
}

/** A record, a problem (with the line number), or null for a blank line. `fast: false`: the schema alone (tests). */
export function parseHistoryLine(text: string, line: number, fast = true): HistoryRecord | LineProblem | null {
  if (text.trim() === '') return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const cut = text.length > 60 ? `${text.slice(0, 60)}…` : text;
    return { line, message: `not JSON (a truncated line?): ${JSON.stringify(cut)}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { line, message: 'not a JSON object' };
  const command = fast ? fastCommand(data as Record<string, unknown>) : null;
  if (command !== null) return { kind: 'command', line, command };
  if ('argv' in data) return shaped(v.safeParse(commandSchema, data), line, 'command', checkCommand);
  if ('mark' in data) return shaped(v.safeParse(markSchema, data), line, 'mark', checkMark);
  if ('history' in data) return shaped(v.safeParse(headerSchema, data), line, 'header', () => null);
  return { line, message: 'neither a command (argv), a mark (mark) nor a header (history)' };
}

type Parsed<T> = { success: true; output: T } | { success: false; issues: readonly v.BaseIssue<unknown>[] };

function shaped<T, K extends HistoryRecord['kind']>(result: Parsed<T>, line: number, kind: K, check: (value: T) => string | null): HistoryRecord | LineProblem {
  if (!result.success) {
    const issue = result.issues[0];
    const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    return { line, message: `bad ${kind}: ${path === '' ? '' : `${path}: `}${issue.message}` };
  }
  const problem = check(result.output);
  if (problem !== null) return { line, message: `bad ${kind}: ${problem}` };
  return { kind, line, [kind]: result.output } as unknown as HistoryRecord;
}

/**
 * The common command line, checked by hand: a million lines through valibot cost seconds. It
 * accepts only what the schema and checkCommand accept, and gives the same output (only the
 * schema's keys); anything else, and every problem's message, goes to the schema
 * (tests/unit/history-format.test.ts compares the two on random objects).
 */
function fastCommand(d: Record<string, unknown>): HistoryCommand | null {
  const { client, conn, argv, reply, error, startMs, endMs, startWallMs, endWallMs, clock } = d;
  if (!isName(client) || (conn !== undefined && !isName(conn)) || (clock !== undefined && !isName(clock))) return null;
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string')) return null;
  if (!isTime(startMs) || !isTime(endMs) || !isTime(startWallMs) || !isTime(endWallMs) || endMs < startMs || endWallMs < startWallMs) return null;
  if (error !== undefined && (typeof error !== 'string' || reply !== undefined)) return null;
  if (reply !== undefined && !isReply(reply, 0)) return null;
  const out: HistoryCommand = { client, argv: argv as string[], startMs, endMs, startWallMs, endWallMs };
  if (conn !== undefined) out.conn = conn;
  if (reply !== undefined) out.reply = reply as HistoryReply;
  if (error !== undefined) out.error = error;
  if (clock !== undefined) out.clock = clock;
  return out;
}

function isName(x: unknown): x is string {
  return typeof x === 'string' && x.length >= 1 && x.length <= 200;
}

function isTime(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

const REPLY_DEPTH_MAX = 8;

function isReply(x: unknown, depth: number): boolean {
  if (x === null || typeof x === 'string' || typeof x === 'number') return true;
  return depth < REPLY_DEPTH_MAX && Array.isArray(x) && x.every((item) => isReply(item, depth + 1));
}

function checkCommand(c: HistoryCommand): string | null {
  if (c.endMs < c.startMs) return `endMs ${c.endMs} is before startMs ${c.startMs} (a clock running backwards?)`;
  if (c.endWallMs < c.startWallMs) return `endWallMs ${c.endWallMs} is before startWallMs ${c.startWallMs} (the wall clock was set back?)`;
  if (c.reply !== undefined && c.error !== undefined) return 'both reply and error';
  return null;
}

function checkMark(m: HistoryMark): string | null {
  if (m.mark === 'write' && (m.resource === undefined || m.token === undefined)) return 'a write mark needs resource and token';
  return null;
}

/** One line of the format, as the recorders write it. */
export function commandLine(command: HistoryCommand): string {
  return JSON.stringify(command);
}

export function markLine(mark: HistoryMark): string {
  return JSON.stringify(mark);
}

export function headerLine(header: HistoryHeader): string {
  return JSON.stringify(header);
}
