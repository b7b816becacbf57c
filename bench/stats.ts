/** Order statistics for samples of timings. */

function sorted(samples: readonly number[]): number[] {
  if (samples.length === 0) throw new RangeError('no samples');
  return [...samples].sort((a, b) => a - b);
}

/** The q-quantile (0..1) by the nearest-rank method: always one of the samples. */
export function quantile(samples: readonly number[], q: number): number {
  const values = sorted(samples);
  const rank = Math.max(1, Math.ceil(q * values.length));
  return values[rank - 1];
}

export function median(samples: readonly number[]): number {
  const values = sorted(samples);
  const middle = values.length >> 1;
  return values.length % 2 === 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

export function p95(samples: readonly number[]): number {
  return quantile(samples, 0.95);
}

export function ratio(numerator: number | null, denominator: number | null): number | null {
  if (numerator === null || denominator === null || denominator === 0) return null;
  return numerator / denominator;
}
