// Goal: the engine additions the scenario library relies on do what their doc comments promise,
// on minimal programs: helper clients that share a token and a process, the lock-held-too-long
// and duplicate-rebuild checkers, per-variant resources, and a caller waiting on a slow script.
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/engine/program';
import { Simulation } from '../../src/engine/simulation';
import { testScenario } from './support/test-scenario';

const acquire: Step = { op: 'command', argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'ok' };

function kinds(sim: Simulation): string[] {
  return sim.trace().violations.map((v) => v.violation);
}

describe('ClientSpec.tokenFrom, ClientSpec.process and ClientSpec.startedBy', () => {
  const scenario = testScenario([
    { id: 'A', program: [acquire, { op: 'start', client: 'W' }, { op: 'enter' }, { op: 'work', durationMs: 1000 }, { op: 'end' }] },
    {
      id: 'W',
      tokenFrom: 'A',
      process: 'A',
      startedBy: 'A',
      program: [{ op: 'sleep', durationMs: 500 }, { op: 'command', argv: ['GET', '${lockKey}'], saveAs: 'seen' }, { op: 'end' }],
    },
    { id: 'B', program: [{ op: 'work', durationMs: 10_000 }, { op: 'end' }] },
  ]);

  it('a helper starts with its owner\'s token, and other clients keep tokens of their own', () => {
    const sim = new Simulation(scenario);
    const token = (id: string) => sim.clients.find((c) => c.id === id)!.vars.token;
    expect(token('W')).toBe(token('A'));
    expect(token('B')).not.toBe(token('A'));
  });

  it('a helper starts when its owner\'s start step runs, not before', () => {
    const sim = new Simulation(scenario);
    expect(sim.clients.find((c) => c.id === 'W')?.status).toBe('idle');
    sim.applySchedule('A');
    expect(sim.clients.find((c) => c.id === 'W')?.status).toBe('ready');
    expect(sim.allEvents().find((e) => e.kind === 'start' && e.clientId === 'W')).toMatchObject({ by: 'A', atMs: 0 });
  });

  it('a stall freezes every client of the process; another process runs on', () => {
    const sim = new Simulation(scenario);
    sim.applySchedule('A B A~4000 +4000');
    // W, started at t=0, had not yet run when the stall froze it; A's work was due at 1000.
    expect(sim.allEvents().filter((e) => (e.clientId === 'A' || e.clientId === 'W') && e.atMs > 0 && e.atMs < 4000)).toEqual([]);
    const aWake = sim.allEvents().find((e) => e.kind === 'wake' && e.clientId === 'A');
    expect(aWake).toMatchObject({ atMs: 4000, dueMs: 1000, lateMs: 3000, lateCause: 'stall' });
    // W resumes at 4000 and starts its 500 ms sleep then.
    sim.applySchedule('+1000');
    const get = sim.allEvents().find((e) => e.kind === 'command' && e.clientId === 'W');
    expect(get?.atMs).toBe(4500);
    expect(sim.clients.find((c) => c.id === 'B')?.blockedUntilMs).toBe(10_000);
  });

  it('a crash takes the whole process down', () => {
    const sim = new Simulation(scenario);
    sim.applySchedule('A B !A');
    expect(sim.clients.map((c) => [c.id, c.status])).toEqual([
      ['A', 'crashed'],
      ['W', 'crashed'],
      ['B', 'blocked'],
    ]);
  });
});

describe('lock-held-too-long', () => {
  const renewer: Step[] = [
    { op: 'retry', label: 'timer', goto: 'tick', afterMs: 2000, attemptCountMax: 100 },
    { op: 'end' },
    { op: 'command', label: 'tick', argv: ['PEXPIRE', '${lockKey}', '${ttlMs}'] },
    { op: 'goto', goto: 'timer' },
  ];
  const scenario = testScenario(
    [
      { id: 'A', program: [acquire, { op: 'enter' }, { op: 'work', durationMs: 60_000 }, { op: 'end' }] },
      { id: 'W', tokenFrom: 'A', program: renewer },
    ],
    { lockHoldMsMax: 7000 },
  );

  it('fires once when renewals keep one owner\'s lock past the limit, naming the owner', () => {
    const sim = new Simulation(scenario);
    sim.applySchedule('A W W W W W');
    expect(sim.nowMs).toBe(8000);
    const found = sim.trace().violations;
    expect(found.map((v) => [v.violation, v.clients.join()])).toEqual([['lock-held-too-long', 'A']]);
    expect(found[0].atMs).toBeGreaterThan(7000);
  });

  it('stays silent within the limit, and without a limit', () => {
    const within = new Simulation(scenario);
    within.applySchedule('A W W W W');
    expect(kinds(within)).toEqual([]);
    const unlimited = new Simulation(testScenario(scenario.variants[0].clients.slice()));
    unlimited.applySchedule('A W W W W W W W');
    expect(kinds(unlimited)).toEqual([]);
  });
});

describe('duplicate-rebuild and rebuild counters', () => {
  const rebuild: Step[] = [{ op: 'mark', counter: 'rebuilds' }, { op: 'end' }];
  const scenario = testScenario(
    [
      { id: 'A', program: rebuild },
      { id: 'B', program: rebuild },
    ],
    { counters: [{ id: 'rebuilds', key: 'cache', initial: 1, kind: 'rebuild' }] },
  );

  it('the first rebuild is fine; each extra one is a duplicate, never an oversell', () => {
    const one = new Simulation(scenario);
    one.applySchedule('A');
    expect(kinds(one)).toEqual([]);
    const two = new Simulation(scenario);
    two.applySchedule('A B');
    expect(kinds(two)).toEqual(['duplicate-rebuild']);
  });
});

describe('VariantSpec.resources', () => {
  it('a variant\'s own resource list replaces the scenario\'s (a fencing storage refuses an unfenced write)', () => {
    const writer: Step[] = [{ op: 'write', resource: 'db', value: 'x' }, { op: 'end' }];
    const text = (s: string) => ({ en: s, zh: s });
    const scenario = testScenario([], {
      resources: [{ id: 'db', fencing: false }],
      variants: [
        { id: 'plain', title: text('plain'), summary: text('plain'), clients: [{ id: 'A', program: writer }], expect: { violations: [], absent: [] } },
        {
          id: 'fenced',
          title: text('fenced'),
          summary: text('fenced'),
          clients: [{ id: 'A', program: writer }],
          resources: [{ id: 'db', fencing: true }],
          expect: { violations: [], absent: [] },
        },
      ],
    });
    const accepted = (variantId: string) => {
      const sim = new Simulation(scenario, { variantId });
      sim.applySchedule('A');
      return sim.state.resources.db.writeCount;
    };
    expect(accepted('plain')).toBe(1);
    expect(accepted('fenced')).toBe(0);
  });
});

describe('a slow script on the virtual clock', () => {
  const loop = 'local n = 0 for i = 1, 100000 do n = n + 1 end return n';
  const scenario = testScenario(
    [
      { id: 'A', program: [{ op: 'eval', script: 'loop', keys: [], args: [], saveAs: 'result' }, { op: 'end' }] },
      { id: 'B', program: [{ op: 'command', argv: ['GET', 'x'], saveAs: 'x' }, { op: 'end' }] },
      { id: 'O', program: [{ op: 'command', argv: ['SCRIPT', 'KILL'] }, { op: 'end' }] },
    ],
    { scripts: { loop: { source: loop } }, scriptTiming: { nsPerInstruction: 50_000, busyReplyThresholdMs: 5000 } },
  );

  it('its caller waits until the script ends and then holds its result', () => {
    const sim = new Simulation(scenario);
    sim.applySchedule('A');
    const a = () => sim.clients.find((c) => c.id === 'A')!;
    expect(a().status).toBe('blocked');
    const endMs = a().blockedUntilMs;
    expect(endMs).toBeGreaterThan(5000);
    sim.applySchedule('A');
    expect(sim.nowMs).toBe(endMs);
    expect(a().vars.result).toBe('100000');
  });

  it('killed, its caller wakes when it was killed and holds the kill error', () => {
    const sim = new Simulation(scenario);
    sim.applySchedule('A +6000 B O A');
    const a = sim.clients.find((c) => c.id === 'A')!;
    expect(sim.nowMs).toBe(6000);
    expect(a.replyTypes.result).toBe('error');
    expect(a.vars.result).toMatch(/^ERR Script killed by user with SCRIPT KILL/);
  });
});
