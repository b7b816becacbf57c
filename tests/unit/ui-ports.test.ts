// Goal: each feature reaches the run through its declared port (store/ports.ts), and a run change
// reaches the features inside the update that made it: a step that meets a challenge, a run that
// brings a definition, a lesson switch, each is one store update (learn and io used to listen to
// the whole store and write a second one). The feed and the slices are checked headless too,
// over fake ports, so a feature needs nothing of the store but its port.
import { describe, expect, it } from 'vitest';
import { parseDefinition } from '../../src/definition';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import type { ComparePort, ConsoleChoice, ConsolePort, RunChange, RunIdentity, SliceStore } from '../../src/ui/store/ports';
import { createRunFeed, type RunFields } from '../../src/ui/store/run-feed';
import { createCompareSlice } from '../../src/ui/store/slices/compare';
import { createConsoleSlice } from '../../src/ui/store/slices/console';
import { createNodeFaultsSlice } from '../../src/ui/store/slices/node-faults';
import type { SimStore } from '../../src/ui/store/store-types';
import type { LoadResult, RunSpec } from '../../src/ui/store/types';
import type { OutcomeReport, VariantOutcome } from '../../src/ui/worker/protocol';

/** Calls `action` and returns how many store updates it made (Zustand's subscribe calls). */
function updatesOf(store: SimStore, action: () => void): number {
  let updates = 0;
  const stop = store.subscribe(() => updates++);
  action();
  stop();
  return updates;
}

/** A slice's own state in a plain holder: what the store gives a feature, without Zustand. */
function holder<S>(create: (store: SliceStore<S>) => S): { store: SliceStore<S>; state: () => S } {
  let state = undefined as unknown as S;
  const store: SliceStore<S> = { get: () => state, set: (patch) => void (state = { ...state, ...patch }) };
  state = create(store);
  return { store, state: () => state };
}

const identity: RunIdentity = { scenarioId: 'get-then-del', variantId: 'get-then-del', seed: 1, schedule: 'A B', cursor: 2, definition: null };

describe('one store update per run change', () => {
  it('a step that meets the challenge records it in the same update', () => {
    const store = createSimStore();
    store.getState().selectScenario('get-then-del');
    store.getState().startChallenge('delete-b-lock');
    const tokens = ['A', 'A', 'A~5000', '+4000', 'B', '+1000'];
    const perStep = tokens.map((token) => updatesOf(store, () => store.getState().appendScheduleText(token)));
    expect(store.getState().schedule).toBe('A A A~5000 +4000 B +1000');
    expect(store.getState().progress.lessons['get-then-del']?.met['delete-b-lock']).toBe(6);
    expect(perStep).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('a lesson switch leaves the old challenge and clears the predictions in the same update', () => {
    const store = createSimStore();
    store.getState().selectScenario('get-then-del');
    store.getState().startChallenge('delete-b-lock');
    store.getState().answerQuestion(0, 'A');
    const seen: { scenarioId: string; challengeId: string | null; predictions: object }[] = [];
    const stop = store.subscribe((s) => seen.push({ scenarioId: s.scenarioId, challengeId: s.challengeId, predictions: s.predictions }));
    store.getState().selectScenario('watchdog');
    stop();
    // The run's own update carries all of it (selectScenario then writes `persistRun` on its own).
    expect(seen[0]).toEqual({ scenarioId: 'watchdog', challengeId: null, predictions: {} });
    expect(seen.every((s) => s.challengeId === null)).toBe(true);
    expect(store.getState().progress.lessons.watchdog?.visited).toBe(true);
  });

  it('a run from a definition brings its link state (encoding) in the same update, then the payload', async () => {
    const parsed = parseDefinition({
      version: 1,
      id: 'mine',
      title: 'Mine',
      defaultSchedule: 'A',
      variants: [{ id: 'only', clients: [{ id: 'A', program: [{ op: 'command', argv: ['SET', 'lock', '${token}', 'NX', 'PX', '5000'] }] }] }],
    });
    if (!parsed.ok) throw new Error('the definition should parse');
    const store = createSimStore();
    const seen: { scenarioId: string; link: string }[] = [];
    const stop = store.subscribe((s) => seen.push({ scenarioId: s.scenarioId, link: s.ioLink.status }));
    const result = store.getState().loadRun({ scenarioId: 'mine', custom: { scenario: parsed.scenario, definition: parsed.definition } });
    stop();
    expect(result).toEqual({ ok: true });
    expect(seen).toEqual([{ scenarioId: 'mine', link: 'encoding' }]);
    await store.getState().ioLinkSettled();
    expect(store.getState().ioLink).toMatchObject({ status: 'ready', scenarioId: 'mine' });
  });

  it('a run published through the store itself (as a session client does) is followed inside that update', () => {
    const store = createSimStore();
    store.getState().selectScenario('get-then-del');
    store.getState().answerQuestion(0, 'A');
    const { timelineVersion } = store.getState();
    expect(updatesOf(store, () => store.setState({ variantId: 'lua', timelineVersion: timelineVersion + 1 }))).toBe(1);
    expect(store.getState().predictions).toEqual({});
  });

  it('a notice alone is no run change: nobody follows it', () => {
    const store = createSimStore();
    const before = store.getState().progress;
    expect(updatesOf(store, () => store.getState().dismissNotice())).toBe(1);
    expect(store.getState().progress).toBe(before);
  });
});

describe('the run feed', () => {
  type State = RunFields & { readonly notes: readonly string[] };
  function feedOver(initial: State) {
    let state = initial;
    let updates = 0;
    const set = (partial: State | Partial<State> | ((s: State) => State | Partial<State>)) => {
      state = { ...state, ...(typeof partial === 'function' ? partial(state) : partial) };
      updates++;
    };
    const feed = createRunFeed<State>(set, () => state, () => null);
    return { feed, state: () => state, updates: () => updates };
  }
  const start: State = { scenarioId: 's', variantId: 'v', seed: 1, schedule: '', cursor: 0, timelineVersion: 0, notes: [] };

  it('delivers a change inside the update: what a listener writes joins it, and it sees the new run', () => {
    const { feed, state, updates } = feedOver(start);
    const changes: RunChange[] = [];
    feed.onRunChanged((change) => {
      changes.push(change);
      feed.set({ notes: [...feed.current().notes, `at ${feed.current().cursor}`] });
    });
    feed.runSet({ cursor: 1, schedule: 'A', timelineVersion: 1 });
    expect(updates()).toBe(1);
    expect(state()).toMatchObject({ cursor: 1, notes: ['at 1'] });
    expect(changes).toEqual([{ before: { scenarioId: 's', variantId: 'v', seed: 1, schedule: '', cursor: 0, definition: null }, after: { scenarioId: 's', variantId: 'v', seed: 1, schedule: 'A', cursor: 1, definition: null } }]);
  });

  it('stays quiet when the run did not move, and stops after unsubscribe', () => {
    const { feed } = feedOver(start);
    let heard = 0;
    const stop = feed.onRunChanged(() => heard++);
    feed.runSet({ notes: ['a notice'] });
    expect(heard).toBe(0);
    feed.runSet({ timelineVersion: 1 }); // The same identity, a replaced timeline: a change.
    expect(heard).toBe(1);
    stop();
    feed.runSet({ cursor: 3 });
    expect(heard).toBe(1);
  });
});

describe('feature slices over fake ports', () => {
  it('compare: replays the run on screen, then loads a variant at its divergence and closes the explorer, only when it loaded', () => {
    const loads: RunSpec[] = [];
    let closed = 0;
    let answer: LoadResult = { ok: false, error: { reason: 'bad-schedule', detail: 'no' } };
    const port: ComparePort = {
      run: () => identity,
      scenario: () => {
        throw new Error('a built-in run needs no scenario object');
      },
      loadRun: (spec) => {
        loads.push(spec);
        return answer;
      },
      closeExplorer: () => void closed++,
      // The session has answered everything (a store in this thread): at once.
      whenSettled: (then) => then(),
    };
    const outcome = { variantId: 'lua', divergence: { step: 1 }, violations: [], stepsApplied: 2 } as unknown as VariantOutcome;
    const report = { id: 1, scenarioId: 'get-then-del', seed: 1, schedule: 'A B', baseVariantId: 'get-then-del', outcomes: [outcome], ranIn: 'page', commandCount: 0 } satisfies OutcomeReport;
    const compare = holder(createCompareSlice(port, { comparer: { request: (_request, done) => done(report), dispose() {} } }));
    compare.state().compareVariants();
    expect(compare.state().compare).toMatchObject({ status: 'done', scenarioId: 'get-then-del', schedule: 'A B', baseVariantId: 'get-then-del' });
    compare.state().loadCompareVariant('lua');
    expect(closed).toBe(0);
    answer = { ok: true };
    compare.state().loadCompareVariant('lua');
    expect(closed).toBe(1);
    expect(loads.map((l) => [l.variantId, l.schedule, l.cursor, l.cutToFit])).toEqual([
      ['lua', 'A B', 2, true],
      ['lua', 'A B', 2, true],
    ]);
  });

  it('node faults: each action writes its schedule token through the port', () => {
    const texts: string[] = [];
    const faults = createNodeFaultsSlice({ appendScheduleText: (text) => void texts.push(text), faultRefusal: () => null })();
    faults.partitionLink('A', 'r1');
    faults.jumpNodeClock('r2', -500);
    faults.loseNextMessage('B', 'r1', 'reply');
    expect(texts).toEqual(['A/@r1', '@r2-500', '@r1-B']);
  });

  it('console: a refused line is a note and applies nothing; a good one applies one console choice at the node chosen', async () => {
    const applied: ConsoleChoice[] = [];
    const port: ConsolePort = {
      run: () => identity,
      nodes: () => [{ id: 'r1' }, { id: 'r2' }],
      // The engine refuses SHUTDOWN (and the refused choice never applies); the port answers at once, as in this thread.
      apply: (choice, refused) => (choice.argv[0] === 'SHUTDOWN' ? refused('ERR not here') : void applied.push(choice)),
    };
    const consoleSlice = holder(createConsoleSlice(port));
    consoleSlice.state().setConsoleNode('r2');
    expect(await consoleSlice.state().consoleRun('SHUTDOWN')).toMatchObject({ kind: 'note', note: { kind: 'refused', message: 'ERR not here', step: 2, run: 'get-then-del/get-then-del/1' } });
    expect(applied).toEqual([]);
    expect(await consoleSlice.state().consoleRun('GET lock')).toEqual({ kind: 'ran', step: 2 });
    expect(applied).toEqual([{ kind: 'console', argv: ['GET', 'lock'], nodeId: 'r2' }]);
    expect(consoleSlice.state().consoleHistory).toEqual(['SHUTDOWN', 'GET lock']);
  });
});
