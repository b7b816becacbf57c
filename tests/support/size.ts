/**
 * How big the suite's generated inputs are. `npm test` (the gate CI runs) uses the full sizes;
 * `npm run test:smoke` sets LOCKSTEP_TEST_SIZE=smoke for the inner loop: the same tests, each
 * asserting the same things, over fewer generated cases and shorter runs (docs/TESTING.md).
 */
const smoke = process.env.LOCKSTEP_TEST_SIZE === 'smoke';

/** fast-check runs per property in the smoke tier, at most. */
const SMOKE_RUN_COUNT_MAX = 12;

/** fast-check's `numRuns`: `full` in the full suite, at most 12 in the smoke tier. */
export function runs(full: number): number {
  return smoke ? Math.min(full, SMOKE_RUN_COUNT_MAX) : full;
}
