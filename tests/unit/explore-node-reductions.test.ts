/**
 * Goal: the reductions fit for node worlds keep every violation, and the new node fault choices
 * are searched within their budget.
 * - The canonical cluster key (state-key.ts: message ids renumbered) merges only states with the
 *   same futures: a reduced search finds the same kinds at the same shortest lengths as the
 *   unreduced one, with the same exhaustiveness, and never more states; the saving is counted.
 * - Lost messages, client clock jumps and replication delay changes are moves within their
 *   budget (parsed, printed, offered, spent), and a schedule found with them replays.
 */
import { describe, expect, it } from 'vitest';
import { explore, formatFaultBudget, parseFaultBudget, type ExploreResult } from '../../src/engine/explore';
import { BoundsError } from '../../src/engine/explore/bounds';
import { MoveTable, noFaultsUsed } from '../../src/engine/explore/moves';
import { ExploreRunner } from '../../src/engine/explore/runner';
import { canonicalCluster, StateKeyer } from '../../src/engine/explore/state-key';
import type { ClusterState } from '../../src/engine/nodes/state';
import { Simulation } from '../../src/engine/simulation';
import type { FaultBudget } from '../../src/engine/scenario';
import { findScenario } from '../../src/scenarios';

const summary = (r: ExploreResult) => ({
  found: r.violations.map((v) => [v.kind, v.steps]),
  exhaustive: r.exhaustive,
  depthReached: r.depthReached,
});

/** Small bounds on node lessons: [scenario, variant, depth, fault budget]. */
const CASES: readonly [string, string, number, string][] = [
  ['failover-before-replication', 'async', 9, 'node-crashes=1,promotions=1,nodes=r1+r2'],
  ['failover-before-replication', 'wait', 7, 'node-crashes=1,promotions=1,nodes=r1+r2'],
  ['redlock-restart-without-fsync', 'no-fsync', 8, 'node-crashes=1,partitions=1,clients=A,nodes=r3+r4'],
  ['redlock-gc-pause', 'check-validity', 8, 'stalls=1,lengths=12000,clients=A'],
];

describe('the canonical cluster key', () => {
  it('renumbers message ids: two clusters apart only in ids and the next id are one', () => {
    const runner = new ExploreRunner(findScenario('failover-before-replication'));
    runner.apply({ kind: 'step', clientId: 'A' });
    const cluster = runner.state.cluster as ClusterState;
    const shifted: ClusterState = {
      ...cluster,
      nextMessageId: cluster.nextMessageId + 40,
      messages: cluster.messages.map((m) => ({ ...m, id: m.id + 40 })),
      awaiting: Object.fromEntries(Object.entries(cluster.awaiting).map(([id, a]) => [id, { ...a, messageId: a.messageId + 40 }])),
    };
    expect(JSON.stringify(canonicalCluster(shifted))).toBe(JSON.stringify(canonicalCluster(cluster)));
    // A reply awaited under another id than the one in flight is another state (it will be dropped as late).
    const rewired = { ...shifted, awaiting: Object.fromEntries(Object.entries(shifted.awaiting).map(([id, a]) => [id, { ...a, messageId: a.messageId + 1 }])) };
    if (cluster.messages.length > 0 && Object.keys(cluster.awaiting).length > 0) {
      expect(JSON.stringify(canonicalCluster(rewired))).not.toBe(JSON.stringify(canonicalCluster(cluster)));
    }
    // Off (the default keyer), the key stays Simulation.stateKey()'s equality.
    const world = { ...runner.state, cluster: shifted };
    const snapshot = runner.snapshot();
    const plain = new StateKeyer();
    expect(plain.key(world, snapshot.server, snapshot.nodes)).not.toBe(plain.key(runner.state, snapshot.server, snapshot.nodes));
    const canonical = new StateKeyer(true);
    expect(canonical.key(world, snapshot.server, snapshot.nodes)).toBe(canonical.key(runner.state, snapshot.server, snapshot.nodes));
  });

  let saved = 0;
  for (const [scenarioId, variantId, depthMax, faults] of CASES) {
    it(`${scenarioId}/${variantId} at depth ${depthMax}: the same verdicts and shortest lengths with and without the reductions`, () => {
      const run = (reduce: boolean) =>
        explore({ scenario: findScenario(scenarioId), variantId, reduce, stopAt: 'never', bounds: { depthMax, faults: parseFaultBudget(faults), horizonMs: null } });
      const full = run(false);
      const reduced = run(true);
      expect(summary(reduced)).toEqual(summary(full));
      expect(reduced.cut.stateBudget).toBe(false);
      expect(reduced.statesExplored).toBeLessThanOrEqual(full.statesExplored);
      saved += full.statesExplored - reduced.statesExplored;
      for (const v of reduced.violations) {
        const sim = new Simulation(findScenario(scenarioId), { variantId });
        sim.applySchedule(v.schedule);
        expect(sim.eventsOfStep(v.steps - 1).some((e) => e.kind === 'violation' && e.violation === v.kind), `${v.schedule} shows ${v.kind}`).toBe(true);
      }
    }, 120_000);
  }
  it('saves states on these node worlds (counted)', () => {
    // Runs after the cases above (Vitest keeps declaration order within a file).
    expect(saved).toBeGreaterThan(0);
  });
});

describe('lost messages, client clock jumps and replication delays as search choices', () => {
  const text = 'losses=1,client-jumps=1,client-jump-ms=2000+-2000,repl-delays=1,repl-delay-ms=0+3000,nodes=r2';

  it('parse, print and read back; refuse what cannot be searched', () => {
    const budget = parseFaultBudget(text);
    expect(budget).toMatchObject({ lossCountMax: 1, clientClockJumpCountMax: 1, clientClockJumpsMs: [-2000, 2000], replicationDelayCountMax: 1, replicationDelaysMs: [0, 3000] });
    expect(parseFaultBudget(formatFaultBudget(budget))).toEqual(budget);
    expect(() => parseFaultBudget('client-jumps=1')).toThrow(/client clock jumps need lengths/);
    expect(() => parseFaultBudget('repl-delays=1')).toThrow(/replication delay changes need delays/);
    expect(() => parseFaultBudget('client-jumps=1,client-jump-ms=0')).toThrow(BoundsError);
    expect(() => parseFaultBudget('repl-delays=1,repl-delay-ms=-5')).toThrow(/bad replication delay/);
    expect(() => parseFaultBudget('losses=9')).toThrow(BoundsError);
    expect(() => explore({ scenario: findScenario('get-then-del'), bounds: { faults: parseFaultBudget('losses=1') } })).toThrow(/one Redis node/);
  });

  it('are offered within the budget (replication delays of replicas only) and spent', () => {
    const runner = new ExploreRunner(findScenario('failover-before-replication'));
    const budget: FaultBudget = parseFaultBudget(text);
    const table = new MoveTable(runner.ctx, runner.state, budget);
    const ids = (used = noFaultsUsed) => table.movesAt(runner.state, used, (m) => runner.refusal(m)).map((m) => m.id);
    const all = ids();
    for (const id of ['A-@r2', '@r2-A', 'B-@r2', '@r2-B', '@r2~0', '@r2~3000']) expect(all).toContain(id);
    expect(all.filter((id) => /^[AB]@[+-]2000$/.test(id))).toHaveLength(4);
    expect(ids({ ...noFaultsUsed, losses: 1, clientClockJumps: 1, replicationDelays: 1 })).toEqual(['A', 'B', '+']);
    // r1 is a primary: no replication delay of it is offered.
    const onR1 = new MoveTable(runner.ctx, runner.state, parseFaultBudget('repl-delays=1,repl-delay-ms=3000,nodes=r1'));
    expect(onR1.movesAt(runner.state, noFaultsUsed, (m) => runner.refusal(m)).map((m) => m.id)).toEqual(['A', 'B', '+']);
  });

  it('redlock-clock-jump: a shortest two holders with a lost request instead of the partition, which replays', () => {
    const scenario = findScenario('redlock-clock-jump');
    const faults = parseFaultBudget('jumps=1,jump-ms=11000,losses=1,clients=A,nodes=r3+r4');
    const result = explore({ scenario, invariants: ['mutual-exclusion'], stopAt: 'first', bounds: { faults, depthMax: 7, horizonMs: 1000 } });
    const found = result.violations[0];
    expect(found).toMatchObject({ kind: 'mutual-exclusion', steps: 7 });
    expect(found.schedule).toMatch(/A-@r4/);
    const sim = new Simulation(scenario);
    sim.applySchedule(found.schedule);
    expect(sim.eventsOfStep(found.steps - 1).some((e) => e.kind === 'violation' && e.violation === 'mutual-exclusion')).toBe(true);
  }, 120_000);
});
