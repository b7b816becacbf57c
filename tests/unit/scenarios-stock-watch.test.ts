// Goal: stock-oversell's optimistic-locking variant (WATCH, GET, MULTI/DECRBY/EXEC, retry on a nil
// EXEC) sells the last item at most once under any schedule fast-check draws: any order of the two
// buyers, time passing, stalls and crashes. The lesson's claim rests on this, not on its one default
// schedule; the same search finds the double sale in the no-lock variant.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Choice } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';

const alphabet: readonly Choice[] = [
  ...['A', 'B'].map((clientId) => ({ kind: 'step' as const, clientId })),
  { kind: 'advance', ms: 100 },
  ...['A', 'B'].map((clientId) => ({ kind: 'stall' as const, clientId, ms: 500 })),
  ...['A', 'B'].map((clientId) => ({ kind: 'crash' as const, clientId })),
];

function runPicks(variantId: string, picks: readonly number[]): Simulation {
  const sim = new Simulation(findScenario('stock-oversell'), { variantId });
  for (const pick of picks) if (sim.refusal(alphabet[pick]) === null) sim.apply(alphabet[pick]);
  sim.apply({ kind: 'advance', ms: 5000 });
  return sim;
}

const PROPERTY_SEED = 1203;
const picksArb = fc.array(fc.nat(alphabet.length - 1), { maxLength: 16 });

describe('stock-oversell/watch under random schedules', () => {
  it(`never sells more than the one item, and the stock ends at 1 minus the sales (fast-check seed ${PROPERTY_SEED})`, () => {
    fc.assert(
      fc.property(picksArb, (picks) => {
        const sim = runPicks('watch', picks);
        expect(sim.state.counters.sales.sold).toBeLessThanOrEqual(1);
        expect(sim.trace().violations.map((v) => v.violation)).not.toContain('oversell');
        const stock = Number(sim.inspect().find((k) => k.key === 'stock')?.value);
        expect(stock).toBe(1 - sim.state.counters.sales.sold);
      }),
      { seed: PROPERTY_SEED, numRuns: 300 },
    );
  });

  it('the same schedules find the double sale without WATCH (the search can fail)', () => {
    const found = fc.sample(picksArb, { seed: PROPERTY_SEED, numRuns: 300 }).some((picks) => runPicks('no-lock', picks).state.counters.sales.sold === 2);
    expect(found).toBe(true);
  });
});
