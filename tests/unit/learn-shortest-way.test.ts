// Goal: "Show me the shortest way" loads what the explorer finds for the challenge's goal, and
// that run meets the challenge. The search runs through the same explore service the page uses
// (here on the calling thread, in slices); its answer is the engine's own: the breadth-first
// explorer's shortest schedule of the goal's violation with the goal's clients, offender first.
// A goal with no violation to show (holding a fix) says it found none and loads nothing.
import { describe, expect, it } from 'vitest';
import { explore } from '../../src/engine/explore';
import { findScenario, SCENARIOS } from '../../src/scenarios';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import type { SimStore } from '../../src/ui/store/store-types';
import { explorerShortestWay } from '../../src/ui/store/shortest-way';
import { selectChallengeStatus } from '../../src/ui/store/slices/learn';
import { createInlineExploreService } from '../../src/ui/worker/explore-client';

function store(scenarioId: string, variantId: string): SimStore {
  return createSimStore({
    run: { scenarioId, variantId, cursor: 0 },
    shortestWay: explorerShortestWay(createInlineExploreService(), (id) => SCENARIOS.find((s) => s.id === id)),
  });
}

function searched(s: SimStore): Promise<void> {
  return new Promise((resolve) => {
    if (!s.getState().shortestWayPending) return resolve();
    const unsubscribe = s.subscribe((state) => {
      if (state.shortestWayPending) return;
      unsubscribe();
      resolve();
    });
  });
}

/** Steps forward through the loaded schedule to its end. */
function playToEnd(s: SimStore): void {
  const choices = s.getState().schedule.split(' ').filter((c) => c !== '').length;
  s.getState().seek(choices);
}

describe('show me the shortest way', () => {
  it('"make A delete B\'s lock": the explorer\'s shortest foreign release by A, loaded at step 0, meets the challenge', async () => {
    const s = store('get-then-del', 'get-then-del');
    s.getState().startChallenge('delete-b-lock');
    s.getState().showShortestWay();
    expect(s.getState().shortestWayPending).toBe(true);
    await searched(s);
    const expected = explore({ scenario: findScenario('get-then-del'), variantId: 'get-then-del', invariants: ['foreign-release'], offenders: ['A', 'B'], stopAt: 'first' });
    const way = expected.violations[0];
    expect(way.clients.slice(0, 2)).toEqual(['A', 'B']);
    expect({ schedule: s.getState().schedule, cursor: s.getState().cursor, missed: s.getState().shortestWayMissed }).toEqual({ schedule: way.schedule, cursor: 0, missed: false });
    expect(selectChallengeStatus(s.getState())).toMatchObject({ state: 'open' });
    playToEnd(s);
    expect(selectChallengeStatus(s.getState())).toEqual({ state: 'met', choices: way.steps });
    s.dispose();
  });

  it('the offender filter decides whose release is found: A\'s or B\'s', () => {
    const search = (offenders: readonly string[]) =>
      explore({ scenario: findScenario('get-then-del'), variantId: 'get-then-del', invariants: ['foreign-release'], offenders, stopAt: 'first' }).violations[0];
    expect(search(['A']).clients[0]).toBe('A');
    expect(search(['B']).clients[0]).toBe('B');
    expect(search(['B']).schedule).not.toBe(search(['A']).schedule);
  });

  it('"the watchdog cannot save A": a way is found with the challenge\'s longer pause and meets the challenge', async () => {
    const s = store('watchdog', 'renewal');
    s.getState().startChallenge('beat-the-watchdog');
    s.getState().showShortestWay();
    await searched(s);
    expect(s.getState().shortestWayMissed).toBe(false);
    playToEnd(s);
    expect(selectChallengeStatus(s.getState())).toMatchObject({ state: 'met' });
    s.dispose();
  });

  it('a challenge to hold a fix has no way to show: it says so and keeps the run', async () => {
    const s = store('get-then-del', 'lua');
    s.getState().startChallenge('lua-holds');
    const before = s.getState().schedule;
    s.getState().showShortestWay();
    await searched(s);
    expect(s.getState().shortestWayMissed).toBe(true);
    expect(s.getState().schedule).toBe(before);
    s.dispose();
  });
});
