/**
 * Rate measurement shared by the bench files: warm up, then the best of ROUND_COUNT rounds of
 * ROUND_MS each (other processes on a small machine only ever slow a round down).
 */
export const ROUND_COUNT = 5;
export const ROUND_MS = 400;
const WARMUP_MS = 300;

/** Calls per second of a synchronous function, called in batches of `batch`. */
export function measure(fn: () => void, batch = 1000): number {
  const warmupEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmupEnd) for (let i = 0; i < batch; i++) fn();
  let best = 0;
  for (let round = 0; round < ROUND_COUNT; round++) {
    let count = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < ROUND_MS) {
      for (let i = 0; i < batch; i++) fn();
      count += batch;
      elapsed = performance.now() - start;
    }
    best = Math.max(best, (count * 1000) / elapsed);
  }
  return best;
}

/** Operations per second of an async function that reports how many operations it did. */
export async function measureAsync(fn: () => Promise<number>): Promise<number> {
  const warmupEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmupEnd) await fn();
  let best = 0;
  for (let round = 0; round < ROUND_COUNT; round++) {
    let count = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < ROUND_MS) {
      count += await fn();
      elapsed = performance.now() - start;
    }
    best = Math.max(best, (count * 1000) / elapsed);
  }
  return best;
}
