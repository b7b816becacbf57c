import { reply, type Reply } from '../reply';
import { exactMs, msLeft, toBigMs } from '../time';
import { encodeString } from './bytes';
import { INT64_MAX, INT64_MIN, command, errors, parseInteger, unixNowMs, type CommandContext, type CommandSpec } from './shared';

/** db.c and expire.c, Redis 7.0: generic key commands and expiry. */

const del = command(-2, true, (ctx, args) => {
  let deleted = 0;
  for (const key of args.slice(1)) if (ctx.keyspace.delete(key)) deleted += 1;
  return reply.integer(deleted);
});

const exists = command(-2, false, (ctx, args) => reply.integer(args.slice(1).filter((key) => ctx.keyspace.has(key)).length));

const type = command(2, false, (ctx, [, key]) => reply.status(ctx.keyspace.typeOf(key) ?? 'none'));

function renameCommand(nx: boolean): CommandSpec {
  return command(3, true, (ctx, [, from, to]) => {
    const stored = ctx.keyspace.get(from);
    if (stored === null) return errors.noSuchKey();
    if (from === to) return nx ? reply.integer(0) : reply.ok();
    if (nx && ctx.keyspace.has(to)) return reply.integer(0);
    const expireAt = ctx.keyspace.expireAt(from);
    ctx.keyspace.delete(to);
    ctx.keyspace.write(to, stored, { keepTtl: false });
    ctx.keyspace.setExpireAt(to, expireAt);
    ctx.keyspace.delete(from);
    return nx ? reply.integer(1) : reply.ok();
  });
}

const keys = command(2, false, (ctx, [, pattern]) => {
  const patternBytes = encodeString(pattern);
  // A lone '*' skips matching (db.c keysCommand), so it also lists the empty key, which
  // stringmatchlen("*", "") would not match.
  const all = pattern === '*';
  // Redis lists keys in hash-table order; Lockstep in sorted order (tests compare as sets).
  const matching = ctx.keyspace.keys().filter((key) => all || stringMatch(patternBytes, encodeString(key)));
  return reply.array(matching.map((key) => reply.bulk(key)));
});

/** Nested '*' beyond this depth never match (util.c's guard against abusive patterns). */
const MATCH_NESTING_MAX = 1000;

/** util.c stringmatchlen (case-sensitive), byte for byte, including its treatment of odd patterns. */
export function stringMatch(pattern: Uint8Array, text: Uint8Array): boolean {
  const skipLongerMatches = { value: false };
  return matchFrom(pattern, 0, text, 0, skipLongerMatches, 0);
}

const STAR = 0x2a;
const QUESTION = 0x3f;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const CARET = 0x5e;
const BACKSLASH = 0x5c;
const DASH = 0x2d;

/** C `char` is signed on x86: bytes >= 0x80 compare as negative numbers in character ranges. */
function signedChar(byte: number | undefined): number {
  if (byte === undefined) return 0;
  return byte >= 0x80 ? byte - 0x100 : byte;
}

function matchFrom(pattern: Uint8Array, p0: number, text: Uint8Array, s0: number, skip: { value: boolean }, nesting: number): boolean {
  if (nesting > MATCH_NESTING_MAX) return false;
  let p = p0;
  let s = s0;
  // C strings end in NUL: reading one past the end gives 0.
  const pat = (i: number) => (i < pattern.length ? pattern[i] : 0);
  const str = (i: number) => (i < text.length ? text[i] : 0);
  while (p < pattern.length && s < text.length) {
    switch (pattern[p]) {
      case STAR: {
        while (p < pattern.length && pat(p + 1) === STAR) p++;
        if (pattern.length - p === 1) return true;
        // Each try advances s: bounded by the text length.
        while (s < text.length) {
          if (matchFrom(pattern, p + 1, text, s, skip, nesting + 1)) return true;
          if (skip.value) return false;
          s++;
        }
        skip.value = true;
        return false;
      }
      case QUESTION:
        s++;
        break;
      case OPEN: {
        p++;
        const not = pat(p) === CARET;
        if (not) p++;
        let match = false;
        // Each iteration advances p (or stops): bounded by the pattern length.
        for (;;) {
          if (pat(p) === BACKSLASH && pattern.length - p >= 2) {
            p++;
            if (pat(p) === str(s)) match = true;
          } else if (pat(p) === CLOSE) {
            break;
          } else if (p >= pattern.length) {
            p--;
            break;
          } else if (pattern.length - p >= 3 && pat(p + 1) === DASH) {
            let start = signedChar(pat(p));
            let end = signedChar(pat(p + 2));
            const c = signedChar(str(s));
            if (start > end) [start, end] = [end, start];
            p += 2;
            if (c >= start && c <= end) match = true;
          } else if (pat(p) === str(s)) {
            match = true;
          }
          p++;
        }
        if (not) match = !match;
        if (!match) return false;
        s++;
        break;
      }
      case BACKSLASH:
        if (pattern.length - p >= 2) p++;
        if (pat(p) !== str(s)) return false;
        s++;
        break;
      default:
        if (pat(p) !== str(s)) return false;
        s++;
        break;
    }
    p++;
    if (s >= text.length) {
      while (pat(p) === STAR && p < pattern.length) p++;
      break;
    }
  }
  return p >= pattern.length && s >= text.length;
}

/** EXPIRE/PEXPIRE/EXPIREAT/PEXPIREAT key n [NX|XX|GT|LT] (expire.c expireGenericCommand). */
function expireCommand(name: string, unitMs: 1 | 1000, relative: boolean): CommandSpec {
  return command(-3, true, (ctx, args) => {
    const [, key, amountText] = args;
    const flags = parseExpireFlags(args.slice(3));
    if ('error' in flags) return flags.error;
    const amount = parseInteger(amountText);
    if (amount === null) return errors.notInteger();
    let when = amount;
    if (unitMs === 1000) {
      if (when > INT64_MAX / 1000n || when < INT64_MIN / 1000n) return errors.invalidExpire(name);
      when *= 1000n;
    }
    // Redis's checks are in Unix time: a relative amount is added to the server's Unix clock.
    const base = relative ? unixNowMs(ctx) : 0n;
    if (when > INT64_MAX - base) return errors.invalidExpire(name);
    when += base;
    if (!ctx.keyspace.has(key)) return reply.integer(0);
    // The keyspace keeps virtual time: compare there, exactly.
    const whenMs = when - BigInt(ctx.unixEpochMs);
    const currentAt = ctx.keyspace.expireAt(key);
    const current = currentAt === null ? null : toBigMs(currentAt);
    if (flags.nx && current !== null) return reply.integer(0);
    if (flags.xx && current === null) return reply.integer(0);
    // No TTL counts as an infinite one: GT always fails on it, LT always succeeds.
    if (flags.gt && (current === null || whenMs <= current)) return reply.integer(0);
    if (flags.lt && current !== null && whenMs >= current) return reply.integer(0);
    if (whenMs <= BigInt(ctx.nowMs)) ctx.keyspace.delete(key);
    else ctx.keyspace.setExpireAt(key, exactMs(whenMs));
    return reply.integer(1);
  });
}

function parseExpireFlags(options: readonly string[]): { nx: boolean; xx: boolean; gt: boolean; lt: boolean } | { error: Reply } {
  const flags = { nx: false, xx: false, gt: false, lt: false };
  for (const option of options) {
    const upper = option.toUpperCase();
    if (upper === 'NX') flags.nx = true;
    else if (upper === 'XX') flags.xx = true;
    else if (upper === 'GT') flags.gt = true;
    else if (upper === 'LT') flags.lt = true;
    else return { error: reply.error(`ERR Unsupported option ${option}`) };
  }
  if (flags.nx && (flags.xx || flags.gt || flags.lt)) {
    return { error: reply.error('ERR NX and XX, GT or LT options at the same time are not compatible') };
  }
  if (flags.gt && flags.lt) return { error: reply.error('ERR GT and LT options at the same time are not compatible') };
  return flags;
}

/** TTL, PTTL, EXPIRETIME, PEXPIRETIME (expire.c ttlGenericCommand). */
function ttlCommand(outputMs: boolean, absolute: boolean): CommandSpec {
  return command(2, false, (ctx: CommandContext, [, key]) => {
    if (!ctx.keyspace.has(key)) return reply.integer(-2);
    const at = ctx.keyspace.expireAt(key);
    if (at === null) return reply.integer(-1);
    // EXPIRETIME answers Unix time; TTL the time left. BigInt: an expiry near 2^63 is exact.
    let ms = absolute ? toBigMs(at) + BigInt(ctx.unixEpochMs) : msLeft(at, ctx.nowMs);
    if (ms < 0n) ms = 0n;
    // Seconds are rounded to the nearest: (ms + 500) / 1000 in integer arithmetic.
    return reply.integer(outputMs ? ms : (ms + 500n) / 1000n);
  });
}

const persist = command(2, true, (ctx, [, key]) => {
  if (ctx.keyspace.expireAt(key) === null) return reply.integer(0);
  ctx.keyspace.setExpireAt(key, null);
  return reply.integer(1);
});

export const KEY_COMMANDS: Record<string, CommandSpec> = {
  del,
  unlink: del,
  exists,
  type,
  rename: renameCommand(false),
  renamenx: renameCommand(true),
  keys,
  expire: expireCommand('expire', 1000, true),
  pexpire: expireCommand('pexpire', 1, true),
  expireat: expireCommand('expireat', 1000, false),
  pexpireat: expireCommand('pexpireat', 1, false),
  ttl: ttlCommand(false, false),
  pttl: ttlCommand(true, false),
  expiretime: ttlCommand(false, true),
  pexpiretime: ttlCommand(true, true),
  persist,
};
