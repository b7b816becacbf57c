import { describe, expect, it } from 'vitest';
import { explore } from '../../src/engine/explore';
import { findScenario } from '../../src/scenarios';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import type { SimStore } from '../../src/ui/store/store-types';
import { createInlineExploreService } from '../../src/ui/worker/explore-client';
import { definitionOfScenario } from '../../src/definition';

// Goal: "Find a race" through the store gives the engine's own answer. The form starts from the
// scenario's declared bounds; a search (here on the page's thread, in slices, as the worker runs
// it) ends with the same result as explore() with the same bounds and loads the shortest violating
// run at step 0; refused bounds say why and search nothing; a cancelled search says so.

function store(variantId = 'get-then-del'): SimStore {
  return createSimStore({ run: { scenarioId: 'get-then-del', variantId, cursor: 0 }, explorer: createInlineExploreService() });
}

function finished(s: SimStore): Promise<void> {
  return new Promise((resolve) => {
    const check = () => s.getState().explore.status !== 'running';
    if (check()) return resolve();
    const unsubscribe = s.subscribe(() => {
      if (!check()) return;
      unsubscribe();
      resolve();
    });
  });
}

describe('explore slice', () => {
  it('opens with the declared bounds, finds what explore() finds, and loads the shortest run at step 0', async () => {
    const s = store();
    s.getState().openExplore();
    expect(s.getState().explore.form).toEqual({ depthMax: 24, stallCountMax: 1, stallLengthsText: '5000, 7000', crashCountMax: 0 });
    s.getState().startExplore();
    expect(s.getState().explore.status).toBe('running');
    await finished(s);
    const state = s.getState();
    const expected = explore({ scenario: findScenario('get-then-del'), variantId: 'get-then-del' });
    expect(state.explore.status).toBe('done');
    expect(state.explore.result?.violations).toEqual(expected.violations);
    expect(state.explore.result?.statesExplored).toBe(expected.statesExplored);
    expect({ schedule: state.schedule, cursor: state.cursor }).toEqual({ schedule: expected.violations[0].schedule, cursor: 0 });
    s.getState().loadExploreViolation(1);
    expect(s.getState().schedule).toBe('A A B A~5000 A');
    s.dispose();
  });

  it('an edited copy (a definition, not built in) is searched by its definition, and what it finds loads as that definition', async () => {
    const s = store();
    const definition = { ...definitionOfScenario(findScenario('get-then-del')), id: 'my-get-then-del' };
    const custom = { scenario: { ...findScenario('get-then-del'), id: 'my-get-then-del' }, definition };
    expect(s.getState().loadRun({ scenarioId: 'my-get-then-del', cursor: 0, custom })).toEqual({ ok: true });
    s.getState().openExplore();
    s.getState().startExplore();
    await finished(s);
    const state = s.getState();
    const expected = explore({ scenario: findScenario('get-then-del'), variantId: 'get-then-del' });
    expect(state.explore.status).toBe('done');
    expect(state.explore.result?.violations.map((v) => v.schedule)).toEqual(expected.violations.map((v) => v.schedule));
    expect({ scenarioId: state.scenarioId, schedule: state.schedule, cursor: state.cursor }).toEqual({ scenarioId: 'my-get-then-del', schedule: expected.violations[0].schedule, cursor: 0 });
    s.dispose();
  });

  it('refuses bad bounds with the reason and searches nothing', () => {
    const s = store();
    s.getState().openExplore();
    s.getState().setExploreForm({ stallLengthsText: 'soon' });
    s.getState().startExplore();
    expect(s.getState().explore).toMatchObject({ status: 'error', error: { kind: 'refused' }, result: null });
    s.getState().setExploreForm({ stallLengthsText: '', stallCountMax: 1 });
    s.getState().startExplore();
    expect(s.getState().explore.error?.detail).toMatch(/stalls need at least one length/);
    s.dispose();
  });

  it('a cancelled search ends with a result that says it was cancelled, never exhaustive', async () => {
    const s = store('lua');
    s.getState().openExplore();
    s.getState().startExplore();
    s.getState().cancelExplore();
    await finished(s);
    const result = s.getState().explore.result;
    expect(result?.cut.cancelled).toBe(true);
    expect(result?.exhaustive).toBe(false);
    s.dispose();
  });
});
