import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import type { SimState, SimStore, SimStoreInit } from '../../src/ui/store/store-types';
import { createWorkerSessionHost, type SessionWorker } from '../../src/ui/store/worker-session-host';
import type { EngineJob } from '../../src/ui/worker/engine-worker-protocol';
import { createSessionJob } from '../../src/ui/worker/session-job';
import type { SessionReply } from '../../src/session/wire';
import { runs } from '../support/size';

// Goal: the page's run session in the engine worker is the same run as in this thread. A store
// whose session moved into a worker (here one that answers later, with structured clones, as a
// Web Worker does) publishes what a store with the session in this thread publishes, after any
// sequence of actions; and Stop ends a long request and keeps the run it had.

interface FakeWorker extends SessionWorker {
  /** Requests held back (not answered) while `hold` is on. */
  hold: boolean;
  readonly held: EngineJob[];
  terminated: boolean;
}

/** A worker in this thread: each request answered on a later task, as a structured clone. */
function fakeWorker(): FakeWorker {
  const job = createSessionJob();
  const worker: FakeWorker = {
    onmessage: null,
    onerror: null,
    hold: false,
    held: [],
    terminated: false,
    postMessage(message: EngineJob) {
      if (message.job !== 'session') throw new Error(`unexpected job ${message.job}`);
      if (worker.hold) return void worker.held.push(message);
      const request = structuredClone(message.body);
      setTimeout(() => {
        if (worker.terminated) return;
        job(request, (reply) => worker.onmessage?.({ data: structuredClone(reply) } as MessageEvent<SessionReply>));
      }, 0);
    },
    terminate() {
      worker.terminated = true;
    },
  };
  return worker;
}

const timers = { setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms), clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>) };

async function movedStore(run: NonNullable<SimStoreInit['run']>, workers: FakeWorker[] = []): Promise<SimStore> {
  const store = createSimStore({ run });
  const moved = await store.moveSession(
    createWorkerSessionHost(() => {
      const worker = fakeWorker();
      workers.push(worker);
      return worker;
    }, timers),
  );
  expect(moved).toBe(true);
  return store;
}

/** What a reader of the store sees of the run. */
function seen(s: SimState) {
  return {
    run: [s.scenarioId, s.variantId, s.seed, s.schedule, s.cursor, s.length, s.nowMs, s.finished, s.onDefaultPath, s.nextExpiryAtMs, s.eventCountToCursor],
    events: s.runLog.events.slice(0, s.runLog.eventCount),
    lanes: s.clientIds.map((id) => s.runLog.projection.lane(id)),
    locks: s.runLog.projection.lockIntervals,
    clients: s.clients,
    keys: s.keys,
    lock: s.lock,
    violations: s.violations,
    lastStepEvents: s.lastStepEvents,
    nodes: s.nodes,
    faultRefusals: s.faultRefusals,
    runInfo: s.runInfo,
    notice: s.notice,
  };
}

type Action = (s: SimState) => void;
const actions: Record<string, Action> = {
  stepA: (s) => s.stepClient('A'),
  stepB: (s) => s.stepClient('B'),
  runA: (s) => s.runToNextCommand('A'),
  stallA: (s) => s.stallClient('A', 5000),
  crashB: (s) => s.crashClient('B'),
  advance: (s) => s.advanceClock(4000),
  expiry: (s) => s.jumpToNextExpiry(),
  back: (s) => s.stepBack(),
  forward: (s) => s.stepForward(),
  seek1: (s) => s.seek(1),
  variant: (s) => {
    const variants = s.scenarios.find((entry) => entry.id === s.scenarioId)?.variants ?? [];
    const at = variants.findIndex((v) => v.id === s.variantId);
    s.selectVariant(variants[(at + 1) % variants.length].id);
  },
  seed: (s) => s.setSeed(s.seed + 1),
  fault: (s) => s.appendScheduleText('!@r1'),
  badText: (s) => s.appendScheduleText('A B ?'),
};

describe('the run session in a worker', () => {
  it('publishes what the session in this thread publishes, after any actions (fast-check seed 20261205)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('get-then-del', 'failover-before-replication'), fc.array(fc.constantFrom(...Object.keys(actions)), { maxLength: 12 }), async (scenarioId, names) => {
        const here = createSimStore({ run: { scenarioId } });
        const there = await movedStore({ scenarioId });
        expect(seen(there.getState())).toEqual(seen(here.getState()));
        for (const name of names) {
          actions[name](here.getState());
          actions[name](there.getState());
          await there.getState().sessionIdle();
          expect(seen(there.getState()), name).toEqual(seen(here.getState()));
        }
        there.dispose();
        here.dispose();
      }),
      { seed: 20261205, numRuns: runs(40) },
    );
  });

  it('loads a run later, and says how it ended once the worker answered', async () => {
    const store = await movedStore({ scenarioId: 'get-then-del' });
    const settled = store.getState().loadRunSettled({ scenarioId: 'get-then-del', variantId: 'lua', schedule: 'A A B', cursor: null });
    expect(await settled).toEqual({ ok: true });
    expect(store.getState()).toMatchObject({ variantId: 'lua', schedule: 'A A B', cursor: 3 });
    // Refused here at once (no replay needed), and refused by the worker's replay: nothing changes.
    expect(store.getState().loadRun({ scenarioId: 'get-then-del', variantId: 'nope' })).toMatchObject({ ok: false, error: { reason: 'unknown-variant' } });
    expect(await store.getState().loadRunSettled({ scenarioId: 'get-then-del', schedule: 'A A A A A A A A A A A A' })).toMatchObject({ ok: false, error: { reason: 'schedule-does-not-fit' } });
    expect(store.getState()).toMatchObject({ variantId: 'lua', schedule: 'A A B', cursor: 3 });
    store.dispose();
  });

  it('Stop ends a request that has not answered: the run is the one before, in a new worker that steps it', async () => {
    const workers: FakeWorker[] = [];
    const store = await movedStore({ scenarioId: 'get-then-del', schedule: 'A A', cursor: 1 }, workers);
    const before = seen(store.getState());
    workers[0].hold = true;
    const load = store.getState().loadRunSettled({ scenarioId: 'get-then-del', schedule: 'A A A A' });
    store.getState().stepClient('B');
    // The worker is busy past the threshold: the page offers Stop.
    await expect.poll(() => store.getState().sessionBusy).toBe(true);
    store.getState().stopSession();
    expect(await load).toMatchObject({ ok: false, error: { reason: 'stopped' } });
    await store.getState().sessionIdle();
    expect(workers[0].terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(store.getState().sessionBusy).toBe(false);
    expect({ ...seen(store.getState()), notice: null }).toEqual({ ...before, notice: null });
    expect(store.getState().notice?.key).toBe('sessionStopped');
    store.getState().stepClient('B');
    await store.getState().sessionIdle();
    expect(store.getState()).toMatchObject({ schedule: 'A B', cursor: 2 });
    store.dispose();
  });

  it('a console line the engine refuses changes nothing and becomes a note, once the worker answered', async () => {
    const store = await movedStore({ scenarioId: 'get-then-del', schedule: 'A A', cursor: 1 });
    await store.getState().consoleRun('SHUTDOWN');
    await store.getState().sessionIdle();
    expect(store.getState()).toMatchObject({ schedule: 'A A', cursor: 1 });
    expect(store.getState().consoleNotes.at(-1)).toMatchObject({ kind: 'refused', input: 'SHUTDOWN' });
    store.dispose();
  });
});
