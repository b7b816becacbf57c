import { runSchedule } from '../../src/engine/simulation';
import type { Scenario } from '../../src/engine/scenario';
import { SCENARIOS } from '../../src/scenarios';

/**
 * Golden traces: for every scenario and variant, the trace of its default schedule at seed 1,
 * committed under tests/golden/ and compared byte for byte by tests/unit/golden-traces.test.ts.
 * A change that must not change behaviour keeps them identical; a change that means to (a new
 * time model) regenerates them with `npm run golden:update` and the diff shows what moved.
 */

export const GOLDEN_SEED = 1;

export interface GoldenFile {
  /** Path relative to the repository root. */
  readonly path: string;
  readonly text: string;
}

/** The golden file of one scenario variant: its trace as JSON, two-space indented, one final newline. */
export function goldenFile(scenario: Scenario, variantId: string): GoldenFile {
  const trace = runSchedule(scenario, { variantId, seed: GOLDEN_SEED, schedule: scenario.defaultSchedule });
  return { path: `tests/golden/${scenario.id}/${variantId}.json`, text: `${JSON.stringify(trace, null, 2)}\n` };
}

/** Every golden file, in scenario and variant order. */
export function goldenFiles(): GoldenFile[] {
  return SCENARIOS.flatMap((scenario) => scenario.variants.map((variant) => goldenFile(scenario, variant.id)));
}
