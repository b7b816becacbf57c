import { describe, expect, it } from 'vitest';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import type { SimStore } from '../../src/ui/store/store-types';
import { createInlineExploreService } from '../../src/ui/worker/explore-client';
import { createInlineOutcomeService } from '../../src/ui/worker/outcomes-inline';

// Goal: a counterexample "Find a race" found is replayed against every variant (by the outcome
// worker's code, here on the page's thread) and compared with the run it was found on: get-then-del
// breaks with foreign-release, Lua does not and refuses the last choice (A has finished), their
// runs part at A's release (GET against the script); a click loads Lua at that step.

function store(): SimStore {
  return createSimStore({
    run: { scenarioId: 'get-then-del', variantId: 'get-then-del', cursor: 0 },
    explorer: createInlineExploreService(),
    comparer: createInlineOutcomeService(),
  });
}

function until(s: SimStore, done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (done()) return resolve();
    const unsubscribe = s.subscribe(() => {
      if (!done()) return;
      unsubscribe();
      resolve();
    });
  });
}

describe('compare slice', () => {
  it('compares the found foreign release across the variants and loads the safe variant at the divergence step', async () => {
    const s = store();
    s.getState().openExplore();
    s.getState().startExplore();
    await until(s, () => s.getState().explore.status === 'done');
    // The shortest (two holders) loads first and is compared; then the foreign release.
    await until(s, () => s.getState().compare.status === 'done');
    expect(s.getState().compare.schedule).toBe(s.getState().explore.result!.violations[0].schedule);
    s.getState().loadExploreViolation(1);
    expect(s.getState().compare).toMatchObject({ status: 'running', schedule: 'A A B A~5000 A', baseVariantId: 'get-then-del' });
    await until(s, () => s.getState().compare.status === 'done');

    const report = s.getState().compare.report!;
    const byId = Object.fromEntries(report.outcomes.map((o) => [o.variantId, o]));
    expect(byId['get-then-del'].violations.map((v) => v.kind)).toEqual(['foreign-release']);
    expect(byId['get-then-del'].divergence).toBeNull();
    expect(byId.lua.violations).toEqual([]);
    expect(byId.lua).toMatchObject({ stepsApplied: 4, stopDetail: 'cannot step A: it has finished' });
    expect(byId.lua.divergence).toMatchObject({ step: 1, event: { kind: 'command', releases: true }, baseEvent: { kind: 'command', argv: ['GET', 'lock'] } });

    // Another run on screen does not change what is compared.
    s.getState().stepForward();
    expect(s.getState().compare.report).toBe(report);

    s.getState().loadCompareVariant('lua');
    const state = s.getState();
    expect({ variant: state.variantId, schedule: state.schedule, cursor: state.cursor, open: state.explore.dialogOpen }).toEqual({
      variant: 'lua',
      schedule: 'A A B A~5000',
      cursor: 2,
      open: false,
    });
    expect(state.notice?.key).toBe('variantScheduleCut');
    s.dispose();
  });

  it('without a comparer the comparison says it is unavailable', () => {
    const s = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del' } });
    s.getState().compareVariants();
    expect(s.getState().compare.status).toBe('unavailable');
    s.dispose();
  });
});
