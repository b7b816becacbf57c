// Goal: the workbench's Properties tab edits the scenario's own properties as draft edits (a bad
// expression refused by path, with its column, and the run kept), and "Check properties" judges
// each in the property-check service: the lesson's broken release violates only-holder-deletes
// with a shortest schedule that loads as the run, a goal is reached, an invariant of the fixed
// release holds; a later edit clears the verdicts, and loading a found run keeps them.
import { describe, expect, it } from 'vitest';
import { definitionOfScenario } from '../../src/definition';
import { propertiesTabText } from '../../src/i18n/properties-tab';
import { findScenario } from '../../src/scenarios';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { editProperties, propertiesOf } from '../../src/ui/store/workbench-property-edits';
import { createInlineDraftCheckService } from '../../src/ui/worker/draft-check';
import { createInlinePropertyCheckService } from '../../src/ui/worker/property-check-client';
import type { PropertyCheckService } from '../../src/ui/worker/property-check-protocol';

const onlyHolderDeletes = { name: 'only-holder-deletes', kind: 'always', expression: 'not (event.command == "DEL") or lock.holder == null or lock.holder == event.client' } as const;
const bWhileA = { name: 'b-enters-while-a-inside', kind: 'reachable', expression: 'event.kind == "enter" and event.client == "B" and clients.A.inside' } as const;

function store(propertyChecker: PropertyCheckService = createInlinePropertyCheckService(), variantId = 'get-then-del') {
  const s = createSimStore({ run: { scenarioId: 'get-then-del', variantId, cursor: null }, draftChecker: createInlineDraftCheckService(), propertyChecker });
  s.getState().openWorkbench('properties');
  return s;
}

/** Resolves once the check is no longer running (the inline service works in setTimeout slices). */
function checked(s: ReturnType<typeof store>): Promise<void> {
  return new Promise((resolve) => {
    if (s.getState().propertyCheck.status !== 'running') return resolve();
    const unsubscribe = s.subscribe((state) => {
      if (state.propertyCheck.status === 'running') return;
      unsubscribe();
      resolve();
    });
  });
}

describe('property edits (pure)', () => {
  it('lists, adds, replaces and removes properties; none left means no properties field', () => {
    const base = definitionOfScenario(findScenario('get-then-del'));
    expect(propertiesOf(base)).toEqual([]);
    const one = editProperties(base, { kind: 'put', at: null, property: onlyHolderDeletes });
    const two = editProperties(one, { kind: 'put', at: null, property: bWhileA });
    expect(two.properties).toEqual([
      { name: 'only-holder-deletes', always: onlyHolderDeletes.expression },
      { name: 'b-enters-while-a-inside', reachable: bWhileA.expression },
    ]);
    const replaced = editProperties(two, { kind: 'put', at: 0, property: { name: 'x', kind: 'reachable', expression: 'true' } });
    expect(propertiesOf(replaced).map((p) => [p.name, p.kind])).toEqual([
      ['x', 'reachable'],
      ['b-enters-while-a-inside', 'reachable'],
    ]);
    const none = editProperties(editProperties(two, { kind: 'remove', at: 1 }), { kind: 'remove', at: 0 });
    expect('properties' in none).toBe(false);
  });
});

describe('the Properties tab in the store', () => {
  it('adds a property as an edit of the definition, and refuses a bad expression by path with its column', async () => {
    const s = store();
    expect(s.getState().workbench.properties).toEqual([]);
    await s.getState().applyPropertyEdit({ kind: 'put', at: null, property: onlyHolderDeletes });
    expect(s.getState().workbench.status).toBe('idle');
    expect(s.getState().scenarioId).toBe('get-then-del-edited');
    expect(s.getState().workbench.properties).toEqual([onlyHolderDeletes]);
    // The run checks an always property as it goes: the lesson's schedule breaks it at A's DEL.
    expect(s.getState().violations.map((v) => v.violation)).toContain('property');
    const before = s.getState().runLog;
    await s.getState().applyPropertyEdit({ kind: 'put', at: null, property: { name: 'bad', kind: 'always', expression: 'event.kind == "x")' } });
    expect(s.getState().workbench.status).toBe('invalid');
    expect(s.getState().workbench.problems).toContain('properties[1].always: unexpected ")" at column 18');
    expect(s.getState().runLog).toBe(before);
    expect(s.getState().workbench.properties).toEqual([onlyHolderDeletes]);
  });

  it('says where an expression does not parse as it is typed, running nothing', () => {
    const s = store();
    expect(s.getState().propertyExpressionProblem(onlyHolderDeletes.expression)).toBeNull();
    // The empty state's example is true of the parser.
    expect(s.getState().propertyExpressionProblem(propertiesTabText('en', 'exampleAlways'))).toBeNull();
    expect(s.getState().propertyExpressionProblem('not (clients.A.inside and')).toEqual({ message: 'unexpected end', column: 26 });
  });

  it('checks: violated with a loadable shortest schedule, a goal reached; loading keeps the verdicts, an edit clears them', async () => {
    const s = store();
    await s.getState().applyPropertyEdit({ kind: 'put', at: null, property: onlyHolderDeletes });
    await s.getState().applyPropertyEdit({ kind: 'put', at: null, property: bWhileA });
    s.getState().checkProperties();
    expect(s.getState().propertyCheck.status).toBe('running');
    await checked(s);
    const { propertyCheck } = s.getState();
    expect(propertyCheck.status).toBe('done');
    // The lesson's declared bounds (one stall of 5 or 7 s) apply to its edited copy.
    expect(propertyCheck.bounds?.faults.stallCountMax).toBe(1);
    const [always, goal] = propertyCheck.verdicts;
    expect(always).toMatchObject({ name: 'only-holder-deletes', kind: 'always', status: 'violated' });
    expect(goal).toMatchObject({ name: 'b-enters-while-a-inside', kind: 'reachable', status: 'reached' });
    const schedule = always.found?.schedule ?? '';
    expect(schedule).toMatch(/~/);

    s.getState().loadPropertyRun('only-holder-deletes');
    expect(s.getState().schedule).toBe(schedule);
    expect(s.getState().cursor).toBe(0);
    expect(s.getState().scenarioId).toBe('get-then-del-edited');
    // Stepping to the end shows the property broken at the last choice, as the explorer found it.
    s.getState().seek(s.getState().length);
    expect(s.getState().violations.at(-1)).toMatchObject({ violation: 'property', property: 'only-holder-deletes' });
    expect(s.getState().propertyCheck.status).toBe('done');

    await s.getState().applyPropertyEdit({ kind: 'remove', at: 1 });
    expect(s.getState().workbench.properties).toEqual([onlyHolderDeletes]);
    expect(s.getState().propertyCheck).toMatchObject({ status: 'idle', verdicts: [] });
  });

  it('an invariant the fixed release keeps holds within the bounds, and says whether that was exhaustive', async () => {
    const s = store(createInlinePropertyCheckService(), 'lua');
    await s.getState().applyPropertyEdit({ kind: 'put', at: null, property: onlyHolderDeletes });
    s.getState().checkProperties();
    await checked(s);
    const [verdict] = s.getState().propertyCheck.verdicts;
    expect(verdict).toMatchObject({ name: 'only-holder-deletes', status: 'held', found: null });
    const cut = verdict.cut;
    expect(verdict.exhaustive).toBe(cut.depthCutStates === 0 && cut.horizonCutMoves === 0 && !cut.stateBudget && !cut.cancelled);
    s.getState().loadPropertyRun('only-holder-deletes');
    expect(s.getState().cursor).toBe(s.getState().length);
  });

  it('reports a check that could not run, and drops the answer of a check another run superseded', async () => {
    const failing: PropertyCheckService = { start: (_request, handlers) => handlers.onError('boom'), cancel() {}, dispose() {} };
    const s = store(failing);
    s.getState().checkProperties();
    await Promise.resolve();
    await Promise.resolve();
    expect(s.getState().propertyCheck).toMatchObject({ status: 'error', error: 'boom' });

    let late: Parameters<PropertyCheckService['start']>[1] | null = null;
    const slow: PropertyCheckService = { start: (_request, handlers) => void (late = handlers), cancel() {}, dispose() {} };
    const t = store(slow);
    t.getState().checkProperties();
    await Promise.resolve();
    await Promise.resolve();
    expect(late).not.toBeNull();
    t.getState().selectVariant('lua');
    expect(t.getState().propertyCheck.status).toBe('idle');
    late!.onError('too late');
    expect(t.getState().propertyCheck.status).toBe('idle');
  });
});
