import { reply, type Reply } from '../reply';
import { command, errors, lookup, parseInteger, type CommandContext, type CommandSpec } from './shared';

/**
 * t_list.c, Redis 7.0: the commands that edit a list in place or move elements between lists
 * (LREM, LSET, LTRIM, LINSERT, LPOS, LMOVE, RPOPLPUSH). Like the pushes and pops, each builds a
 * new array (copy-on-write); an emptied list is deleted and a changed one keeps its TTL.
 */

function writeList(ctx: CommandContext, key: string, list: readonly string[]): void {
  ctx.keyspace.write(key, { type: 'list', value: list }, { keepTtl: true });
}

/** LREM key count element: count > 0 from the head, < 0 from the tail, 0 every match. */
const lrem = command(4, true, (ctx, [, key, countText, element]) => {
  const count = parseInteger(countText);
  if (count === null) return errors.notInteger();
  const found = lookup(ctx, key, 'list');
  if (!found.ok) return found.error;
  if (found.value === null) return reply.integer(0);
  const fromTail = count < 0n;
  const limit = count === 0n ? Infinity : Number(fromTail ? -count : count);
  const ordered = fromTail ? found.value.slice().reverse() : found.value.slice();
  const kept: string[] = [];
  let removed = 0;
  for (const item of ordered) {
    if (item === element && removed < limit) removed += 1;
    else kept.push(item);
  }
  if (removed > 0) writeList(ctx, key, fromTail ? kept.reverse() : kept);
  return reply.integer(removed);
});

/** LSET key index element: the key is looked up before the index is parsed. */
const lset = command(4, true, (ctx, [, key, indexText, element]) => {
  const found = lookup(ctx, key, 'list');
  if (!found.ok) return found.error;
  if (found.value === null) return errors.noSuchKey();
  const index = parseInteger(indexText);
  if (index === null) return errors.notInteger();
  const length = BigInt(found.value.length);
  const at = index < 0n ? length + index : index;
  if (at < 0n || at >= length) return reply.error('ERR index out of range');
  const next = found.value.slice();
  next[Number(at)] = element;
  writeList(ctx, key, next);
  return reply.ok();
});

/** LTRIM key start stop: Redis signals the key as changed even when nothing is trimmed. */
const ltrim = command(4, true, (ctx, [, key, startText, endText]) => {
  const startArg = parseInteger(startText);
  const endArg = parseInteger(endText);
  if (startArg === null || endArg === null) return errors.notInteger();
  const found = lookup(ctx, key, 'list');
  if (!found.ok) return found.error;
  if (found.value === null) return reply.ok();
  const length = BigInt(found.value.length);
  let start = startArg < 0n ? length + startArg : startArg;
  let end = endArg < 0n ? length + endArg : endArg;
  if (start < 0n) start = 0n;
  let kept: readonly string[] = [];
  if (!(start > end || start >= length)) {
    if (end >= length) end = length - 1n;
    kept = found.value.slice(Number(start), Number(end) + 1);
  }
  writeList(ctx, key, kept);
  return reply.ok();
});

/** LINSERT key BEFORE|AFTER pivot element: the new length, -1 without the pivot, 0 without the key. */
const linsert = command(5, true, (ctx, [, key, whereText, pivot, element]) => {
  const where = whereText.toLowerCase();
  if (where !== 'before' && where !== 'after') return errors.syntax();
  const found = lookup(ctx, key, 'list');
  if (!found.ok) return found.error;
  if (found.value === null) return reply.integer(0);
  const at = found.value.indexOf(pivot);
  if (at < 0) return reply.integer(-1);
  const insertAt = where === 'before' ? at : at + 1;
  const next = [...found.value.slice(0, insertAt), element, ...found.value.slice(insertAt)];
  writeList(ctx, key, next);
  return reply.integer(next.length);
});

const RANK_ZERO = "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list";

/** LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len] (lposCommand). */
const lpos = command(-3, false, (ctx, args) => {
  let rank = 1n;
  let count = -1n;
  let maxlen = 0n;
  for (let j = 3; j < args.length; j++) {
    const option = args[j].toLowerCase();
    const more = args.length - 1 - j > 0;
    if (option === 'rank' && more) {
      const parsed = parseInteger(args[++j]);
      if (parsed === null) return errors.notInteger();
      if (parsed === 0n) return reply.error(RANK_ZERO);
      rank = parsed;
    } else if (option === 'count' && more) {
      const parsed = parseInteger(args[++j]);
      if (parsed === null || parsed < 0n) return reply.error("ERR COUNT can't be negative");
      count = parsed;
    } else if (option === 'maxlen' && more) {
      const parsed = parseInteger(args[++j]);
      if (parsed === null || parsed < 0n) return reply.error("ERR MAXLEN can't be negative");
      maxlen = parsed;
    } else return errors.syntax();
  }
  const fromTail = rank < 0n;
  // -LONG_MIN overflows back to LONG_MIN in C: every match then counts as reached.
  if (fromTail) rank = rank === -(2n ** 63n) ? 1n : -rank;
  const found = lookup(ctx, args[1], 'list');
  if (!found.ok) return found.error;
  const arrayReply = count !== -1n;
  if (found.value === null) return arrayReply ? reply.array([]) : reply.nil();
  const list = found.value;
  const positions: Reply[] = [];
  let matches = 0n;
  for (let index = 0; index < list.length && (maxlen === 0n || BigInt(index) < maxlen); index++) {
    const at = fromTail ? list.length - 1 - index : index;
    if (list[at] !== args[2]) continue;
    matches += 1n;
    if (matches < rank) continue;
    if (!arrayReply) return reply.integer(at);
    positions.push(reply.integer(at));
    if (count !== 0n && matches - rank + 1n >= count) break;
  }
  return arrayReply ? reply.array(positions) : reply.nil();
});

function listEnd(text: string): 'left' | 'right' | null {
  const lower = text.toLowerCase();
  return lower === 'left' || lower === 'right' ? lower : null;
}

/**
 * lmoveGenericCommand: pops from one end of `source` and pushes onto one end of `destination`
 * (the same list rotates). Null source: a nil; a destination of another type: WRONGTYPE, nothing moved.
 */
export function moveElement(ctx: CommandContext, source: string, destination: string, from: 'left' | 'right', to: 'left' | 'right'): Reply {
  const found = lookup(ctx, source, 'list');
  if (!found.ok) return found.error;
  if (found.value === null || found.value.length === 0) return reply.nil();
  const target = lookup(ctx, destination, 'list');
  if (!target.ok) return target.error;
  const list = found.value;
  const value = from === 'left' ? list[0] : list[list.length - 1];
  const rest = from === 'left' ? list.slice(1) : list.slice(0, -1);
  const base = source === destination ? rest : (target.value ?? []);
  const pushed = to === 'left' ? [value, ...base] : [...base, value];
  if (source !== destination) writeList(ctx, source, rest);
  writeList(ctx, destination, pushed);
  return reply.bulk(value);
}

const lmove = command(5, true, (ctx, [, source, destination, fromText, toText]) => {
  const from = listEnd(fromText);
  if (from === null) return errors.syntax();
  const to = listEnd(toText);
  if (to === null) return errors.syntax();
  return moveElement(ctx, source, destination, from, to);
});

const rpoplpush = command(3, true, (ctx, [, source, destination]) => moveElement(ctx, source, destination, 'right', 'left'));

export const LIST_EDIT_COMMANDS: Record<string, CommandSpec> = { lrem, lset, ltrim, linsert, lpos, lmove, rpoplpush };
