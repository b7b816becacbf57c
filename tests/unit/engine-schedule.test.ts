// Goal: the schedule text form is a precise, shareable grammar: it round-trips, it rejects bad
// input with a message that points at the bad token, and a replay that does not fit fails loudly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChoiceError } from '../../src/engine/engine';
import { formatSchedule, parseSchedule, ScheduleSyntaxError, type Choice } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { testScenario } from './support/test-scenario';
import { runs } from '../support/size';

const clientId = fc.constantFrom('A', 'B', 'C', 'client_2');
const ms = fc.integer({ min: 1, max: 86_400_000 });
const choice: fc.Arbitrary<Choice> = fc.oneof(
  clientId.map((id) => ({ kind: 'step' as const, clientId: id })),
  ms.map((n) => ({ kind: 'advance' as const, ms: n })),
  clientId.map((id) => ({ kind: 'crash' as const, clientId: id })),
  fc.tuple(clientId, ms).map(([id, n]) => ({ kind: 'stall' as const, clientId: id, ms: n })),
);

describe('schedule grammar', () => {
  it('parses the documented forms', () => {
    expect(parseSchedule('A A +6000 B A')).toEqual([
      { kind: 'step', clientId: 'A' },
      { kind: 'step', clientId: 'A' },
      { kind: 'advance', ms: 6000 },
      { kind: 'step', clientId: 'B' },
      { kind: 'step', clientId: 'A' },
    ]);
    expect(parseSchedule(' A,B ,, !C  A~250 +2s +15ms ')).toEqual([
      { kind: 'step', clientId: 'A' },
      { kind: 'step', clientId: 'B' },
      { kind: 'crash', clientId: 'C' },
      { kind: 'stall', clientId: 'A', ms: 250 },
      { kind: 'advance', ms: 2000 },
      { kind: 'advance', ms: 15 },
    ]);
    expect(parseSchedule('')).toEqual([]);
  });

  it('round-trips: parse(format(choices)) equals choices (seeded property)', () => {
    fc.assert(
      fc.property(fc.array(choice, { maxLength: 40 }), (choices) => {
        expect(parseSchedule(formatSchedule(choices))).toEqual(choices);
      }),
      { seed: 20261202, numRuns: runs(300) },
    );
  });

  it.each([
    ['A B? C', 2, 'B?'],
    ['A +0', 2, '+0'],
    ['+-5', 0, '+-5'],
    ['A !9 B', 2, '!9'],
    ['A +99999999999', 2, '+99999999999'],
    ['A~ B', 0, 'A~'],
  ])('rejects %j pointing at the bad token', (text, offset, token) => {
    let error: unknown;
    try {
      parseSchedule(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScheduleSyntaxError);
    const syntax = error as ScheduleSyntaxError;
    expect(syntax.offset).toBe(offset);
    expect(syntax.token).toBe(token);
    expect(syntax.message).toContain(`"${token}"`);
    expect(syntax.pointer().split('\n')[1]).toBe(' '.repeat(offset) + '^'.repeat(token.length));
  });

  it('rejects clients the scenario does not have', () => {
    expect(() => parseSchedule('A B C', ['A', 'B'])).toThrow(/unknown client "C" \(clients: A, B\) at position 5/);
  });
});

describe('replaying a schedule', () => {
  const scenario = testScenario([
    { id: 'A', program: [{ op: 'command', argv: ['SET', 'k', '1'] }] },
    { id: 'B', program: [{ op: 'command', argv: ['GET', 'k'] }] },
  ]);

  it('fails loudly at the first choice that does not fit, naming the step and the reason', () => {
    const sim = new Simulation(scenario);
    // A has one command: its first step runs it and, with nothing left, finishes; a second cannot run.
    expect(() => sim.applySchedule('A A')).toThrow(ChoiceError);
    expect(sim.length).toBe(1);
    const fresh = new Simulation(scenario);
    expect(() => fresh.applySchedule('B A A')).toThrow('step 3: cannot step A: it has finished');
    const crashed = new Simulation(scenario);
    expect(() => crashed.applySchedule('!B B')).toThrow('step 2: cannot step B: it has crashed');
  });

  it('a refused choice leaves the timeline and the world as they were', () => {
    const sim = new Simulation(scenario);
    sim.applySchedule('B A');
    const before = { key: sim.stateKey(), events: sim.allEvents().length, schedule: sim.schedule };
    expect(() => sim.apply({ kind: 'step', clientId: 'A' })).toThrow(ChoiceError);
    expect({ key: sim.stateKey(), events: sim.allEvents().length, schedule: sim.schedule }).toEqual(before);
  });
});
