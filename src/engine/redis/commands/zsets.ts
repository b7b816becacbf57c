import { reply, type Reply } from '../reply';
import { command, errors, lookup, parseInteger, type CommandContext, type CommandSpec } from './shared';
import {
  formatScore,
  indexOfMember,
  lexAboveMin,
  lexBelowMax,
  lexRangeIsEmpty,
  parseLexRange,
  parseScore,
  parseScoreRange,
  scoreAboveMin,
  scoreBelowMax,
  scoreOf,
  scoreRangeIsEmpty,
  withMember,
  withoutMembers,
  type LexRange,
  type ScoreRange,
  type ZEntry,
  type ZSet,
} from './zset-core';

/**
 * t_zset.c, Redis 7.0: sorted sets (the data and its ranges are in zset-core.ts). Scores reply as
 * bulk strings (RESP2 addReplyDouble); a zset emptied by a removal is deleted; changes keep the TTL.
 */

const NAN_SCORE = 'ERR resulting score is not a number (NaN)';
const NOT_FLOAT_RANGE = 'ERR min or max is not a float';
const NOT_LEX_RANGE = 'ERR min or max not valid string range item';

const scoreReply = (score: number): Reply => reply.bulk(formatScore(score));

function write(ctx: CommandContext, key: string, zset: ZSet): void {
  ctx.keyspace.write(key, { type: 'zset', value: zset }, { keepTtl: true });
}

/** Flat [member, score, ...] or members only (RESP2 WITHSCORES). */
function entriesReply(entries: readonly ZEntry[], withScores: boolean): Reply {
  const out: Reply[] = [];
  for (const [member, score] of entries) {
    out.push(reply.bulk(member));
    if (withScores) out.push(scoreReply(score));
  }
  return reply.array(out);
}

/** zaddGenericCommand: ZADD and ZINCRBY (which is ZADD INCR with the same option loop). */
function zaddCommand(incrOnly: boolean): CommandSpec {
  return command(incrOnly ? 4 : -4, true, (ctx, args) => {
    const flags = { nx: false, xx: false, gt: false, lt: false, ch: false, incr: incrOnly };
    let at = 2;
    // Each option advances `at`: bounded by the argument count.
    for (; at < args.length; at++) {
      const option = args[at].toLowerCase();
      if (option === 'nx' || option === 'xx' || option === 'gt' || option === 'lt' || option === 'ch' || option === 'incr') flags[option] = true;
      else break;
    }
    const rest = args.slice(at);
    if (rest.length === 0 || rest.length % 2 !== 0) return errors.syntax();
    if (flags.nx && flags.xx) return reply.error('ERR XX and NX options at the same time are not compatible');
    if ((flags.gt && flags.nx) || (flags.lt && flags.nx) || (flags.gt && flags.lt)) {
      return reply.error('ERR GT, LT, and/or NX options at the same time are not compatible');
    }
    if (flags.incr && rest.length > 2) return reply.error('ERR INCR option supports a single increment-element pair');
    const scores: number[] = [];
    for (let i = 0; i < rest.length; i += 2) {
      const score = parseScore(rest[i]);
      if (score === null) return errors.notFloat();
      scores.push(score);
    }
    const found = lookup(ctx, args[1], 'zset');
    if (!found.ok) return found.error;
    const key = args[1];
    if (found.value === null && flags.xx) return flags.incr ? reply.nil() : reply.integer(0);
    let zset: ZSet = found.value ?? [];
    let added = 0;
    let updated = 0;
    let processed = 0;
    let lastScore = 0;
    let failed: Reply | null = null;
    for (let j = 0; j < scores.length; j++) {
      const member = rest[2 * j + 1];
      let score = scores[j];
      const current = scoreOf(zset, member);
      if (current === null) {
        if (flags.xx) continue;
        zset = withMember(zset, member, score);
        added += 1;
      } else {
        if (flags.nx) continue;
        if (flags.incr) {
          score += current;
          if (Number.isNaN(score)) {
            failed = reply.error(NAN_SCORE);
            break;
          }
        }
        if ((flags.lt && score >= current) || (flags.gt && score <= current)) continue;
        if (score !== current) {
          zset = withMember(zset, member, score);
          updated += 1;
        }
      }
      processed += 1;
      lastScore = score;
    }
    if (added > 0 || updated > 0) write(ctx, key, zset);
    if (failed !== null) return failed;
    if (flags.incr) return processed > 0 ? scoreReply(lastScore) : reply.nil();
    return reply.integer(flags.ch ? added + updated : added);
  });
}

const zrem = command(-3, true, (ctx, args) => {
  const found = lookup(ctx, args[1], 'zset');
  if (!found.ok) return found.error;
  if (found.value === null) return reply.integer(0);
  const next = withoutMembers(found.value, args.slice(2));
  const removed = found.value.length - next.length;
  if (removed > 0) write(ctx, args[1], next);
  return reply.integer(removed);
});

const zcard = command(2, false, (ctx, [, key]) => {
  const found = lookup(ctx, key, 'zset');
  return found.ok ? reply.integer(found.value?.length ?? 0) : found.error;
});

const zscore = command(3, false, (ctx, [, key, member]) => {
  const found = lookup(ctx, key, 'zset');
  if (!found.ok) return found.error;
  const score = found.value === null ? null : scoreOf(found.value, member);
  return score === null ? reply.nil() : scoreReply(score);
});

const zmscore = command(-3, false, (ctx, args) => {
  const found = lookup(ctx, args[1], 'zset');
  if (!found.ok) return found.error;
  return reply.array(
    args.slice(2).map((member) => {
      const score = found.value === null ? null : scoreOf(found.value, member);
      return score === null ? reply.nil() : scoreReply(score);
    }),
  );
});

function rankCommand(reverse: boolean): CommandSpec {
  return command(3, false, (ctx, [, key, member]) => {
    const found = lookup(ctx, key, 'zset');
    if (!found.ok) return found.error;
    const index = found.value === null ? -1 : indexOfMember(found.value, member);
    if (index < 0) return reply.nil();
    return reply.integer(reverse ? (found.value as ZSet).length - 1 - index : index);
  });
}

/** Entries whose scores are in range, in order (forward: ascending). */
function inScoreRange(zset: ZSet, range: ScoreRange): ZEntry[] {
  if (scoreRangeIsEmpty(range)) return [];
  return zset.filter(([, score]) => scoreAboveMin(score, range) && scoreBelowMax(score, range));
}

const zcount = command(4, false, (ctx, [, key, min, max]) => {
  const range = parseScoreRange(min, max);
  if (range === null) return reply.error(NOT_FLOAT_RANGE);
  const found = lookup(ctx, key, 'zset');
  if (!found.ok) return found.error;
  return reply.integer(inScoreRange(found.value ?? [], range).length);
});

/** Ranks as Redis sanitizes them: negative from the end; null when the range is empty. */
function rankWindow(length: number, startArg: bigint, endArg: bigint): [number, number] | null {
  const n = BigInt(length);
  let start = startArg < 0n ? n + startArg : startArg;
  let end = endArg < 0n ? n + endArg : endArg;
  if (start < 0n) start = 0n;
  if (start > end || start >= n) return null;
  if (end >= n) end = n - 1n;
  return [Number(start), Number(end)];
}

/**
 * The lex range walk of a listpack (zzlFirstInLexRange/zzlLastInLexRange): members in list order
 * from the first (last, reversed) inside the range, while inside it. Lex ranges assume equal scores.
 */
function inLexRange(zset: ZSet, range: LexRange, reverse: boolean): ZEntry[] {
  if (zset.length === 0 || lexRangeIsEmpty(range)) return [];
  if (!lexAboveMin(zset[zset.length - 1][0], range) || !lexBelowMax(zset[0][0], range)) return [];
  const ordered = reverse ? zset.slice().reverse() : zset;
  const enters = (m: string) => (reverse ? lexBelowMax(m, range) : lexAboveMin(m, range));
  const stays = (m: string) => (reverse ? lexAboveMin(m, range) : lexBelowMax(m, range));
  const first = ordered.findIndex(([m]) => enters(m));
  if (first < 0) return [];
  const out: ZEntry[] = [];
  for (let i = first; i < ordered.length && stays(ordered[i][0]); i++) out.push(ordered[i]);
  return out;
}

/** Same walk for scores (sorted, so it is the filtered list). */
function inScoreRangeOrdered(zset: ZSet, range: ScoreRange, reverse: boolean): ZEntry[] {
  const entries = inScoreRange(zset, range);
  return reverse ? entries.reverse() : entries;
}

/** LIMIT offset count: a negative offset skips everything; a negative count takes everything after it. */
function applyLimit(entries: ZEntry[], offset: bigint, limit: bigint): ZEntry[] {
  if (offset < 0n) return [];
  const from = offset > BigInt(entries.length) ? entries.length : Number(offset);
  const taken = entries.slice(from);
  return limit < 0n || limit >= BigInt(taken.length) ? taken : taken.slice(0, Number(limit));
}

type RangeType = 'auto' | 'rank' | 'score' | 'lex';
type Direction = 'auto' | 'forward' | 'reverse';

/** zrangeGenericCommand: ZRANGE and its older forms; `first` is the index of the key. */
function zrangeCommand(rangeTypeArg: RangeType, directionArg: Direction): CommandSpec {
  return command(-4, false, (ctx, args) => {
    let rangeType = rangeTypeArg;
    let direction = directionArg;
    let withScores = false;
    let offset = 0n;
    let limit = -1n;
    for (let j = 4; j < args.length; j++) {
      const option = args[j].toLowerCase();
      const left = args.length - j - 1;
      if (option === 'withscores') withScores = true;
      else if (option === 'limit' && left >= 2) {
        const o = parseInteger(args[j + 1]);
        const l = parseInteger(args[j + 2]);
        if (o === null || l === null) return errors.notInteger();
        offset = o;
        limit = l;
        j += 2;
      } else if (direction === 'auto' && option === 'rev') direction = 'reverse';
      else if (rangeType === 'auto' && option === 'bylex') rangeType = 'lex';
      else if (rangeType === 'auto' && option === 'byscore') rangeType = 'score';
      else return errors.syntax();
    }
    const reverse = direction === 'reverse';
    if (rangeType === 'auto') rangeType = 'rank';
    if (limit !== -1n && rangeType === 'rank') return reply.error('ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
    if (withScores && rangeType === 'lex') return reply.error('ERR syntax error, WITHSCORES not supported in combination with BYLEX');
    // Reversed score and lex ranges are written max first.
    const [minText, maxText] = reverse && rangeType !== 'rank' ? [args[3], args[2]] : [args[2], args[3]];
    let pick: (zset: ZSet) => ZEntry[];
    if (rangeType === 'rank') {
      const start = parseInteger(minText);
      const end = parseInteger(maxText);
      if (start === null || end === null) return errors.notInteger();
      pick = (zset) => {
        const window = rankWindow(zset.length, start, end);
        if (window === null) return [];
        const [from, to] = window;
        return reverse ? zset.slice(zset.length - 1 - to, zset.length - from).reverse() : zset.slice(from, to + 1);
      };
    } else if (rangeType === 'score') {
      const range = parseScoreRange(minText, maxText);
      if (range === null) return reply.error(NOT_FLOAT_RANGE);
      pick = (zset) => applyLimit(inScoreRangeOrdered(zset, range, reverse), offset, limit);
    } else {
      const range = parseLexRange(minText, maxText);
      if (range === null) return reply.error(NOT_LEX_RANGE);
      pick = (zset) => applyLimit(inLexRange(zset, range, reverse), offset, limit);
    }
    const found = lookup(ctx, args[1], 'zset');
    if (!found.ok) return found.error;
    if (found.value === null) return reply.array([]);
    return entriesReply(pick(found.value), withScores);
  });
}

/** ZREMRANGEBYRANK/BYSCORE/BYLEX: the range is parsed before the key is looked up. */
function zremrangeCommand(rangeType: 'rank' | 'score' | 'lex'): CommandSpec {
  return command(4, true, (ctx, [, key, minText, maxText]) => {
    let pick: (zset: ZSet) => readonly ZEntry[];
    if (rangeType === 'rank') {
      const start = parseInteger(minText);
      const end = parseInteger(maxText);
      if (start === null || end === null) return errors.notInteger();
      pick = (zset) => {
        const window = rankWindow(zset.length, start, end);
        return window === null ? [] : zset.slice(window[0], window[1] + 1);
      };
    } else if (rangeType === 'score') {
      const range = parseScoreRange(minText, maxText);
      if (range === null) return reply.error(NOT_FLOAT_RANGE);
      pick = (zset) => inScoreRange(zset, range);
    } else {
      const range = parseLexRange(minText, maxText);
      if (range === null) return reply.error(NOT_LEX_RANGE);
      pick = (zset) => inLexRange(zset, range, false);
    }
    const found = lookup(ctx, key, 'zset');
    if (!found.ok) return found.error;
    if (found.value === null) return reply.integer(0);
    const removed = pick(found.value);
    if (removed.length > 0) write(ctx, key, withoutMembers(found.value, removed.map(([m]) => m)));
    return reply.integer(removed.length);
  });
}

/** ZPOPMIN/ZPOPMAX key [count]: a flat [member, score, ...]; an emptied zset is deleted. */
function zpopCommand(max: boolean): CommandSpec {
  return command(-2, true, (ctx, args) => {
    if (args.length > 3) return errors.syntax();
    let count = 1n;
    if (args.length === 3) {
      const parsed = parseInteger(args[2]);
      if (parsed === null || parsed < 0n) return errors.notPositive();
      count = parsed;
    }
    const found = lookup(ctx, args[1], 'zset');
    if (!found.ok) return found.error;
    if (found.value === null || count === 0n) return reply.array([]);
    return reply.array(popEntries(ctx, args[1], found.value, max, count));
  });
}

/** Takes up to `count` entries from one end of a zset and writes the rest; [member, score, ...]. */
export function popEntries(ctx: CommandContext, key: string, zset: ZSet, max: boolean, count: bigint): Reply[] {
  const taken = count > BigInt(zset.length) ? zset.length : Number(count);
  const popped = max ? zset.slice(zset.length - taken).reverse() : zset.slice(0, taken);
  write(ctx, key, max ? zset.slice(0, zset.length - taken) : zset.slice(taken));
  return popped.flatMap(([member, score]) => [reply.bulk(member), scoreReply(score)]);
}

export const ZSET_COMMANDS: Record<string, CommandSpec> = {
  zadd: zaddCommand(false),
  zincrby: zaddCommand(true),
  zrem,
  zcard,
  zscore,
  zmscore,
  zrank: rankCommand(false),
  zrevrank: rankCommand(true),
  zcount,
  zrange: zrangeCommand('auto', 'auto'),
  zrevrange: zrangeCommand('rank', 'reverse'),
  zrangebyscore: zrangeCommand('score', 'forward'),
  zrevrangebyscore: zrangeCommand('score', 'reverse'),
  zrangebylex: zrangeCommand('lex', 'forward'),
  zrevrangebylex: zrangeCommand('lex', 'reverse'),
  zremrangebyrank: zremrangeCommand('rank'),
  zremrangebyscore: zremrangeCommand('score'),
  zremrangebylex: zremrangeCommand('lex'),
  zpopmin: zpopCommand(false),
  zpopmax: zpopCommand(true),
};
