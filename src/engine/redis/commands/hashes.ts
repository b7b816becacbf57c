import { reply } from '../reply';
import { byteLength } from './bytes';
import { addLongDouble, formatLongDouble, parseLongDouble } from './long-double';
import { bulkOrNil, command, errors, inInt64Range, lookup, parseInteger, type CommandContext, type CommandSpec } from './shared';

/**
 * t_hash.c, Redis 7.0. A hash is stored as a Map, which keeps fields in insertion order as a small
 * (listpack) Redis hash does, updates in place, and moves a deleted and re-added field to the end.
 * Stored maps are immutable: a change copies the map and writes the copy (copy-on-write).
 */

type HashLookup = { ok: true; hash: ReadonlyMap<string, string> | null } | { ok: false; error: ReturnType<typeof errors.wrongType> };

/** A copy of the hash to change (an empty one for an absent key). */
function mutableCopy(hash: ReadonlyMap<string, string> | null): Map<string, string> {
  return new Map(hash ?? []);
}

function hashOf(ctx: CommandContext, key: string): HashLookup {
  const found = lookup(ctx, key, 'hash');
  return found.ok ? { ok: true, hash: found.value } : { ok: false, error: found.error };
}

function hsetCommand(status: boolean, name: string): CommandSpec {
  return command(-4, true, (ctx, args) => {
    if (args.length % 2 === 1) return errors.arity(name);
    const found = hashOf(ctx, args[1]);
    if (!found.ok) return found.error;
    const hash = mutableCopy(found.hash);
    let created = 0;
    for (let i = 2; i < args.length; i += 2) {
      if (!hash.has(args[i])) created += 1;
      hash.set(args[i], args[i + 1]);
    }
    ctx.keyspace.write(args[1], { type: 'hash', value: hash }, { keepTtl: true });
    return status ? reply.ok() : reply.integer(created);
  });
}

const hget = command(3, false, (ctx, [, key, field]) => {
  const found = hashOf(ctx, key);
  return found.ok ? bulkOrNil(found.hash?.get(field)) : found.error;
});

const hmget = command(-3, false, (ctx, args) => {
  const found = hashOf(ctx, args[1]);
  if (!found.ok) return found.error;
  return reply.array(args.slice(2).map((field) => bulkOrNil(found.hash?.get(field))));
});

const hdel = command(-3, true, (ctx, args) => {
  const found = hashOf(ctx, args[1]);
  if (!found.ok) return found.error;
  if (found.hash === null) return reply.integer(0);
  const hash = mutableCopy(found.hash);
  let deleted = 0;
  for (const field of args.slice(2)) if (hash.delete(field)) deleted += 1;
  if (deleted > 0) ctx.keyspace.write(args[1], { type: 'hash', value: hash }, { keepTtl: true });
  return reply.integer(deleted);
});

const hexists = command(3, false, (ctx, [, key, field]) => {
  const found = hashOf(ctx, key);
  return found.ok ? reply.integer(found.hash?.has(field) ? 1 : 0) : found.error;
});

const hincrby = command(4, true, (ctx, [, key, field, amount]) => {
  const by = parseInteger(amount);
  if (by === null) return errors.notInteger();
  const found = hashOf(ctx, key);
  if (!found.ok) return found.error;
  const hash = mutableCopy(found.hash);
  const currentText = hash.get(field);
  const current = currentText === undefined ? 0n : parseInteger(currentText);
  if (current === null) return reply.error('ERR hash value is not an integer');
  const next = current + by;
  if (!inInt64Range(next)) return errors.overflow();
  hash.set(field, next.toString());
  ctx.keyspace.write(key, { type: 'hash', value: hash }, { keepTtl: true });
  return reply.integer(next);
});

const hincrbyfloat = command(4, true, (ctx, [, key, field, amount]) => {
  const by = parseLongDouble(amount);
  if (by === null) return errors.notFloat();
  if (by.kind !== 'finite') return reply.error('ERR value is NaN or Infinity');
  const found = hashOf(ctx, key);
  if (!found.ok) return found.error;
  const hash = mutableCopy(found.hash);
  const currentText = hash.get(field);
  const current = currentText === undefined ? parseLongDouble('0') : parseLongDouble(currentText);
  if (current === null) return reply.error('ERR hash value is not a float');
  const sum = addLongDouble(current, by);
  if (sum.kind !== 'finite') return reply.error('ERR increment would produce NaN or Infinity');
  const text = formatLongDouble(sum);
  hash.set(field, text);
  ctx.keyspace.write(key, { type: 'hash', value: hash }, { keepTtl: true });
  return reply.bulk(text);
});

const hlen = command(2, false, (ctx, [, key]) => {
  const found = hashOf(ctx, key);
  return found.ok ? reply.integer(found.hash?.size ?? 0) : found.error;
});

function hashListing(pick: (field: string, value: string) => string[]): CommandSpec {
  return command(2, false, (ctx, [, key]) => {
    const found = hashOf(ctx, key);
    if (!found.ok) return found.error;
    return reply.array([...(found.hash ?? [])].flatMap(([field, value]) => pick(field, value).map((text) => reply.bulk(text))));
  });
}

const hsetnx = command(4, true, (ctx, [, key, field, value]) => {
  const found = hashOf(ctx, key);
  if (!found.ok) return found.error;
  if (found.hash?.has(field)) return reply.integer(0);
  const hash = mutableCopy(found.hash);
  hash.set(field, value);
  ctx.keyspace.write(key, { type: 'hash', value: hash }, { keepTtl: true });
  return reply.integer(1);
});

const hstrlen = command(3, false, (ctx, [, key, field]) => {
  const found = hashOf(ctx, key);
  if (!found.ok) return found.error;
  const value = found.hash?.get(field);
  return reply.integer(value === undefined ? 0 : byteLength(value));
});

export const HASH_COMMANDS: Record<string, CommandSpec> = {
  hset: hsetCommand(false, 'hset'),
  hmset: hsetCommand(true, 'hmset'),
  hget,
  hmget,
  hdel,
  hexists,
  hincrby,
  hincrbyfloat,
  hlen,
  hgetall: hashListing((field, value) => [field, value]),
  hkeys: hashListing((field) => [field]),
  hvals: hashListing((_field, value) => [value]),
  hsetnx,
  hstrlen,
};
