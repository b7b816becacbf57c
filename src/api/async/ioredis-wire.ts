/**
 * What ioredis 5.11.1 does to a command's arguments before they go on the wire, and to a reply
 * before the caller sees it (built/Command.js, built/utils/index.js, redis-errors): the same rules
 * here, so code run under Lockstep sends and reads what it sends and reads against a real Redis.
 */
import { Buffer } from 'node:buffer';
import { decodeBytes, encodeString } from '../../engine/redis/commands/bytes';
import type { Reply } from '../../engine/redis/reply';
import { loadedIoredis } from './real-ioredis';

/** The command a reply error answered, as ioredis attaches it (`err.command`). */
export interface ErrorCommand {
  readonly name: string;
  readonly args: readonly string[];
}

/** An error reply from Redis, as ioredis rejects with it: `message` is Redis's text, `command` the command it answered. */
export class ReplyError extends Error {
  override name = 'ReplyError';
  /** Set on the error of a command (not on an error inside EXEC's array), as ioredis's DataHandler does. */
  command?: ErrorCommand;
  /** multi().exec() rejected with EXECABORT: the errors the queued commands got first. */
  previousErrors?: Error[];
  /**
   * An error reply from either client your code may get: this one, or ioredis's own when the run
   * gives your code a real ioredis (real-ioredis.ts), so `instanceof ReplyError` holds for both.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    const io = loadedIoredis();
    return this === ReplyError && io !== null && value instanceof io.ReplyError;
  }
}

/** How a method hands back strings: `'utf8'` (`get`) or Buffers (`getBuffer`, replyEncoding null). */
export type ReplyEncoding = 'utf8' | 'buffer';

/** Command.js: `mset`/`msetnx` take one object or Map, `hset`/`hmset` a key then one (exact lower-case name only). */
function pairsOf(value: unknown): unknown[] | null {
  if (value instanceof Map) return [...value].flat();
  if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) return Object.keys(value).flatMap((k) => [k, (value as Record<string, unknown>)[k]]);
  return null;
}

const ARGUMENT_TRANSFORMERS: Readonly<Record<string, (args: unknown[]) => unknown[]>> = {
  mset: (args) => (args.length === 1 ? (pairsOf(args[0]) ?? args) : args),
  msetnx: (args) => (args.length === 1 ? (pairsOf(args[0]) ?? args) : args),
  hset: (args) => (args.length === 2 && pairsOf(args[1]) !== null ? [args[0], ...(pairsOf(args[1]) as unknown[])] : args),
  hmset: (args) => (args.length === 2 && pairsOf(args[1]) !== null ? [args[0], ...(pairsOf(args[1]) as unknown[])] : args),
};

/** utils.toArg, with Buffers read through the simulator's byte convention (commands/bytes.ts). */
function toArg(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  // Only a Buffer goes as bytes (Command.js tests `instanceof Buffer`); any other object as String(arg).
  if (Buffer.isBuffer(arg)) return decodeBytes(arg);
  if (arg === null || arg === undefined) return '';
  return String(arg);
}

/**
 * A command's arguments as ioredis writes them: flattened one level (`args.flat()`), the name's
 * argument transformer, then each one as text (`null`/`undefined` as '', numbers with String()).
 */
export function wireArgs(name: string, args: readonly unknown[]): string[] {
  let flat = args.flat();
  const transform = Object.hasOwn(ARGUMENT_TRANSFORMERS, name) ? ARGUMENT_TRANSFORMERS[name] : undefined;
  if (transform) flat = transform(flat);
  return flat.map(toArg);
}

function text(value: string, encoding: ReplyEncoding): string | Buffer {
  return encoding === 'utf8' ? value : Buffer.from(encodeString(value));
}

/** A reply as ioredis's parser and replyEncoding give it: status and bulk as text (or Buffers), integers as numbers, nil as null, errors as ReplyError. */
export function replyValue(reply: Reply, encoding: ReplyEncoding): unknown {
  switch (reply.type) {
    case 'status':
    case 'bulk':
      return text(reply.value, encoding);
    case 'integer':
      return Number(reply.value);
    case 'nil':
      return null;
    case 'error':
      return new ReplyError(reply.value);
    case 'array':
      return reply.value.map((r) => replyValue(r, encoding));
  }
}

/** Command.js's reply transformers, by exact command name. */
export function transformReply(name: string, value: unknown): unknown {
  if (name !== 'hgetall' || !Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (let i = 0; i + 1 < value.length; i += 2) Object.defineProperty(out, String(value[i]), { value: value[i + 1], configurable: true, enumerable: true, writable: true });
  return out;
}

/** A reply error as the command's rejection (`err.command` set, as DataHandler.returnError does). */
export function commandError(message: string, name: string, args: readonly string[]): ReplyError {
  const error = new ReplyError(message);
  error.command = { name, args: [...args] };
  return error;
}

/** utils.wrapMultiResult: EXEC's array as `[error]` or `[null, value]` pairs; null (a WATCHed key changed) stays null. */
export function wrapMultiResult(values: readonly unknown[] | null): ([Error] | [null, unknown])[] | null {
  if (values === null) return null;
  return values.map((v) => (v instanceof Error ? [v] : [null, v]));
}

/** standard-as-callback: the callback gets `(null)` or `(null, value)` or `(error)`, on a microtask after the promise settles. */
export function asCallback<T>(promise: Promise<T>, callback: unknown): Promise<T> {
  if (typeof callback !== 'function') return promise;
  const cb = callback as (error: unknown, value?: unknown) => void;
  const call = (...args: unknown[]) => {
    try {
      cb(...(args as [unknown, unknown?]));
    } catch (error) {
      // ioredis rethrows a callback's exception outside the promise (setTimeout): it is uncaught.
      queueMicrotask(() => {
        throw error;
      });
    }
  };
  promise.then(
    (value) => (value === undefined ? call(null) : call(null, value)),
    (cause: unknown) => call(cause ? cause : Object.assign(new Error(String(cause)), { cause })),
  );
  return promise;
}

/** Splits a trailing callback off a method's arguments, as ioredis's generated methods do. */
export function splitCallback(args: readonly unknown[]): { readonly args: unknown[]; readonly callback: unknown } {
  const last = args[args.length - 1];
  return typeof last === 'function' ? { args: args.slice(0, -1), callback: last } : { args: [...args], callback: undefined };
}
