import { describe, expect, it } from 'vitest';
import { findScenario } from '../../src/scenarios';
import { DEBATE_CLAIMS, REDLOCK_DEBATE } from '../../src/i18n/redlock-debate';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { believersWithoutMajority, nodeHoldings, selectIsRedlock, selectNodeHoldings } from '../../src/ui/store/node-selectors';
import type { NodeStatus } from '../../src/session/node-status';
import { traceRef, type MessageRef } from '../../src/i18n';

// Goal: the inspector's node columns and the nodes dialog's faults read the right world. On
// redlock-clock-jump, after r3's clock jumps and B takes r3, r4 and r5, each node says whose token
// it holds with its PTTL on its own clock (r3's reads 11 s ahead), B holds a majority, A holds
// two nodes yet believes it holds the lock. Each fault button's action writes its schedule token
// after the cursor; a fault that does not apply is refused with the engine's reason.

const CLOCK_JUMP = 'A/@r4 A/@r5 B/@r1 B/@r2 A +200 @r3+11000 B +300';

function clockJumpStore(schedule = CLOCK_JUMP) {
  return createSimStore({ run: { scenarioId: 'redlock-clock-jump', variantId: 'clock-jump', schedule, cursor: null } });
}

const view = (nodes: readonly NodeStatus[]) => nodes.map((n) => `${n.id}:${n.holder ?? (n.lock === null ? '-' : '?')}:${n.pttlMs}:${n.clockSkewMs}`);

describe('node columns of the inspector', () => {
  it('redlock-clock-jump: per-node holders, PTTLs on each node’s clock, r3’s clock 11 s ahead', () => {
    const store = clockJumpStore();
    const s = store.getState();
    expect(s.nowMs).toBe(500);
    // A wrote r1, r2 at t≈0 (PTTL 10000 - 500); B wrote r3..r5 during its acquire; r3's own clock is 11000 ms ahead.
    expect(view(s.nodes)).toEqual(['r1:A:9500:0', 'r2:A:9500:0', 'r3:B:9800:11000', 'r4:B:9800:0', 'r5:B:9800:0']);
    expect(s.nodes.every((n) => n.up && n.role === 'primary' && n.lagWrites === 0)).toBe(true);
    expect(s.runInfo.quorum).toBe(3);
    expect(selectIsRedlock(s)).toBe(true);
    expect(selectNodeHoldings(s)).toEqual([
      { clientId: 'B', nodeIds: ['r3', 'r4', 'r5'], majority: true },
      { clientId: 'A', nodeIds: ['r1', 'r2'], majority: false },
    ]);
    // Both believe they hold the lock: A without a majority is what the inspector flags.
    const believers = s.clients.filter((c) => c.believesHoldsLock).map((c) => c.id);
    expect(believers).toEqual(['A', 'B']);
    expect(believersWithoutMajority(selectNodeHoldings(s), believers)).toEqual(['A']);
    store.dispose();
  });

  it('keeps the same list (and holdings) while nothing about the nodes changed, and follows the cursor back', () => {
    const store = clockJumpStore();
    const atEnd = store.getState();
    store.getState().seek(atEnd.cursor);
    expect(store.getState().nodes).toBe(atEnd.nodes);
    expect(selectNodeHoldings(store.getState())).toBe(selectNodeHoldings(atEnd));
    store.getState().seek(6); // after A's acquire and +200, before r3's jump
    expect(view(store.getState().nodes)).toEqual(['r1:A:9800:0', 'r2:A:9800:0', 'r3:A:9800:0', 'r4:-:-2:0', 'r5:-:-2:0']);
    store.dispose();
  });

  it('failover-before-replication: the replica lags one write, a crashed node shows down with no lock', () => {
    const store = createSimStore({ run: { scenarioId: 'failover-before-replication', variantId: 'async', schedule: 'A +200 !@r1', cursor: null } });
    const [r1, r2] = store.getState().nodes;
    expect(r1).toMatchObject({ id: 'r1', up: false, lock: null, holder: null, pttlMs: -2 });
    // r2 never got A's write, which died with r1: it still lacks that one write.
    expect(r2).toMatchObject({ id: 'r2', role: 'replica', replicaOf: 'r1', up: true, lock: null, lagWrites: 1 });
    store.getState().seek(1);
    expect(store.getState().nodes[1]).toMatchObject({ id: 'r2', lagWrites: 1, lock: null });
    expect(store.getState().nodes[0]).toMatchObject({ id: 'r1', holder: 'A', up: true });
    // No quorum param: not a Redlock, so "who holds" stays the primary's.
    expect(store.getState().runInfo.quorum).toBeNull();
    expect(selectIsRedlock(store.getState())).toBe(false);
    store.dispose();
  });

  it('a run with one Redis node has no node columns', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', schedule: 'A' } });
    expect(store.getState().nodes).toEqual([]);
    store.dispose();
  });

  it('nodeHoldings leaves out nodes that are down and keys a replica keeps past their expiry', () => {
    const base = { role: 'primary', replicaOf: null, offset: 0, lagWrites: 0, lock: 't', pttlMs: 100, clockMs: 0, clockSkewMs: 0, driftPpm: 0, servingFromMs: null } as const;
    const nodes: NodeStatus[] = [
      { ...base, id: 'r1', up: true, holder: 'A', expiredOnReplica: false },
      { ...base, id: 'r2', up: false, holder: 'A', expiredOnReplica: false },
      { ...base, id: 'r3', up: true, holder: 'B', expiredOnReplica: true },
    ];
    expect(nodeHoldings(nodes, ['A', 'B'], 2)).toEqual([{ clientId: 'A', nodeIds: ['r1'], majority: false }]);
    expect(nodeHoldings(nodes, ['A', 'B'], null)[0].majority).toBe(false);
  });
});

describe('link and clock faults of the nodes dialog', () => {
  it('each action appends its token after the cursor', () => {
    const store = clockJumpStore('A');
    const steps: [() => void, string][] = [
      [() => store.getState().partitionLink('B', 'r3'), 'B/@r3'],
      [() => store.getState().healLink('B', 'r3'), 'B|@r3'],
      [() => store.getState().loseNextMessage('A', 'r2', 'request'), 'A-@r2'],
      [() => store.getState().loseNextMessage('A', 'r2', 'reply'), '@r2-A'],
      [() => store.getState().jumpNodeClock('r4', 2500), '@r4+2500'],
      [() => store.getState().jumpNodeClock('r4', -1000), '@r4-1000'],
      [() => store.getState().jumpClientClock('B', 700), 'B@+700'],
    ];
    let expected = 'A';
    for (const [act, token] of steps) {
      act();
      expected += ` ${token}`;
      expect(store.getState().schedule).toBe(expected);
      expect(store.getState().notice).toBeNull();
    }
    expect(store.getState().cursor).toBe(steps.length + 1);
    // r4's clock is now 1500 ms ahead of the world's time.
    expect(store.getState().nodes.find((n) => n.id === 'r4')?.clockSkewMs).toBe(1500);
    store.dispose();
  });

  it('refusals are the engine’s: heal before a partition, replication delay on a primary', () => {
    const store = clockJumpStore('A');
    const s = store.getState();
    // The refusal is a catalog key (worded in the reader's language); here in the trace's English.
    const words = (ref: MessageRef | null) => (ref === null ? null : traceRef(ref));
    expect(words(s.nodeFaultRefusal({ kind: 'heal', clientId: 'A', nodeId: 'r1' }))).toMatch(/not partitioned/);
    expect(s.nodeFaultRefusal({ kind: 'partition', clientId: 'A', nodeId: 'r1' })).toBeNull();
    expect(words(s.nodeFaultRefusal({ kind: 'replication-delay', nodeId: 'r1', ms: 100 }))).toMatch(/not a replica/);
    store.getState().partitionLink('A', 'r1');
    expect(words(store.getState().nodeFaultRefusal({ kind: 'partition', clientId: 'A', nodeId: 'r1' }))).toMatch(/already partitioned/);
    expect(store.getState().nodeFaultRefusal({ kind: 'heal', clientId: 'A', nodeId: 'r1' })).toBeNull();
    // A refused fault pressed anyway (a stale page) becomes a notice, not a crash, and adds nothing.
    store.getState().setReplicationDelay('r1', 100);
    expect(store.getState().schedule).toBe('A A/@r1');
    expect(store.getState().notice?.key).toBe('actionRefused');
    store.dispose();
  });

  it('setReplicationDelay on a replica', () => {
    const store = createSimStore({ run: { scenarioId: 'failover-before-replication', variantId: 'async', schedule: '' } });
    store.getState().setReplicationDelay('r2', 0);
    expect(store.getState().schedule).toBe('@r2~0');
    store.dispose();
  });
});

describe('the Redlock debate lesson', () => {
  it('every run it links to is a scenario variant that exists, and every claim has text in both languages', () => {
    for (const claim of DEBATE_CLAIMS) {
      for (const run of claim.runs) {
        const scenario = findScenario(run.scenarioId);
        expect(scenario.variants.map((v) => v.id), `${run.scenarioId}/${run.variantId}`).toContain(run.variantId);
      }
      for (const lang of ['en', 'zh'] as const) expect(REDLOCK_DEBATE[lang].claims[claim.id].length).toBeGreaterThan(20);
    }
  });

  it('the runs show what the claims say: the pause, the clock jump and the restart without fsync break mutual exclusion; fencing, the delayed restart and fsync do not let a stale write through', async () => {
    const { Simulation } = await import('../../src/engine/simulation');
    const kinds = (scenarioId: string, variantId: string) => {
      const scenario = findScenario(scenarioId);
      const sim = new Simulation(scenario, { variantId });
      sim.applySchedule(scenario.defaultSchedule);
      return sim.allEvents().flatMap((e) => (e.kind === 'violation' ? [e.violation] : []));
    };
    expect(kinds('redlock-gc-pause', 'no-check')).toEqual(expect.arrayContaining(['mutual-exclusion', 'stale-write']));
    expect(kinds('redlock-gc-pause', 'check-validity')).not.toContain('stale-write');
    expect(kinds('redlock-clock-jump', 'clock-jump')).toContain('mutual-exclusion');
    expect(kinds('redlock-restart-without-fsync', 'no-fsync')).toContain('mutual-exclusion');
    expect(kinds('redlock-restart-without-fsync', 'delayed-restart')).not.toContain('mutual-exclusion');
    expect(kinds('redlock-restart-without-fsync', 'fsync')).not.toContain('mutual-exclusion');
    expect(kinds('failover-before-replication', 'fencing')).not.toContain('stale-write');
    expect(kinds('lease-expires-mid-work', 'lua-release')).toContain('mutual-exclusion');
    expect(kinds('lease-expires-mid-work', 'fencing')).not.toContain('stale-write');
  });
});
