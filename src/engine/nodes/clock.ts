/**
 * Local clocks (docs/SCHEDULES.md, "Many nodes"). The world has one virtual time `t`, the
 * timeline's axis; every node and client reads its own clock derived from it:
 *
 *   local(t) = offsetMs + t + floor(t * driftPpm / 1e6)
 *
 * A clock jump (a schedule fault: NTP stepping the clock, an operator) changes `offsetMs` at the
 * current instant. Exact integer arithmetic (bigint) so drifted clocks never round differently
 * between runs; drift is bounded so a local clock never runs backwards.
 */
export interface LocalClock {
  offsetMs: number;
  readonly driftPpm: number;
}

/** Largest drift a scenario may give a clock: half as fast or one and a half times as fast. */
export const clockDriftPpmMax = 500_000;

export function localTimeMs(clock: Readonly<LocalClock>, virtualMs: number): number {
  if (clock.driftPpm === 0) return clock.offsetMs + virtualMs;
  const product = BigInt(virtualMs) * BigInt(clock.driftPpm);
  let drift = product / 1_000_000n;
  // BigInt division truncates toward zero: floor it for a slow clock.
  if (product < 0n && drift * 1_000_000n !== product) drift -= 1n;
  return clock.offsetMs + virtualMs + Number(drift);
}

/**
 * The first virtual time at or after `fromMs` at which the clock reads at least `localMs`, or
 * null past `untilMs`. local() is non-decreasing in t, so a bisection finds it.
 */
export function virtualTimeWhen(clock: Readonly<LocalClock>, localMs: number, fromMs: number, untilMs: number): number | null {
  if (localTimeMs(clock, fromMs) >= localMs) return fromMs;
  if (localTimeMs(clock, untilMs) < localMs) return null;
  let lo = fromMs;
  let hi = untilMs;
  // Invariant: local(lo) < localMs <= local(hi).
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (localTimeMs(clock, mid) >= localMs) hi = mid;
    else lo = mid;
  }
  return hi;
}
