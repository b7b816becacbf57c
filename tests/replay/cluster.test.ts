// Goal: `replay --cluster` on a Redis Cluster the test starts itself (three masters on loopback):
// single-node scenarios replay with no divergence on the master that serves the key prefix's slot
// (reached from another node), scripts with two KEYS included, and leave no key on any node; a
// cluster node without --cluster, and --cluster on a plain server, are refused before writing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealRedis, type RealRedis } from '../support/real-redis';
import { startRealRedisCluster, type RealRedisCluster } from '../support/real-redis-cluster';
import { RespClient } from '../support/resp-client';
import { replay, type JsonReport } from './support';

let cluster: RealRedisCluster;
let plain: RealRedis;

beforeAll(async () => {
  cluster = await startRealRedisCluster();
  plain = await startRealRedis();
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
  await plain?.stop();
});

/** A seed node that does not serve the prefix's slot, so the replay must find the master itself. */
async function otherNode(keyPrefix: string): Promise<RealRedis> {
  const owner = await cluster.ownerOf(keyPrefix);
  return cluster.nodes.find((n) => n !== owner)!;
}

describe('replay on a Redis Cluster (--cluster)', () => {
  it.each([
    ['get-then-del', 'get-then-del', 5],
    ['get-then-del', 'lua', 5],
    // The unlock script's KEYS are the lock and its channel: one slot only through the prefix's hash tag.
    // Each at the fastest scale that leaves 200 ms real for its tightest margin (as scenarios.test.ts).
    ['redisson-lock', 'polling', 2],
    ['stock-oversell', 'watch', 10],
  ])('%s / %s replays with no divergence on the master serving the prefix\'s slot', async (scenario, variant, timeScale) => {
    const keyPrefix = `lockstep:{cl-${variant}}:`;
    const seed = await otherNode(keyPrefix);
    const owner = await cluster.ownerOf(keyPrefix);
    const out = await replay({ scenario, variant, redis: `redis://127.0.0.1:${seed.port}`, cluster: true, keyPrefix, timeScale });
    const report = JSON.parse(out.stdout) as JsonReport & { server: { clusterNode: { display: string; slot: number } | null } };
    expect(out.stderr).not.toMatch(/lockstep:/);
    expect(report.error).toBeNull();
    expect(report.firstDivergence, JSON.stringify(report.commands.filter((c) => c.match === 'different'))).toBeNull();
    expect(report.server.clusterNode?.display).toBe(`redis://127.0.0.1:${owner.port}`);
    expect(report.verdicts.real.violations.map((v) => v.kind)).toEqual(report.verdicts.simulation.map((v) => v.kind));
    expect(report.cleanup?.left).toEqual([]);
    expect(out.code).toBe(0);
  });

  it('picks a hash-tagged prefix by default, and leaves no key on any node', async () => {
    // Its tightest margin is 1000 ms: 200 ms real at scale 5.
    const out = await replay({ scenario: 'plain-del', redis: `redis://127.0.0.1:${cluster.nodes[0].port}`, cluster: true, timeScale: 5 });
    const report = JSON.parse(out.stdout) as JsonReport;
    expect(report.keyPrefix).toMatch(/^lockstep:\{[0-9a-f]{8}\}:$/);
    expect(out.code, out.stderr).toBe(0);
    for (const node of cluster.nodes) {
      const client = await RespClient.connect(node.port);
      try {
        expect(await client.send(['DBSIZE'])).toEqual({ type: 'integer', value: '0' });
      } finally {
        await client.close();
      }
    }
  });

  it('refuses a cluster node without --cluster, and --cluster on a server that is not a cluster node, before writing', async () => {
    const without = await replay({ scenario: 'get-then-del', redis: `redis://127.0.0.1:${cluster.nodes[0].port}`, timeScale: 10 });
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/is a Redis Cluster node: replay with --cluster/);
    expect((JSON.parse(without.stdout) as JsonReport).cleanup).toBeNull();
    const notCluster = await replay({ scenario: 'get-then-del', redis: `redis://127.0.0.1:${plain.port}`, cluster: true, timeScale: 10 });
    expect(notCluster.code).toBe(2);
    expect(notCluster.stderr).toMatch(/--cluster: redis:\/\/127\.0\.0\.1:\d+ is not a Redis Cluster node/);
    expect((JSON.parse(notCluster.stdout) as JsonReport).cleanup).toBeNull();
  });

  it.each([
    ['unsafe', "CROSSSLOT Keys in request don't hash to the same slot"],
    ['hash-tags', null],
  ])('cluster-hash-slots / %s replays on the cluster, each command on the master of its slot', async (variant, error) => {
    const out = await replay({ scenario: 'cluster-hash-slots', variant, redis: `redis://127.0.0.1:${cluster.nodes[0].port}`, cluster: true, timeScale: 10 });
    const report = JSON.parse(out.stdout) as JsonReport;
    const commands = report.commands as unknown as { simReply: { type: string; value?: string } }[];
    expect(report.error, out.stderr).toBeNull();
    expect(report.keyPrefix).toMatch(/^lockstep:[0-9a-f]{8}:$/);
    expect(report.firstDivergence, JSON.stringify(report.commands.filter((c) => c.match === 'different'))).toBeNull();
    // The lesson's reply is the real cluster's too: CROSSSLOT for the unsafe acquire, none with hash tags.
    const errors = commands.filter((c) => c.simReply.type === 'error').map((c) => c.simReply.value);
    expect(errors).toEqual(error === null ? [] : [error, error]);
    expect(report.cleanup?.left).toEqual([]);
    expect(out.code).toBe(0);
    for (const node of cluster.nodes) {
      const client = await RespClient.connect(node.port);
      try {
        expect(await client.send(['DBSIZE'])).toEqual({ type: 'integer', value: '0' });
      } finally {
        await client.close();
      }
    }
  });

  it('checks the key prefix against the scenario: a hash tag for single-slot runs, none for the hash-slot lesson', async () => {
    const seed = `redis://127.0.0.1:${cluster.nodes[0].port}`;
    const untagged = await replay({ scenario: 'get-then-del', redis: seed, cluster: true, keyPrefix: 'demo:' });
    expect(untagged.stderr).toMatch(/--cluster needs a key prefix with a hash tag/);
    const tagged = await replay({ scenario: 'cluster-hash-slots', redis: seed, cluster: true, keyPrefix: 'demo:{x}:' });
    expect(tagged.stderr).toMatch(/keys carry their own hash tags and slots: a key prefix with "\{" would change them/);
    const plain = await replay({ scenario: 'cluster-hash-slots', redis: seed });
    expect(plain.stderr).toMatch(/runs on a Redis Cluster .*replay it with --cluster/);
    expect([untagged.code, tagged.code, plain.code]).toEqual([2, 2, 2]);
  });
});
