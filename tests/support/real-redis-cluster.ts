import { setTimeout as sleep } from 'node:timers/promises';
import { startRealRedis, type RealRedis } from './real-redis';
import { RespClient } from './resp-client';

/**
 * A private Redis Cluster for tests: three redis-server masters (no replicas) with
 * --cluster-enabled on free loopback ports, slots split as `redis-cli --cluster create` would
 * (CLUSTER ADDSLOTSRANGE), joined with CLUSTER MEET, ready once every node says cluster_state:ok.
 * Stopped by the pids of the servers it started.
 */
export interface RealRedisCluster {
  readonly nodes: readonly RealRedis[];
  /** The node that serves the slot of `key` (CLUSTER KEYSLOT and each node's ranges). */
  ownerOf(key: string): Promise<RealRedis>;
  stop(): Promise<void>;
}

const SLOT_COUNT = 16384;
const READY_WAIT_MS_MAX = 30_000;
const READY_POLL_MS = 50;

export async function startRealRedisCluster(nodeCount = 3): Promise<RealRedisCluster> {
  const nodes: RealRedis[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    for (let i = 0; i < nodeCount; i++) nodes.push(await startRealRedis(['--cluster-enabled', 'yes', '--cluster-node-timeout', '5000']));
    const ranges = nodes.map((_, i) => [Math.floor((i * SLOT_COUNT) / nodeCount), Math.floor(((i + 1) * SLOT_COUNT) / nodeCount) - 1] as const);
    for (const [i, node] of nodes.entries()) {
      await withClient(node.port, async (client) => {
        await expectOk(client.send(['CLUSTER', 'ADDSLOTSRANGE', String(ranges[i][0]), String(ranges[i][1])]), 'CLUSTER ADDSLOTSRANGE');
        if (i > 0) await expectOk(client.send(['CLUSTER', 'MEET', '127.0.0.1', String(nodes[0].port)]), 'CLUSTER MEET');
      });
    }
    const deadline = Date.now() + READY_WAIT_MS_MAX;
    for (const node of nodes) {
      while (!(await withClient(node.port, async (c) => /cluster_state:ok/.test(textOf(await c.send(['CLUSTER', 'INFO'])))))) {
        if (Date.now() > deadline) throw new Error(`the test cluster did not reach cluster_state:ok within ${READY_WAIT_MS_MAX} ms (node ${node.port})`);
        await sleep(READY_POLL_MS);
      }
    }
    return {
      nodes,
      stop,
      ownerOf: async (key) => {
        const slot = Number(textOf(await withClient(nodes[0].port, (c) => c.send(['CLUSTER', 'KEYSLOT', key]))));
        return nodes[ranges.findIndex(([from, to]) => slot >= from && slot <= to)];
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function withClient<T>(port: number, use: (client: RespClient) => Promise<T>): Promise<T> {
  const client = await RespClient.connect(port);
  try {
    return await use(client);
  } finally {
    await client.close().catch(() => undefined);
  }
}

function textOf(reply: { type: string; value?: unknown }): string {
  return typeof reply.value === 'string' ? reply.value : JSON.stringify(reply);
}

async function expectOk(reply: Promise<{ type: string; value?: unknown }>, what: string): Promise<void> {
  const got = await reply;
  if (got.type !== 'status') throw new Error(`${what} answered ${JSON.stringify(got)}`);
}
