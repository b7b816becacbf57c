/**
 * Goal: async clients run against several Redis nodes from the Node API. With `nodes`, each client
 * gets one connection per node (`ctx.nodes`); the schedule's node faults apply; the explorer
 * searches them within a `faults` budget (the engine explorer's move table); and without `nodes`
 * a run is what it was (one node, `ctx.nodes` is `[redis]`). The lock is a hand-written
 * Redlock-style quorum lock: SET NX PX on every node, held when a majority answered OK. A node
 * that restarts without persistence forgets A's lock, so B reaches a majority too.
 */
import { describe, expect, it } from 'vitest';
import { ArgumentError, explore, simulate, type AsyncClientCode } from '../../src/api';

/** Acquire on each node in order; enter the critical section with a majority. */
const quorumLock: AsyncClientCode = async (_redis, ctx) => {
  let oks = 0;
  for (const node of ctx.nodes) if ((await node.set('lock', ctx.token, 'NX', 'PX', 10_000)) === 'OK') oks += 1;
  if (oks * 2 > ctx.nodes.length) {
    ctx.enter();
    await ctx.work(1000);
    ctx.leave();
  }
};

const nodes = ['r1', 'r2', 'r3'];
const clients = { A: quorumLock, B: quorumLock };

describe('several nodes from user code', () => {
  it('a node crash and restart (no persistence) lets B reach a quorum while A holds one: mutual exclusion breaks', async () => {
    // A: r1 OK, r2 OK. B: r1 nil. r2 crashes and comes back empty. B: r2 OK, r3 OK (enters). A: r3 nil, but 2 of 3: enters.
    const broken = await simulate({ nodes, clients, schedule: 'A A B !@r2 ^@r2 B B A' });
    expect(broken.violations.map((v) => v.kind)).toEqual(['mutual-exclusion']);
    const commands = broken.trace.events.flatMap((e) => (e.kind === 'command' ? [`${e.clientId}@${e.node}:${e.argv[0]}`] : []));
    expect(commands).toEqual(['A@r1:set', 'A@r2:set', 'B@r1:set', 'B@r2:set', 'B@r3:set', 'A@r3:set']);
    // The same interleaving without the fault: B gets one node of three and stays out.
    const safe = await simulate({ nodes, clients, schedule: 'A A B B B A' });
    expect(safe.violations).toEqual([]);
    // With fsync, the restarted node still has A's lock.
    const durable = await simulate({ nodes: nodes.map((id) => ({ id, persistence: 'fsync' as const })), clients, schedule: 'A A B !@r2 ^@r2 B B A' });
    expect(durable.violations).toEqual([]);
  });

  it('each node client is its own connection to its node; duplicate() stays on that node', async () => {
    const seen: unknown[] = [];
    await simulate({
      nodes,
      clients: {
        A: async (redis, ctx) => {
          seen.push(redis === ctx.nodes[0], ctx.nodes.length);
          await ctx.nodes[1].set('k', 'on-r2');
          seen.push(await ctx.nodes[0].get('k'), await ctx.nodes[1].duplicate().get('k'));
        },
      },
      schedule: 'A A A',
    });
    expect(seen).toEqual([true, 3, null, 'on-r2']);
  });

  it('a command to a crashed node waits; with ioredis\'s commandTimeout it rejects after that many virtual ms', async () => {
    const seen: unknown[] = [];
    const result = await simulate({
      nodes,
      clients: {
        A: async (_redis, ctx) => {
          const r2 = ctx.nodes[1].duplicate({ commandTimeout: 50 });
          seen.push(await r2.set('lock', ctx.token).catch((e: Error) => [e.name, e.message]));
          seen.push(ctx.now());
        },
      },
      schedule: '!@r2 A +50',
    });
    expect(seen).toEqual([['Error', 'Command timed out'], 50]);
    expect(result.trace.events.some((e) => e.kind === 'drop' && e.cause === 'node-down')).toBe(true);
  });

  it('partitions, heals, node clock jumps and promotions from the schedule reach user clients; an unknown node is a schedule error', async () => {
    const seen: unknown[] = [];
    const writer: AsyncClientCode = async (_redis, ctx) => {
      seen.push(await ctx.nodes[0].set('k', 'v', 'PX', 10_000));
      seen.push(await ctx.nodes[1].get('k'));
      seen.push(await ctx.nodes[1].set('k', 'w').catch((e: Error) => e.message));
    };
    const result = await simulate({ nodes: ['r1', { id: 'r2', replicaOf: 'r1' }], clients: { A: writer }, schedule: 'A/@r1 A|@r1 A @r1+11000 A @r2^ A' });
    expect(seen).toEqual(['OK', null, 'OK']);
    const faults = result.trace.events.flatMap((e) => (e.kind === 'fault' ? [e.fault] : []));
    expect(faults.length).toBe(4);
    // Without the promotion r2 is still a replica: the write is refused.
    seen.length = 0;
    await simulate({ nodes: ['r1', { id: 'r2', replicaOf: 'r1' }], clients: { A: writer }, schedule: 'A/@r1 A|@r1 A @r1+11000 A A' });
    expect(seen).toEqual(['OK', null, "READONLY You can't write against a read only replica."]);
    await expect(simulate({ nodes, clients, schedule: 'A !@r9' })).rejects.toMatchObject({ name: 'ScheduleError' });
  });

  it('the explorer finds the violation within a node-crash budget, and none without node faults', async () => {
    const found = await explore({ nodes, clients, faults: { nodeCrashes: 1, nodes: ['r2'] }, invariants: ['mutual-exclusion'], depthMax: 6 });
    expect(found.violations.map((v) => v.kind)).toEqual(['mutual-exclusion']);
    const schedule = found.violations[0].schedule;
    expect(schedule).toMatch(/!@r2/);
    const replayed = await simulate({ nodes, clients, schedule });
    expect(replayed.violations.map((v) => v.kind)).toContain('mutual-exclusion');
    const none = await explore({ nodes, clients, invariants: ['mutual-exclusion'], depthMax: 8 });
    expect(none.violations).toEqual([]);
    expect(none.exhaustive).toBe(true);
  });

  it('without nodes a run is unchanged: ctx.nodes is [redis], and code through it gives the trace of code through redis', async () => {
    const viaRedis: AsyncClientCode = async (redis, ctx) => {
      if ((await redis.set('lock', ctx.token, 'NX', 'PX', 10_000)) === 'OK') ctx.enter();
    };
    const viaNodes: AsyncClientCode = async (redis, ctx) => {
      expect(ctx.nodes).toEqual([redis]);
      if ((await ctx.nodes[0].set('lock', ctx.token, 'NX', 'PX', 10_000)) === 'OK') ctx.enter();
    };
    const a = await simulate({ clients: { A: viaRedis, B: viaRedis }, schedule: 'A B' });
    const b = await simulate({ clients: { A: viaNodes, B: viaNodes }, schedule: 'A B' });
    expect(b.trace).toEqual(a.trace);
    expect(a.trace.events.some((e) => 'node' in e)).toBe(false);
  });

  it('in a built-in Redlock lesson, your clients get the lesson\'s nodes as ctx.nodes', async () => {
    const seen: unknown[] = [];
    await simulate({
      scenario: 'redlock-restart-without-fsync',
      clients: {
        A: async (redis, ctx) => {
          seen.push(ctx.nodes.length, redis === ctx.nodes[0]);
          seen.push(await ctx.nodes[4].set('lock', ctx.token, 'NX', 'PX', 1000));
        },
      },
      schedule: 'A',
    });
    expect(seen).toEqual([5, true, 'OK']);
  });

  it('validates nodes and node faults with the path of the problem', async () => {
    const bad = async (options: Parameters<typeof simulate>[0]) => simulate(options).then(() => null, (e: ArgumentError) => [e.name, e.path]);
    expect(await bad({ nodes: [], clients, schedule: 'A' })).toEqual(['ArgumentError', 'nodes']);
    expect(await bad({ nodes: ['r1', 'r1'], clients, schedule: 'A' })).toEqual(['ArgumentError', 'nodes[1]']);
    expect(await bad({ nodes: ['r1', 'A'], clients, schedule: 'A' })).toEqual(['ArgumentError', 'nodes[1]']);
    expect(await bad({ nodes: ['r1', { id: 'r2', fsync: 'always' } as never], clients, schedule: 'A' })).toEqual(['ArgumentError', 'nodes[1].fsync']);
    expect(await bad({ nodes: ['r1', { id: 'r2', replicaOf: 'r9' }], clients, schedule: 'A' })).toEqual(['ArgumentError', 'nodes[1].replicaOf']);
    expect(await bad({ nodes: ['1r'], clients, schedule: 'A' })).toEqual(['ArgumentError', 'nodes[0]']);
    expect(await bad({ scenario: 'redlock-restart-without-fsync', nodes, clients, schedule: 'A' })).toEqual(['ArgumentError', 'nodes']);
    const badExplore = async (options: Parameters<typeof explore>[0]) => explore(options).then(() => null, (e: ArgumentError) => [e.name, e.path]);
    expect(await badExplore({ clients, faults: { nodeCrashes: 1 } })).toEqual(['ArgumentError', 'faults']);
    expect(await badExplore({ nodes, clients, faults: { nodeCrashes: 1, nodes: ['r4'] } })).toEqual(['ArgumentError', 'faults.nodes[0]']);
    expect(await badExplore({ nodes, clients, faults: { clockJumps: 1 } })).toEqual(['ArgumentError', 'faults.clockJumpsMs']);
  });
});
