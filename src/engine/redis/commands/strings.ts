import { reply, type Reply } from '../reply';
import { exactMs, toBigMs, type ExactMs } from '../time';
import { byteLength, decodeBytes, encodeString } from './bytes';
import { digestOf, parseDigest } from './digest';
import { formatLongDouble, parseLongDouble, addLongDouble } from './long-double';
import {
  INT64_MAX,
  INT64_MIN,
  STRING_BYTES_MAX,
  bulkOrNil,
  command,
  errors,
  inInt64Range,
  lookup,
  parseInteger,
  unixNowMs,
  type CommandContext,
  type CommandSpec,
} from './shared';

/** t_string.c, Redis 7.0. Every check happens in the order Redis makes it: that order shows in the error a learner sees. */

type ExpireUnit = 'EX' | 'PX' | 'EXAT' | 'PXAT';

/**
 * getExpireMillisecondsOrReply: the expiry as a virtual time, or the error Redis gives. The checks
 * are Redis's, in Unix time (a relative expiry is added to the server's Unix clock, and an
 * overflow of that addition is an invalid expire time); the result is then moved to the virtual
 * clock the keyspace keeps.
 */
export function expireAtMs(ctx: CommandContext, commandName: string, unit: ExpireUnit, text: string): { ok: true; atMs: ExactMs } | { ok: false; error: Reply } {
  const amount = parseInteger(text);
  if (amount === null) return { ok: false, error: errors.notInteger() };
  const seconds = unit === 'EX' || unit === 'EXAT';
  if (amount <= 0n || (seconds && amount > INT64_MAX / 1000n)) return { ok: false, error: errors.invalidExpire(commandName) };
  let unixAtMs = seconds ? amount * 1000n : amount;
  if (unit === 'EX' || unit === 'PX') unixAtMs += unixNowMs(ctx);
  // Redis detects the overflow of the addition as a wrapped, non-positive result.
  if (unixAtMs > INT64_MAX) return { ok: false, error: errors.invalidExpire(commandName) };
  return { ok: true, atMs: exactMs(unixAtMs - BigInt(ctx.unixEpochMs)) };
}

/** The expiry an option list asks for (null: none), or the error Redis gives for it. */
function optionalExpiry(ctx: CommandContext, commandName: string, options: StringOptions): { ok: true; atMs: ExactMs | null } | { ok: false; error: Reply } {
  return options.expire ? expireAtMs(ctx, commandName, options.expire.unit, options.expire.text) : { ok: true, atMs: null };
}

/** Redis 8.4's compare-and-set conditions: by value (IFEQ, IFNE) or by the value's digest (IFDEQ, IFDNE). */
type IfCondition = 'IFEQ' | 'IFNE' | 'IFDEQ' | 'IFDNE';
const IF_CONDITIONS: ReadonlySet<string> = new Set<IfCondition>(['IFEQ', 'IFNE', 'IFDEQ', 'IFDNE']);

interface StringOptions {
  condition: 'NX' | 'XX' | null;
  /** SET's IFEQ/IFNE/IFDEQ/IFDNE and its operand (Redis 8.4). */
  compare: { condition: IfCondition; operand: string } | null;
  get: boolean;
  keepTtl: boolean;
  persist: boolean;
  expire: { unit: ExpireUnit; text: string } | null;
}

/**
 * parseExtendedStringArgumentsOrReply for SET (from argv[3]), GETEX (from argv[2]) and MSETEX
 * (after its key-value pairs). Repeating NX, XX, GET or one expiry unit is allowed (the last EX
 * wins); conflicting options are a syntax error. The 8.4 conditions are exclusive with NX, XX
 * and each other, and take one operand.
 */
function parseStringOptions(args: readonly string[], from: number, command: 'set' | 'getex' | 'msetex'): StringOptions | null {
  const options: StringOptions = { condition: null, compare: null, get: false, keepTtl: false, persist: false, expire: null };
  const forSet = command !== 'getex';
  for (let i = from; i < args.length; i++) {
    const option = args[i].toUpperCase();
    const hasNext = i + 1 < args.length;
    const expireUnit = options.expire?.unit ?? null;
    if (option === 'NX' && forSet && options.condition !== 'XX' && options.compare === null) options.condition = 'NX';
    else if (option === 'XX' && forSet && options.condition !== 'NX' && options.compare === null) options.condition = 'XX';
    else if (IF_CONDITIONS.has(option) && command === 'set' && options.condition === null && options.compare === null && hasNext) {
      options.compare = { condition: option as IfCondition, operand: args[++i] };
    } else if (option === 'GET' && command === 'set') options.get = true;
    else if (option === 'KEEPTTL' && forSet && !options.persist && expireUnit === null) options.keepTtl = true;
    else if (option === 'PERSIST' && !forSet && expireUnit === null && !options.keepTtl) options.persist = true;
    else if (
      (option === 'EX' || option === 'PX' || option === 'EXAT' || option === 'PXAT') &&
      !options.keepTtl &&
      !options.persist &&
      (expireUnit === null || expireUnit === option) &&
      hasNext
    ) {
      options.expire = { unit: option, text: args[++i] };
    } else return null;
  }
  return options;
}

/**
 * SET key value [NX|XX|IFEQ v|IFNE v|IFDEQ d|IFDNE d] [GET] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL]
 *
 * The IF* conditions are Redis 8.4's (redis.io/commands/set, tested against that page: Redis 7.0
 * cannot run them). IFEQ and IFDEQ never create a key; IFNE and IFDNE do; a key that holds
 * another type is WRONGTYPE. Like any SET that stores, a met condition drops the old TTL unless
 * KEEPTTL (or an expiry option) is given: `SET lock new IFEQ old` leaves a lock with no expiry.
 */
const set: CommandSpec = command(-3, true, (ctx, args) => {
  const [, key, value] = args;
  const options = parseStringOptions(args, 3, 'set');
  if (options === null) return errors.syntax();
  const expire = optionalExpiry(ctx, 'set', options);
  if (!expire.ok) return expire.error;
  const atMs = expire.atMs;
  const byDigest = options.compare?.condition === 'IFDEQ' || options.compare?.condition === 'IFDNE';
  if (options.compare && byDigest && parseDigest(options.compare.operand) === null) return errors.badDigest();
  let previous: string | null = null;
  if (options.get || options.compare) {
    const current = lookup(ctx, key, 'string');
    if (!current.ok) return current.error;
    previous = current.value;
  }
  const found = ctx.keyspace.has(key);
  const stores =
    options.compare !== null
      ? compareAllows(options.compare.condition, options.compare.operand, previous)
      : !((options.condition === 'NX' && found) || (options.condition === 'XX' && !found));
  if (!stores) return options.get ? bulkOrNil(previous) : reply.nil();
  ctx.keyspace.write(key, { type: 'string', value }, { keepTtl: options.keepTtl });
  if (atMs !== null) ctx.keyspace.setExpireAt(key, atMs);
  return options.get ? bulkOrNil(previous) : reply.ok();
});

/** Whether an 8.4 condition lets SET store, given the key's current string value (null: no key). */
function compareAllows(condition: IfCondition, operand: string, current: string | null): boolean {
  switch (condition) {
    case 'IFEQ':
      return current !== null && current === operand;
    case 'IFNE':
      return current === null || current !== operand;
    case 'IFDEQ':
      return current !== null && digestOf(current) === parseDigest(operand);
    case 'IFDNE':
      return current === null || digestOf(current) !== parseDigest(operand);
  }
}

const get: CommandSpec = command(2, false, (ctx, [, key]) => {
  const current = lookup(ctx, key, 'string');
  return current.ok ? bulkOrNil(current.value) : current.error;
});

const setnx: CommandSpec = command(3, true, (ctx, [, key, value]) => {
  if (ctx.keyspace.has(key)) return reply.integer(0);
  ctx.keyspace.write(key, { type: 'string', value }, { keepTtl: false });
  return reply.integer(1);
});

/** SETEX key seconds value / PSETEX key ms value */
function setexCommand(name: 'setex' | 'psetex'): CommandSpec {
  return command(4, true, (ctx, [, key, amount, value]) => {
    const expire = expireAtMs(ctx, name, name === 'setex' ? 'EX' : 'PX', amount);
    if (!expire.ok) return expire.error;
    ctx.keyspace.write(key, { type: 'string', value }, { keepTtl: false });
    ctx.keyspace.setExpireAt(key, expire.atMs);
    return reply.ok();
  });
}

const getset: CommandSpec = command(3, true, (ctx, [, key, value]) => {
  const current = lookup(ctx, key, 'string');
  if (!current.ok) return current.error;
  ctx.keyspace.write(key, { type: 'string', value }, { keepTtl: false });
  return bulkOrNil(current.value);
});

const getdel: CommandSpec = command(2, true, (ctx, [, key]) => {
  const current = lookup(ctx, key, 'string');
  if (!current.ok) return current.error;
  if (current.value !== null) ctx.keyspace.delete(key);
  return bulkOrNil(current.value);
});

/** GETEX key [EX s|PX ms|EXAT s|PXAT ms|PERSIST] */
const getex: CommandSpec = command(-2, true, (ctx, args) => {
  const key = args[1];
  const options = parseStringOptions(args, 2, 'getex');
  if (options === null) return errors.syntax();
  const current = lookup(ctx, key, 'string');
  if (!current.ok) return current.error;
  if (current.value === null) return reply.nil();
  if (options.expire) {
    const expire = expireAtMs(ctx, 'getex', options.expire.unit, options.expire.text);
    if (!expire.ok) return expire.error;
    const absolute = options.expire.unit === 'EXAT' || options.expire.unit === 'PXAT';
    // checkAlreadyExpired: an absolute time already reached deletes the key.
    if (absolute && toBigMs(expire.atMs) <= BigInt(ctx.nowMs)) ctx.keyspace.delete(key);
    else ctx.keyspace.setExpireAt(key, expire.atMs);
  } else if (options.persist && ctx.keyspace.expireAt(key) !== null) ctx.keyspace.setExpireAt(key, null);
  return reply.bulk(current.value);
});

const mset: CommandSpec = command(-3, true, (ctx, args) => {
  if (args.length % 2 === 0) return errors.arity('mset');
  for (let i = 1; i < args.length; i += 2) ctx.keyspace.write(args[i], { type: 'string', value: args[i + 1] }, { keepTtl: false });
  return reply.ok();
});

const msetnx: CommandSpec = command(-3, true, (ctx, args) => {
  if (args.length % 2 === 0) return errors.arity('msetnx');
  for (let i = 1; i < args.length; i += 2) if (ctx.keyspace.has(args[i])) return reply.integer(0);
  for (let i = 1; i < args.length; i += 2) ctx.keyspace.write(args[i], { type: 'string', value: args[i + 1] }, { keepTtl: false });
  return reply.integer(1);
});

/**
 * MSETEX numkeys key value [key value ...] [NX|XX] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL]: Redis 8.4
 * (redis.io/commands/msetex; Redis 7.0 cannot run it). Sets every pair with one shared expiry,
 * atomically: with NX only if none of the keys exists, with XX only if all exist. Answers 1 when
 * the keys were set, 0 when not. The two numkeys error texts are not documented; Lockstep's are
 * listed in docs/REDIS-FIDELITY.md.
 */
const msetex: CommandSpec = command(-4, true, (ctx, args) => {
  const count = parseInteger(args[1]);
  if (count === null || count < 1n) return reply.error('ERR invalid numkeys value');
  if (2n + count * 2n > BigInt(args.length)) return reply.error('ERR wrong number of key-value pairs');
  const pairsEnd = 2 + Number(count) * 2;
  const options = parseStringOptions(args, pairsEnd, 'msetex');
  if (options === null) return errors.syntax();
  const expire = optionalExpiry(ctx, 'msetex', options);
  if (!expire.ok) return expire.error;
  const atMs = expire.atMs;
  for (let i = 2; i < pairsEnd; i += 2) {
    const found = ctx.keyspace.has(args[i]);
    if ((options.condition === 'NX' && found) || (options.condition === 'XX' && !found)) return reply.integer(0);
  }
  for (let i = 2; i < pairsEnd; i += 2) {
    ctx.keyspace.write(args[i], { type: 'string', value: args[i + 1] }, { keepTtl: options.keepTtl });
    if (atMs !== null) ctx.keyspace.setExpireAt(args[i], atMs);
  }
  return reply.integer(1);
});

const mget: CommandSpec = command(-2, false, (ctx, args) => {
  // MGET answers nil for a key of another type, never WRONGTYPE.
  return reply.array(args.slice(1).map((key) => {
    const stored = ctx.keyspace.get(key);
    return stored !== null && stored.type === 'string' ? reply.bulk(stored.value) : reply.nil();
  }));
});

const append: CommandSpec = command(3, true, (ctx, [, key, suffix]) => {
  const current = lookup(ctx, key, 'string');
  if (!current.ok) return current.error;
  const next = (current.value ?? '') + suffix;
  const length = byteLength(next);
  if (current.value !== null && length > STRING_BYTES_MAX) return errors.stringTooLong();
  ctx.keyspace.write(key, { type: 'string', value: next }, { keepTtl: true });
  return reply.integer(length);
});

const strlen: CommandSpec = command(2, false, (ctx, [, key]) => {
  const current = lookup(ctx, key, 'string');
  if (!current.ok) return current.error;
  return reply.integer(current.value === null ? 0 : byteLength(current.value));
});

const getrange: CommandSpec = command(4, false, (ctx, [, key, startText, endText]) => {
  const startArg = parseInteger(startText);
  if (startArg === null) return errors.notInteger();
  const endArg = parseInteger(endText);
  if (endArg === null) return errors.notInteger();
  const current = lookup(ctx, key, 'string');
  if (!current.ok) return current.error;
  if (current.value === null) return reply.bulk('');
  const bytes = encodeString(current.value);
  const length = BigInt(bytes.length);
  let start = startArg;
  let end = endArg;
  if (start < 0n && end < 0n && start > end) return reply.bulk('');
  if (start < 0n) start += length;
  if (end < 0n) end += length;
  if (start < 0n) start = 0n;
  if (end < 0n) end = 0n;
  if (end >= length) end = length - 1n;
  if (start > end || length === 0n) return reply.bulk('');
  return reply.bulk(decodeBytes(bytes.subarray(Number(start), Number(end) + 1)));
});

const setrange: CommandSpec = command(4, true, (ctx, [, key, offsetText, value]) => {
  const offsetArg = parseInteger(offsetText);
  if (offsetArg === null) return errors.notInteger();
  if (offsetArg < 0n) return reply.error('ERR offset is out of range');
  const current = lookup(ctx, key, 'string');
  if (!current.ok) return current.error;
  const valueBytes = encodeString(value);
  const oldBytes = encodeString(current.value ?? '');
  if (valueBytes.length === 0) return reply.integer(current.value === null ? 0 : oldBytes.length);
  if (offsetArg + BigInt(valueBytes.length) > BigInt(STRING_BYTES_MAX)) return errors.stringTooLong();
  const offset = Number(offsetArg);
  const next = new Uint8Array(Math.max(oldBytes.length, offset + valueBytes.length));
  next.set(oldBytes, 0);
  next.set(valueBytes, offset);
  ctx.keyspace.write(key, { type: 'string', value: decodeBytes(next) }, { keepTtl: true });
  return reply.integer(next.length);
});

/** incrDecrCommand: the increment is parsed before the key's type and value are checked. */
function incrBy(ctx: CommandContext, key: string, by: bigint): Reply {
  const current = lookup(ctx, key, 'string');
  if (!current.ok) return current.error;
  const base = current.value === null ? 0n : parseInteger(current.value);
  if (base === null) return errors.notInteger();
  const next = base + by;
  if (!inInt64Range(next)) return errors.overflow();
  ctx.keyspace.write(key, { type: 'string', value: next.toString() }, { keepTtl: true });
  return reply.integer(next);
}

const incr = command(2, true, (ctx, [, key]) => incrBy(ctx, key, 1n));
const decr = command(2, true, (ctx, [, key]) => incrBy(ctx, key, -1n));
const incrby = command(3, true, (ctx, [, key, amount]) => {
  const by = parseInteger(amount);
  return by === null ? errors.notInteger() : incrBy(ctx, key, by);
});
const decrby = command(3, true, (ctx, [, key, amount]) => {
  const by = parseInteger(amount);
  if (by === null) return errors.notInteger();
  // Negating INT64_MIN overflows: Redis refuses it before looking at the key.
  if (by === INT64_MIN) return reply.error('ERR decrement would overflow');
  return incrBy(ctx, key, -by);
});

/** INCRBYFLOAT: long double arithmetic and formatting, emulated exactly (long-double.ts). */
const incrbyfloat = command(3, true, (ctx, [, key, amount]) => {
  const current = lookup(ctx, key, 'string');
  if (!current.ok) return current.error;
  const base = current.value === null ? parseLongDouble('0') : parseLongDouble(current.value);
  const by = parseLongDouble(amount);
  if (base === null || by === null) return errors.notFloat();
  const sum = addLongDouble(base, by);
  if (sum.kind !== 'finite') return reply.error('ERR increment would produce NaN or Infinity');
  const text = formatLongDouble(sum);
  ctx.keyspace.write(key, { type: 'string', value: text }, { keepTtl: true });
  return reply.bulk(text);
});

export const STRING_COMMANDS: Record<string, CommandSpec> = {
  set,
  get,
  setnx,
  setex: setexCommand('setex'),
  psetex: setexCommand('psetex'),
  getset,
  getdel,
  getex,
  mset,
  msetnx,
  msetex,
  mget,
  append,
  strlen,
  getrange,
  setrange,
  incr,
  decr,
  incrby,
  decrby,
  incrbyfloat,
};
