/**
 * Goal: engine optimizations change no trace. Every scenario and variant, under a dozen seeded
 * random schedules (steps, advances, stalls, crashes; the default schedules are tests/golden's), must give
 * byte for byte the trace the engine gave before them: the fixture holds each trace's hash,
 * written by scripts/gen-engine-traces.ts from the engine as it was (its commit is in the file).
 * Time travel must land on the same state too: seeking back restores a checkpoint (a copied world
 * and server) and replays.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hash53 } from '../../src/engine/hash';
import { parseSchedule } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { SCENARIOS, findScenario } from '../../src/scenarios';

interface Entry {
  readonly scenario: string;
  readonly variant: string;
  readonly seed: number;
  readonly schedule: string;
  readonly traceHash: number;
  readonly eventCount: number;
}

const fixture = JSON.parse(readFileSync(new URL('./fixtures/engine-traces.json', import.meta.url), 'utf8')) as { generatedFrom: string; entries: Entry[] };

describe(`traces are those of the engine at ${fixture.generatedFrom}`, () => {
  it('covers every scenario and variant', () => {
    const covered = new Set(fixture.entries.map((e) => `${e.scenario}/${e.variant}`));
    const missing = SCENARIOS.flatMap((s) => s.variants.map((v) => `${s.id}/${v.id}`)).filter((id) => !covered.has(id));
    expect(missing, 'regenerate with scripts/gen-engine-traces.ts for new scenarios').toEqual([]);
  });

  for (const scenario of SCENARIOS) {
    it(`${scenario.id}: every variant, default and random schedules, byte for byte`, () => {
      for (const entry of fixture.entries.filter((e) => e.scenario === scenario.id)) {
        const sim = new Simulation(findScenario(entry.scenario), { variantId: entry.variant, seed: entry.seed });
        sim.applySchedule(entry.schedule);
        const trace = sim.trace();
        expect({ schedule: entry.schedule, events: trace.events.length, hash: hash53(JSON.stringify(trace)) }, `${entry.variant} seed ${entry.seed}`).toEqual({
          schedule: entry.schedule,
          events: entry.eventCount,
          hash: entry.traceHash,
        });
      }
    });
  }

  it('seeking back and forth lands on the state a fresh run reaches', () => {
    const long = fixture.entries.filter((e) => parseSchedule(e.schedule).length >= 12).slice(0, 40);
    expect(long.length).toBeGreaterThan(10);
    for (const entry of long) {
      const scenario = findScenario(entry.scenario);
      const sim = new Simulation(scenario, { variantId: entry.variant, seed: entry.seed, checkpointEverySteps: 4 });
      const choices = parseSchedule(entry.schedule);
      sim.applySchedule(choices);
      for (const cursor of [choices.length - 1, 3, 9, 0, choices.length]) {
        sim.seek(cursor);
        const fresh = new Simulation(scenario, { variantId: entry.variant, seed: entry.seed });
        fresh.applySchedule(choices.slice(0, cursor));
        expect(sim.stateKey(), `${entry.scenario}/${entry.variant} at ${cursor}`).toBe(fresh.stateKey());
      }
    }
  });
});
