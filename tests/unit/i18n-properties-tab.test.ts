// Goal: the Properties tab's texts exist in both languages with the same parameters, and a verdict
// reads as what was found and no more: a violation or a reached goal with its shortest schedule
// (to load); an absence with the bounds searched and whether it was exhaustive, or what cut it.
import { describe, expect, it } from 'vitest';
import { propertiesTabText, propertyVerdictView, type PropertiesTabKey, type PropertyVerdictInput } from '../../src/i18n/properties-tab';

const KEYS: readonly PropertiesTabKey[] = [
  'tab', 'intro', 'empty', 'exampleAlways', 'useExample', 'emptyMore', 'list', 'kindAlways', 'kindReachable', 'edit', 'remove', 'editNamed', 'removeNamed', 'formAdd', 'formEdit', 'name', 'nameHelp', 'kind',
  'kindAlwaysLong', 'kindReachableLong', 'expression', 'parses', 'problemAt', 'add', 'save', 'cancelEdit', 'check', 'stop', 'checking', 'checkError', 'stale', 'verdicts',
  'statusViolated', 'statusHeld', 'statusReached', 'statusNotReached', 'load', 'loadTitle', 'within', 'exhaustive', 'cutBy', 'notExhaustive',
];

const noCut = { depthCutStates: 0, horizonCutMoves: 0, stateBudget: false, stoppedAtViolation: false, cancelled: false };
const bounds = { faults: { stallCountMax: 1, stallLengthsMs: [5000, 7000], crashCountMax: 0 }, depthMax: 24, stateCountMax: 200000, horizonMs: null };
const verdict = (patch: Partial<PropertyVerdictInput>): PropertyVerdictInput => ({ name: 'p', kind: 'always', status: 'held', found: null, exhaustive: true, statesExplored: 313, cut: noCut, ...patch });

describe('the Properties tab texts', () => {
  it('has every text in both languages with the same parameters', () => {
    const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of KEYS) {
      const en = propertiesTabText('en', key);
      const zh = propertiesTabText('zh', key);
      expect(en.length, key).toBeGreaterThan(0);
      expect(zh.length, key).toBeGreaterThan(0);
      expect(params(zh), key).toEqual(params(en));
    }
    expect(propertiesTabText('en', 'removeNamed', { name: 'one-inside' })).toBe('Remove one-inside');
  });
});

describe('a property verdict in words', () => {
  it('a violation: its status, the explorer sentence with the shortest schedule, and the schedule to load', () => {
    const view = propertyVerdictView(verdict({ status: 'violated', found: { steps: 5, schedule: 'A A B A~5000 A' }, exhaustive: false, cut: { ...noCut, stoppedAtViolation: true } }), bounds, 'en');
    expect(view.label).toBe('violated');
    expect(view.sentence).toBe('Property p is violated in 5 choices: A A B A~5000 A');
    expect(view.schedule).toBe('A A B A~5000 A');
    expect(view.reach).toBeNull();
    expect(view.scope).toBe('Searched: schedules of at most 24 choices, at most 1 stall of 5 s or 7 s, time moving from one due time to the next.');
  });

  it('a goal reached, in Chinese', () => {
    const view = propertyVerdictView(verdict({ kind: 'reachable', status: 'reached', found: { steps: 4, schedule: 'A A~7000 +5001 B' } }), bounds, 'zh');
    expect(view.label).toBe('已到达');
    expect(view.sentence).toContain('A A~7000 +5001 B');
    expect(view.schedule).toBe('A A~7000 +5001 B');
  });

  it('held: exhaustive, or what cut the search; never a schedule', () => {
    const whole = propertyVerdictView(verdict({}), bounds, 'en');
    expect(whole.label).toBe('held');
    expect(whole.sentence).toBe('Property p holds within the bounds: 313 states, exhaustive.');
    expect(whole.reach).toBe('Exhaustive: every state within these bounds was searched.');
    expect(whole.schedule).toBeNull();
    const cut = propertyVerdictView(verdict({ exhaustive: false, cut: { ...noCut, depthCutStates: 12, stateBudget: true } }), bounds, 'en');
    expect(cut.sentence).toBe('Property p was not broken in 313 states, not exhaustive (the search was cut).');
    expect(cut.reach).toBe('Not exhaustive, cut by: the state budget (200,000 states) ran out and the depth bound left 12 states unexpanded.');
  });

  it('not reached: exhaustive or cut, in both languages', () => {
    const en = propertyVerdictView(verdict({ kind: 'reachable', status: 'not-reached', exhaustive: false, cut: { ...noCut, cancelled: true } }), bounds, 'en');
    expect(en.label).toBe('not reached');
    expect(en.sentence).toBe('Goal p was not reached within the bounds: 313 states, not exhaustive (the search was cut).');
    expect(en.reach).toBe('Not exhaustive, cut by: cancelled.');
    const zh = propertyVerdictView(verdict({ kind: 'reachable', status: 'not-reached' }), bounds, 'zh');
    expect(zh.label).toBe('未到达');
    expect(zh.reach).toBe('已穷尽：这些界限内的每个状态都搜索过了。');
  });
});
