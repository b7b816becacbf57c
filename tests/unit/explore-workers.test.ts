/**
 * Goal: the breadth-first search on worker threads gives what it gives on one: the same
 * violations with the same shortest schedules, the same counts and the same verdict, for 1 and 2
 * workers (each worker a shard, merged: engine/explore/shard.ts).
 */
import { describe, expect, it } from 'vitest';
import { exploreInWorkers } from '../../src/api/explore-workers';
import { verdictLines, type ExploreResult } from '../../src/engine/explore';
import { findScenario } from '../../src/scenarios';

function verdictOf(r: ExploreResult) {
  return {
    violations: r.violations.map((v) => ({ kind: v.kind, schedule: v.schedule, steps: v.steps })),
    statesExplored: r.statesExplored,
    transitionsExplored: r.transitionsExplored,
    exhaustive: r.exhaustive,
    cut: r.cut,
    verdict: verdictLines(r),
  };
}

describe('worker threads', () => {
  // Few cases: each worker loads the engine through tsx (seconds under load).
  it.each([
    // A built-in scenario: the workers look it up by id.
    ['get-then-del', 'get-then-del', 'get-then-del', {}],
    // A scenario as data (a definition's), structured-cloned to the workers; time horizon and depth cuts.
    [null, 'cache-breakdown', 'mutex-expires', { depthMax: 6 }],
  ] as const)('%s (%s/%s): 1 and 2 workers give the same result', async (scenarioId, id, variantId, bounds) => {
    const search = { scenarioId, scenario: findScenario(id), options: { variantId, bounds, stopAt: 'never' as const } };
    const [one, two] = [await exploreInWorkers(search, 1), await exploreInWorkers(search, 2)];
    expect(verdictOf(two)).toEqual(verdictOf(one));
    expect(one.statesExplored).toBeGreaterThan(100);
  }, 60_000);

  it.each([0, 65, 1.5])('refuses %s workers', async (n) => {
    await expect(exploreInWorkers({ scenarioId: 'get-then-del', scenario: findScenario('get-then-del'), options: {} }, n)).rejects.toThrow(/workers must be an integer from 1 to 64/);
  });
});

describe('the Node API option', () => {
  it('takes workers for scenarios made of programs and names a bad value by its path', async () => {
    const { explore } = await import('../../src/api/explore');
    await expect(explore({ scenario: 'get-then-del', workers: 0 })).rejects.toThrow(/workers/);
    await expect(explore({ scenario: 'get-then-del', clients: { A: async () => undefined }, workers: 2 })).rejects.toThrow(/async clients are searched on one thread/);
    const one = await explore({ scenario: 'get-then-del', workers: 1, invariants: ['foreign-release'] });
    expect(one.violations[0]?.schedule).toBe('A A B A~5000 A');
  });
});
