// Goal: same scenario + seed + schedule gives a byte-identical trace, for every scenario variant
// and many random schedules; that is what makes replay, share links and step-back possible.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSchedule } from '../../src/engine/schedule';
import { Simulation, runSchedule } from '../../src/engine/simulation';
import { SCENARIOS } from '../../src/scenarios';
import { allVariants, applyIntents, intentArb } from './support/random-schedule';
import { runs } from '../support/size';

// Pinned so a failure replays; fast-check prints the counterexample and path on failure.
const PROPERTY_SEED = 424242;

describe.each(allVariants(SCENARIOS).map((v) => [`${v.scenario.id}/${v.variantId}`, v] as const))('%s', (_name, { scenario, variantId }) => {
  it(`gives byte-identical traces for equal inputs (fast-check seed ${PROPERTY_SEED})`, () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.array(intentArb, { maxLength: 30 }), (seed, intents) => {
        const first = new Simulation(scenario, { variantId, seed });
        const choices = applyIntents(first, intents);
        const replayed = runSchedule(scenario, { variantId, seed, schedule: formatSchedule(choices) });
        expect(JSON.stringify(replayed)).toBe(JSON.stringify(first.trace()));
      }),
      { seed: PROPERTY_SEED, numRuns: runs(60) },
    );
  });

  it('draws tokens from the seed: equal seeds agree, different seeds differ', () => {
    const tokens = (seed: number) => new Simulation(scenario, { variantId, seed }).clients.map((c) => c.vars.token);
    expect(tokens(7)).toEqual(tokens(7));
    expect(tokens(7)).not.toEqual(tokens(8));
    for (const token of tokens(7)) expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('scheduling policies', () => {
  it('a seeded random policy picks the same interleaving for the same seed, and stops when every client is done', async () => {
    const { randomPolicy, runPolicy, replayPolicy } = await import('../../src/engine/policies');
    const scenario = SCENARIOS[0];
    const play = (seed: number) => {
      const sim = new Simulation(scenario);
      const steps = runPolicy(sim, randomPolicy(seed), 500);
      return { steps, schedule: sim.schedule, finished: sim.isFinished };
    };
    const first = play(11);
    expect(play(11)).toEqual(first);
    expect(first.finished).toBe(true);
    expect(first.steps).toBeLessThan(500);
    // The recorded choices replay to the same trace through the replay policy.
    const recorded = new Simulation(scenario);
    runPolicy(recorded, randomPolicy(11), 500);
    const replay = new Simulation(scenario);
    runPolicy(replay, replayPolicy(recorded.timeline), 500);
    expect(JSON.stringify(replay.trace())).toBe(JSON.stringify(recorded.trace()));
  });

  it('runPolicy stops at stepCountMax', async () => {
    const { runPolicy } = await import('../../src/engine/policies');
    const sim = new Simulation(SCENARIOS[0]);
    const advanceForever = { next: () => ({ kind: 'advance' as const, ms: 1 }) };
    expect(runPolicy(sim, advanceForever, 25)).toBe(25);
    expect(sim.nowMs).toBe(25);
  });
});
