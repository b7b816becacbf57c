/**
 * Goal: the breadth-first explorer is right and says exactly what it did. The advance it takes
 * is an ordinary `+N` (it replays); it is deterministic; the first violation it reports is a
 * shortest one (checked against a plain enumeration of every schedule); each found schedule
 * replays to its violation; bounds that cut the search are reported as cuts, never as
 * "exhaustive".
 */
import { describe, expect, it } from 'vitest';
import { createExploration, explore, type ExploreResult } from '../../src/engine/explore';
import { MoveTable, noFaultsUsed, type FaultsUsed } from '../../src/engine/explore/moves';
import { ExploreRunner, type ExploreSnapshot } from '../../src/engine/explore/runner';
import { SeededRandom } from '../../src/engine/rng';
import type { FaultBudget } from '../../src/engine/scenario';
import { Simulation } from '../../src/engine/simulation';
import { VIOLATION_KINDS, type ViolationKind } from '../../src/engine/trace';
import { findScenario } from '../../src/scenarios';

const oneStall: FaultBudget = { stallCountMax: 1, stallLengthsMs: [6000], crashCountMax: 0 };
const getThenDel = findScenario('get-then-del');

/** States reached by seeded random moves, as snapshots. */
function randomSnapshots(scenarioId: string, variantId: string, budget: FaultBudget, count: number, seed: number): { snapshot: ExploreSnapshot; used: FaultsUsed }[] {
  const runner = new ExploreRunner(findScenario(scenarioId), { variantId });
  const table = new MoveTable(runner.ctx, runner.state, budget);
  const random = SeededRandom.fromSeed(seed);
  const out: { snapshot: ExploreSnapshot; used: FaultsUsed }[] = [];
  while (out.length < count) {
    runner.restore(runner.root);
    let used = noFaultsUsed;
    for (let depth = 0; depth < 12 && out.length < count; depth++) {
      const moves = table.movesAt(runner.state, used, (m) => runner.refusal(m));
      const start = runner.copy();
      const picked = moves[random.below(moves.length)];
      if (runner.apply(picked.move) === null) {
        runner.restore(start);
        break;
      }
      used = MoveTable.spend(used, picked.move);
      out.push({ snapshot: runner.copy(), used });
    }
  }
  return out;
}

function replayViolations(scenarioId: string, variantId: string, schedule: string): { kind: ViolationKind; step: number }[] {
  const sim = new Simulation(findScenario(scenarioId), { variantId });
  sim.applySchedule(schedule);
  return sim.trace().violations.map((v) => ({ kind: v.violation, step: v.step }));
}

describe('the advance to the next due time', () => {
  for (const [scenarioId, variantId] of [
    ['get-then-del', 'get-then-del'],
    ['watchdog', 'renewal'],
    ['long-script', 'wrote-first'],
    ['cache-breakdown', 'mutex-expires'],
  ] as const) {
    it(`is exactly the +N it reports (${scenarioId}/${variantId}, random states, seed 3)`, () => {
      const runner = new ExploreRunner(findScenario(scenarioId), { variantId });
      let advances = 0;
      for (const { snapshot } of randomSnapshots(scenarioId, variantId, oneStall, 60, 3)) {
        runner.restore(snapshot);
        const byHelper = runner.apply({ kind: 'next-due' });
        if (byHelper === null) continue;
        advances += 1;
        expect(byHelper.choice.kind).toBe('advance');
        const keyAfterHelper = runner.key();
        runner.restore(snapshot);
        const byChoice = runner.apply(byHelper.choice);
        expect(JSON.stringify(byChoice?.events)).toBe(JSON.stringify(byHelper.events));
        expect(runner.key()).toBe(keyAfterHelper);
        // Nothing was due before the point it stopped at: the clock stopped at the first due time.
        expect(byHelper.events.filter((e) => e.kind === 'clock').length).toBeLessThanOrEqual(1);
      }
      expect(advances).toBeGreaterThan(10);
    });
  }
});

describe('breadth-first search', () => {
  it('is deterministic: the same options give the same result', () => {
    const run = () => explore({ scenario: getThenDel, bounds: { faults: oneStall }, stopAt: 'never' });
    expect(run()).toEqual(run());
  });

  it('finds the foreign release by stalling A between its GET and its DEL across the lease expiry', () => {
    const result = explore({ scenario: getThenDel, bounds: { faults: oneStall }, invariants: ['foreign-release'] });
    const found = result.violations.find((v) => v.kind === 'foreign-release');
    expect(found).toBeDefined();
    const choices = found?.choices ?? [];
    const stall = choices.findIndex((c) => c.kind === 'stall');
    expect(choices[stall]).toEqual({ kind: 'stall', clientId: 'A', ms: 6000 });
    // Before the stall A has taken two steps: its SET, then its GET (it now stands before its DEL).
    expect(choices.slice(0, stall).filter((c) => c.kind === 'step' && c.clientId === 'A')).toHaveLength(2);
    expect(found?.message).toBe("A deleted B's lock");
    expect(replayViolations('get-then-del', 'get-then-del', found?.schedule ?? '')).toContainEqual({ kind: 'foreign-release', step: (found?.steps ?? 0) - 1 });
  });

  it('reports a shortest violation: no schedule with fewer choices shows it (plain enumeration)', () => {
    const result = explore({ scenario: getThenDel, bounds: { faults: oneStall }, invariants: ['foreign-release'] });
    const steps = result.violations[0].steps;
    // Every schedule of fewer choices, without state hashing: none shows a foreign release.
    const runner = new ExploreRunner(getThenDel);
    const table = new MoveTable(runner.ctx, runner.state, oneStall);
    let schedules = 0;
    const search = (snapshot: ExploreSnapshot, used: FaultsUsed, depth: number): boolean => {
      if (depth === 0) return false;
      runner.restore(snapshot);
      for (const m of table.movesAt(runner.state, used, (x) => runner.refusal(x))) {
        runner.restore(snapshot);
        const t = runner.apply(m.move);
        if (t === null) continue;
        schedules += 1;
        if (t.events.some((e) => e.kind === 'violation' && e.violation === 'foreign-release')) return true;
        if (search(runner.copy(), MoveTable.spend(used, m.move), depth - 1)) return true;
      }
      return false;
    };
    expect(search(runner.root, noFaultsUsed, steps - 1)).toBe(false);
    expect(schedules).toBeGreaterThan(100);
  });

  it('replays every violation it finds, in every variant of get-then-del, to the same kind at its last choice', () => {
    for (const variant of getThenDel.variants) {
      const result = explore({ scenario: getThenDel, variantId: variant.id, bounds: { faults: oneStall } });
      for (const v of result.violations) {
        expect(replayViolations('get-then-del', variant.id, v.schedule), `${variant.id}: ${v.schedule}`).toContainEqual({ kind: v.kind, step: v.steps - 1 });
      }
    }
  });

  it('says when a bound cut it: depth, time horizon, state budget, cancel', () => {
    const shallow = explore({ scenario: getThenDel, variantId: 'lua', bounds: { faults: oneStall, depthMax: 3 } });
    expect(shallow.exhaustive).toBe(false);
    expect(shallow.cut.depthCutStates).toBeGreaterThan(0);

    const early = explore({ scenario: getThenDel, variantId: 'lua', bounds: { faults: oneStall, horizonMs: 3000 } });
    expect(early.exhaustive).toBe(false);
    expect(early.cut.horizonCutMoves).toBeGreaterThan(0);

    const small = explore({ scenario: getThenDel, variantId: 'lua', bounds: { faults: oneStall, stateCountMax: 20 } });
    expect(small).toMatchObject({ exhaustive: false, statesExplored: 20, cut: { stateBudget: true } });

    const exploration = createExploration({ scenario: getThenDel, variantId: 'lua', bounds: { faults: oneStall } });
    expect(exploration.run(5)).toBe(false);
    exploration.cancel();
    expect(exploration.done).toBe(true);
    expect(exploration.result()).toMatchObject({ exhaustive: false, cut: { cancelled: true } });

    const full = explore({ scenario: getThenDel, variantId: 'lua', bounds: { faults: oneStall } });
    expect(full).toMatchObject({ exhaustive: true, cut: { depthCutStates: 0, horizonCutMoves: 0, stateBudget: false, cancelled: false } });
  });

  it('stops at the first violation when asked, and then claims nothing about the rest', () => {
    const result: ExploreResult = explore({ scenario: getThenDel, bounds: { faults: oneStall }, stopAt: 'first' });
    expect(result.violations).toHaveLength(1);
    expect(result).toMatchObject({ exhaustive: false, cut: { stoppedAtViolation: true } });
  });

  it('claims only the kinds the scenario checks: every kind by default, the listed ones where it names its checkers', () => {
    const kindsOf = (id: string, variantId: string, invariants?: ViolationKind[], mode?: 'random') =>
      explore({ scenario: findScenario(id), variantId, bounds: { depthMax: 2 }, invariants, ...(mode ? { mode, walkCountMax: 2 } : {}) }).invariants;
    expect(kindsOf('get-then-del', 'lua')).toEqual(VIOLATION_KINDS);
    // Readers share the critical section: read-write-lock applies the starvation checker alone.
    expect(kindsOf('read-write-lock', 'writer-preference')).toEqual(['starvation']);
    expect(kindsOf('read-write-lock', 'writer-preference', ['mutual-exclusion', 'starvation'])).toEqual(['starvation']);
    expect(kindsOf('counting-semaphore', 'refresh', undefined, 'random')).toEqual(['over-limit']);
  });

  it('runs in slices to the same result as in one go', () => {
    const whole = explore({ scenario: getThenDel, bounds: { faults: oneStall }, stopAt: 'never' });
    const sliced = createExploration({ scenario: getThenDel, bounds: { faults: oneStall }, stopAt: 'never' });
    let slices = 0;
    while (!sliced.run(7)) slices += 1;
    expect(slices).toBeGreaterThan(10);
    expect(sliced.result()).toEqual(whole);
  });
});

describe('random walks', () => {
  it('are deterministic for a walk seed, report coverage, and find the foreign release', () => {
    const walk = (walkSeed: number) =>
      explore({ scenario: getThenDel, mode: 'random', walkSeed, walkCountMax: 400, bounds: { faults: oneStall }, invariants: ['foreign-release'], stopAt: 'never' });
    const a = walk(5);
    expect(walk(5)).toEqual(a);
    expect(a.exhaustive).toBe(false);
    expect(a.cut.sampled).toBe(true);
    expect(a.coverage?.walks).toBe(400);
    expect(a.coverage?.goodTuring).toBeGreaterThan(0);
    expect(a.coverage?.goodTuring).toBeLessThanOrEqual(1);
    const found = a.violations.find((v) => v.kind === 'foreign-release');
    expect(found).toBeDefined();
    expect(replayViolations('get-then-del', 'get-then-del', found?.schedule ?? '')).toContainEqual({ kind: 'foreign-release', step: (found?.steps ?? 0) - 1 });
    // A random walk never sees more states than exist: the full search's count bounds it.
    const all = explore({ scenario: getThenDel, bounds: { faults: oneStall }, stopAt: 'never' });
    expect(a.statesExplored).toBeLessThanOrEqual(all.statesExplored);
  });
});
