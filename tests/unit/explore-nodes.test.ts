// Goal: the explorer searches worlds with several Redis nodes (docs/EXPLORER.md, "Several nodes"):
// its state key covers every node's keyspace and the cluster's state, restoring a snapshot brings
// the node servers back, node faults are moves within the budget (and only then), a found schedule
// replays through `run --schedule`'s parser, and foreign-release is judged on each node, not only
// on the primary (a Redlock key deleted on r2 by another client is a foreign release there).
import { describe, expect, it } from 'vitest';
import { explore, formatFaultBudget, parseFaultBudget, resolveBounds, BoundsError } from '../../src/engine/explore';
import { MoveTable, noFaultsUsed } from '../../src/engine/explore/moves';
import { ExploreRunner } from '../../src/engine/explore/runner';
import type { Step } from '../../src/engine/program';
import type { NodeSpec, Scenario } from '../../src/engine/scenario';
import { parseSchedule } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';

const t = (s: string) => ({ en: s, zh: s });

function scenario(nodes: NodeSpec[], programs: Record<string, Step[]>): Scenario {
  return {
    id: 'explore-nodes-test',
    title: t('nodes'),
    summary: t('nodes'),
    lesson: t('nodes'),
    params: { lockKey: 'lock' },
    lockKey: 'lock',
    nodes,
    defaultSchedule: '',
    defaultVariant: 'v',
    variants: [{ id: 'v', title: t('v'), summary: t('v'), expect: { violations: [], absent: [] }, clients: Object.entries(programs).map(([id, program]) => ({ id, program })) }],
  };
}

const twoPrimaries: NodeSpec[] = [
  { id: 'r1', role: 'primary' },
  { id: 'r2', role: 'primary' },
];
const setOn = (node: string): Step => ({ op: 'command', argv: ['SET', 'lock', '${token}', 'NX', 'PX', '5000'], node, saveAs: 'got' });
const delOn = (node: string): Step => ({ op: 'command', argv: ['DEL', 'lock'], node });

describe('foreign release, per node', () => {
  it('B deleting A\'s key on r2 (not the primary r1) is a foreign release on r2', () => {
    const sim = new Simulation(scenario(twoPrimaries, { A: [setOn('r2'), { op: 'end' }], B: [delOn('r2'), { op: 'end' }] }));
    sim.applySchedule('A B');
    const found = sim.violationsToCursor();
    expect(found.map((v) => [v.violation, v.clients, v.message])).toEqual([['foreign-release', ['B', 'A'], "B deleted A's lock on r2"]]);
  });

  it('deleting its own key, or a key nobody holds, is not', () => {
    const own = new Simulation(scenario(twoPrimaries, { A: [setOn('r2'), delOn('r2'), { op: 'end' }] }));
    own.applySchedule('A +1');
    expect(own.violationsToCursor()).toEqual([]);
    const free = new Simulation(scenario(twoPrimaries, { B: [delOn('r1'), { op: 'end' }] }));
    free.applySchedule('B +1');
    expect(free.violationsToCursor()).toEqual([]);
  });

  it('a replica\'s copy keeps its writer: B deleting it on the promoted replica is a foreign release there', () => {
    const nodes: NodeSpec[] = [
      { id: 'r1', role: 'primary' },
      { id: 'r2', role: 'replica', replicaOf: 'r1' },
    ];
    const sim = new Simulation(scenario(nodes, { A: [setOn('r1'), { op: 'end' }], B: [delOn('r2'), { op: 'end' }] }));
    sim.applySchedule('A @r2^ B');
    expect(sim.violationsToCursor().map((v) => [v.violation, v.message])).toEqual([['foreign-release', "B deleted A's lock on r2"]]);
  });

  it('the explorer finds it, shortest, and its schedule parses and replays', () => {
    const s = scenario(twoPrimaries, { A: [setOn('r2'), { op: 'end' }], B: [delOn('r2'), { op: 'end' }] });
    const result = explore({ scenario: s, invariants: ['foreign-release'] });
    expect(result.violations.map((v) => [v.kind, v.schedule])).toEqual([['foreign-release', 'A B']]);
    const sim = new Simulation(s);
    sim.applySchedule(parseSchedule(result.violations[0].schedule, sim.ctx.clientIds, sim.nodeIds));
    expect(sim.violationsToCursor().map((v) => v.violation)).toEqual(['foreign-release']);
  });
});

describe('the explorer with node servers', () => {
  it('restoring a snapshot brings every node\'s keys back, and equal states have equal keys', () => {
    const runner = new ExploreRunner(findScenario('redlock-happy-path'));
    const root = runner.root;
    const rootKey = runner.key(root);
    // A snapshot's world is the runner's own (never mutated again): moves start with a restore.
    runner.restore(root);
    expect(runner.apply({ kind: 'step', clientId: 'A' })).not.toBeNull();
    // Until A's first SET has reached its node (each link takes 5 ms).
    const hasKeys = () => Object.values(runner.copy().nodes ?? {}).some((n) => n.keyspace.entries.length > 0);
    for (let i = 0; i < 10 && !hasKeys(); i++) expect(runner.apply({ kind: 'next-due' })).not.toBeNull();
    const after = runner.copy();
    expect(Object.values(after.nodes ?? {}).some((n) => n.keyspace.entries.length > 0)).toBe(true);
    expect(runner.key()).not.toBe(rootKey);
    runner.restore(root);
    expect(runner.key()).toBe(rootKey);
    runner.restore(after);
    expect(runner.key()).toBe(runner.key(after));
  });

  it('a node key differs with a node\'s keyspace alone (same world otherwise)', () => {
    const runner = new ExploreRunner(findScenario('redlock-happy-path'));
    const root = runner.root;
    const nodes = { ...(root.nodes ?? {}) };
    nodes.r3 = { ...nodes.r3, keyspace: { entries: [{ key: 'lock', type: 'string', value: 'x', expireAtMs: null }] } } as (typeof nodes)['r3'];
    expect(runner.key({ ...root, nodes })).not.toBe(runner.key(root));
  });

  it('offers node faults only within the budget, restarts only of a crashed node, heals only of a partition', () => {
    const scenarioWithNodes = findScenario('failover-before-replication');
    const runner = new ExploreRunner(scenarioWithNodes);
    const budget = { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 0, nodeCrashCountMax: 1, promoteCountMax: 1, partitionCountMax: 1, clockJumpCountMax: 1, clockJumpsMs: [2000], nodes: ['r1'], clients: ['A'] };
    const table = new MoveTable(runner.ctx, runner.state, budget);
    const ids = (used = noFaultsUsed) => table.movesAt(runner.state, used, (m) => runner.refusal(m)).map((m) => m.id);
    expect(ids()).toEqual(['A', 'B', '+', '!@r1', '@r1+2000', 'A/@r1']);
    // A crash spent: no second crash; nothing is down yet, so no restart either.
    expect(ids({ ...noFaultsUsed, nodeCrashes: 1, partitions: 1, clockJumps: 1 })).toEqual(['A', 'B', '+']);
    expect(runner.apply({ kind: 'node-crash', nodeId: 'r1' })).not.toBeNull();
    expect(runner.apply({ kind: 'partition', clientId: 'A', nodeId: 'r1' })).not.toBeNull();
    expect(ids({ ...noFaultsUsed, nodeCrashes: 1, partitions: 1 })).toEqual(['A', 'B', '+', '^@r1', '@r1+2000', 'A|@r1']);
  });

  it('failover: a promotion alone loses the lock, found shortest, and the schedule parses with the scenario\'s names', () => {
    const s = findScenario('failover-before-replication');
    const result = explore({ scenario: s, invariants: ['mutual-exclusion'], stopAt: 'first' });
    const found = result.violations[0];
    expect(found).toMatchObject({ kind: 'mutual-exclusion', schedule: 'A @r2^ B', steps: 3 });
    expect(parseSchedule(found.schedule, ['A', 'B'], ['r1', 'r2'])).toHaveLength(3);
  });
});

describe('fault budgets with node faults', () => {
  it('parse, print and read back', () => {
    const text = 'node-crashes=1,promotions=1,jumps=1,jump-ms=11000+-2000,partitions=2,nodes=r3+r4';
    const budget = parseFaultBudget(text);
    expect(budget).toMatchObject({ nodeCrashCountMax: 1, promoteCountMax: 1, clockJumpCountMax: 1, clockJumpsMs: [-2000, 11000], partitionCountMax: 2, nodes: ['r3', 'r4'] });
    expect(parseFaultBudget(formatFaultBudget(budget))).toEqual(budget);
  });

  it('refuses what cannot be searched', () => {
    expect(() => parseFaultBudget('jumps=1')).toThrow(/clock jumps need lengths/);
    expect(() => parseFaultBudget('jumps=1,jump-ms=0')).toThrow(BoundsError);
    expect(() => parseFaultBudget('partitions=x')).toThrow(/whole number/);
    expect(() => parseFaultBudget('frobs=1')).toThrow(/unknown fault item/);
    // Node faults on a scenario with one node, or an unknown node, are refused by the search.
    expect(() => explore({ scenario: findScenario('get-then-del'), bounds: { faults: parseFaultBudget('node-crashes=1') } })).toThrow(/one Redis node/);
    expect(() => explore({ scenario: findScenario('failover-before-replication'), bounds: { faults: parseFaultBudget('node-crashes=1,nodes=r9') } })).toThrow(/unknown node "r9"/);
  });

  it('every node scenario declares the node faults its story needs', () => {
    expect(resolveBounds(findScenario('failover-before-replication')).faults).toMatchObject({ nodeCrashCountMax: 1, promoteCountMax: 1 });
    expect(resolveBounds(findScenario('redlock-clock-jump')).faults).toMatchObject({ clockJumpCountMax: 1, clockJumpsMs: [11000] });
    expect(resolveBounds(findScenario('redlock-restart-without-fsync')).faults).toMatchObject({ nodeCrashCountMax: 1 });
  });
});
