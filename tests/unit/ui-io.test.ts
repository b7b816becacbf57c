// Goal: the page's import / export and links that carry a scenario, as a user meets them. Export
// then import lands the scenario in My scenarios and opens the same run; a name clash asks and each
// answer does what it says; a bad file or link explains itself and changes nothing; an edited
// scenario's link opens that scenario on another page; a run exports as the same regression tests
// the committed examples hold; and huge input (a 1 MB value, 10,000 keys, a 5,000-step schedule) is
// handled within its bounds.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { definitionOfScenario, parseDefinition, type ScenarioDefinition } from '../../src/definition';
import { findScenario } from '../../src/scenarios';
import { memoryMyScenarioStorage } from '../../src/ui/share/my-scenarios-storage';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import type { SimStore } from '../../src/ui/store/store-types';
import { readMyScenarios } from '../../src/ui/store/my-scenarios';
import { selectRunHash } from '../../src/ui/store/selectors';
import { regressionExampleFiles } from '../../scripts/regression-examples';

function page(text: string | null = null, link?: string) {
  const storage = memoryMyScenarioStorage(text);
  const store = createSimStore({ run: { scenarioId: 'get-then-del' }, myScenarioStorage: storage, ...(link === undefined ? {} : { link }) });
  return { storage, store };
}

async function settled(store: SimStore) {
  await store.getState().ioLinkSettled();
  for (let i = 0; i < 50 && store.getState().ioLinkPending; i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

const runOf = (store: SimStore) => {
  const s = store.getState();
  return { scenarioId: s.scenarioId, variantId: s.variantId, seed: s.seed, schedule: s.schedule };
};

describe('import / export: files', () => {
  it('exports the run on screen and imports it into My scenarios, opened with the same run', async () => {
    const first = page();
    first.store.getState().selectVariant('lua');
    first.store.getState().setSeed(42);
    const file = await first.store.getState().ioScenarioFile();
    expect(file?.fileName).toBe('lockstep-get-then-del.json');

    const second = page();
    await second.store.getState().ioImportText(file?.text ?? '', 'lockstep-get-then-del.json');
    expect(second.store.getState().ioImport.status).toBe('imported');
    expect(second.store.getState().myScenarios.map((m) => m.name)).toEqual(["GET then DEL: releasing someone else's lock"]);
    expect(runOf(second.store)).toEqual({ ...runOf(first.store), scenarioId: 'my-1' });
    expect(second.store.getState().violations).toEqual([]);
  });

  it('asks on a name clash: cancel changes nothing, keep both renames, replace replaces', async () => {
    const { store, storage } = page();
    const file = (await store.getState().ioScenarioFile())?.text ?? '';
    await store.getState().ioImportText(file, 'a.json');
    const stored = storage.text;
    await store.getState().ioImportText(file, 'a.json');
    expect(store.getState().ioImport).toMatchObject({ status: 'clash', name: "GET then DEL: releasing someone else's lock" });
    await store.getState().ioResolveClash('cancel');
    expect(storage.text).toBe(stored);
    await store.getState().ioImportText(file, 'a.json');
    await store.getState().ioResolveClash('keep');
    expect(store.getState().myScenarios.map((m) => m.name)).toEqual(["GET then DEL: releasing someone else's lock", "GET then DEL: releasing someone else's lock (2)"]);
    const changed = JSON.parse(file) as { run: { schedule: string } };
    changed.run.schedule = 'A';
    await store.getState().ioImportText(JSON.stringify(changed), 'b.json');
    await store.getState().ioResolveClash('replace');
    const entries = readMyScenarios(storage.text).entries;
    expect(entries.map((e) => [e.id, e.schedule])).toEqual([['my-1', 'A'], ['my-2', 'A A A~5000 +4000 B +1000']]);
  });

  it('a broken file lists every problem with its path; the run and saved work stay', async () => {
    const { store, storage } = page();
    store.getState().stepClient('A');
    const before = runOf(store);
    const file = JSON.parse((await store.getState().ioScenarioFile())?.text ?? '') as Record<string, unknown>;
    const broken = { ...file, run: { variant: 'lua', seed: 'one', schedule: 'A' }, extra: '<img src=x onerror=alert(1)>' };
    await store.getState().ioImportText(JSON.stringify(broken), 'broken.json');
    expect(store.getState().ioImport.status).toBe('invalid');
    expect(store.getState().ioImport.problems.map((p) => p.path).sort()).toEqual(['extra', 'run.seed']);
    await store.getState().ioImportText('{"format":"lockstep-scenario"', 'cut.json');
    expect(store.getState().ioImport.problems[0].message).toMatch(/^not valid JSON/);
    // A schedule that parses but does not fit the run: refused whole, never half loaded.
    await store.getState().ioImportText(JSON.stringify({ ...file, run: { variant: 'lua', seed: 1, schedule: 'A A A A A A A A A A A A' } }), 'long.json');
    expect(store.getState().ioImport.problems[0].path).toBe('run.schedule');
    expect(runOf(store)).toEqual(before);
    expect(storage.text).toBeNull();
  });
});

describe('links that carry the scenario', () => {
  it('an edited scenario\'s link opens the edited scenario on another page; a lesson\'s link stays as it was', async () => {
    const { store } = page();
    expect(selectRunHash(store.getState())).not.toContain('def=');
    await store.getState().applyParam('ttl', '3000');
    await settled(store);
    expect(store.getState().ioLink.status).toBe('ready');
    const hash = selectRunHash(store.getState());
    expect(hash).toMatch(/^#\/v1\/get-then-del-edited\/get-then-del\?seed=1&s=.*&def=[A-Za-z0-9_-]+$/);

    const other = page(null, hash);
    await settled(other.store);
    expect(other.store.getState().linkError).toBeNull();
    expect(runOf(other.store)).toEqual(runOf(store));
    expect(other.store.getState().runInfo.programs).toEqual(store.getState().runInfo.programs);
    expect(selectRunHash(other.store.getState())).toBe(hash);
  });

  it('a broken link opened in a tab at work explains itself and keeps the run on screen', async () => {
    const { store } = page();
    store.getState().stepClient('A');
    const before = runOf(store);
    store.getState().openLink('#/v1/get-then-del-edited/lua?seed=1&s=A&def=AAAA');
    await settled(store);
    expect(store.getState().linkError).toMatchObject({ reason: 'bad-definition', keptCurrent: true });
    expect(runOf(store)).toEqual(before);
  });

  it('a broken link at startup shows the default run, not saved over the reader\'s work', async () => {
    const { store } = page(null, '#/v1/x/y?seed=1&s=&def=%%%');
    await settled(store);
    expect(store.getState().linkError?.reason).toBe('bad-definition');
    expect(store.getState().persistRun).toBe(false);
  });
});

describe('export as a regression test', () => {
  it('the page exports exactly the committed examples, and they are what the generator makes now', async () => {
    const files = await regressionExampleFiles();
    for (const file of files) expect(readFileSync(file.path, 'utf8'), `${file.path}: run npm run examples:regression`).toBe(file.text);
    const { store } = page();
    store.getState().loadRun({ scenarioId: 'get-then-del', variantId: 'get-then-del', cursor: null });
    const vitest = await store.getState().ioRegressionTest('vitest');
    const playwright = await store.getState().ioRegressionTest('playwright');
    expect([vitest?.fileName, playwright?.fileName]).toEqual(['get-then-del.test.ts', 'get-then-del.spec.ts']);
    expect([vitest?.text, playwright?.text]).toEqual(files.map((f) => f.text));
  });
});

describe('huge input', () => {
  // A script that writes 10,000 keys and a 1 MB value (Lua's string.rep), then the run goes on.
  const heavy = (): ScenarioDefinition => {
    const d = definitionOfScenario(findScenario('get-then-del'));
    return {
      ...d,
      id: 'heavy',
      scripts: { ...d.scripts, fill: { source: "for i = 1, 10000 do redis.call('SET', 'k:' .. i, i) end\nredis.call('SET', 'big', string.rep('x', 1048576))\nreturn 1" } },
      variants: [{ ...d.variants[0], clients: [{ id: 'A', program: [{ op: 'eval', script: 'fill', keys: [], args: [] }, { op: 'work', durationMs: 1 }, { op: 'goto', goto: 'again', label: 'again' }] }, d.variants[0].clients[1]] }],
    };
  };

  it('a 1 MB value and 10,000 keys: the inspector gets every key, each value cut for display', () => {
    const s = createSimStore();
    const definition = heavy();
    const result = s.getState().loadRun({ scenarioId: 'heavy', schedule: 'A', cursor: null, custom: { definition, scenario: definitionScenario(definition) } });
    expect(result).toEqual({ ok: true });
    const keys = s.getState().keys;
    expect(keys.length).toBe(10_001);
    const big = keys.find((k) => k.key === 'big');
    expect(big?.text.length).toBeLessThan(1_000);
  });

  it('a 5,000-step typed schedule replays, and one past the 10,000-choice bound is refused with a message', () => {
    const { store } = page();
    const steps = ['A', 'B', ...Array.from({ length: 4_998 }, () => '+1')].join(' ');
    store.getState().applyScheduleText(steps);
    expect(store.getState().workbench.scheduleProblem).toBeNull();
    expect(store.getState().length).toBe(5_000);
    store.getState().applyScheduleText(Array.from({ length: 10_001 }, () => '+1').join(' '));
    expect(store.getState().workbench.scheduleProblem?.message).toMatch(/10000/);
    expect(store.getState().length).toBe(5_000);
  });
});

function definitionScenario(definition: ScenarioDefinition) {
  const parsed = parseDefinition(definition);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.scenario;
}
