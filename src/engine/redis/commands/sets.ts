import { reply } from '../reply';
import { command, lookup, parseInteger, type CommandSpec } from './shared';

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

export const SET_COMMANDS: Record<string, CommandSpec> = {
  sadd,
  srem,
  smembers,
  sismember,
  smismember,
  scard,
};
