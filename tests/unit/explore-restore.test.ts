/**
 * Goal: an explorer that jumps between states gets exactly what a fresh run gets. The runner
 * restores snapshots (world, keyspace, script cache, the scripts' random state, a running slow
 * script) in any order, on one server whose Lua engine is shared by every server of the process;
 * each move's events must be byte for byte those of a new Simulation replaying the same schedule.
 * Scenarios with EVALSHA, SCRIPT LOAD and slow scripts make the script cache and busy state matter.
 */
import { describe, expect, it } from 'vitest';
import { MoveTable, noFaultsUsed, type FaultsUsed } from '../../src/engine/explore/moves';
import { ExploreRunner, type ExploreSnapshot } from '../../src/engine/explore/runner';
import { SeededRandom } from '../../src/engine/rng';
import type { Choice } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';

const CASES = [
  ['script-cache', 'evalsha-only'],
  ['script-cache', 'fallback'],
  ['long-script', 'no-rollback'],
  ['long-script', 'read-only'],
  ['get-then-del', 'lua'],
  ['watchdog', 'renewal'],
] as const;

describe('restoring explored states', () => {
  for (const [scenarioId, variantId] of CASES) {
    it(`${scenarioId}/${variantId}: moves from restored states match fresh replays (seed 23)`, () => {
      const scenario = findScenario(scenarioId);
      const runner = new ExploreRunner(scenario, { variantId });
      const table = new MoveTable(runner.ctx, runner.state, { stallCountMax: 1, stallLengthsMs: [2000], crashCountMax: 1 });
      const random = SeededRandom.fromSeed(23);
      // A pool of visited states with the schedules that reached them; each step starts from a random one.
      const pool: { snapshot: ExploreSnapshot; choices: Choice[]; used: FaultsUsed }[] = [{ snapshot: runner.root, choices: [], used: noFaultsUsed }];
      let checked = 0;
      for (let i = 0; i < 90; i++) {
        const from = pool[random.below(pool.length)];
        runner.restore(from.snapshot);
        const moves = table.movesAt(runner.state, from.used, (m) => runner.refusal(m));
        const picked = moves[random.below(moves.length)];
        const transition = runner.apply(picked.move);
        if (transition === null) continue;
        const choices = [...from.choices, transition.choice];
        const fresh = new Simulation(scenario, { variantId });
        fresh.applySchedule(choices);
        expect(JSON.stringify(transition.events), choices.map((c) => JSON.stringify(c)).join(' ')).toBe(JSON.stringify(fresh.eventsOfStep(choices.length - 1)));
        checked += 1;
        if (choices.length < 14) pool.push({ snapshot: runner.copy(), choices, used: MoveTable.spend(from.used, picked.move) });
      }
      expect(checked).toBeGreaterThan(45);
    });
  }
});
