/**
 * Redis's redisLrand48 (redisrand.c): the drand48 linear congruential generator behind Lua's
 * math.random inside scripts. X' = (0x5DEECE66D * X + 0xB) mod 2^48, output X >> 17. Starting
 * from the same initial state as a freshly started redis-server, so a script's first
 * `math.random(100)` gives what a real server gives (40).
 */

const MULTIPLIER = 0x5deece66dn;
const INCREMENT = 0xbn;
const MASK_48 = (1n << 48n) - 1n;
const INITIAL_STATE = 0x1234abcd330en;
/** `save()` of a fresh generator: what a server's scripts start from. */
export const RAND48_INITIAL_SAVED = INITIAL_STATE.toString(16);
/** REDIS_LRAND48_MAX: INT32_MAX. */
export const RAND48_MAX = 2147483647;

export class Rand48 {
  private state = INITIAL_STATE;

  /** The next 31-bit value. */
  next(): number {
    this.state = (MULTIPLIER * this.state + INCREMENT) & MASK_48;
    return Number(this.state >> 17n);
  }

  /** redisSrand48(seed): seed is a 32-bit int; its low and high 16 bits fill the upper state words. */
  seed(seedValue: number): void {
    const seed32 = BigInt.asUintN(32, BigInt(seedValue | 0));
    this.state = ((seed32 & 0xffffn) << 16n) | ((seed32 >> 16n) << 32n) | 0x330en;
  }

  /** The state as a hex string (for snapshots). */
  save(): string {
    return this.state.toString(16);
  }

  restore(saved: string): void {
    this.state = BigInt(`0x${saved}`) & MASK_48;
  }

  reset(): void {
    this.state = INITIAL_STATE;
  }
}
