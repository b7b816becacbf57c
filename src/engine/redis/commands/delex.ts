import { reply, type Reply } from '../reply';
import type { CommandContext, CommandSpec } from '../commands';

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
 * IFDEQ/IFDNE compare the value's XXH3 digest, which this server does not compute (it has no
 * DIGEST command either): they answer an error that says so rather than a wrong 0 or 1.
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
    if (condition === 'IFDEQ' || condition === 'IFDNE') {
      return reply.error(`ERR DELEX ${condition} needs value digests (XXH3), which Lockstep's simulated server does not compute; use IFEQ/IFNE`);
    }
    if (condition !== 'IFEQ' && condition !== 'IFNE') return reply.error('ERR syntax error');
    const type = ctx.keyspace.typeOf(key);
    if (type === null) return reply.integer(0);
    // Same text as Redis's shared.wrongtypeerr.
    if (type !== 'string') return reply.error('WRONGTYPE Operation against a key holding the wrong kind of value');
    const equal = ctx.keyspace.getString(key) === operand;
    const matches = condition === 'IFEQ' ? equal : !equal;
    if (!matches) return reply.integer(0);
    return reply.integer(deleteKey(ctx, key) ? 1 : 0);
  },
};

function deleteKey(ctx: CommandContext, key: string): boolean {
  if (ctx.keyspace.typeOf(key) === null) return false;
  ctx.keyspace.call(ctx.nowMs, 'del', [key]);
  return true;
}
