import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import type { SimStore } from '../../src/ui/store/store-types';
import type { PlaybackTimers } from '../../src/ui/store/types';
import type { OutcomeReport, OutcomeRequest, OutcomeService } from '../../src/ui/worker/protocol';
import { computeOutcomes } from '../../src/ui/worker/outcomes';

// Goal: the store is a thin, faithful layer over the engine. Its actions give the same world as
// driving a Simulation directly, it publishes plain data that keeps its identity when unchanged
// (so one step re-renders only what moved), and playback is seeded and bounded.

const scenario = findScenario('get-then-del');

function load(schedule = scenario.defaultSchedule, variantId = 'get-then-del', cursor: number | null = null): SimStore {
  const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId, schedule, cursor } });
  return store;
}

/** Timers the test fires by hand: playback never depends on real time here. */
function manualTimers(): PlaybackTimers & { fire: () => void; active: () => boolean } {
  let callback: (() => void) | null = null;
  return {
    setInterval(cb) {
      callback = cb;
      return 1;
    },
    clearInterval() {
      callback = null;
    },
    fire() {
      callback?.();
    },
    active() {
      return callback !== null;
    },
  };
}

describe('sim store', () => {
  it('publishes what the engine computes for the headline story', () => {
    const store = load();
    const state = store.getState();
    const sim = new Simulation(scenario, { variantId: 'get-then-del' });
    sim.applySchedule(scenario.defaultSchedule);
    expect(state.cursor).toBe(sim.length);
    expect(state.nowMs).toBe(sim.nowMs);
    expect(state.schedule).toBe(scenario.defaultSchedule);
    expect(state.violations.map((v) => v.message)).toEqual(sim.violationsToCursor().map((v) => v.message));
    expect(state.violations[0]?.message).toBe("A deleted B's lock");
    expect(state.lock).toEqual(sim.lock());
    expect(state.events).toEqual(sim.allEvents());
  });

  it('teacher story by hand: step, stall, advance past the TTL, step B, step A', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', schedule: '' } });
    const s = () => store.getState();
    s().stepClient('A'); // SET NX PX, then 2 s of work
    s().stepClient('A'); // at t=2000: GET, then A stands before its DEL
    expect(s().clients[0].status).toBe('ready');
    s().stallClient('A', 5000); // a GC pause freezes A's process until t=7000
    expect(s().clients[0].stalledUntilMs).toBe(7000);
    s().jumpToNextExpiry(); // past A's lease: the key is gone
    expect(s().keys.find((k) => k.key === 'lock')?.change).toBe('expired');
    s().stepClient('B');
    expect(s().keys.find((k) => k.key === 'lock')?.tokenOwner).toBe('B');
    s().stepClient('A'); // waits for A's stall to end, then A's DEL
    expect(s().nowMs).toBe(7000);
    expect(s().violations.map((v) => v.violation)).toEqual(['foreign-release']);
    expect(s().schedule).toBe('A A A~5000 +3001 B A');
  });

  it('replays the same schedule when the variant changes, and keeps the position', () => {
    const store = load(scenario.defaultSchedule, 'get-then-del', 4);
    store.getState().selectVariant('lua');
    const s = store.getState();
    expect(s.variantId).toBe('lua');
    expect(s.schedule).toBe(scenario.defaultSchedule);
    expect(s.cursor).toBe(4);
    store.getState().stepForward();
    expect(store.getState().violations).toEqual([]);
    expect(store.getState().keys.find((k) => k.key === 'lock')?.tokenOwner).toBe('B');
  });

  it('keeps an unchanged client, lock and violation list as the same objects across a step', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', schedule: '' } });
    store.getState().stepClient('A');
    const before = store.getState();
    store.getState().stepClient('A');
    const after = store.getState();
    expect(after.clients[0]).not.toBe(before.clients[0]);
    expect(after.clients[1]).toBe(before.clients[1]);
    expect(after.violations).toBe(before.violations);
    expect(after.clientIds).toBe(before.clientIds);
    // Stepping back and forth does not change the timeline: the same events array is kept.
    store.getState().stepBack();
    expect(store.getState().events).toBe(after.events);
    expect(store.getState().timelineVersion).toBe(after.timelineVersion);
  });

  it('turns a choice that does not fit into a notice, and a schedule that does not fit into a refused load', () => {
    const store = load();
    store.getState().stepClient('A'); // A has finished at the end of the default story
    expect(store.getState().notice?.key).toBe('actionRefused');
    const result = store.getState().loadRun({ scenarioId: 'get-then-del', schedule: 'A A A A A A A' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.reason).toBe('schedule-does-not-fit');
    expect(store.getState().schedule).toBe(scenario.defaultSchedule);
  });

  it('loads the default run, and does not persist, when the requested run does not fit', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', schedule: 'A A A A A A A' } });
    const s = store.getState();
    expect(s.linkError?.reason).toBe('schedule-does-not-fit');
    expect(s.persistRun).toBe(false);
    expect(s.scenarioId).toBe(createSimStore().getState().scenarioId);
  });

  it('reports a saved run it cannot restore as saved work, keeping its whole text', () => {
    const garbage = 'not a run at all';
    const unreadable = createSimStore({ link: '', savedRun: { kind: 'unreadable', text: garbage } }).getState();
    expect(unreadable.linkError).toMatchObject({ reason: 'bad-format', savedText: garbage });
    expect(unreadable.persistRun).toBe(false);

    const unfitting = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A.A.A.A.A.A';
    const doesNotFit = createSimStore({ link: '', savedRun: { kind: 'hash', hash: unfitting } }).getState();
    expect(doesNotFit.linkError).toMatchObject({ reason: 'schedule-does-not-fit', savedText: unfitting });

    const unknown = '#/v1/no-such-lesson/x?seed=1&s=A';
    expect(createSimStore({ link: '', savedRun: { kind: 'hash', hash: unknown } }).getState().linkError).toMatchObject({
      reason: 'unknown-scenario',
      savedText: unknown,
    });

    // A link someone opened is a link error, not saved work, and the saved run is not touched.
    const fromLink = createSimStore({ link: unfitting, savedRun: { kind: 'hash', hash: '#/v1/get-then-del/lua?seed=1&s=A' } }).getState();
    expect(fromLink.linkError?.reason).toBe('schedule-does-not-fit');
    expect(fromLink.linkError?.savedText).toBeUndefined();

    const restored = createSimStore({ link: '', savedRun: { kind: 'hash', hash: '#/v1/get-then-del/lua?seed=1&s=A' } }).getState();
    expect(restored.linkError).toBeNull();
    expect([restored.scenarioId, restored.variantId, restored.schedule]).toEqual(['get-then-del', 'lua', 'A']);
  });

  it('autoplay replays the recorded future, then continues with a seeded random policy, bounded', () => {
    const runOnce = () => {
      const timers = manualTimers();
      const store = createSimStore({ run: { scenarioId: 'get-then-del', schedule: 'A', cursor: 0 }, timers, autoplayStepCountMax: 4 });
      store.getState().play();
      for (let tick = 0; tick < 10 && timers.active(); tick++) timers.fire();
      return store.getState();
    };
    const first = runOnce();
    expect(first.playing).toBe(false);
    expect(first.schedule.split(' ')[0]).toBe('A');
    expect(first.length).toBeLessThanOrEqual(4);
    expect(first.notice?.key === 'autoplayBound' || first.notice?.key === 'runFinished').toBe(true);
    expect(runOnce().schedule).toBe(first.schedule);
  });

  it('asks the outcome service for every variant under the current schedule', async () => {
    const requests: OutcomeRequest[] = [];
    const service: OutcomeService = {
      request(request, onReport) {
        requests.push(request);
        queueMicrotask(() => onReport(computeOutcomes(request, 'page')));
      },
      dispose() {},
    };
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', schedule: scenario.defaultSchedule }, outcomes: service });
    await Promise.resolve();
    await Promise.resolve();
    const report = store.getState().outcomes as OutcomeReport;
    expect(requests.at(-1)?.schedule).toBe(scenario.defaultSchedule);
    const byId = Object.fromEntries(report.outcomes.map((o) => [o.variantId, o]));
    expect(byId['get-then-del'].violations.map((v) => v.kind)).toContain('foreign-release');
    expect(byId.lua.violations).toEqual([]);
    // A's release (its second step: GET against the script) is where the outcomes part ways.
    expect(byId.lua.firstDivergentStep).toBe(1);
    expect(report.commandCount).toBeGreaterThan(0);
  });

  it('publishes the run as an append-only log: a step appends to the same array, a fork starts a new generation', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', schedule: '' } });
    const s = () => store.getState();
    s().stepClient('A');
    const first = s().runLog;
    const seen = first.events.slice(0, first.eventCount);
    s().stepClient('B');
    const second = s().runLog;
    expect(second).not.toBe(first);
    expect(second.generation).toBe(first.generation);
    expect(second.events).toBe(first.events); // not a copy
    expect(second.eventCount).toBeGreaterThan(first.eventCount);
    expect(second.events.slice(0, seen.length)).toEqual(seen);
    expect(s().events).toBe(second.events);
    expect(second.events.slice(0, second.eventCount)).toEqual(store.simulation().allEvents());
    expect(s().schedule).toBe('A B');

    // Moving the cursor publishes the same log.
    s().stepBack();
    expect(s().runLog).toBe(second);
    expect(s().eventCountToCursor).toBe(first.eventCount);
    expect(s().lastStepEvents).toEqual(store.simulation().eventsOfStep(0));

    // A new choice in the past cuts the future: a new generation, rebuilt from the engine.
    s().advanceClock(5);
    const forked = s().runLog;
    expect(forked.generation).toBe(second.generation + 1);
    expect(forked.events).not.toBe(second.events);
    expect(forked.events.slice(0, forked.eventCount)).toEqual(store.simulation().allEvents());
    expect(s().schedule).toBe('A +5');
    expect(second.events.slice(0, seen.length)).toEqual(seen); // the old generation is left as it was
  });
});
