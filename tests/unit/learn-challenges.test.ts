// Goal: challenges are decided by the checkers' violations, and every question's truth is read
// from the step it asks about; the teaching data names only real scenarios, variants and clients.
import { describe, expect, it } from 'vitest';
import { explore, resolveBounds } from '../../src/engine/explore';
import { challengeStatus, violationsBefore, type ChallengeSpec } from '../../src/engine/learn/challenge';
import { questionTruth } from '../../src/engine/learn/question';
import { findVariant, type Scenario } from '../../src/engine/scenario';
import { parseSchedule } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { findScenario, SCENARIOS } from '../../src/scenarios';
import { challengesOf, questionsOf, START_SCENARIO_ID, variantLabelOf } from '../../src/scenarios/learning';

function run(scenario: Scenario, variantId: string, schedule: string): Simulation {
  const sim = new Simulation(scenario, { variantId });
  for (const choice of parseSchedule(schedule, findVariant(scenario, variantId).clients.map((c) => c.id))) sim.apply(choice);
  return sim;
}

function statusOf(spec: ChallengeSpec, sim: Simulation) {
  return challengeStatus(spec, { variantId: sim.variantId, cursor: sim.cursor, violations: violationsBefore(sim.allEvents(), sim.cursor), finished: sim.isFinished });
}

function challenge(scenarioId: string, id: string): ChallengeSpec {
  const found = challengesOf(findScenario(scenarioId)).find((c) => c.id === id);
  if (!found) throw new Error(`no challenge ${scenarioId}/${id}`);
  return found;
}

describe('challenges', () => {
  const getThenDel = findScenario('get-then-del');

  it('"make A delete B\'s lock" is met by the story schedule, counting the choices up to the violation', () => {
    const spec = challenge('get-then-del', 'delete-b-lock');
    expect(statusOf(spec, run(getThenDel, 'get-then-del', ''))).toEqual({ state: 'open', choices: 0, choicesLeft: null });
    expect(statusOf(spec, run(getThenDel, 'get-then-del', 'A A A~5000 +4000 B +1000'))).toEqual({ state: 'met', choices: 6 });
    // Played to the end without the race: failed, with the reason.
    expect(statusOf(spec, run(getThenDel, 'get-then-del', 'A A A B B B'))).toMatchObject({ state: 'failed', reason: 'finished' });
  });

  it('asks for the right variant', () => {
    expect(statusOf(challenge('get-then-del', 'delete-b-lock'), run(getThenDel, 'lua', ''))).toEqual({ state: 'wrong-variant' });
  });

  it('the Lua release holds for 8 choices of the same race', () => {
    const spec = challenge('get-then-del', 'lua-holds');
    expect(statusOf(spec, run(getThenDel, 'lua', 'A A A~5000 +4000'))).toEqual({ state: 'open', choices: 4, choicesLeft: 4 });
    expect(statusOf(spec, run(getThenDel, 'lua', 'A A~5000 +4000 B +1000 +1000 +1000 +1000'))).toEqual({ state: 'met', choices: 8 });
  });

  it('the watchdog can be beaten by a pause longer than the lease', () => {
    const spec = challenge('watchdog', 'beat-the-watchdog');
    expect(statusOf(spec, run(findScenario('watchdog'), 'renewal', 'A +1000 B +3500 A~3500 +2500 +3000 +6500')).state).toBe('failed');
    expect(statusOf(spec, run(findScenario('watchdog'), 'renewal', 'A B A~9000 +13000'))).toEqual({ state: 'met', choices: 4 });
  });

  it('the stock stays non-negative with the lock, to the end', () => {
    const spec = challenge('stock-oversell', 'keep-stock');
    const stock = findScenario('stock-oversell');
    const sim = run(stock, 'lock', 'A B A B +1000');
    // Step until every buyer has finished: at most 40 more choices.
    for (let i = 0; i < 40 && !sim.isFinished; i++) {
      const next = sim.clients.find((c) => c.status === 'ready' || c.status === 'idle');
      sim.apply(next ? { kind: 'step', clientId: next.id } : { kind: 'advance', ms: 1000 });
    }
    expect(sim.isFinished).toBe(true);
    expect(statusOf(spec, sim).state).toBe('met');
    expect(statusOf(challenge('stock-oversell', 'oversell'), run(stock, 'no-lock', 'A B A B +1000')).state).toBe('met');
  });

  it('every scenario with a broken default variant has a challenge its story meets', () => {
    for (const scenario of SCENARIOS) {
      for (const spec of challengesOf(scenario)) {
        for (const variantId of spec.variantIds) expect(scenario.variants.some((v) => v.id === variantId), `${scenario.id}/${spec.id}/${variantId}`).toBe(true);
        if (spec.id !== 'reproduce') continue;
        expect(statusOf(spec, run(scenario, spec.variantIds[0], scenario.defaultSchedule)).state, scenario.id).toBe('met');
      }
    }
  });
});

// Every challenge is fair, by the explorer's word within the scenario's declared bounds (and the
// challenge's own choice budget and faults): a violation to bring about has a way (the one "Show me
// the shortest way" loads), and replaying it meets the challenge; a fix to hold, or a clean finish,
// has no schedule with the violation, every schedule within the bounds searched.
// Scenarios with several Redis nodes too: their declared budgets hold the node faults their stories need.
describe('every challenge, checked by the explorer', () => {
  for (const scenario of SCENARIOS) {
    for (const spec of challengesOf(scenario)) {
      it(`${scenario.id}/${spec.id}`, () => {
        const declared = resolveBounds(scenario);
        const goal = spec.goal;
        const result = explore({
          scenario,
          variantId: spec.variantIds[0],
          bounds: { depthMax: Math.min(declared.depthMax, spec.choiceCountMax ?? declared.depthMax), faults: spec.faults ?? declared.faults },
          invariants: goal.kind === 'finish-clean' ? goal.violations : [goal.violation],
          offenders: goal.kind === 'finish-clean' ? undefined : goal.clients,
          stopAt: 'first',
        });
        if (goal.kind === 'break') {
          const way = result.violations[0];
          expect(way, 'a way to meet it').toBeDefined();
          expect(statusOf(spec, run(scenario, spec.variantIds[0], way.schedule))).toEqual({ state: 'met', choices: way.steps });
        } else {
          expect(result.violations).toEqual([]);
          // Every schedule within the bounds was searched; a depth cut at the challenge's own choice budget is its rule.
          const cut = result.cut;
          expect({ stateBudget: cut.stateBudget, horizonCutMoves: cut.horizonCutMoves, depthCutStates: spec.choiceCountMax === undefined ? cut.depthCutStates : 0 }).toEqual({
            stateBudget: false,
            horizonCutMoves: 0,
            depthCutStates: 0,
          });
        }
      });
    }
  }
});

describe('questions', () => {
  it('get-then-del: A holds after step 1, B gets in at t=6000, the late DEL returns 1', () => {
    const scenario = findScenario('get-then-del');
    const truths = (variantId: string) => {
      const sim = run(scenario, variantId, scenario.defaultSchedule);
      const events = sim.allEvents();
      return questionsOf(scenario.id)
        .filter((q) => !q.variantIds || q.variantIds.includes(variantId))
        .map((q) => [q.step, questionTruth(q, events.filter((e) => e.step === q.step))]);
    };
    expect(truths('get-then-del')).toEqual([
      [0, 'A'],
      [4, 'yes'],
      [5, '1'],
    ]);
    expect(truths('lua')).toEqual([
      [0, 'A'],
      [4, 'yes'],
      [1, '1'],
    ]);
  });

  it('every question is asked before a step of its story, with its truth among the options', () => {
    for (const scenario of SCENARIOS) {
      const steps = parseSchedule(scenario.defaultSchedule, findVariant(scenario, undefined).clients.map((c) => c.id)).length;
      for (const q of questionsOf(scenario.id)) {
        expect(q.step, scenario.id).toBeLessThan(steps);
        for (const variant of scenario.variants.filter((v) => !q.variantIds || q.variantIds.includes(v.id))) {
          const events = run(scenario, variant.id, scenario.defaultSchedule).allEvents();
          const truth = questionTruth(q, events.filter((e) => e.step === q.step));
          expect(q.options, `${scenario.id}/${variant.id} step ${q.step}`).toContain(truth);
        }
      }
    }
  });

  it('labels: the start lesson exists, labels come from the scenario', () => {
    expect(SCENARIOS.some((s) => s.id === START_SCENARIO_ID)).toBe(true);
    expect(variantLabelOf('watchdog').en).toBe('Lease renewal');
    expect(variantLabelOf('stock-oversell').en).toBe('Stock deduction');
    expect(variantLabelOf('get-then-del').en).toBe('Release method');
    expect(variantLabelOf('no-such').en).toBe('Variant');
  });
});
