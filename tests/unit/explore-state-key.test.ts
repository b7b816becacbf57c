/**
 * Goal: the explorer's short state key tells two states apart exactly when Simulation.stateKey()
 * does (same scenario variant and seed), so hashing with it explores what stateKey would, no more
 * and no less. States come from many short random schedules, so many are reached several ways.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StateKeyer } from '../../src/engine/explore/state-key';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import { applyIntents, intentArb } from './support/random-schedule';

/** Reaches into the simulation for its server snapshot, the same one stateKey() serializes. */
function serverSnapshot(sim: Simulation) {
  return (sim as unknown as { server: { snapshot(): never } }).server.snapshot();
}

const CASES = [
  ['get-then-del', 'get-then-del'],
  ['get-then-del', 'lua'],
  ['watchdog', 'starved'],
  ['stock-oversell', 'no-lock'],
  ['cache-breakdown', 'mutex'],
  ['long-script', 'wrote-first'],
] as const;

describe('explorer state key', () => {
  for (const [scenarioId, variantId] of CASES) {
    it(`partitions ${scenarioId}/${variantId} states as stateKey() does (seed 11)`, () => {
      const scenario = findScenario(scenarioId);
      const keyer = new StateKeyer();
      const byStateKey = new Map<string, string>();
      const byExplorerKey = new Map<string, string>();
      fc.assert(
        fc.property(fc.array(intentArb, { maxLength: 6 }), (intents) => {
          const sim = new Simulation(scenario, { variantId });
          applyIntents(sim, intents);
          const full = sim.stateKey();
          const short = keyer.key(structuredClone(sim.state), serverSnapshot(sim));
          // Same class both ways: the first explorer key seen with this stateKey, and vice versa.
          if (!byStateKey.has(full)) byStateKey.set(full, short);
          if (!byExplorerKey.has(short)) byExplorerKey.set(short, full);
          expect(byStateKey.get(full)).toBe(short);
          expect(byExplorerKey.get(short)).toBe(full);
        }),
        { seed: 11, numRuns: 250 },
      );
      // Many states were reached more than once, or the test proves little.
      expect(byStateKey.size).toBeLessThan(200);
      expect(byStateKey.size).toBeGreaterThan(10);
    });
  }
});
