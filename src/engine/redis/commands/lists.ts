import { reply } from '../reply';
import { command, errors, lookup, parseInteger, type CommandSpec } from './shared';

/**
 * t_list.c, Redis 7.0. A list is an immutable array: every change writes a new one (the
 * keyspace's copy-on-write), which costs O(n) per push on lists that lock code keeps short.
 */

/** LPUSH/RPUSH, and with `existingOnly` LPUSHX/RPUSHX (push only onto an existing list). */
function pushCommand(left: boolean, existingOnly: boolean): CommandSpec {
  return command(-3, true, (ctx, args) => {
    const found = lookup(ctx, args[1], 'list');
    if (!found.ok) return found.error;
    if (found.value === null && existingOnly) return reply.integer(0);
    const pushed = args.slice(2);
    // LPUSH a b c leaves c at the head: each value goes in front of the previous one.
    const list = left ? [...pushed.reverse(), ...(found.value ?? [])] : [...(found.value ?? []), ...pushed];
    ctx.keyspace.write(args[1], { type: 'list', value: list }, { keepTtl: true });
    return reply.integer(list.length);
  });
}

/** LPOP/RPOP key [count]: the count is parsed first; a missing key answers a nil (array). */
function popCommand(left: boolean, name: string): CommandSpec {
  return command(-2, true, (ctx, args) => {
    if (args.length > 3) return errors.arity(name);
    const hasCount = args.length === 3;
    let count = 1n;
    if (hasCount) {
      const parsed = parseInteger(args[2]);
      if (parsed === null || parsed < 0n) return errors.notPositive();
      count = parsed;
    }
    const found = lookup(ctx, args[1], 'list');
    if (!found.ok) return found.error;
    if (found.value === null) return reply.nil();
    if (hasCount && count === 0n) return reply.array([]);
    const list = found.value;
    const taken = Number(count > BigInt(list.length) ? BigInt(list.length) : count);
    const popped = left ? list.slice(0, taken) : list.slice(list.length - taken).reverse();
    const rest = left ? list.slice(taken) : list.slice(0, list.length - taken);
    ctx.keyspace.write(args[1], { type: 'list', value: rest }, { keepTtl: true });
    return hasCount ? reply.array(popped.map((v) => reply.bulk(v))) : reply.bulk(popped[0]);
  });
}

const lrange = command(4, false, (ctx, [, key, startText, endText]) => {
  const startArg = parseInteger(startText);
  const endArg = parseInteger(endText);
  if (startArg === null || endArg === null) return errors.notInteger();
  const found = lookup(ctx, key, 'list');
  if (!found.ok) return found.error;
  const list = found.value ?? [];
  const length = BigInt(list.length);
  let start = startArg < 0n ? length + startArg : startArg;
  let end = endArg < 0n ? length + endArg : endArg;
  if (start < 0n) start = 0n;
  if (start > end || start >= length) return reply.array([]);
  if (end >= length) end = length - 1n;
  return reply.array(list.slice(Number(start), Number(end) + 1).map((v) => reply.bulk(v)));
});

/** LINDEX looks the key up before parsing the index. */
const lindex = command(3, false, (ctx, [, key, indexText]) => {
  const found = lookup(ctx, key, 'list');
  if (!found.ok) return found.error;
  if (found.value === null) return reply.nil();
  const index = parseInteger(indexText);
  if (index === null) return errors.notInteger();
  const at = index < 0n ? BigInt(found.value.length) + index : index;
  if (at < 0n || at >= BigInt(found.value.length)) return reply.nil();
  return reply.bulk(found.value[Number(at)]);
});

const llen = command(2, false, (ctx, [, key]) => {
  const found = lookup(ctx, key, 'list');
  return found.ok ? reply.integer(found.value?.length ?? 0) : found.error;
});

export const LIST_COMMANDS: Record<string, CommandSpec> = {
  lpush: pushCommand(true, false),
  rpush: pushCommand(false, false),
  lpushx: pushCommand(true, true),
  rpushx: pushCommand(false, true),
  lpop: popCommand(true, 'lpop'),
  rpop: popCommand(false, 'rpop'),
  lrange,
  llen,
  lindex,
};
