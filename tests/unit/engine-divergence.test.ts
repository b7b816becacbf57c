// Goal: the first event where two variants' runs of one schedule differ (engine/divergence.ts) is
// found exactly: never in a run compared with itself, never past either run's end, the same from
// both sides, and the same whether compared from the start or from a prefix known to agree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agreedEvents, firstDivergence, sameEvent, type RunEvents } from '../../src/engine/divergence';
import { ChoiceError } from '../../src/engine/engine';
import { parseSchedule, type Choice } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/trace';
import { findScenario, SCENARIOS } from '../../src/scenarios';
import { applyIntents, intentArb } from './support/random-schedule';
import { runs } from '../support/size';

const PROPERTY_SEED = 6161;
const multiVariant = SCENARIOS.filter((s) => s.variants.length > 1);

/** One variant's run of `choices`, as far as they fit (a refused choice ends it, as in the outcomes worker). */
function replay(scenarioId: string, variantId: string, choices: readonly Choice[], seed = 1): RunEvents & { refused: ChoiceError | null } {
  const sim = new Simulation(findScenario(scenarioId), { variantId, seed });
  let refused: ChoiceError | null = null;
  for (const choice of choices) {
    try {
      sim.apply(choice);
    } catch (error) {
      if (!(error instanceof ChoiceError)) throw error;
      refused = error;
      break;
    }
  }
  return { events: sim.allEvents(), stepCount: sim.length, refused };
}

describe('firstDivergence', () => {
  it('get-then-del against Lua on the foreign-release schedule: they part at A\'s release (GET against the script), and the script run stops where A has finished', () => {
    const choices = parseSchedule('A A B A~5000 A');
    const del = replay('get-then-del', 'get-then-del', choices);
    const lua = replay('get-then-del', 'lua', choices);
    expect(lua.refused?.message).toBe('step 5: cannot step A: it has finished');
    const d = firstDivergence(lua, del);
    expect(d).not.toBeNull();
    expect(d!.step).toBe(1);
    expect(d!.a).toMatchObject({ kind: 'command', argv: ['EVAL', expect.any(String), '1', 'lock', expect.any(String)], reply: { type: 'integer', value: '1' } });
    expect(d!.b).toMatchObject({ kind: 'command', argv: ['GET', 'lock'], reply: { type: 'bulk' } });
    // Everything before is the same: A's acquire, its work, leaving the critical section.
    for (let i = 0; i < d!.eventIndex; i++) expect(sameEvent(lua.events[i], del.events[i])).toBe(true);
  });

  it('two variants that do the same until one stops: the difference is where the shorter one ended', () => {
    const choices = parseSchedule('A A B A~5000 A');
    const lua = replay('get-then-del', 'lua', choices);
    const delex = replay('get-then-del', 'delex', choices);
    // Lua and DELEX differ in the release command itself (EVAL against DELEX).
    expect(firstDivergence(lua, delex)?.step).toBe(1);
    // A run cut short of its own steps differs from the whole run where the cut is.
    const cut = { events: lua.events.filter((e) => e.step < 2), stepCount: 2 };
    const d = firstDivergence(cut, lua);
    expect(d).toMatchObject({ step: 2, a: null });
    expect(d!.b?.step).toBe(2);
    // Same events, one more choice that produced none counted: differs at the shorter's end.
    expect(firstDivergence({ events: cut.events, stepCount: 2 }, { events: cut.events, stepCount: 3 })).toEqual({ step: 2, eventIndex: cut.events.length, a: null, b: null });
  });

  it('sameEvent ignores seq and pc (bookkeeping), not the step, the time, the reply or the lock', () => {
    const { events } = replay('get-then-del', 'get-then-del', parseSchedule('A A'));
    const command = events.find((e): e is Extract<TraceEvent, { kind: 'command' }> => e.kind === 'command')!;
    expect(sameEvent(command, { ...command, seq: command.seq + 7, pc: command.pc + 3 })).toBe(true);
    expect(sameEvent(command, { ...command, step: command.step + 1 })).toBe(false);
    expect(sameEvent(command, { ...command, atMs: command.atMs + 1 })).toBe(false);
    expect(sameEvent(command, { ...command, reply: { type: 'nil' } })).toBe(false);
    expect(sameEvent(command, { ...command, lockAfter: { ...command.lockAfter, holder: 'Z' } })).toBe(false);
    expect(sameEvent(command, { ...command, argv: [...command.argv, 'XX'] })).toBe(false);
  });

  it(`a run compared with itself never diverges; between variants the step is at most both lengths, symmetric, and the same from any agreed prefix (fast-check seed ${PROPERTY_SEED})`, () => {
    fc.assert(
      fc.property(fc.nat(100), fc.nat(10), fc.nat(10), fc.array(intentArb, { maxLength: 25 }), fc.nat(400), (scenarioIndex, v1, v2, intents, agreedPick) => {
        const scenario = multiVariant[scenarioIndex % multiVariant.length];
        const a = scenario.variants[v1 % scenario.variants.length].id;
        const b = scenario.variants[v2 % scenario.variants.length].id;
        const choices = applyIntents(new Simulation(scenario, { variantId: a }), intents);
        const runA = replay(scenario.id, a, choices);
        const runB = replay(scenario.id, b, choices);
        // Itself, and an equal replay of itself (other objects, same values).
        expect(firstDivergence(runA, runA)).toBeNull();
        expect(firstDivergence(runA, replay(scenario.id, a, choices))).toBeNull();

        const d = firstDivergence(runA, runB);
        if (a === b) expect(d).toBeNull();
        if (d === null) {
          expect(runA.stepCount).toBe(runB.stepCount);
          expect(runA.events.length).toBe(runB.events.length);
          return;
        }
        expect(d.step).toBeGreaterThanOrEqual(0);
        expect(d.step).toBeLessThanOrEqual(runA.stepCount);
        expect(d.step).toBeLessThanOrEqual(runB.stepCount);
        for (let i = 0; i < d.eventIndex; i++) expect(sameEvent(runA.events[i], runB.events[i])).toBe(true);
        if (d.a && d.b) expect(sameEvent(d.a, d.b)).toBe(false);
        const back = firstDivergence(runB, runA);
        expect(back).toEqual({ step: d.step, eventIndex: d.eventIndex, a: d.b, b: d.a });
        // Compared from any prefix known to agree: the same answer.
        expect(firstDivergence(runA, runB, agreedPick % (d.eventIndex + 1))).toEqual(d);
        expect(agreedEvents(runA, runB, d)).toBe(d.eventIndex);
      }),
      { seed: PROPERTY_SEED, numRuns: runs(80) },
    );
  });
});
