/**
 * Goal: the PCT and swarm random modes are deterministic, replayable and honest. A found schedule
 * replays to its violation; the walk that found it is taken again, alone, from the seed printed
 * with it; swarm walks stay within the exploration's fault budget; PCT's bound is the paper's
 * formula; bad bug depths are refused.
 */
import { describe, expect, it } from 'vitest';
import { BoundsError, explore, verdictLines, type ExploreResult } from '../../src/engine/explore';
import { pctGuarantee } from '../../src/engine/explore/pct';
import { drawSwarmBudget } from '../../src/engine/explore/swarm';
import { seedOfWalk } from '../../src/engine/explore/walk';
import { SeededRandom } from '../../src/engine/rng';
import type { FaultBudget } from '../../src/engine/scenario';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';

const getThenDel = findScenario('get-then-del');

function replayKinds(variantId: string, schedule: string): string[] {
  const sim = new Simulation(getThenDel, { variantId });
  sim.applySchedule(schedule);
  return sim.trace().violations.map((v) => v.violation);
}

function walks(mode: 'pct' | 'swarm' | 'random', walkSeed: number, walkCountMax: number, bugDepth?: number): ExploreResult {
  return explore({ scenario: getThenDel, mode, walkSeed, walkCountMax, bugDepth, invariants: ['foreign-release'], stopAt: 'first' });
}

describe.each(['pct', 'swarm'] as const)('%s walks', (mode) => {
  it(`find get-then-del's foreign release, replayable from the schedule and from the walk's own seed (walk seed 7)`, () => {
    const result = walks(mode, 7, 1000);
    expect(result).toEqual(walks(mode, 7, 1000));
    const found = result.violations[0];
    expect(found?.kind).toBe('foreign-release');
    expect(replayKinds('get-then-del', found.schedule)).toContain('foreign-release');
    const walk = found.walk;
    expect(walk).toBeDefined();
    expect(walk?.seed).toBe(seedOfWalk(7, walk?.index ?? -1));
    // That walk alone, from its seed, finds the same schedule in one walk.
    const alone = walks(mode, walk?.seed ?? 0, 1);
    expect(alone.coverage?.walks).toBe(1);
    expect(alone.violations[0]?.schedule).toBe(found.schedule);
    expect(alone.violations[0]?.walk?.faults).toEqual(walk?.faults);
    expect(result.exhaustive).toBe(false);
    expect(result.mode).toBe(mode);
  });
});

describe('PCT', () => {
  it('states the bound 1/(n·k^(d-1)) and what R walks give', () => {
    const g = pctGuarantee(3, 2, 10, 4, 50);
    expect(g.perWalkProbability).toBeCloseTo(1 / (2 * 10 ** 2), 12);
    expect(g.foundProbability).toBeCloseTo(1 - (1 - 1 / 200) ** 50, 12);
    const result = explore({ scenario: getThenDel, variantId: 'lua', mode: 'pct', bugDepth: 2, walkCountMax: 20, invariants: ['foreign-release'] });
    expect(result.violations).toEqual([]);
    expect(result.pct).toMatchObject({ bugDepth: 2, entities: 2, walks: 20 });
    expect(result.pct?.stepCountMax).toBeLessThanOrEqual(result.bounds.depthMax);
    const lines = verdictLines(result).join('\n');
    expect(lines).toMatch(/No violation of foreign release found in 20 PCT walks \(bug depth 2\)/);
    expect(lines).toMatch(/PCT bound: .*1\/\(n·k\^\(d−1\)\) = [0-9.]+% \(n = 2 clients; k = \d+/);
    expect(verdictLines(result, 'zh').join('\n')).toMatch(/PCT 下界/);
  });

  it('with bug depth 1 and no faults, a walk is the clients run in one priority order: at most n! = 2 different walks', () => {
    const noFault: FaultBudget = { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 0 };
    const states = (walkSeed: number, walkCountMax: number) => explore({ scenario: getThenDel, mode: 'pct', bugDepth: 1, walkSeed, walkCountMax, bounds: { faults: noFault }, stopAt: 'never' }).statesExplored;
    const one = states(1, 1);
    expect(states(1, 40)).toBeLessThanOrEqual(2 * one);
    expect(states(1, 40)).toBeGreaterThan(one);
  });

  it.each([0, 11, 1.5])('refuses bug depth %s', (bugDepth) => {
    expect(() => explore({ scenario: getThenDel, mode: 'pct', bugDepth, walkCountMax: 1 })).toThrow(BoundsError);
  });

  it('refuses a bug depth outside PCT', () => {
    expect(() => explore({ scenario: getThenDel, mode: 'random', bugDepth: 2, walkCountMax: 1 })).toThrow(/mode pct/);
  });
});

describe('swarm budgets', () => {
  const budget: FaultBudget = { stallCountMax: 2, stallLengthsMs: [1000, 5000, 7000], crashCountMax: 1, nodeCrashCountMax: 1, partitionCountMax: 2, clockJumpCountMax: 1, clockJumpsMs: [-2000, 11000] };
  it('stay within the exploration budget and vary (seed 11, 200 draws)', () => {
    const random = SeededRandom.fromSeed(11);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const b = drawSwarmBudget(random, budget, ['A', 'B', 'C']);
      seen.add(JSON.stringify(b));
      expect(b.stallCountMax).toBeLessThanOrEqual(2);
      expect(b.crashCountMax).toBeLessThanOrEqual(1);
      expect(b.partitionCountMax ?? 0).toBeLessThanOrEqual(2);
      expect(b.nodeCrashCountMax ?? 0).toBeLessThanOrEqual(1);
      for (const ms of b.stallLengthsMs) expect(budget.stallLengthsMs).toContain(ms);
      if (b.stallCountMax > 0) expect(b.stallLengthsMs.length).toBeGreaterThan(0);
      if ((b.clockJumpCountMax ?? 0) > 0) expect((b.clockJumpsMs ?? []).length).toBeGreaterThan(0);
      for (const ms of b.clockJumpsMs ?? []) expect(budget.clockJumpsMs).toContain(ms);
      expect(b.clients?.length).toBeGreaterThan(0);
    }
    expect(seen.size).toBeGreaterThan(50);
  });
});
