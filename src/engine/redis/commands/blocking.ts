import { reply, type Reply } from '../reply';
import { moveElement } from './list-edits';
import { parseLongDouble } from './long-double';
import { command, errors, INT64_MAX, INT64_MIN, lookup, unixNowMs, type CommandContext, type CommandSpec } from './shared';
import { popEntries } from './zsets';

/**
 * BLPOP, BRPOP, BLMOVE, BZPOPMIN, BZPOPMAX (t_list.c, t_zset.c, blocked.c; Redis 7.0).
 *
 * With an element ready, each answers at once as its non-blocking twin would. Inside MULTI or a
 * script it never blocks: it answers nil. Otherwise the connection blocks (Session.block); the
 * server serves it, first blocked first served, right after a command that makes one of its keys
 * ready (`serveBlocked`), and the engine ends the wait at the timeout (`SimRedisServer.unblock`),
 * both on the virtual clock.
 */

/** What a blocked connection waits for: its keys in order, and how to serve it. */
export type BlockedPop =
  | { readonly kind: 'pop'; readonly keys: readonly string[]; readonly left: boolean }
  | { readonly kind: 'zpop'; readonly keys: readonly string[]; readonly max: boolean }
  | { readonly kind: 'move'; readonly keys: readonly string[]; readonly destination: string; readonly from: 'left' | 'right'; readonly to: 'left' | 'right' };

/**
 * getTimeoutFromObjectOrReply (seconds, a long double): the timeout in ms (0: for ever), or the
 * error. Redis truncates `seconds * 1000` to a long long; a value beyond its range (1e400, inf)
 * becomes LLONG_MIN on x86, hence "negative". A timeout of under 1 ms truncates to 0: for ever.
 */
function parseTimeoutMs(ctx: CommandContext, text: string): number | Reply {
  const seconds = parseLongDouble(text);
  if (seconds === null) return reply.error('ERR timeout is not a float or out of range');
  let ms: bigint;
  if (seconds.kind !== 'finite') ms = INT64_MIN;
  else {
    const scaled = seconds.mantissa * 1000n;
    const magnitude = seconds.exponent >= 0 ? scaled << BigInt(seconds.exponent) : scaled >> BigInt(-seconds.exponent);
    ms = seconds.negative ? -magnitude : magnitude;
    if (ms > INT64_MAX || ms < INT64_MIN) ms = INT64_MIN;
  }
  if (ms < 0n) return reply.error('ERR timeout is negative');
  // Redis 7.0 adds the Unix time without an overflow check (the wait then never ends by itself),
  // and a wait beyond 2^53 ms (285,000 years) never ends on the virtual clock either: for ever.
  if (ms > INT64_MAX - unixNowMs(ctx) || ms > BigInt(Number.MAX_SAFE_INTEGER)) return 0;
  return Number(ms);
}

/**
 * Serves `pop` from the first of its keys holding data now, or null (WRONGTYPE as its reply).
 * `readyOnly`: serving a connection already blocked, where a key of another type is not ready.
 */
export function tryServe(ctx: CommandContext, pop: BlockedPop, readyOnly = false): Reply | null {
  for (const key of pop.keys) {
    if (readyOnly && ctx.keyspace.typeOf(key) !== (pop.kind === 'zpop' ? 'zset' : 'list')) continue;
    if (readyOnly && pop.kind === 'move' && !['list', null].includes(ctx.keyspace.typeOf(pop.destination))) continue;
    if (pop.kind === 'zpop') {
      const found = lookup(ctx, key, 'zset');
      if (!found.ok) return found.error;
      if (found.value === null || found.value.length === 0) continue;
      return reply.array([reply.bulk(key), ...popEntries(ctx, key, found.value, pop.max, 1n)]);
    }
    const found = lookup(ctx, key, 'list');
    if (!found.ok) return found.error;
    if (found.value === null || found.value.length === 0) continue;
    if (pop.kind === 'move') return moveElement(ctx, key, pop.destination, pop.from, pop.to);
    const list = found.value;
    const value = pop.left ? list[0] : list[list.length - 1];
    ctx.keyspace.write(key, { type: 'list', value: pop.left ? list.slice(1) : list.slice(0, -1) }, { keepTtl: true });
    return reply.array([reply.bulk(key), reply.bulk(value)]);
  }
  return null;
}

/** The shared path: served now, nil where blocking is denied (MULTI, scripts), else block. */
function popOrBlock(ctx: CommandContext, pop: BlockedPop, timeoutMs: number): Reply | null {
  const served = tryServe(ctx, pop);
  if (served !== null) return served;
  // EXEC runs its queue while the connection is still in MULTI (client.multi is its queue).
  if (ctx.inScript || ctx.session.client.multi !== null || !ctx.session.blockingAllowed) return reply.nil();
  ctx.session.block(pop, timeoutMs);
  return null;
}

/** BLPOP/BRPOP key [key ...] timeout: the timeout is parsed first. */
function blockingPop(left: boolean): CommandSpec {
  return command(-3, true, (ctx, args) => {
    const timeout = parseTimeoutMs(ctx, args[args.length - 1]);
    if (typeof timeout !== 'number') return timeout;
    return popOrBlock(ctx, { kind: 'pop', keys: args.slice(1, -1), left }, timeout);
  });
}

function blockingZpop(max: boolean): CommandSpec {
  return command(-3, true, (ctx, args) => {
    const timeout = parseTimeoutMs(ctx, args[args.length - 1]);
    if (typeof timeout !== 'number') return timeout;
    return popOrBlock(ctx, { kind: 'zpop', keys: args.slice(1, -1), max }, timeout);
  });
}

function listEnd(text: string): 'left' | 'right' | null {
  const lower = text.toLowerCase();
  return lower === 'left' || lower === 'right' ? lower : null;
}

/** BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout: the ends, then the timeout. */
const blmove = command(6, true, (ctx, [, source, destination, fromText, toText, timeoutText]) => {
  const from = listEnd(fromText);
  const to = listEnd(toText);
  if (from === null || to === null) return errors.syntax();
  const timeout = parseTimeoutMs(ctx, timeoutText);
  if (typeof timeout !== 'number') return timeout;
  return popOrBlock(ctx, { kind: 'move', keys: [source], destination, from, to }, timeout);
});

export const BLOCKING_COMMANDS: Record<string, CommandSpec> = {
  blpop: blockingPop(true),
  brpop: blockingPop(false),
  blmove,
  bzpopmin: blockingZpop(false),
  bzpopmax: blockingZpop(true),
};
