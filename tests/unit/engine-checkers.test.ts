// Goal: each checker reports its lesson when the story happens, points at the event that caused
// it, and stays silent when the same clients behave safely.
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/engine/program';
import { Simulation } from '../../src/engine/simulation';
import type { ViolationEvent } from '../../src/engine/trace';
import { findScenario } from '../../src/scenarios';
import { testScenario } from './support/test-scenario';

function run(sim: Simulation, schedule: string): ViolationEvent[] {
  sim.applySchedule(schedule);
  return sim.trace().violations.slice();
}

const acquireOrEnd: Step[] = [
  { op: 'command', argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'ok' },
  { op: 'if', when: { test: 'nil', reply: 'ok' }, goto: 'out' },
];
const out: Step = { op: 'end', label: 'out' };

describe('foreign-release', () => {
  it('fires when A deletes the lock B acquired after A\'s lease expired, pointing at the DEL', () => {
    const sim = new Simulation(findScenario('get-then-del'), { variantId: 'get-then-del' });
    const [violation, ...rest] = run(sim, 'A A A~5000 +4000 B +1000');
    expect(rest).toEqual([]);
    expect(violation.violation).toBe('foreign-release');
    expect(violation.message).toBe("A deleted B's lock");
    expect(violation.clients).toEqual(['A', 'B']);
    const cause = sim.allEvents()[violation.causeSeq];
    expect(cause.kind === 'command' && cause.argv[0]).toBe('DEL');
    // A's stall ends at t=7000, during the last advance: its DEL runs then, on time.
    expect(violation.step).toBe(5);
    expect(violation.atMs).toBe(7000);
  });

  it('fires when a client overwrites a lock it does not hold', () => {
    const scenario = testScenario([
      { id: 'A', program: [...acquireOrEnd, { op: 'work', durationMs: 100 }, out] },
      { id: 'B', program: [{ op: 'command', argv: ['SET', '${lockKey}', '${token}', 'PX', '${ttlMs}'] }] },
    ]);
    const [violation] = run(new Simulation(scenario), 'A B');
    expect(violation?.violation).toBe('foreign-release');
    expect(violation?.message).toBe("B overwrote A's lock");
  });

  it('stays silent when a client releases its own lock, and when the next client takes an expired one', () => {
    const scenario = testScenario([
      { id: 'A', program: [...acquireOrEnd, { op: 'command', argv: ['DEL', '${lockKey}'], releases: true }, out] },
      { id: 'B', program: [...acquireOrEnd, { op: 'work', durationMs: 10 }, out] },
      { id: 'C', program: [...acquireOrEnd, out] },
    ]);
    expect(run(new Simulation(scenario), 'A A B +5001 C')).toEqual([]);
  });
});

describe('mutual-exclusion', () => {
  const worker = (workMs: number): Step[] => [...acquireOrEnd, { op: 'enter' }, { op: 'work', durationMs: workMs }, { op: 'leave' }, out];

  it('fires when B enters while A, whose lease expired, is still inside', () => {
    const scenario = testScenario([
      { id: 'A', program: worker(10_000) },
      { id: 'B', program: worker(1000) },
    ]);
    const sim = new Simulation(scenario);
    const [violation] = run(sim, 'A +6000 B');
    expect(violation?.violation).toBe('mutual-exclusion');
    expect(violation?.clients).toEqual(['B', 'A']);
    expect(sim.allEvents()[violation.causeSeq].kind).toBe('enter');
  });

  it('stays silent when the lock keeps B out, and when A left before B entered', () => {
    const scenario = testScenario([
      { id: 'A', program: worker(3000) },
      { id: 'B', program: worker(1000) },
    ]);
    expect(run(new Simulation(scenario), 'A B A')).toEqual([]);
    expect(run(new Simulation(scenario), 'A A +3000 B')).toEqual([]);
  });

  it('a crashed client is no longer inside', () => {
    const scenario = testScenario([
      { id: 'A', program: worker(10_000) },
      { id: 'B', program: worker(1000) },
    ]);
    expect(run(new Simulation(scenario), 'A !A +6000 B')).toEqual([]);
  });
});

describe('lock-never-released', () => {
  const setnxHolder = (finish: boolean): Step[] => [
    { op: 'command', argv: ['SETNX', '${lockKey}', '${token}'], saveAs: 'ok' },
    { op: 'enter' },
    ...(finish ? [{ op: 'leave' } as Step] : [{ op: 'work', durationMs: 1000 } as Step]),
  ];

  it('fires when the holder of a lock without expiry crashes, pointing at the crash', () => {
    const scenario = testScenario([{ id: 'A', program: setnxHolder(false) }]);
    const sim = new Simulation(scenario);
    const [violation] = run(sim, 'A !A');
    expect(violation?.violation).toBe('lock-never-released');
    expect(sim.allEvents()[violation.causeSeq].kind).toBe('crash');
  });

  it('fires when the holder finishes without releasing, and when it is crashed from outside', () => {
    expect(run(new Simulation(testScenario([{ id: 'A', program: setnxHolder(true) }])), 'A').map((v) => v.violation)).toEqual([
      'lock-never-released',
    ]);
    // Crashed later, while its work was due: the work never ends, the lock stays.
    expect(run(new Simulation(testScenario([{ id: 'A', program: setnxHolder(false) }])), 'A +500 !A +5000').map((v) => v.violation)).toEqual([
      'lock-never-released',
    ]);
  });

  it('stays silent when the lock has a TTL, however the holder ends', () => {
    const scenario = testScenario([{ id: 'A', program: [...acquireOrEnd, { op: 'enter' }, { op: 'work', durationMs: 100 }, out] }]);
    expect(run(new Simulation(scenario), 'A !A')).toEqual([]);
    expect(run(new Simulation(scenario), 'A +1000')).toEqual([]);
  });
});

describe('oversell', () => {
  const seller: Step[] = [
    { op: 'command', argv: ['GET', 'stock'], saveAs: 'stock' },
    { op: 'if', when: { test: 'le', left: '${stock}', right: '0' }, goto: 'soldOut' },
    { op: 'set', var: 'left', value: '${stock}', add: -1 },
    { op: 'command', argv: ['SET', 'stock', '${left}'] },
    { op: 'mark', counter: 'stock' },
    { op: 'end', label: 'soldOut' },
  ];
  const shop = (initial: number) =>
    testScenario(
      ['A', 'B'].map((id) => ({ id, program: seller })),
      { setup: [['SET', 'stock', String(initial)]], counters: [{ id: 'stock', key: 'stock', initial }] },
    );

  it('fires when two buyers both buy the last item', () => {
    const [violation, ...rest] = run(new Simulation(shop(1)), 'A B A B');
    expect(rest).toEqual([]);
    expect(violation?.violation).toBe('oversell');
    expect(violation?.message).toBe('2 sold, but there were only 1 in stock');
  });

  it('fires on a lost update even when stock remains', () => {
    const sim = new Simulation(shop(5));
    const [violation] = run(sim, 'A B A B');
    expect(violation?.message).toBe('lost update: 2 sold from 5, but stock says 4 left');
  });

  it('stays silent when buyers take turns', () => {
    const sim = new Simulation(shop(1));
    expect(run(sim, 'A A B')).toEqual([]);
    expect(sim.inspect().find((e) => e.key === 'stock')?.value).toBe('0');
  });
});

describe('stale-write', () => {
  const writer = (fencing: boolean): Step[] => [
    ...(fencing ? [{ op: 'command', argv: ['INCR', 'fence'], saveAs: 'fence' } as Step] : []),
    ...acquireOrEnd,
    { op: 'enter' },
    { op: 'work', durationMs: 1000 },
    { op: 'write', resource: 'db', value: 'from ${clientId}', ...(fencing ? { fencingToken: '${fence}' } : {}) },
    { op: 'leave' },
    out,
  ];
  // A stalls 8 s from the start: its lease (5 s) lapses, B takes the lock at 6 s and writes at
  // 7 s, and A's write, due at 1 s, runs late at 8 s.
  const story = (fencing: boolean) =>
    testScenario(
      [
        { id: 'A', program: writer(fencing) },
        { id: 'B', program: writer(fencing) },
      ],
      { resources: [{ id: 'db', fencing }] },
    );

  it('fires when A writes after its lease passed to B', () => {
    const sim = new Simulation(story(false));
    const kinds = run(sim, 'A A~8000 +6000 B +3000').map((v) => v.violation);
    expect(kinds).toContain('stale-write');
    const stale = sim.trace().violations.find((v) => v.violation === 'stale-write');
    expect(stale?.message).toBe('A wrote to db after its lease had passed to B');
  });

  it('stays silent with fencing tokens: the resource refuses the older token', () => {
    const sim = new Simulation(story(true));
    const kinds = run(sim, 'A A A~8000 +6000 B B +3000').map((v) => v.violation);
    expect(kinds).not.toContain('stale-write');
    const writes = sim.allEvents().filter((e) => e.kind === 'write');
    expect(writes.map((w) => (w.kind === 'write' ? [w.clientId, w.accepted] : null))).toEqual([
      ['B', true],
      ['A', false],
    ]);
  });

  it('stays silent when A writes within its lease', () => {
    expect(run(new Simulation(story(false)), 'A A B +3000')).toEqual([]);
  });
});

describe('the same schedule with the Lua release', () => {
  it('reports nothing: check and delete are one command, so the pause finds A already done', () => {
    const sim = new Simulation(findScenario('get-then-del'), { variantId: 'lua' });
    expect(run(sim, 'A A A~5000 +4000 B +1000')).toEqual([]);
    const release = sim.allEvents().filter((e) => e.kind === 'command' && e.clientId === 'A' && e.releases);
    expect(release.map((e) => (e.kind === 'command' ? [e.atMs, e.reply] : null))).toEqual([[2000, { type: 'integer', value: '1' }]]);
    sim.seek(5);
    expect(sim.lock().holder).toBe('B');
    expect(sim.lock().value).toBe(sim.clients.find((c) => c.id === 'B')?.vars.token);
  });

  it('a script that finds another client\'s token answers 0 and deletes nothing', () => {
    const sim = new Simulation(findScenario('plain-del'), { variantId: 'lua' });
    sim.applySchedule('A +6000 B +1000');
    const release = sim.allEvents().filter((e) => e.kind === 'command' && e.clientId === 'A' && e.releases);
    expect(release.map((e) => (e.kind === 'command' ? e.reply : null))).toEqual([{ type: 'integer', value: '0' }]);
    expect(sim.lock().holder).toBe('B');
  });
});

describe('over-limit', () => {
  // No lock at all: each client just enters, so the count inside is exactly what the schedule makes it.
  const inside = (workMs: number): Step[] => [{ op: 'enter' }, { op: 'work', durationMs: workMs }, { op: 'leave' }, out];
  const three = (extra: Parameters<typeof testScenario>[1]) =>
    testScenario(
      [
        { id: 'A', program: inside(3000) },
        { id: 'B', program: inside(3000) },
        { id: 'C', program: inside(1000) },
      ],
      { checkers: ['over-limit'], ...extra },
    );

  it('fires when a third client enters a semaphore of 2, naming it first, at its enter', () => {
    const sim = new Simulation(three({ holderCountMax: 2 }));
    const [violation, ...rest] = run(sim, 'A B C');
    expect(rest).toEqual([]);
    expect(violation.violation).toBe('over-limit');
    expect(violation.message).toBe('C got in as holder number 3, over the limit of 2');
    expect(violation.clients).toEqual(['C', 'A', 'B']);
    expect(sim.allEvents()[violation.causeSeq].kind).toBe('enter');
  });

  it('stays silent at the limit, when one left before the next entered, without a limit, and for a crashed holder', () => {
    expect(run(new Simulation(three({ holderCountMax: 3 })), 'A B C')).toEqual([]);
    expect(run(new Simulation(three({ holderCountMax: 2 })), 'A B +3000 C')).toEqual([]);
    expect(run(new Simulation(three({})), 'A B C')).toEqual([]);
    expect(run(new Simulation(three({ holderCountMax: 2 })), 'A B !A C')).toEqual([]);
  });

  it('the semaphore lesson: C enters while A, pruned, still works; refreshing keeps C out', () => {
    const scenario = findScenario('counting-semaphore');
    const [violation] = run(new Simulation(scenario, { variantId: 'no-refresh' }), scenario.defaultSchedule);
    expect([violation.violation, violation.clients, violation.atMs]).toEqual(['over-limit', ['C', 'A', 'B'], 5500]);
    expect(run(new Simulation(scenario, { variantId: 'refresh' }), scenario.defaultSchedule)).toEqual([]);
  });
});

describe('starvation', () => {
  // Waits for `flag` to exist, polling every second at most 12 times, then enters.
  const waiter: Step[] = [
    { op: 'command', label: 'look', argv: ['EXISTS', 'flag'], saveAs: 'open' },
    { op: 'if', when: { test: 'eq', left: '${open}', right: '1' }, goto: 'in' },
    { op: 'retry', goto: 'look', afterMs: 1000, attemptCountMax: 12 },
    out,
    { op: 'enter', label: 'in' },
    { op: 'leave' },
    { op: 'end' },
  ];
  const opener = (afterMs: number): Step[] => [{ op: 'sleep', durationMs: afterMs }, { op: 'command', argv: ['SET', 'flag', '1'] }, { op: 'end' }];
  const scenario = (openAfterMs: number, extra: Parameters<typeof testScenario>[1] = { waitMsMax: 5000 }) =>
    testScenario(
      [
        { id: 'A', program: waiter },
        { id: 'O', program: opener(openAfterMs) },
      ],
      { checkers: ['starvation'], ...extra },
    );

  it('fires once, at the first event past the limit, for a client still waiting to get in', () => {
    const sim = new Simulation(scenario(9000));
    const violations = run(sim, '+1000 A O +12000');
    expect(violations.map((v) => [v.violation, v.message, v.clients, v.atMs])).toEqual([
      ['starvation', 'A has waited 6000 ms and is still not in, longer than the 5000 ms any wait here should take', ['A'], 7000],
    ]);
  });

  it('stays silent when the client gets in within the limit, without a limit, and for clients that never enter', () => {
    expect(run(new Simulation(scenario(4000)), 'A O +12000')).toEqual([]);
    expect(run(new Simulation(scenario(9000, {})), 'A O +12000')).toEqual([]);
    // O never enters: its own 9 s sleep is no wait to get in.
    expect(run(new Simulation(scenario(9000, { waitMsMax: 5000 })), 'O +12000')).toEqual([]);
  });

  it('a crashed waiter is not starving', () => {
    expect(run(new Simulation(scenario(9000)), 'A O !A +12000')).toEqual([]);
  });
});
