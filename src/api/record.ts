import fs from 'node:fs';
import os from 'node:os';
import { commandLine, headerLine, markLine, type HistoryCommand, type HistoryReply } from '../history';

/**
 * Recording a real application's Redis traffic (docs/HISTORIES.md): `record(redis, { client, file })`
 * wraps a real ioredis 5 client so every command it sends is written, with its reply and the
 * monotonic and wall-clock times it was sent and answered, as one JSON line; `mark()` adds what the
 * code believed (enter, leave, write). The one part of the Node API that reads real time and writes
 * a file: it records a real system, it does not simulate one.
 */
export interface RecordOptions {
  /** The client's name in the history (`worker-1`): the lane it is drawn in. */
  readonly client: string;
  /** A file to append lines to (one per process is safest; `cat` them together to check). */
  readonly file?: string;
  /** Or a function that takes each line (without its newline). */
  readonly write?: (line: string) => void;
  /** This connection's name (default: `client`); several connections may share one client name. */
  readonly conn?: string;
}

export type MarkKind = 'enter' | 'leave' | 'write';

export interface Recording {
  /** What the code believes: `enter`/`leave` the critical section, `write` a resource with a token. */
  mark(kind: MarkKind, detail?: { readonly resource: string; readonly token: string }): void;
  /** Stops recording (the client itself stays open) and flushes the file. */
  close(): Promise<void>;
}

/** The shape of an ioredis 5 client that record() needs: its one door for every command. */
interface CommandLike {
  readonly name: string;
  readonly args: readonly unknown[];
  readonly promise: Promise<unknown>;
}
interface RedisLike {
  sendCommand(command: CommandLike, ...rest: unknown[]): unknown;
}

const recordings = new WeakMap<object, Recording>();

export function record(redis: RedisLike, options: RecordOptions): Recording {
  if (recordings.has(redis)) throw new Error('record(): this client is already being recorded');
  if ((options.file === undefined) === (options.write === undefined)) throw new Error('record(): give file or write (one of them)');
  const fd = options.file === undefined ? null : fs.openSync(options.file, 'a');
  const stream = fd === null ? null : fs.createWriteStream('', { fd });
  const write = options.write ?? ((line: string) => stream?.write(`${line}\n`));
  const clock = `${os.hostname()}:${process.pid}`;
  const base = { client: options.client, ...(options.conn === undefined ? {} : { conn: options.conn }) };
  if (fd !== null && fs.fstatSync(fd).size === 0) write(headerLine({ history: 1, recorder: 'ioredis' }));
  const seen = new WeakSet<CommandLike>();
  const original = redis.sendCommand;
  let open = true;
  redis.sendCommand = function recorded(this: RedisLike, command: CommandLike, ...rest: unknown[]) {
    // ioredis may pass one command through here twice (an offline queue flushed): record it once.
    if (open && !seen.has(command)) {
      seen.add(command);
      const startMs = performance.now();
      const startWallMs = Date.now();
      const argv = [command.name.toUpperCase(), ...command.args.map(argText)];
      const done = (outcome: { reply: HistoryReply } | { error: string }) => {
        const line: HistoryCommand = { ...base, argv, ...outcome, startMs, endMs: performance.now(), startWallMs, endWallMs: Date.now(), clock };
        if (open) write(commandLine(line));
      };
      command.promise.then(
        (reply) => done({ reply: historyReplyOf(reply) }),
        (error: unknown) => done({ error: error instanceof Error ? error.message : String(error) }),
      );
    }
    return original.call(this, command, ...rest);
  };
  const recording: Recording = {
    mark(kind, detail) {
      if (!open) return;
      write(markLine({ ...base, mark: kind, ...(detail === undefined ? {} : { resource: detail.resource, token: detail.token }), atMs: performance.now(), atWallMs: Date.now(), clock }));
    },
    async close() {
      if (!open) return;
      open = false;
      redis.sendCommand = original;
      recordings.delete(redis);
      if (stream !== null) await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    },
  };
  recordings.set(redis, recording);
  return recording;
}

/** A mark on a recorded client, where the recording handle is not at hand. */
export function mark(redis: object, kind: MarkKind, detail?: { readonly resource: string; readonly token: string }): void {
  const recording = recordings.get(redis);
  if (recording === undefined) throw new Error('mark(): this client is not being recorded (call record() first)');
  recording.mark(kind, detail);
}

function argText(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  if (Buffer.isBuffer(arg)) return arg.toString('utf8');
  return String(arg);
}

/** A longer string reply (INFO, a big value) is cut: the history is about the lock, and a line has a bound. */
const REPLY_CHARS_MAX = 4096;

/** ioredis hands replies over as strings, numbers, Buffers, arrays, null (and objects for HGETALL). */
function historyReplyOf(reply: unknown): HistoryReply {
  if (reply === null || reply === undefined) return null;
  if (typeof reply === 'number') return reply;
  if (typeof reply === 'string') return reply.length > REPLY_CHARS_MAX ? `${reply.slice(0, REPLY_CHARS_MAX)}…(cut: ${reply.length} characters)` : reply;
  if (Buffer.isBuffer(reply)) return historyReplyOf(reply.toString('utf8'));
  if (Array.isArray(reply)) return reply.map(historyReplyOf);
  if (typeof reply === 'object') return Object.entries(reply).flatMap(([k, v]) => [k, historyReplyOf(v)]);
  return String(reply);
}
