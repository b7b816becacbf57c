import { reply } from '../reply';
import { command, delegated, lookup, parseInteger, type CommandSpec } from './shared';

/**
 * t_set.c, Redis 7.0. SADD, SREM, SCARD and SISMEMBER are ioredis-mock's own (right once the type
 * is checked). SMEMBERS order: Redis answers a small all-integer set (an intset) in numeric
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

export const SET_COMMANDS: Record<string, CommandSpec> = {
  sadd: delegated(-3, true, { keyType: 'set' }),
  srem: delegated(-3, true, { keyType: 'set' }),
  smembers,
  sismember: delegated(3, false, { keyType: 'set' }),
  smismember,
  scard: delegated(2, false, { keyType: 'set' }),
};
