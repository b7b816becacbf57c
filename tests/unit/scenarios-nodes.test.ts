// Goal: the multi-node scenarios tell their stories, read from their default-schedule traces
// (scenarios.test.ts checks their verdicts): who got which node, when, and what the storage kept.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/trace';
import { findScenario } from '../../src/scenarios';

function run(id: string, variantId?: string): Simulation {
  const scenario = findScenario(id);
  const sim = new Simulation(scenario, { variantId });
  sim.applySchedule(scenario.defaultSchedule);
  return sim;
}

type Command = Extract<TraceEvent, { kind: 'command' }>;
const oks = (sim: Simulation, clientId: string) =>
  sim
    .allEvents()
    .filter((e): e is Command => e.kind === 'command' && e.clientId === clientId && e.argv[0] === 'SET' && e.reply?.type === 'status')
    .map((e) => e.node);
const enters = (sim: Simulation) => sim.allEvents().filter((e) => e.kind === 'enter').map((e) => [e.clientId, e.atMs]);
const leaves = (sim: Simulation, clientId: string) => sim.allEvents().find((e) => e.kind === 'leave' && e.clientId === clientId)?.atMs;
const writes = (sim: Simulation) => sim.allEvents().flatMap((e) => (e.kind === 'write' ? [[e.clientId, e.atMs, e.fencingToken, e.accepted]] : []));

describe('failover-before-replication', () => {
  it('async: B takes the lock on the promoted r2 at t=200 while A works until t=3000', () => {
    const sim = run('failover-before-replication', 'async');
    expect([oks(sim, 'A'), oks(sim, 'B')]).toEqual([['r1'], ['r2']]);
    expect(enters(sim)).toEqual([
      ['A', 0],
      ['B', 200],
    ]);
    expect(writes(sim)).toEqual([
      ['B', 200, null, true],
      ['A', 3000, null, true],
    ]);
  });

  it('wait: WAIT answers 1 (r3 has the lock) and still B gets it from r2, which had not', () => {
    const sim = run('failover-before-replication', 'wait');
    const waits = sim.allEvents().filter((e): e is Command => e.kind === 'command' && e.argv[0] === 'WAIT');
    expect(waits.map((e) => [e.clientId, e.atMs, e.node, e.reply])).toEqual([
      ['A', 50, 'r1', { type: 'integer', value: '1' }],
      ['B', 250, 'r2', { type: 'integer', value: '1' }],
    ]);
    expect(oks(sim, 'B')).toEqual(['r2']);
  });

  it('fencing: tokens 1 and 2 come from f; the storage refuses A\'s token 1 after B\'s 2', () => {
    const sim = run('failover-before-replication', 'fencing');
    expect(writes(sim)).toEqual([
      ['B', 200, '2', true],
      ['A', 3000, '1', false],
    ]);
  });
});

describe('Redlock scenarios', () => {
  it('happy path: A holds r1-r3 with validity 9768 ms; B waits until A has left', () => {
    const sim = run('redlock-happy-path');
    expect(oks(sim, 'A')).toEqual(['r1', 'r2', 'r3']);
    expect(sim.allEvents().find((e) => e.kind === 'set' && e.clientId === 'A' && e.var === 'validityMs')).toMatchObject({ value: '9768', atMs: 130 });
    const [[, bEnter]] = enters(sim).filter(([id]) => id === 'B') as [string, number][];
    expect(bEnter).toBeGreaterThan(leaves(sim, 'A') as number);
    expect(oks(sim, 'B').slice(-5)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('clock jump: r3 drops A\'s key at the jump, and B holds r3, r4, r5 while A holds r1, r2, r3', () => {
    const sim = run('redlock-clock-jump');
    expect(sim.allEvents().filter((e) => e.kind === 'expire').map((e) => [e.atMs, e.kind === 'expire' ? e.node : null])).toEqual([[200, 'r3']]);
    expect([oks(sim, 'A'), oks(sim, 'B')]).toEqual([
      ['r1', 'r2', 'r3'],
      ['r3', 'r4', 'r5'],
    ]);
  });

  it('restart without fsync: B builds its majority with the emptied r3; fsync and a delayed restart make it wait', () => {
    expect(oks(run('redlock-restart-without-fsync', 'no-fsync'), 'B')).toEqual(['r3', 'r4', 'r5']);
    for (const variant of ['fsync', 'delayed-restart']) {
      const sim = run('redlock-restart-without-fsync', variant);
      const [, bEnter] = enters(sim).find(([id]) => id === 'B') as [string, number];
      expect(bEnter, variant).toBeGreaterThan(leaves(sim, 'A') as number);
    }
    const delayed = run('redlock-restart-without-fsync', 'delayed-restart');
    expect(delayed.allEvents().some((e) => e.kind === 'drop' && e.cause === 'not-serving' && e.clientId === 'B')).toBe(true);
    const [, bEnter] = enters(delayed).find(([id]) => id === 'B') as [string, number];
    expect(bEnter).toBeGreaterThanOrEqual(10_200);
  });

  it('gc pause: A writes at t=12200 on a lock B took at t=10200; checking the validity first, it does not', () => {
    const sim = run('redlock-gc-pause', 'no-check');
    expect(enters(sim)).toEqual([
      ['A', 0],
      ['B', 10_200],
    ]);
    expect(writes(sim)).toEqual([
      ['A', 12_200, null, true],
      ['B', 13_200, null, true],
    ]);
    expect(writes(run('redlock-gc-pause', 'check-validity'))).toEqual([['B', 13_200, null, true]]);
  });
});

describe('redlock-split-vote', () => {
  it('the first round splits 2, 2, 1 and nobody enters; later rounds have one winner at a time', () => {
    const sim = run('redlock-split-vote');
    const firstVotes = ['A', 'B', 'C'].map((id) => sim.allEvents().find((e) => e.kind === 'set' && e.clientId === id && e.var === 'validityMs' && e.atMs < 100));
    expect(firstVotes.every((e) => e !== undefined)).toBe(true);
    const votes = ['A', 'B', 'C'].map((id) => sim.allEvents().filter((e) => e.kind === 'set' && e.clientId === id && e.var === 'votes' && e.atMs < 100).at(-1));
    expect(votes.map((e) => (e?.kind === 'set' ? e.value : null))).toEqual(['2', '2', '1']);
    const entered = enters(sim);
    expect(entered.map(([id]) => id).sort()).toEqual(['A', 'B', 'C']);
    expect(Math.min(...entered.map(([, at]) => at as number))).toBeGreaterThan(100);
  });
});
