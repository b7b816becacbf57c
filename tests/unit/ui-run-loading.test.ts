// Goal: the page's store shows a scenario it has not loaded yet (a link, the picker) with a
// loading state and then the run, never acting on the stand-in run meanwhile: a step, play or a
// variant change asked for while loading is refused with a notice saying why, and a later choice
// replaces a pending load. Before everything is loaded, `loadRun` answers `not-ready` and changes
// nothing (what `lockstep.load` answers before `ready`).
import { describe, expect, it, vi } from 'vitest';
import { findScenario, SCENARIOS } from '../../src/scenarios';
import { definitionOfScenario, parseDefinition } from '../../src/definition';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { deferredLibrary } from './support/deferred-library';

const first = SCENARIOS[0].id;

describe('a scenario the page has not loaded', () => {
  it('opens from a link after a loading state, refusing actions on the stand-in run meanwhile', () => {
    const library = deferredLibrary({ manual: true });
    const store = createSimStore({ library, link: '#/v1/get-then-del/lua?seed=7&s=A.A&at=1' });
    const loading = store.getState().runLoading;
    expect(loading).toEqual({ scenarioId: 'get-then-del', title: findScenario('get-then-del').title });
    expect(store.getState().scenarioId).toBe(first); // the stand-in, not shown

    const before = store.getState().schedule;
    store.getState().stepClient('A');
    expect(store.getState().schedule).toBe(before);
    expect(store.getState().notice).toMatchObject({ key: 'runStillLoading', params: { title: findScenario('get-then-del').title.en } });
    store.getState().play();
    expect(store.getState().playing).toBe(false);
    store.getState().selectVariant(SCENARIOS[0].variants[1].id);
    expect(store.getState().variantId).toBe(SCENARIOS[0].defaultVariant);

    library.release();
    return vi.waitFor(() => {
      const s = store.getState();
      expect(s.runLoading).toBeNull();
      expect([s.scenarioId, s.variantId, s.seed, s.schedule, s.cursor]).toEqual(['get-then-del', 'lua', 7, 'A A', 1]);
      expect(s.notice).toBeNull();
      expect(s.persistRun).toBe(true);
    });
  });

  it('refuses a link that does not fit once its scenario has loaded, as it would at once', async () => {
    const library = deferredLibrary();
    const store = createSimStore({ library, link: '#/v1/get-then-del/nope?seed=1' });
    expect(store.getState().runLoading).not.toBeNull();
    await vi.waitFor(() => expect(store.getState().runLoading).toBeNull());
    expect(store.getState().linkError).toMatchObject({ reason: 'unknown-variant', detail: 'nope' });
    expect(store.getState().scenarioId).toBe(first);
    expect(store.getState().persistRun).toBe(false);
  });

  it('loads a lesson picked before it was loaded; a later pick replaces a pending one', async () => {
    const library = deferredLibrary({ manual: true });
    const store = createSimStore({ library });
    store.getState().selectScenario('watchdog');
    expect(store.getState().runLoading?.scenarioId).toBe('watchdog');
    store.getState().selectScenario('get-then-del');
    expect(store.getState().runLoading?.scenarioId).toBe('get-then-del');
    library.release();
    await vi.waitFor(() => expect(store.getState().scenarioId).toBe('get-then-del'));
    expect(store.getState().runLoading).toBeNull();
    // The first lesson is always there: picking it drops a pending load at once.
    store.getState().selectScenario('cache-breakdown');
    store.getState().selectScenario(first);
    expect(store.getState().runLoading).toBeNull();
    expect(store.getState().scenarioId).toBe(first);
    library.release();
    await Promise.resolve();
    expect(store.getState().scenarioId).toBe(first);
  });

  it('answers not-ready and changes nothing, before the scenario or the Lua engine has loaded', () => {
    const library = deferredLibrary({ manual: true });
    const store = createSimStore({ library });
    const before = store.getState().schedule;
    expect(store.getState().loadRun({ scenarioId: 'get-then-del' })).toEqual({ ok: false, error: { reason: 'not-ready', detail: 'get-then-del' } });
    expect(store.getState().loadRun({ scenarioId: 'no-such-lesson' })).toMatchObject({ ok: false, error: { reason: 'unknown-scenario' } });
    // A definition that evaluates scripts needs the Lua engine too.
    const parsed = parseDefinition(definitionOfScenario(findScenario('get-then-del')));
    if (!parsed.ok) throw new Error('definition');
    const custom = { scenario: parsed.scenario, definition: parsed.definition };
    expect(store.getState().loadRun({ scenarioId: parsed.scenario.id, custom })).toMatchObject({ ok: false, error: { reason: 'not-ready' } });
    expect(store.getState().scenarioId).toBe(first);
    expect(store.getState().schedule).toBe(before);
  });

  it('says so when a scenario cannot be loaded, and stays on the run it has', async () => {
    const library = deferredLibrary({ manual: true });
    const store = createSimStore({ library });
    store.getState().selectScenario('watchdog');
    library.fail('offline');
    await vi.waitFor(() => expect(store.getState().runLoading).toBeNull());
    expect(store.getState().notice).toMatchObject({ key: 'scenarioLoadFailed', params: { detail: 'offline' } });
    expect(store.getState().scenarioId).toBe(first);
  });
});
