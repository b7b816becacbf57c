// Goal: the worker's runs kept between requests (extended, cut back to a shared prefix, restarted)
// answer exactly what a replay of every variant from step 0 answers, whatever the order of requests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSchedule, type Choice } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { SCENARIOS } from '../../src/scenarios';
import { computeOutcomes, OutcomeRuns } from '../../src/ui/worker/outcomes';
import type { OutcomeRequest } from '../../src/ui/worker/protocol';
import { applyIntents, intentArb } from './support/random-schedule';
import { runs } from '../support/size';

const PROPERTY_SEED = 9090;
const multiVariant = SCENARIOS.filter((s) => s.variants.length > 1);

/** A schedule the base variant can run (as the page would send), of up to 30 choices. */
function scheduleOf(scenarioIndex: number, intents: Parameters<typeof applyIntents>[1], seed: number): { scenarioId: string; choices: Choice[] } {
  const scenario = multiVariant[scenarioIndex % multiVariant.length];
  const sim = new Simulation(scenario, { seed });
  return { scenarioId: scenario.id, choices: applyIntents(sim, intents) };
}

describe('incremental outcomes', () => {
  it(`equal a replay from step 0 after any sequence of requests (fast-check seed ${PROPERTY_SEED})`, () => {
    fc.assert(
      fc.property(
        fc.nat(20),
        fc.array(intentArb, { minLength: 1, maxLength: 30 }),
        // Each request: a prefix length of the schedule, and possibly a different tail, seed or base variant.
        fc.array(fc.record({ cut: fc.nat(30), tail: fc.array(intentArb, { maxLength: 6 }), seed: fc.constantFrom(1, 1, 1, 2), base: fc.nat(4) }), { minLength: 1, maxLength: 8 }),
        (scenarioIndex, intents, requests) => {
          const runs = new OutcomeRuns();
          const { scenarioId, choices } = scheduleOf(scenarioIndex, intents, 1);
          const scenario = multiVariant.find((s) => s.id === scenarioId)!;
          requests.forEach((r, id) => {
            // The prefix, then a tail the base variant can take from there (a fork).
            const sim = new Simulation(scenario, { seed: r.seed });
            const prefix: Choice[] = [];
            for (const choice of choices.slice(0, r.cut)) {
              if (sim.refusal(choice) !== null) break;
              sim.apply(choice);
              prefix.push(choice);
            }
            const all = prefix.concat(applyIntents(sim, r.tail));
            const request: OutcomeRequest = { id, scenarioId, seed: r.seed, schedule: formatSchedule(all), baseVariantId: scenario.variants[r.base % scenario.variants.length].id };
            expect(runs.report(request, 'page')).toEqual(computeOutcomes(request, 'page'));
          });
        },
      ),
      { seed: PROPERTY_SEED, numRuns: runs(30) },
    );
  });

  it('a schedule that grows by one choice per request matches the replay at every length', () => {
    const scenario = multiVariant[0];
    const sim = new Simulation(scenario, {});
    sim.applySchedule(scenario.defaultSchedule);
    const runs = new OutcomeRuns();
    for (let n = 0; n <= sim.length; n++) {
      const request: OutcomeRequest = { id: n, scenarioId: scenario.id, seed: 1, schedule: formatSchedule(sim.timeline.slice(0, n)), baseVariantId: scenario.defaultVariant };
      expect(runs.report(request, 'worker')).toEqual(computeOutcomes(request, 'worker'));
    }
  });
});
