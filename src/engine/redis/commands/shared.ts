import { reply, type Reply } from '../reply';
import type { Keyspace, StoredValue } from '../keyspace';
import type { Session } from '../session';
import { decodeBytes, encodeString } from './bytes';

/** What a command implementation may touch. `nowMs` is frozen for the whole command (and script). */
export interface CommandContext {
  readonly keyspace: Keyspace;
  /** Virtual time in ms (the engine's clock, from 0). */
  readonly nowMs: number;
  /** Unix ms at virtual time 0: the server's Unix time is `unixEpochMs + nowMs` (time.ts). */
  readonly unixEpochMs: number;
  /** True while a Lua script runs the command through redis.call / redis.pcall. */
  readonly inScript: boolean;
  /** The connection that sent the command, and the server state beyond the keyspace it may change. */
  readonly session: Session;
}

export interface CommandSpec {
  /** Redis arity (COMMAND INFO): n > 0 exactly n words (with the name), n < 0 at least -n words. */
  readonly arity: number;
  /** Mutates the keyspace: refused in a read-only context, and marks a script as having written. */
  readonly write: boolean;
  /**
   * The command's reply, or null when the command wrote its replies itself through
   * `ctx.session.send` (SUBSCRIBE answers one confirmation per channel; EXEC writes its array).
   */
  run(ctx: CommandContext, args: readonly string[]): Reply | null;
  /**
   * A refusal found before the command runs, as Redis's processCommand finds an unknown
   * subcommand or a subcommand's wrong arity (CLIENT): inside MULTI it dooms the transaction.
   */
  readonly refuse?: (args: readonly string[]) => string | null;
}

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

/** The Unix time of the command, exact: what Redis's commandTimeSnapshot() answers. */
export function unixNowMs(ctx: CommandContext): bigint {
  return BigInt(ctx.unixEpochMs) + BigInt(ctx.nowMs);
}

/** Redis's error texts (server.c shared objects and the commands' own addReplyError calls). */
export const errors = {
  wrongType: () => reply.error(WRONGTYPE),
  syntax: () => reply.error('ERR syntax error'),
  notInteger: () => reply.error('ERR value is not an integer or out of range'),
  notFloat: () => reply.error('ERR value is not a valid float'),
  notPositive: () => reply.error('ERR value is out of range, must be positive'),
  overflow: () => reply.error('ERR increment or decrement would overflow'),
  noSuchKey: () => reply.error('ERR no such key'),
  invalidExpire: (name: string) => reply.error(`ERR invalid expire time in '${name}' command`),
  arity: (name: string) => reply.error(`ERR wrong number of arguments for '${name}' command`),
  stringTooLong: () => reply.error('ERR string exceeds maximum allowed size (proto-max-bulk-len)'),
  /** Redis 8.4: an IFDEQ/IFDNE digest that is not 16 hex characters (PR #14502). */
  badDigest: () => reply.error('ERR must be exactly 16 hexadecimal characters'),
  /**
   * server.c processCommand: the name and the arguments are quoted while the argument text stays
   * under 128 bytes, each argument cut to what is left of the 128; newlines become spaces.
   */
  unknown: (name: string, args: readonly string[]) => {
    let argsText: Uint8Array = new Uint8Array(0);
    for (let i = 0; i < args.length && argsText.length < UNKNOWN_ARGS_BYTES_MAX; i++) {
      const arg = cStringPrefix(encodeString(args[i]), UNKNOWN_ARGS_BYTES_MAX - argsText.length);
      argsText = concatBytes(argsText, encodeString("'"), arg, encodeString("' "));
    }
    const nameBytes = cStringPrefix(encodeString(name), UNKNOWN_ARGS_BYTES_MAX);
    const text = `ERR unknown command '${decodeBytes(nameBytes)}', with args beginning with: ${decodeBytes(argsText)}`;
    return reply.error(text.replace(/[\r\n]/g, ' '));
  },
};

const UNKNOWN_ARGS_BYTES_MAX = 128;

/** printf("%.*s"): at most `max` bytes, and stops at a NUL byte. */
function cStringPrefix(bytes: Uint8Array, max: number): Uint8Array {
  const nul = bytes.indexOf(0);
  const end = Math.min(max, nul < 0 ? bytes.length : nul);
  return bytes.subarray(0, end);
}

function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Parses a Redis integer exactly as string2ll does: no spaces, no '+', no leading zeros, no "-0". */
export function parseInteger(text: string): bigint | null {
  if (text.length > 20 || !/^(0|-?[1-9][0-9]*)$/.test(text)) return null;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? null : value;
}

export function inInt64Range(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/**
 * The longest string value the simulator builds (SETRANGE, APPEND), as if the server ran with
 * `proto-max-bulk-len 16mb`: Redis allows 512 MB, which a browser tab should not allocate.
 */
export const STRING_BYTES_MAX = 16 * 1024 * 1024;

/** Result of looking a key up for a typed command: its value (null when absent), or WRONGTYPE. */
export type Lookup<T> = { ok: true; value: T | null } | { ok: false; error: Reply };

type StoredOf<K extends StoredValue['type']> = Extract<StoredValue, { type: K }>['value'];

/** Looks a key up expecting `type`: absent gives value null, another type gives WRONGTYPE. */
export function lookup<K extends StoredValue['type']>(ctx: CommandContext, key: string, type: K): Lookup<StoredOf<K>> {
  const stored = ctx.keyspace.get(key);
  if (stored === null) return { ok: true, value: null };
  if (stored.type !== type) return { ok: false, error: errors.wrongType() };
  return { ok: true, value: stored.value } as Lookup<StoredOf<K>>;
}

export function bulkOrNil(value: string | null | undefined): Reply {
  return value === null || value === undefined ? reply.nil() : reply.bulk(value);
}

/** A command table entry (arity checked by the server before `run`). */
export function command(arity: number, write: boolean, run: (ctx: CommandContext, args: readonly string[]) => Reply | null): CommandSpec {
  return { arity, write, run };
}
