import { reply, type Reply } from './reply';
import type { Keyspace } from './keyspace';
import type { MockOutcome } from './mock-bridge';

/** What a command implementation may touch. `nowMs` is frozen for the whole command (and script). */
export interface CommandContext {
  readonly keyspace: Keyspace;
  readonly nowMs: number;
  /** True while a Lua script runs the command through redis.call / redis.pcall. */
  readonly inScript: boolean;
}

export interface CommandSpec {
  /** Redis arity: n > 0 exactly n words (with the name), n < 0 at least -n words. */
  readonly arity: number;
  /** Mutates the keyspace: refused in a read-only context, and marks a script as having written. */
  readonly write: boolean;
  run(ctx: CommandContext, args: readonly string[]): Reply;
}

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
export const errors = {
  wrongType: () => reply.error(WRONGTYPE),
  syntax: () => reply.error('ERR syntax error'),
  notInteger: () => reply.error('ERR value is not an integer or out of range'),
  arity: (name: string) => reply.error(`ERR wrong number of arguments for '${name}' command`),
  unknown: (name: string, args: readonly string[]) =>
    reply.error(
      `ERR unknown command '${name}', with args beginning with: ${args
        .slice(0, 16)
        .map((a) => `'${a}' `)
        .join('')}`,
    ),
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Parses a Redis integer argument exactly as string2ll does: no spaces, no '+', no leading zeros. */
export function parseInteger(text: string): bigint | null {
  if (!/^(0|-?[1-9][0-9]*)$/.test(text)) return null;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? null : value;
}

export function inInt64Range(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/** Converts an ioredis-mock result into a typed reply. `statusReplies` lists string results that are status (+OK). */
export function fromMock(outcome: MockOutcome, statusReplies: readonly string[] = []): Reply {
  if (!outcome.ok) {
    const message = outcome.error.message;
    return reply.error(/^[A-Z]+ /.test(message) ? message : `ERR ${message}`);
  }
  return fromMockValue(outcome.value, statusReplies);
}

function fromMockValue(value: unknown, statusReplies: readonly string[]): Reply {
  if (value === null || value === undefined) return reply.nil();
  if (typeof value === 'number') return Number.isInteger(value) ? reply.integer(value) : reply.bulk(String(value));
  if (typeof value === 'string') return statusReplies.includes(value) ? reply.status(value) : reply.bulk(value);
  if (value instanceof Uint8Array) return reply.bulk(new TextDecoder().decode(value));
  if (Array.isArray(value)) return reply.array(value.map((v) => fromMockValue(v, [])));
  if (value instanceof Error) return reply.error(value.message);
  return reply.bulk(String(value));
}

/** A command ioredis-mock implements correctly for our purposes: arity and type checks, then delegate. */
export function delegated(arity: number, write: boolean, options: { statusReplies?: string[]; keyType?: string } = {}): CommandSpec {
  return {
    arity,
    write,
    run(ctx, args) {
      const [name, ...rest] = args;
      if (options.keyType && rest.length > 0) {
        const type = ctx.keyspace.typeOf(rest[0]);
        if (type !== null && type !== options.keyType) return errors.wrongType();
      }
      return fromMock(ctx.keyspace.call(ctx.nowMs, name.toLowerCase(), rest), options.statusReplies);
    },
  };
}

function stringOrWrongType(ctx: CommandContext, key: string): { value: string | null } | Reply {
  const type = ctx.keyspace.typeOf(key);
  if (type !== null && type !== 'string') return errors.wrongType();
  return { value: ctx.keyspace.getString(key) };
}

function isReply(x: unknown): x is Reply {
  return typeof x === 'object' && x !== null && 'type' in x;
}

/** SET key value [NX|XX] [GET] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL], options case-insensitive (t_string.c). */
const set: CommandSpec = {
  arity: -3,
  write: true,
  run(ctx, args) {
    const [, key, value] = args;
    let condition: 'NX' | 'XX' | null = null;
    let get = false;
    let expireAtMs: number | null = null;
    let expireKind: string | null = null;
    let keepTtl = false;
    for (let i = 3; i < args.length; i++) {
      const option = args[i].toUpperCase();
      if ((option === 'NX' || option === 'XX') && condition === null) condition = option;
      else if (option === 'GET' && !get) get = true;
      else if (option === 'KEEPTTL' && expireKind === null && !keepTtl) keepTtl = true;
      else if ((option === 'EX' || option === 'PX' || option === 'EXAT' || option === 'PXAT') && expireKind === null && !keepTtl && i + 1 < args.length) {
        expireKind = option;
        const amount = parseInteger(args[++i]);
        if (amount === null) return errors.notInteger();
        if (amount <= 0n) return reply.error(`ERR invalid expire time in 'set' command`);
        const ms = option === 'EX' || option === 'EXAT' ? amount * 1000n : amount;
        const at = option === 'EX' || option === 'PX' ? BigInt(ctx.nowMs) + ms : ms;
        if (!inInt64Range(at) || at > BigInt(Number.MAX_SAFE_INTEGER)) return reply.error(`ERR invalid expire time in 'set' command`);
        expireAtMs = Number(at);
      } else return errors.syntax();
    }
    const current = get ? stringOrWrongType(ctx, key) : { value: ctx.keyspace.has(key) ? '' : null };
    if (isReply(current)) return current;
    const exists = ctx.keyspace.has(key);
    const previous = get ? current.value : null;
    if ((condition === 'NX' && exists) || (condition === 'XX' && !exists)) return get ? toBulkOrNil(previous) : reply.nil();
    const previousExpireAt = ctx.keyspace.expireAtMs(key);
    const outcome = ctx.keyspace.call(ctx.nowMs, 'set', [key, value]);
    if (!outcome.ok) return fromMock(outcome);
    ctx.keyspace.setExpireAt(key, keepTtl ? previousExpireAt : expireAtMs);
    return get ? toBulkOrNil(previous) : reply.ok();
  },
};

function toBulkOrNil(value: string | null): Reply {
  return value === null ? reply.nil() : reply.bulk(value);
}

const get: CommandSpec = {
  arity: 2,
  write: false,
  run(ctx, [, key]) {
    const current = stringOrWrongType(ctx, key);
    return isReply(current) ? current : toBulkOrNil(current.value);
  },
};

const setnx: CommandSpec = {
  arity: 3,
  write: true,
  run(ctx, [, key, value]) {
    if (ctx.keyspace.has(key)) return reply.integer(0);
    set.run(ctx, ['SET', key, value]);
    return reply.integer(1);
  },
};

function ttlCommand(unitMs: number): CommandSpec {
  return {
    arity: 2,
    write: false,
    run(ctx, [, key]) {
      const pttl = ctx.keyspace.pttl(key, ctx.nowMs);
      // Redis rounds TTL to the nearest second: (ttl + 500) / 1000.
      return reply.integer(pttl < 0 || unitMs === 1 ? pttl : Math.floor((pttl + 500) / 1000));
    },
  };
}

function expireCommand(unitMs: number): CommandSpec {
  return {
    arity: -3,
    write: true,
    run(ctx, args) {
      const [, key, amountText] = args;
      const amount = parseInteger(amountText);
      if (amount === null) return errors.notInteger();
      let flag: string | null = null;
      for (const option of args.slice(3).map((a) => a.toUpperCase())) {
        if (!['NX', 'XX', 'GT', 'LT'].includes(option)) return reply.error(`ERR Unsupported option ${option}`);
        if (flag !== null && flag !== option) {
          return reply.error('ERR NX and XX, GT or LT options at the same time are not compatible');
        }
        flag = option;
      }
      if (!ctx.keyspace.has(key)) return reply.integer(0);
      const at = BigInt(ctx.nowMs) + amount * BigInt(unitMs);
      const current = ctx.keyspace.expireAtMs(key);
      if (flag === 'NX' && current !== null) return reply.integer(0);
      if (flag === 'XX' && current === null) return reply.integer(0);
      // A key without TTL counts as an infinite TTL for GT/LT.
      if (flag === 'GT' && (current === null || at <= BigInt(current))) return reply.integer(0);
      if (flag === 'LT' && current !== null && at >= BigInt(current)) return reply.integer(0);
      if (at <= BigInt(ctx.nowMs)) {
        ctx.keyspace.call(ctx.nowMs, 'del', [key]);
        return reply.integer(1);
      }
      ctx.keyspace.setExpireAt(key, Number(at));
      return reply.integer(1);
    },
  };
}

const persist: CommandSpec = {
  arity: 2,
  write: true,
  run(ctx, [, key]) {
    if (ctx.keyspace.expireAtMs(key) === null) return reply.integer(0);
    ctx.keyspace.setExpireAt(key, null);
    return reply.integer(1);
  },
};

function incrCommand(sign: 1n | -1n, withAmount: boolean): CommandSpec {
  return {
    arity: withAmount ? 3 : 2,
    write: true,
    run(ctx, args) {
      const key = args[1];
      const by = withAmount ? parseInteger(args[2]) : 1n;
      if (by === null) return errors.notInteger();
      const current = stringOrWrongType(ctx, key);
      if (isReply(current)) return current;
      const base = current.value === null ? 0n : parseInteger(current.value);
      if (base === null) return errors.notInteger();
      const next = base + sign * by;
      if (!inInt64Range(next)) return reply.error('ERR increment or decrement would overflow');
      const expireAt = ctx.keyspace.expireAtMs(key);
      ctx.keyspace.call(ctx.nowMs, 'set', [key, next.toString()]);
      ctx.keyspace.setExpireAt(key, expireAt);
      return reply.integer(next);
    },
  };
}

const time: CommandSpec = {
  arity: 1,
  write: false,
  run(ctx) {
    const seconds = Math.floor(ctx.nowMs / 1000);
    const micros = (ctx.nowMs % 1000) * 1000;
    return reply.array([reply.bulk(String(seconds)), reply.bulk(String(micros))]);
  },
};

const type: CommandSpec = {
  arity: 2,
  write: false,
  run(ctx, [, key]) {
    return reply.status(ctx.keyspace.typeOf(key) ?? 'none');
  },
};

/**
 * Commands Lockstep implements or checks itself, by lower-case name. Everything else that
 * ioredis-mock supports is reachable through `delegated`. Scripting commands (EVAL, EVALSHA,
 * SCRIPT) are dispatched by the server to its script engine.
 */
export const COMMANDS: Record<string, CommandSpec> = {
  set,
  get,
  setnx,
  ttl: ttlCommand(1000),
  pttl: ttlCommand(1),
  expire: expireCommand(1000),
  pexpire: expireCommand(1),
  persist,
  incr: incrCommand(1n, false),
  decr: incrCommand(-1n, false),
  incrby: incrCommand(1n, true),
  decrby: incrCommand(-1n, true),
  time,
  type,
  del: delegated(-2, true),
  exists: delegated(-2, false),
  ping: delegated(-1, false, { statusReplies: ['PONG'] }),
  hset: delegated(-4, true, { keyType: 'hash' }),
  hget: delegated(3, false, { keyType: 'hash' }),
  hdel: delegated(-3, true, { keyType: 'hash' }),
  hexists: delegated(3, false, { keyType: 'hash' }),
  hincrby: delegated(4, true, { keyType: 'hash' }),
  hgetall: {
    arity: 2,
    write: false,
    run(ctx, [, key]) {
      const entry = ctx.keyspace.entry(key);
      if (entry === null) return reply.array([]);
      if (entry.type !== 'hash') return errors.wrongType();
      return reply.array(entry.value.flatMap(([field, value]) => [reply.bulk(field), reply.bulk(value)]));
    },
  },
  hlen: delegated(2, false, { keyType: 'hash' }),
  dbsize: delegated(1, false),
  flushall: delegated(-1, true, { statusReplies: ['OK'] }),
};
