/**
 * Seeded randomness for the simulation (tokens, jitter, random scheduling).
 *
 * The state is one uint32 kept inside the world, so cloning a world clones its randomness and a
 * run is reproducible from its seed. Algorithm: mulberry32 (small, fast, good enough for
 * simulation; not cryptographic).
 */
export type RngState = number;

export function seedRng(seed: number): RngState {
  // Mix the seed so that seeds 0, 1, 2... start far apart.
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** Returns [uint32, nextState]. */
export function nextUint32(state: RngState): [number, RngState] {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [(t ^ (t >>> 14)) >>> 0, next];
}

/** Returns [integer in [0, bound), nextState]. bound must be a positive integer <= 2^32. */
export function nextBelow(state: RngState, bound: number): [number, RngState] {
  if (!Number.isInteger(bound) || bound <= 0) throw new Error(`nextBelow: bad bound ${bound}`);
  const [value, next] = nextUint32(state);
  return [Math.floor((value / 0x1_0000_0000) * bound), next];
}

/** A UUID-v4-shaped lock token (the shape Redisson and most clients use), from the seeded stream. */
export function nextToken(state: RngState): [string, RngState] {
  let s = state;
  const words: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [w, n] = nextUint32(s);
    words.push(w);
    s = n;
  }
  const hex = words.map((w) => w.toString(16).padStart(8, '0')).join('');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const token = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return [token, s];
}

/** A seeded random source with mutable state, for code outside the world (e.g. a random scheduling policy). */
export class SeededRandom {
  constructor(private state: RngState) {}
  static fromSeed(seed: number): SeededRandom {
    return new SeededRandom(seedRng(seed));
  }
  below(bound: number): number {
    const [value, next] = nextBelow(this.state, bound);
    this.state = next;
    return value;
  }
}
