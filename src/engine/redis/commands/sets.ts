import { reply, type Reply } from '../reply';
import { command, errors, INT64_MIN, lookup, parseInteger, type CommandContext, type CommandSpec } from './shared';

/**
 * t_set.c, Redis 7.0. A set is an immutable Set: SADD and SREM write a new one, and only when a
 * member was added or removed (Redis signals a change, which WATCH sees, only then). SMEMBERS order: Redis answers a small all-integer set (an intset) in numeric
 * order, any other set in hash-table order, which is arbitrary. Lockstep answers numeric order
 * for the first and byte order for the second: deterministic, and one of the orders Redis may give.
 */

/** set-max-intset-entries: above this many members Redis stores even integers in a hash table. */
const INTSET_ENTRIES_MAX = 512;

export function setMembersInRedisOrder(members: Iterable<string>): string[] {
  const list = [...members];
  const integers = list.map(parseInteger);
  if (list.length <= INTSET_ENTRIES_MAX && integers.every((n) => n !== null)) {
    return list
      .map((member, i) => [member, integers[i] as bigint] as const)
      .sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([member]) => member);
  }
  return list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const smembers = command(2, false, (ctx, [, key]) => {
  const found = lookup(ctx, key, 'set');
  if (!found.ok) return found.error;
  return reply.array(setMembersInRedisOrder(found.value ?? []).map((m) => reply.bulk(m)));
});

const smismember = command(-3, false, (ctx, args) => {
  const found = lookup(ctx, args[1], 'set');
  if (!found.ok) return found.error;
  return reply.array(args.slice(2).map((m) => reply.integer(found.value?.has(m) ? 1 : 0)));
});

const sadd = command(-3, true, (ctx, args) => {
  const found = lookup(ctx, args[1], 'set');
  if (!found.ok) return found.error;
  const next = new Set(found.value ?? []);
  for (const member of args.slice(2)) next.add(member);
  const added = next.size - (found.value?.size ?? 0);
  if (added > 0) ctx.keyspace.write(args[1], { type: 'set', value: next }, { keepTtl: true });
  return reply.integer(added);
});

const srem = command(-3, true, (ctx, args) => {
  const found = lookup(ctx, args[1], 'set');
  if (!found.ok) return found.error;
  if (found.value === null) return reply.integer(0);
  const next = new Set(found.value);
  for (const member of args.slice(2)) next.delete(member);
  const removed = found.value.size - next.size;
  // An emptied set is deleted by the write.
  if (removed > 0) ctx.keyspace.write(args[1], { type: 'set', value: next }, { keepTtl: true });
  return reply.integer(removed);
});

const sismember = command(3, false, (ctx, [, key, member]) => {
  const found = lookup(ctx, key, 'set');
  return found.ok ? reply.integer(found.value?.has(member) ? 1 : 0) : found.error;
});

const scard = command(2, false, (ctx, [, key]) => {
  const found = lookup(ctx, key, 'set');
  return found.ok ? reply.integer(found.value?.size ?? 0) : found.error;
});

/**
 * SMOVE source destination member: a missing source answers 0 before any type check; the same
 * key answers whether the member is there; the destination is signalled even when it had it.
 */
const smove = command(4, true, (ctx, [, sourceKey, destinationKey, member]) => {
  if (!ctx.keyspace.has(sourceKey)) return reply.integer(0);
  const source = lookup(ctx, sourceKey, 'set');
  if (!source.ok) return source.error;
  const destination = lookup(ctx, destinationKey, 'set');
  if (!destination.ok) return destination.error;
  const members = source.value as ReadonlySet<string>;
  if (sourceKey === destinationKey) return reply.integer(members.has(member) ? 1 : 0);
  if (!members.has(member)) return reply.integer(0);
  const rest = new Set(members);
  rest.delete(member);
  ctx.keyspace.write(sourceKey, { type: 'set', value: rest }, { keepTtl: true });
  const added = new Set(destination.value ?? []);
  added.add(member);
  ctx.keyspace.write(destinationKey, { type: 'set', value: added }, { keepTtl: true });
  return reply.integer(1);
});

/**
 * Random members come from the server's seeded stream (Session.randomBelow), drawn from the set in
 * SMEMBERS order: deterministic per seed. Redis draws from its hash table, so which members come
 * out differs from a real server's; how many, and that they are members, does not.
 */
function drawDistinct(ctx: CommandContext, members: readonly string[], count: number): string[] {
  const pool = members.slice();
  const out: string[] = [];
  // Partial Fisher-Yates: `count` < pool length draws.
  for (let i = 0; i < count; i++) {
    const j = i + ctx.session.randomBelow(pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
    out.push(pool[i]);
  }
  return out;
}

/** SPOP key [count]: the count is parsed before the key is looked up; an emptied set is deleted. */
const spop = command(-2, true, (ctx, args) => {
  if (args.length > 3) return errors.syntax();
  let count: bigint | null = null;
  if (args.length === 3) {
    count = parseInteger(args[2]);
    if (count === null || count < 0n) return errors.notPositive();
  }
  const found = lookup(ctx, args[1], 'set');
  if (!found.ok) return found.error;
  if (found.value === null) return count === null ? reply.nil() : reply.array([]);
  if (count === 0n) return reply.array([]);
  const members = setMembersInRedisOrder(found.value);
  const taken = count === null ? 1 : count >= BigInt(members.length) ? members.length : Number(count);
  const popped = taken === members.length ? members : drawDistinct(ctx, members, taken);
  const rest = new Set(found.value);
  for (const member of popped) rest.delete(member);
  ctx.keyspace.write(args[1], { type: 'set', value: rest }, { keepTtl: true });
  return count === null ? reply.bulk(popped[0]) : reply.array(popped.map((m) => reply.bulk(m)));
});

/**
 * The most members one SRANDMEMBER with a negative count draws. Redis 7.0 has no limit (7.2 caps
 * it); a simulator in a browser tab refuses to build a reply of millions instead.
 */
const SRANDMEMBER_DRAWS_MAX = 100_000;

const INT64_RANGE_ERROR = 'ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807';

/** SRANDMEMBER key [count]: a negative count may repeat members; a positive one never does. */
const srandmember = command(-2, false, (ctx, args) => {
  if (args.length > 3) return errors.syntax();
  let count: bigint | null = null;
  if (args.length === 3) {
    count = parseInteger(args[2]);
    if (count === null) return errors.notInteger();
    if (count === INT64_MIN) return reply.error(INT64_RANGE_ERROR);
  }
  const found = lookup(ctx, args[1], 'set');
  if (!found.ok) return found.error;
  if (found.value === null) return count === null ? reply.nil() : reply.array([]);
  const members = setMembersInRedisOrder(found.value);
  if (count === null) return reply.bulk(members[ctx.session.randomBelow(members.length)]);
  if (count === 0n) return reply.array([]);
  let drawn: string[];
  if (count < 0n) {
    if (-count > BigInt(SRANDMEMBER_DRAWS_MAX)) return reply.error(`ERR Lockstep draws at most ${SRANDMEMBER_DRAWS_MAX} members at once`);
    drawn = Array.from({ length: Number(-count) }, () => members[ctx.session.randomBelow(members.length)]);
  } else if (count >= BigInt(members.length)) drawn = members;
  else drawn = drawDistinct(ctx, members, Number(count));
  return reply.array(drawn.map((m): Reply => reply.bulk(m)));
});

export const SET_COMMANDS: Record<string, CommandSpec> = {
  smove,
  spop,
  srandmember,
  sadd,
  srem,
  smembers,
  sismember,
  smismember,
  scard,
};
