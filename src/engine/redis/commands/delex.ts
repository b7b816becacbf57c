import { reply, type Reply } from '../reply';
import { digestOf, parseDigest } from './digest';
import { errors, type CommandContext, type CommandSpec } from './shared';

/**
 * DELEX key [IFEQ value | IFNE value | IFDEQ digest | IFDNE digest]: Redis 8.4's conditional delete,
 * the one command Lockstep's Redis 7 server takes from a newer Redis, because it replaces the Lua
 * compare-and-delete release (`DELEX lock IFEQ token`).
 *
 * As in Redis 8.4 (redis.io/commands/delex and the command's JSON spec): with no condition it
 * deletes the key whatever its type, like DEL; with a condition the key must hold a string
 * (WRONGTYPE otherwise). Replies integer 1 when the key was deleted, 0 when it does not exist or
 * the condition is not met. A condition word with no value, an unknown word or extra arguments is
 * a syntax error, checked before the key is looked up (Redis PR #14529).
 *
 * IFDEQ/IFDNE compare the value's digest (XXH3-64 as 16 hex characters, what DIGEST returns)
 * with the given one, case-insensitively; a digest that is not exactly 16 hex characters is an
 * error (Redis PR #14502, in 8.4.0).
 */
export const delex: CommandSpec = {
  arity: -2,
  write: true,
  run(ctx: CommandContext, args: readonly string[]): Reply {
    const key = args[1];
    if (args.length === 2) return reply.integer(deleteKey(ctx, key) ? 1 : 0);
    if (args.length !== 4) return reply.error('ERR syntax error');
    const condition = args[2].toUpperCase();
    const operand = args[3];
    const byDigest = condition === 'IFDEQ' || condition === 'IFDNE';
    if (!byDigest && condition !== 'IFEQ' && condition !== 'IFNE') return reply.error('ERR syntax error');
    if (byDigest && parseDigest(operand) === null) return errors.badDigest();
    const type = ctx.keyspace.typeOf(key);
    if (type === null) return reply.integer(0);
    if (type !== 'string') return errors.wrongType();
    const value = ctx.keyspace.getString(key) ?? '';
    const equal = byDigest ? digestOf(value) === parseDigest(operand) : value === operand;
    const matches = condition === 'IFEQ' || condition === 'IFDEQ' ? equal : !equal;
    if (!matches) return reply.integer(0);
    return reply.integer(deleteKey(ctx, key) ? 1 : 0);
  },
};

function deleteKey(ctx: CommandContext, key: string): boolean {
  return ctx.keyspace.delete(key);
}

/** DIGEST key (Redis 8.4): the XXH3-64 digest of a string value as 16 lower-case hex characters; nil when absent. */
export const digest: CommandSpec = {
  arity: 2,
  write: false,
  run(ctx: CommandContext, [, key]: readonly string[]): Reply {
    const type = ctx.keyspace.typeOf(key);
    if (type === null) return reply.nil();
    if (type !== 'string') return errors.wrongType();
    return reply.bulk(digestOf(ctx.keyspace.getString(key) ?? ''));
  },
};
