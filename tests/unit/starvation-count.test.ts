// Goal: starvation by count (Scenario.acquisitionsWhileWaitingMax) fires when a client still
// waiting to get in is overtaken more than N times, however little time passes; stays silent at N
// or when the waiter got in first; the explorer reports it with its shortest schedule; and a
// definition states it and keeps it through the round trip.
import { describe, expect, it } from 'vitest';
import { definitionOfScenario, parseDefinition } from '../../src/definition';
import { explore } from '../../src/engine/explore';
import type { Step } from '../../src/engine/program';
import { Simulation } from '../../src/engine/simulation';
import type { ViolationEvent } from '../../src/engine/trace';
import { violationText } from '../../src/i18n';
import { testScenario } from './support/test-scenario';

/** One round: take the lock (polling every 100 ms until free), get in, get out, release. */
const round = (n: number): Step[] => [
  { op: 'command', label: `take${n}`, argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'ok' },
  { op: 'if', when: { test: 'nil', reply: 'ok' }, goto: `wait${n}` },
  { op: 'goto', goto: `in${n}` },
  { op: 'retry', label: `wait${n}`, goto: `take${n}`, afterMs: 100, attemptCountMax: 50 },
  { op: 'enter', label: `in${n}` },
  { op: 'leave' },
  { op: 'command', argv: ['DEL', '${lockKey}'] },
];
/** A takes the lock four times in a row; B polls every second, twelve times at most. */
const barger: Step[] = [...round(1), ...round(2), ...round(3), ...round(4), { op: 'end' }];
const waiter: Step[] = [
  { op: 'command', label: 'look', argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'ok' },
  { op: 'if', when: { test: 'nil', reply: 'ok' }, goto: 'again' },
  { op: 'goto', goto: 'in' },
  { op: 'retry', label: 'again', goto: 'look', afterMs: 1000, attemptCountMax: 12 },
  { op: 'end' },
  { op: 'enter', label: 'in' },
  { op: 'leave' },
  { op: 'command', argv: ['DEL', '${lockKey}'] },
  { op: 'end' },
];

const scenario = (extra: Parameters<typeof testScenario>[1]) =>
  testScenario(
    [
      { id: 'A', program: barger },
      { id: 'B', program: waiter },
    ],
    { checkers: ['starvation'], ...extra },
  );

function violations(limit: number | undefined, schedule: string): ViolationEvent[] {
  const sim = new Simulation(scenario(limit === undefined ? {} : { acquisitionsWhileWaitingMax: limit }));
  sim.applySchedule(schedule);
  return sim.trace().violations.slice();
}

describe('starvation by count (acquisitionsWhileWaitingMax)', () => {
  it('fires once, at the enter that passes the limit, naming the waiter and who got in', () => {
    // B arrives while A holds the lock and waits a second; A gets in three more times meanwhile.
    const found = violations(2, 'A B A A A A A A');
    expect(found.map((v) => [v.violation, v.message, v.clients, v.atMs])).toEqual([
      ['starvation', 'B is still waiting to get in while others have got in 3 times, more than the 2 any wait here should allow', ['B', 'A'], 0],
    ]);
    expect(violationText('starvation', found[0].message, 'zh')).toBe('B 仍在等待进入，其他客户端却已进入 3 次，超过了这里任何等待应允许的 2 次');
  });

  it('stays silent at the limit, when the waiter gets in first, and without a limit', () => {
    expect(violations(3, 'A B A A A A A A')).toEqual([]);
    // B gets in before A arrives: nobody waited while another got in.
    expect(violations(0, 'B B A')).toEqual([]);
    expect(violations(undefined, 'A B A A A A A A')).toEqual([]);
  });

  it('is not reported for a waiter that crashed', () => {
    expect(violations(2, 'A B !B A A A A A A')).toEqual([]);
  });

  it('is found by the explorer with its shortest schedule, and an absence claimed at a limit no schedule passes', () => {
    // B must look while A holds the lock (else B gets in); B's next look wakes it a second later,
    // and stepping the waiting B first runs the world up to then (docs/SCHEDULES.md): A, ready, gets in three times.
    const broken = explore({ scenario: scenario({ acquisitionsWhileWaitingMax: 2 }), bounds: { depthMax: 10 } });
    expect(broken.violations.map((v) => [v.kind, v.steps, v.schedule])).toEqual([['starvation', 3, 'A B B']]);
    const replay = new Simulation(scenario({ acquisitionsWhileWaitingMax: 2 }));
    replay.applySchedule(broken.violations[0].schedule);
    expect(replay.trace().violations.map((v) => v.violation)).toEqual(['starvation']);
    // B arrives after A's first time in at the earliest: a limit of 3 is never passed, whatever the order.
    const holds = explore({ scenario: scenario({ acquisitionsWhileWaitingMax: 3 }), bounds: { depthMax: 10 } });
    expect(holds.violations).toEqual([]);
  });

  it('is part of a definition, kept through the round trip and bounded', () => {
    const definition = definitionOfScenario(scenario({ acquisitionsWhileWaitingMax: 2 }));
    expect(definition.acquisitionsWhileWaitingMax).toBe(2);
    const parsed = parseDefinition(definition);
    expect(parsed.ok && parsed.scenario.acquisitionsWhileWaitingMax).toBe(2);
    const refused = parseDefinition({ ...definition, acquisitionsWhileWaitingMax: -1 });
    expect(refused.ok).toBe(false);
  });
});
