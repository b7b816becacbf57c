/**
 * Goal: one explorer. The async search (src/api/async/search.ts) is the engine's breadth-first
 * search run by replaying from time 0 (engine/explore/replay.ts) instead of restoring snapshots.
 * On a scenario made of programs both can search, so both must say the same: the same shortest
 * schedule, the same states, the same verdict in words. The replay search's advance is the
 * engine's `next-due` (the clients ready now run, then the clock moves to the next due time).
 */
import { describe, expect, it } from 'vitest';
import { explore as exploreApi } from '../../src/api/explore';
import { searchAsync } from '../../src/api/async/search';
import { explore as exploreEngine, noFaults, verdictLines } from '../../src/engine/explore';
import type { ExploreBounds } from '../../src/engine/explore/bounds';
import { BreadthFirstSearch } from '../../src/engine/explore/search';
import type { FaultBudget } from '../../src/engine/scenario';
import { Simulation } from '../../src/engine/simulation';
import { exploreVerdictLines } from '../../src/i18n';
import { findScenario } from '../../src/scenarios';

const oneStall: FaultBudget = { stallCountMax: 1, stallLengthsMs: [6000], crashCountMax: 0 };

async function bothWays(scenarioId: string, variantId: string, faults: FaultBudget, depthMax: number) {
  const scenario = findScenario(scenarioId);
  const bounds: ExploreBounds = { faults, depthMax, stateCountMax: 100_000, horizonMs: null };
  // No partial-order reduction: the replay search has none, and the first schedule found then depends on the move order alone.
  const search = new BreadthFirstSearch({ scenario, variantId, seed: 1, bounds, reduce: false, stopAt: 'first' });
  search.run();
  const engine = search.result();
  const invariants = engine.invariants;
  const replayed = await searchAsync(scenario, { variantId, seed: 1, clients: {}, bounds: { faults, depthMax, runCountMax: 1_000_000 }, invariants, stopAt: 'first' });
  return { engine, replayed };
}

describe('the async search and the engine search, on one scenario made of programs', () => {
  const cases: readonly (readonly [string, string, FaultBudget, number])[] = [
    ['get-then-del', 'get-then-del', oneStall, 8],
    ['get-then-del', 'lua', oneStall, 8],
    ['plain-del', 'plain-del', noFaults, 8],
    ['lease-expires-mid-work', findScenario('lease-expires-mid-work').defaultVariant, noFaults, 10],
  ];
  for (const [scenarioId, variantId, faults, depthMax] of cases) {
    it(`${scenarioId}/${variantId}: the same shortest schedule, states and verdict`, async () => {
      const { engine, replayed } = await bothWays(scenarioId, variantId, faults, depthMax);
      expect(replayed.violations.map((v) => [v.kind, v.schedule])).toEqual(engine.violations.map((v) => [v.kind, v.schedule]));
      expect(replayed.statesExplored).toBe(engine.statesExplored);
      expect(replayed.exhaustive).toBe(engine.exhaustive);
      expect(replayed.verdict.cut).toEqual(engine.cut);
      // The verdict in words reads the same. Transitions may be fewer: the replay search does not
      // try the advance where nothing is due and no client is ready (a whole replay for nothing).
      expect(replayed.verdict.transitionsExplored).toBeLessThanOrEqual(engine.transitionsExplored);
      expect(exploreVerdictLines({ ...replayed.verdict, transitionsExplored: engine.transitionsExplored }, 'en')).toEqual(exploreVerdictLines(engine, 'en'));
      // Each schedule found replays to its violation.
      for (const v of replayed.violations) {
        const sim = new Simulation(findScenario(scenarioId), { variantId, seed: 1 });
        sim.applySchedule(v.schedule);
        expect(sim.violationsToCursor().some((e) => e.violation === v.kind)).toBe(true);
      }
    });
  }
});

describe("the Node API's explore, on either explorer, carries the verdict the engine words", () => {
  it('a built-in lesson: the same verdict lines as the engine explorer gives the CLI', async () => {
    const result = await exploreApi({ scenario: 'get-then-del', variant: 'lua', seed: 1 });
    const engine = exploreEngine({ scenario: findScenario('get-then-del'), variantId: 'lua', seed: 1, stopAt: 'first' });
    expect(result.violations.map((v) => v.schedule)).toEqual(engine.violations.map((v) => v.schedule));
    expect(exploreVerdictLines(result.verdict, 'zh')).toEqual(verdictLines(engine, 'zh'));
  });
});
