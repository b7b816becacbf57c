// Goal: the multi-node engine does what docs/SCHEDULES.md ("Many nodes") says: commands travel
// over links with delay, partitions and lost messages end in a client-side timeout; replication
// applies write effects after the replica's delay, and a replica never expires keys itself;
// each node's TTLs run on its own clock (drift, jumps); a crash loses unreplicated writes, a
// restart keeps data only with fsync, a promotion moves the primary; WAIT counts replicas; node
// faults parse, print and are refused like the other choices; runs replay identically.
import { describe, expect, it } from 'vitest';
import { clientTimeoutPrefix } from '../../src/engine/nodes/cluster';
import { localTimeMs, virtualTimeWhen } from '../../src/engine/nodes/clock';
import type { Step } from '../../src/engine/program';
import type { LinkSpec, NodeSpec, Scenario } from '../../src/engine/scenario';
import { formatSchedule, parseSchedule, ScheduleSyntaxError } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/trace';
import { findScenario } from '../../src/scenarios';
import { COMPARE_AND_DELETE } from '../../src/scenarios/scripts';

const t = (s: string) => ({ en: s, zh: s });

function scenario(nodes: NodeSpec[], programs: Record<string, Step[]>, links?: LinkSpec): Scenario {
  return {
    id: 'nodes-test',
    title: t('nodes'),
    summary: t('nodes'),
    lesson: t('nodes'),
    params: { lockKey: 'lock' },
    lockKey: 'lock',
    scripts: { compareAndDelete: COMPARE_AND_DELETE },
    nodes,
    ...(links ? { links } : {}),
    defaultSchedule: '',
    defaultVariant: 'v',
    variants: [{ id: 'v', title: t('v'), summary: t('v'), expect: { violations: [], absent: [] }, clients: Object.entries(programs).map(([id, program]) => ({ id, program })) }],
  };
}

const primaryReplica = (delayMs: number, extra: Partial<NodeSpec> = {}): NodeSpec[] => [
  { id: 'r1', role: 'primary', ...extra },
  { id: 'r2', role: 'replica', replicaOf: 'r1', replicationDelayMs: delayMs },
];

function run(s: Scenario, schedule: string): Simulation {
  const sim = new Simulation(s);
  sim.applySchedule(schedule);
  return sim;
}

const of = <K extends TraceEvent['kind']>(sim: Simulation, kind: K) => sim.allEvents().filter((e): e is Extract<TraceEvent, { kind: K }> => e.kind === kind);
const replyText = (e: { reply: { type: string; value?: unknown } | null }) => (e.reply === null ? 'later' : e.reply.type === 'nil' ? 'nil' : `${e.reply.type}:${String(e.reply.value)}`);

const set = (px = 5000, extra: Partial<Step> = {}): Step => ({ op: 'command', argv: ['SET', 'lock', '${token}', 'NX', 'PX', String(px)], saveAs: 'got', ...extra }) as Step;
const get = (node: string, saveAs = 'read'): Step => ({ op: 'command', argv: ['GET', 'lock'], node, saveAs });

describe('replication', () => {
  it('applies a write on the replica after its delay; a read before that finds nothing', () => {
    const sim = run(scenario(primaryReplica(1000), { A: [set(), get('r2', 'early'), { op: 'sleep', durationMs: 1500 }, get('r2', 'late')] }), 'A +3000');
    const reads = of(sim, 'command').filter((e) => e.node === 'r2');
    expect(reads.map((e) => [e.atMs, replyText(e)])).toEqual([
      [0, 'nil'],
      [1500, `bulk:${sim.clients[0].vars.token}`],
    ]);
    expect(of(sim, 'replicate').map((e) => [e.atMs, e.node, e.from, e.offset, e.keys])).toEqual([[1000, 'r2', 'r1', 1, ['lock']]]);
  });

  it('a replica answers a logically expired key as missing but keeps it until the primary\'s DEL arrives', () => {
    const s = scenario(primaryReplica(10), { A: [set(500), { op: 'sleep', durationMs: 1000 }, get('r2')] });
    const sim = run(s, 'A +100 @r2~2000 +1000');
    // r2 got the SET at t=10; the primary expires the key at 501 and its DEL now takes 2000 ms.
    expect(of(sim, 'expire').map((e) => [e.atMs, e.node])).toEqual([[501, 'r1']]);
    const read = of(sim, 'command').find((e) => e.node === 'r2');
    expect([read?.atMs, replyText(read as { reply: null })]).toEqual([1000, 'nil']);
    expect(sim.inspectNode('r2').map((e) => [e.key, e.expireAtMs])).toEqual([['lock', 500]]);
    sim.apply({ kind: 'advance', ms: 2000 });
    expect(of(sim, 'replicate').map((e) => [e.atMs, e.offset])).toEqual([
      [10, 1],
      [2501, 2],
    ]);
    expect(sim.inspectNode('r2')).toEqual([]);
  });

  it('refuses writes on a replica with READONLY', () => {
    const sim = run(scenario(primaryReplica(0), { A: [set(5000, { node: 'r2' })] }), 'A');
    expect(replyText(of(sim, 'command')[0])).toBe("error:READONLY You can't write against a read only replica.");
  });
});

describe('failover', () => {
  it('a crash loses the writes the replica had not applied; after a promotion commands go to the new primary', () => {
    const sim = run(scenario(primaryReplica(1000), { A: [set()], B: [set()] }), 'A +200 !@r1 @r2^ B');
    const crash = of(sim, 'fault').find((e) => e.fault === 'node-crash');
    expect(crash?.lostKeys).toEqual(['lock']);
    const b = of(sim, 'command').find((e) => e.clientId === 'B');
    expect([b?.node, replyText(b as { reply: null })]).toEqual(['r2', 'status:OK']);
    expect(sim.lock().holder).toBe('B');
  });

  it('a restart keeps the data only with fsync, and never the script cache', () => {
    const evalsha: Step = { op: 'eval', script: 'compareAndDelete', keys: ['lock'], args: ['${token}'], bySha: true, saveAs: 'r', timeoutMs: 100 };
    const program: Step[] = [set(), { op: 'eval', script: 'compareAndDelete', keys: ['nothing'], args: ['x'], saveAs: 'warm' }, { op: 'sleep', durationMs: 100 }, evalsha];
    const lost = run(scenario([{ id: 'r1', role: 'primary' }], { A: program }), 'A A !@r1 ^@r1 +500');
    expect(of(lost, 'fault').find((e) => e.fault === 'node-restart')).toMatchObject({ withData: false, lostKeys: ['lock'] });
    expect(lost.inspect()).toEqual([]);
    const kept = run(scenario([{ id: 'r1', role: 'primary', persistence: 'fsync' }], { A: program }), 'A A !@r1 ^@r1 +500');
    expect(of(kept, 'fault').find((e) => e.fault === 'node-restart')).toMatchObject({ withData: true, lostKeys: [] });
    const last = of(kept, 'command').at(-1);
    expect(replyText(last as { reply: null })).toMatch(/^error:NOSCRIPT/);
    expect(kept.inspect().map((e) => e.key)).toEqual(['lock']);
  });

  it('a delayed restart serves nobody until its delay has passed', () => {
    const s = scenario([{ id: 'r1', role: 'primary', restartDelayMs: 1000 }], { A: [{ op: 'sleep', durationMs: 10 }, set(5000, { timeoutMs: 50 }), { op: 'sleep', durationMs: 2000 }, set(5000, { timeoutMs: 50 })] });
    const sim = run(s, '!@r1 ^@r1 A +3000');
    expect(of(sim, 'drop').map((e) => [e.atMs, e.cause])).toEqual([[10, 'not-serving']]);
    expect(of(sim, 'reply').map((e) => [e.atMs, e.timeout])).toEqual([[60, true]]);
    expect(of(sim, 'command').map((e) => [e.atMs, replyText(e)])).toEqual([[2060, 'status:OK']]);
  });
});

describe('network', () => {
  it('a command over a delayed link runs at the node after the delay and its reply arrives after the delay back', () => {
    const sim = run(scenario([{ id: 'r1', role: 'primary' }], { A: [set(5000, { timeoutMs: 100 })] }, { delayMs: 5, overrides: [{ client: 'A', node: 'r1', delayMs: 7 }] }), 'A +100');
    expect(of(sim, 'send').map((e) => [e.atMs, e.arriveAtMs])).toEqual([[0, 7]]);
    expect(of(sim, 'command').map((e) => [e.atMs, e.node])).toEqual([[7, 'r1']]);
    expect(of(sim, 'reply').map((e) => [e.atMs, replyText(e), e.timeout])).toEqual([[14, 'status:OK', undefined]]);
  });

  it('a partition drops the request and the client times out with an error no Redis reply has', () => {
    const sim = run(scenario([{ id: 'r1', role: 'primary' }], { A: [set(5000, { timeoutMs: 50 })] }), 'A/@r1 A +100');
    expect(of(sim, 'drop').map((e) => [e.message, e.cause])).toEqual([['request', 'partition']]);
    expect(of(sim, 'command')).toEqual([]);
    const reply = of(sim, 'reply')[0];
    expect([reply.atMs, reply.timeout, reply.reply.type]).toEqual([50, true, 'error']);
    expect(reply.reply.type === 'error' && reply.reply.value.startsWith(clientTimeoutPrefix)).toBe(true);
    expect(sim.clients[0].replyTypes.got).toBe('error');
  });

  it('a lost reply: the command ran (the lock is set) but the client never hears it', () => {
    const sim = run(scenario([{ id: 'r1', role: 'primary' }], { A: [set(5000, { timeoutMs: 50 })] }), '@r1-A A +100');
    expect(replyText(of(sim, 'command')[0])).toBe('status:OK');
    expect(of(sim, 'drop').map((e) => [e.message, e.cause])).toEqual([['reply', 'loss']]);
    expect(of(sim, 'reply')[0].timeout).toBe(true);
    expect(sim.lock().value).toBe(sim.clients[0].vars.token);
  });

  it('without a timeout, a client whose request was lost hangs and cannot be stepped', () => {
    const sim = run(scenario([{ id: 'r1', role: 'primary' }], { A: [set(), set()] }), 'A-@r1 A');
    expect(sim.refusal({ kind: 'step', clientId: 'A' })).toMatch(/never comes/);
    // With a reply still on its way, stepping it waits for the reply.
    const delayed = run(scenario([{ id: 'r1', role: 'primary' }], { A: [set(), get('r1')] }, { delayMs: 10 }), 'A A');
    expect(of(delayed, 'command').map((e) => [e.atMs, e.argv[0]])).toEqual([[10, 'SET']]);
    expect(of(delayed, 'reply').map((e) => e.atMs)).toEqual([20]);
    expect(of(delayed, 'send').map((e) => [e.atMs, e.argv[0]])).toEqual([
      [0, 'SET'],
      [20, 'GET'],
    ]);
  });

  it('a healed link carries messages again', () => {
    const sim = run(scenario([{ id: 'r1', role: 'primary' }], { A: [set(5000, { timeoutMs: 50 }), { op: 'sleep', durationMs: 100 }, set(5000, { timeoutMs: 50 })] }), 'A/@r1 A +60 A|@r1 +200');
    expect(of(sim, 'command').map((e) => replyText(e))).toEqual(['status:OK']);
  });
});

describe('clocks', () => {
  it('local time is offset + t + floor(t * ppm / 1e6), and virtualTimeWhen inverts it', () => {
    expect(localTimeMs({ offsetMs: 0, driftPpm: 100_000 }, 1000)).toBe(1100);
    expect(localTimeMs({ offsetMs: 5, driftPpm: -100_000 }, 999)).toBe(5 + 999 - 100);
    const clock = { offsetMs: 0, driftPpm: 100_000 };
    const at = virtualTimeWhen(clock, 1001, 0, 1_000_000) as number;
    expect(localTimeMs(clock, at)).toBeGreaterThanOrEqual(1001);
    expect(localTimeMs(clock, at - 1)).toBeLessThan(1001);
  });

  it('a node whose clock runs 10% fast expires a 1000 ms key at the first virtual time its clock passes 1000', () => {
    const sim = run(scenario([{ id: 'r1', role: 'primary', clockDriftPpm: 100_000 }], { A: [set(1000)] }), 'A +2000');
    expect(of(sim, 'expire').map((e) => e.atMs)).toEqual([910]);
  });

  it('a clock jump forward expires keys at once; a client clock jump moves what its clock step reads', () => {
    const sim = run(scenario([{ id: 'r1', role: 'primary' }], { A: [set(1000), { op: 'sleep', durationMs: 100 }, { op: 'clock', saveAs: 'now' }] }), 'A @r1+1500 A@+2000 +200');
    expect(of(sim, 'expire').map((e) => [e.atMs, e.node])).toEqual([[0, 'r1']]);
    expect(sim.clients[0].vars.now).toBe('2100');
  });
});

describe('WAIT', () => {
  it('answers as soon as enough replicas have the client\'s last write, or at its timeout with the count so far', () => {
    const wait = (n: string, ms: string): Step => ({ op: 'command', argv: ['WAIT', n, ms], saveAs: 'acks', timeoutMs: 5000 });
    const fast = run(scenario(primaryReplica(30), { A: [set(), wait('1', '1000')] }), 'A +2000');
    expect(of(fast, 'command').filter((e) => e.argv[0] === 'WAIT').map((e) => [e.atMs, replyText(e)])).toEqual([[30, 'integer:1']]);
    const slow = run(scenario(primaryReplica(500), { A: [set(), wait('1', '100')] }), 'A +2000');
    expect(of(slow, 'command').filter((e) => e.argv[0] === 'WAIT').map((e) => [e.atMs, replyText(e)])).toEqual([[100, 'integer:0']]);
    const none = run(scenario(primaryReplica(500), { A: [wait('0', '0')] }), 'A');
    // No write yet: every connected replica has the client's offset (0), as in Redis.
    expect(of(none, 'command').map((e) => replyText(e))).toEqual(['integer:1']);
  });
});

describe('schedule grammar: node faults', () => {
  const text = '!@r1 ^@r1 @r2^ A/@r1 A|@r1 A-@r1 @r1-A @r3+2000 @r3-5 A@+10 A@-3 @r2~0 @r2~5000';

  it('parses every node fault and prints it back canonically', () => {
    const choices = parseSchedule(text, ['A'], ['r1', 'r2', 'r3']);
    expect(choices.map((c) => c.kind)).toEqual(['node-crash', 'node-restart', 'promote', 'partition', 'heal', 'lose', 'lose', 'node-clock', 'node-clock', 'client-clock', 'client-clock', 'replication-delay', 'replication-delay']);
    expect(formatSchedule(choices)).toBe(text);
    expect(parseSchedule('@r3+2s', ['A'], ['r3'])).toEqual([{ kind: 'node-clock', nodeId: 'r3', ms: 2000 }]);
  });

  it('refuses bad node tokens with their position', () => {
    const bad = (s: string, nodes: string[] = ['r1']) => {
      try {
        parseSchedule(s, ['A'], nodes);
      } catch (error) {
        return error instanceof ScheduleSyntaxError ? error.message : String(error);
      }
      return 'parsed';
    };
    expect(bad('A @r9^')).toBe('unknown node "@r9" (nodes: @r1) at position 3: "@r9^"');
    expect(bad('A !@r1 @r1?')).toMatch(/^expected a node fault: .* at position 8: "@r1\?"$/);
    expect(bad('B/@r1')).toMatch(/^unknown client "B"/);
    expect(bad('@r1~0s A@+0')).toBe('duration must be between 1 and 86400000 ms at position 8: "A@+0"');
    expect(bad('!@r1', [])).toBe('this scenario has one Redis node and no node faults at position 1: "!@r1"');
  });

  it('refuses faults that do not fit the world', () => {
    const sim = new Simulation(scenario(primaryReplica(10), { A: [set()] }));
    expect(sim.refusal({ kind: 'promote', nodeId: 'r1' })).toBe('cannot promote @r1: it is not a replica');
    expect(sim.refusal({ kind: 'node-restart', nodeId: 'r1' })).toBe('cannot restart @r1: it is running');
    expect(sim.refusal({ kind: 'heal', clientId: 'A', nodeId: 'r1' })).toBe('A and @r1 are not partitioned');
    expect(sim.refusal({ kind: 'replication-delay', nodeId: 'r1', ms: 5 })).toBe('@r1 is not a replica');
    sim.apply({ kind: 'node-crash', nodeId: 'r1' });
    expect(sim.refusal({ kind: 'node-crash', nodeId: 'r1' })).toBe('cannot crash @r1: it is down');
    const single = new Simulation(findScenario('get-then-del'));
    expect(single.refusal({ kind: 'node-crash', nodeId: 'redis' })).toBe('this scenario has one Redis node and no node faults');
  });
});

describe('determinism', () => {
  it('seeking back through a run with node faults gives the state a fresh run reaches there', () => {
    const s = scenario(primaryReplica(300), { A: [set(800, { timeoutMs: 50 }), { op: 'sleep', durationMs: 100 }, get('r2'), { op: 'clock', saveAs: 'c' }], B: [set(800, { timeoutMs: 50 }), get('r2')] }, { delayMs: 3 });
    const schedule = 'A +50 @r2~20 !@r1 @r2^ B/@r2 B +100 B|@r2 ^@r1 @r2+400 A@+7 +2000';
    const sim = new Simulation(s, { checkpointEverySteps: 3 });
    sim.applySchedule(schedule);
    const trace = JSON.stringify(sim.trace());
    const n = parseSchedule(schedule).length;
    for (let k = n; k >= 0; k--) {
      sim.seek(k);
      const fresh = new Simulation(s);
      fresh.applySchedule(parseSchedule(schedule).slice(0, k));
      expect(sim.stateKey(), `step ${k}`).toBe(fresh.stateKey());
    }
    const again = new Simulation(s);
    again.applySchedule(schedule);
    expect(JSON.stringify(again.trace())).toBe(trace);
  });

  it('a world with nodes clones with structuredClone', () => {
    const sim = run(scenario(primaryReplica(300), { A: [set(800, { timeoutMs: 50 })] }, { delayMs: 3 }), 'A @r1-A');
    expect(structuredClone(sim.state)).toEqual(sim.state);
  });
});
