// Goal: stepping back, forward and jumping anywhere gives exactly the state a fresh replay would,
// and changing the past forks the timeline.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine/simulation';
import { SCENARIOS, findScenario } from '../../src/scenarios';
import { allVariants, applyIntents, intentArb } from './support/random-schedule';
import { runs } from '../support/size';

const PROPERTY_SEED = 777;

function freshAt(sim: Simulation, step: number): Simulation {
  const fresh = new Simulation(sim.ctx.scenario, { variantId: sim.variantId, seed: sim.seed });
  fresh.applySchedule(sim.timeline.slice(0, step));
  return fresh;
}

describe('time travel', () => {
  it.each(allVariants(SCENARIOS).map((v) => [`${v.scenario.id}/${v.variantId}`, v] as const))(
    `%s: seek(n) equals a fresh replay of n choices (fast-check seed ${PROPERTY_SEED})`,
    (_name, { scenario, variantId }) => {
      fc.assert(
        fc.property(
          fc.array(intentArb, { minLength: 1, maxLength: 40 }),
          fc.array(fc.nat(1000), { minLength: 1, maxLength: 8 }),
          fc.integer({ min: 1, max: 6 }),
          (intents, jumps, checkpointEverySteps) => {
            const sim = new Simulation(scenario, { variantId, seed: 3, checkpointEverySteps });
            applyIntents(sim, intents);
            for (const jump of jumps) {
              const target = jump % (sim.length + 1);
              sim.seek(target);
              const fresh = freshAt(sim, target);
              expect(sim.cursor).toBe(target);
              expect(sim.stateKey()).toBe(fresh.stateKey());
              expect(JSON.stringify(sim.eventsToCursor())).toBe(JSON.stringify(fresh.allEvents()));
              expect(sim.inspect()).toEqual(fresh.inspect());
            }
          },
        ),
        { seed: PROPERTY_SEED, numRuns: runs(40) },
      );
    },
  );

  it('steps back and forward one choice at a time and stops at both ends', () => {
    const sim = new Simulation(findScenario('get-then-del'));
    sim.applySchedule('A A A~5000 +4000 B +1000');
    const keys: string[] = [];
    while (sim.stepBack()) keys.unshift(sim.stateKey());
    expect(sim.cursor).toBe(0);
    expect(sim.stepBack()).toBe(false);
    expect(sim.eventsToCursor()).toEqual([]);
    const forward: string[] = [];
    while (sim.stepForward()) forward.push(sim.stateKey());
    expect(sim.cursor).toBe(6);
    expect(forward.slice(0, -1)).toEqual(keys.slice(1));
    expect(sim.violationsToCursor().map((v) => v.violation)).toEqual(['foreign-release']);
  });

  it('applying a different choice in the past forks: the old future is dropped', () => {
    const sim = new Simulation(findScenario('get-then-del'));
    sim.applySchedule('A A A~5000 +4000 B +1000');
    sim.seek(3);
    // Instead of letting the lease expire, B tries right away and is refused.
    sim.apply({ kind: 'step', clientId: 'B' });
    expect(sim.length).toBe(4);
    expect(sim.schedule).toBe('A A A~5000 B');
    const expected = new Simulation(findScenario('get-then-del'));
    expected.applySchedule('A A A~5000 B');
    expect(JSON.stringify(sim.trace())).toBe(JSON.stringify(expected.trace()));
    expect(sim.trace().violations).toEqual([]);
  });
});

describe('state keys and hashes', () => {
  it('equal states have equal keys and hashes; a step changes both; the step count is not part of the state', () => {
    const scenario = findScenario('get-then-del');
    const a = new Simulation(scenario);
    const b = new Simulation(scenario);
    expect(a.stateHash()).toBe(b.stateHash());
    a.apply({ kind: 'step', clientId: 'A' });
    expect(a.stateKey()).not.toBe(b.stateKey());
    expect(a.stateHash()).not.toBe(b.stateHash());
    b.apply({ kind: 'step', clientId: 'A' });
    expect(a.stateHash()).toBe(b.stateHash());
    // Two ways to reach the same world (advance 1000 twice vs 2000 once) give the same state.
    a.applySchedule('+1000 +1000');
    b.applySchedule('+2000');
    expect(a.stateKey()).toBe(b.stateKey());
    expect(a.stateHash()).toBe(b.stateHash());
  });
});
