/**
 * Time on the simulated server.
 *
 * The engine's clock is virtual and starts at 0. Redis speaks Unix time (TIME, EXAT, PXAT,
 * EXPIREAT, EXPIRETIME), so the server maps one onto the other: Unix ms = `unixEpochMs` + virtual
 * ms. Keys keep their expiry on the virtual clock, so traces and the inspector show `t` from 0,
 * and the epoch is only added or removed where a command reads or writes Unix time.
 *
 * Expiry times are 64-bit integers in Redis (`PEXPIREAT k 9223372036854775807` is legal). A JS
 * number is exact only up to 2^53, so an expiry is a number while it is a safe integer and an
 * exact bigint beyond: lessons never leave the number range, and nothing is ever rounded.
 */

/** 2026-01-01T00:00:00Z in Unix ms: the simulated server's time at virtual time 0 by default. */
export const DEFAULT_UNIX_EPOCH_MS = 1_767_225_600_000;

/** A virtual time in ms, exact: a safe-integer number, or a bigint beyond the safe range. */
export type ExactMs = number | bigint;

/** The canonical form: a number when it is a safe integer, else the bigint. */
export function exactMs(ms: bigint): ExactMs {
  return ms >= MIN_SAFE && ms <= MAX_SAFE ? Number(ms) : ms;
}

export function toBigMs(ms: ExactMs): bigint {
  return typeof ms === 'bigint' ? ms : BigInt(ms);
}

/**
 * Redis's keyIsExpired: a key with expiry `at` exists while `now <= at`. `nowMs` is a safe
 * integer, so a bigint expiry (beyond 2^53 either way) is decided by its sign alone.
 */
export function isExpiredAt(at: ExactMs, nowMs: number): boolean {
  return typeof at === 'number' ? nowMs > at : at < 0n;
}

/** Milliseconds left as PTTL reports them (never negative), exact. */
export function msLeft(at: ExactMs, nowMs: number): bigint {
  const left = toBigMs(at) - BigInt(nowMs);
  return left < 0n ? 0n : left;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;
