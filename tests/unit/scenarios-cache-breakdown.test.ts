// Goal: the cache-breakdown mutex (with its double-check) never rebuilds the cache twice, under
// any schedule of up to 8 choices: any order of the three requests, time moving to the retry and
// rebuild times, and one stall shorter than the mutex's slack (lease 3 s - rebuild 1 s). Checked
// by fast-check over that space; a depth-first search over the same space finds the duplicate
// rebuild in the broken variants. (Longer or repeated stalls outlast the lease: that is the
// mutex-expires lesson.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Choice } from '../../src/engine/schedule';
import { formatSchedule } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import { runs } from '../support/size';

const depthMax = 8;

/** Every choice the search may make: steps, advances to the retry and rebuild times, a stall. */
const alphabet: readonly Choice[] = [
  ...['A', 'B', 'C'].map((clientId) => ({ kind: 'step' as const, clientId })),
  ...[250, 1000].map((ms) => ({ kind: 'advance' as const, ms })),
  ...['A', 'B', 'C'].map((clientId) => ({ kind: 'stall' as const, clientId, ms: 1000 })),
];
/** The fault budget: at most this many stalls in one schedule. */
const stallCountMax = 1;

/** Depth-first over every schedule up to depthMax; returns the first schedule that rebuilt twice, or null. */
function search(variantId: string): { found: string | null; states: number } {
  const sim = new Simulation(findScenario('cache-breakdown'), { variantId, checkpointEverySteps: 1 });
  const seen = new Map<string, number>();
  let found: string | null = null;
  const visit = (depth: number): void => {
    if (found !== null) return;
    if (sim.violationsToCursor().some((v) => v.violation === 'duplicate-rebuild')) {
      found = formatSchedule(sim.timeline.slice(0, sim.cursor));
      return;
    }
    if (depth === depthMax) return;
    const key = sim.stateKey();
    const left = depthMax - depth;
    if ((seen.get(key) ?? -1) >= left) return;
    seen.set(key, left);
    const stalls = sim.timeline.slice(0, sim.cursor).filter((c) => c.kind === 'stall').length;
    for (const choice of alphabet) {
      if (choice.kind === 'stall' && stalls >= stallCountMax) continue;
      if (sim.refusal(choice) !== null) continue;
      const here = sim.cursor;
      sim.apply(choice);
      visit(depth + 1);
      sim.seek(here);
    }
  };
  visit(0);
  return { found, states: seen.size };
}

const PROPERTY_SEED = 4242;

describe('cache-breakdown, schedules of up to 8 choices', () => {
  it(`mutex: no schedule rebuilds the cache twice (fast-check seed ${PROPERTY_SEED})`, () => {
    const scenario = findScenario('cache-breakdown');
    fc.assert(
      fc.property(fc.array(fc.nat(alphabet.length - 1), { maxLength: depthMax }), (picks) => {
        const sim = new Simulation(scenario, { variantId: 'mutex' });
        let stalls = 0;
        for (const pick of picks) {
          const choice = alphabet[pick];
          if (choice.kind === 'stall' && stalls >= stallCountMax) continue;
          if (sim.refusal(choice) !== null) continue;
          if (choice.kind === 'stall') stalls += 1;
          sim.apply(choice);
        }
        // Let everything due run out, then count the rebuilds.
        sim.apply({ kind: 'advance', ms: 10_000 });
        expect(sim.trace().violations.map((v) => v.violation)).not.toContain('duplicate-rebuild');
      }),
      { seed: PROPERTY_SEED, numRuns: runs(400) },
    );
  });

  it('the double-check is what saves the schedule that races C\'s miss with A\'s release', () => {
    const sim = new Simulation(findScenario('cache-breakdown'), { variantId: 'mutex' });
    sim.applySchedule('A B C +999 C A A +1000');
    const c = sim.allEvents().filter((e) => e.kind === 'command' && e.clientId === 'C' && e.atMs === 1000);
    // C missed, then got the mutex, then read the cache again: a hit, and no rebuild.
    expect(c.map((e) => (e.kind === 'command' ? [e.argv[0], e.reply?.type] : null)).slice(0, 3)).toEqual([
      ['GET', 'nil'],
      ['SET', 'status'],
      ['GET', 'bulk'],
    ]);
    expect(sim.trace().violations).toEqual([]);
  });

  it('the same search finds the duplicate rebuild without a mutex, and with a mutex lease shorter than the rebuild', () => {
    expect(search('no-mutex').found).not.toBeNull();
    expect(search('mutex-expires').found).not.toBeNull();
  });
});
