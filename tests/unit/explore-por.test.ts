/**
 * Goal: the partial-order reduction is sound. Two checks:
 * - its one lemma, on random states: whenever it judges two moves independent, applying them in
 *   either order gives the same state, and each move produces the same events either way;
 * - its consequence, on small scenarios: the reduced search visits exactly the states of the full
 *   one, finds the same violations at the same depths, and is exhaustive when the full one is,
 *   while applying fewer moves.
 */
import { describe, expect, it } from 'vitest';
import { MoveTable, noFaultsUsed, type FaultsUsed } from '../../src/engine/explore/moves';
import { effectOf, independent } from '../../src/engine/explore/por';
import { ExploreRunner, type ExploreSnapshot } from '../../src/engine/explore/runner';
import { BreadthFirstSearch } from '../../src/engine/explore/search';
import { StateKeyer } from '../../src/engine/explore/state-key';
import { SeededRandom } from '../../src/engine/rng';
import type { FaultBudget } from '../../src/engine/scenario';
import type { TraceEvent } from '../../src/engine/trace';
import { findScenario } from '../../src/scenarios';

const faulty: FaultBudget = { stallCountMax: 2, stallLengthsMs: [700, 6000], crashCountMax: 1 };

/** Events without their position in the trace (which depends on what ran before). */
function positionless(events: readonly TraceEvent[]): string {
  return JSON.stringify(events.map(({ seq, step, ...rest }) => (void seq, void step, rest)));
}

const LEMMA_CASES = [
  ['get-then-del', 'get-then-del'],
  ['stock-oversell', 'no-lock'],
  ['stock-oversell', 'lua-decr'],
  ['cache-breakdown', 'mutex'],
  ['setnx-then-expire', 'setnx-expire'],
  ['watchdog', 'renewal'],
  ['lease-expires-mid-work', 'fencing'],
  ['plain-del', 'plain-del'],
  // Several nodes: messages in flight, replication, node clocks.
  ['redlock-split-vote', 'jittered-retry'],
  ['failover-before-replication', 'wait'],
] as const;

describe('independent moves commute', () => {
  for (const [scenarioId, variantId] of LEMMA_CASES) {
    it(`${scenarioId}/${variantId}: same state and same events in either order (random states, seed 17)`, () => {
      const runner = new ExploreRunner(findScenario(scenarioId), { variantId });
      const table = new MoveTable(runner.ctx, runner.state, faulty);
      const random = SeededRandom.fromSeed(17);
      let pairs = 0;
      for (let walk = 0; walk < 25; walk++) {
        runner.restore(runner.root);
        let used: FaultsUsed = noFaultsUsed;
        for (let depth = 0; depth < 10; depth++) {
          const s: ExploreSnapshot = runner.copy();
          const moves = table.movesAt(runner.state, used, (m) => runner.refusal(m));
          const applied = moves.flatMap((m) => {
            runner.restore(s);
            const t = runner.apply(m.move);
            return t === null ? [] : [{ m, t, effect: effectOf(m, s.world, runner.state, t.events, runner.ctx), after: runner.copy() }];
          });
          for (const a of applied) {
            for (const b of applied) {
              if (a.m.rank >= b.m.rank || !independent(a.effect, b.effect)) continue;
              pairs += 1;
              runner.restore(a.after);
              const bAfterA = runner.apply(b.m.move);
              const keyAB = runner.key();
              runner.restore(b.after);
              const aAfterB = runner.apply(a.m.move);
              const keyBA = runner.key();
              expect(bAfterA, `${b.m.id} after ${a.m.id}`).not.toBeNull();
              expect(aAfterB, `${a.m.id} after ${b.m.id}`).not.toBeNull();
              expect(keyAB, `${a.m.id}·${b.m.id} vs ${b.m.id}·${a.m.id}`).toBe(keyBA);
              expect(positionless(bAfterA?.events ?? [])).toBe(positionless(b.t.events));
              expect(positionless(aAfterB?.events ?? [])).toBe(positionless(a.t.events));
            }
          }
          if (applied.length === 0) break;
          const next = applied[random.below(applied.length)];
          runner.restore(next.after);
          used = MoveTable.spend(used, next.m.move);
        }
      }
      // The relation is exercised, not vacuous.
      expect(pairs).toBeGreaterThan(5);
    });
  }
});

const oneOfEach: FaultBudget = { stallCountMax: 1, stallLengthsMs: [700, 6000], crashCountMax: 1 };

const SEARCH_CASES: [string, string, FaultBudget, number | null][] = [
  ['get-then-del', 'get-then-del', oneOfEach, null],
  ['get-then-del', 'lua', faulty, null],
  ['stock-oversell', 'no-lock', { stallCountMax: 1, stallLengthsMs: [500], crashCountMax: 1 }, null],
  ['stock-oversell', 'lua-decr', { stallCountMax: 1, stallLengthsMs: [500], crashCountMax: 1 }, null],
  ['setnx-then-expire', 'setnx-expire', { stallCountMax: 1, stallLengthsMs: [3000], crashCountMax: 1 }, null],
  ['lease-expires-mid-work', 'fencing', { stallCountMax: 1, stallLengthsMs: [7000], crashCountMax: 1 }, null],
  ['watchdog', 'starved', { stallCountMax: 1, stallLengthsMs: [3500], crashCountMax: 1 }, 12_000],
];

describe('the reduced search', () => {
  for (const [scenarioId, variantId, faults, horizonMs] of SEARCH_CASES) {
    it(`${scenarioId}/${variantId}: visits the same states and finds the same violations at the same depths`, () => {
      const keyer = new StateKeyer();
      const run = (reduce: boolean) => {
        const search = new BreadthFirstSearch({
          keyer,
          scenario: findScenario(scenarioId),
          variantId,
          bounds: { faults, depthMax: 14, stateCountMax: 200_000, horizonMs },
          reduce,
          stopAt: 'never',
        });
        search.run();
        return { result: search.result(), keys: new Set(search.visitedKeys()) };
      };
      const full = run(false);
      const reduced = run(true);
      expect(reduced.keys).toEqual(full.keys);
      expect(reduced.result.statesExplored).toBe(full.result.statesExplored);
      expect(reduced.result.violations.map((v) => [v.kind, v.steps])).toEqual(full.result.violations.map((v) => [v.kind, v.steps]));
      expect(reduced.result.exhaustive).toBe(full.result.exhaustive);
      expect(reduced.result.cut).toEqual(full.result.cut);
      expect(reduced.result.depthReached).toBe(full.result.depthReached);
      expect(reduced.result.transitionsExplored).toBeLessThanOrEqual(full.result.transitionsExplored);
      expect(reduced.result.transitionsExplored + reduced.result.transitionsSkipped).toBe(full.result.transitionsExplored);
    });
  }

  it('failover-before-replication/async, with node faults: the same states, violations and depths', () => {
    const keyer = new StateKeyer();
    const faults: FaultBudget = { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 0, nodeCrashCountMax: 1, promoteCountMax: 1, nodes: ['r1', 'r2'] };
    const run = (reduce: boolean) => {
      const search = new BreadthFirstSearch({ keyer, scenario: findScenario('failover-before-replication'), variantId: 'async', bounds: { faults, depthMax: 4, stateCountMax: 200_000, horizonMs: null }, reduce, stopAt: 'never' });
      search.run();
      return { result: search.result(), keys: new Set(search.visitedKeys()) };
    };
    const full = run(false);
    const reduced = run(true);
    expect(reduced.keys).toEqual(full.keys);
    expect(reduced.result.violations.map((v) => [v.kind, v.steps])).toEqual(full.result.violations.map((v) => [v.kind, v.steps]));
    expect(reduced.result.cut).toEqual(full.result.cut);
    expect(reduced.result.transitionsExplored + reduced.result.transitionsSkipped).toBe(full.result.transitionsExplored);
  });
});
