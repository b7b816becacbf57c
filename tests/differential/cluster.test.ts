// Goal: the simulated server's cluster mode answers what a real Redis Cluster answers, byte for
// byte: key hash slots (CRC16 mod 16384 with hash tags) equal CLUSTER KEYSLOT; commands, EVAL
// and transactions whose keys span slots get CROSSSLOT; a script that reaches an undeclared key
// another master serves gets Redis 7.0's script error (one in another slot of its own master
// passes). The references: a real cluster of one master serving every slot, for what does not
// depend on which master serves a slot; a three-master cluster with the simulated split, each
// command sent to the master of its first key's slot as a cluster client does, for scripts; and
// CROSSSLOT from every node of it (CROSSSLOT comes before MOVED).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterMasterOf, commandKeys, keyHashSlot } from '../../src/engine/redis/cluster-slots';
import type { Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';
import { startRealRedisCluster, type RealRedisCluster } from '../support/real-redis-cluster';
import { RespClient } from '../support/resp-client';

let one: RealRedisCluster;
let three: RealRedisCluster;

beforeAll(async () => {
  one = await startRealRedisCluster(1);
  three = await startRealRedisCluster(3);
}, 60_000);

afterAll(async () => {
  await one?.stop();
  await three?.stop();
});

const KEYS = [
  'lock', 'fence', 'foo', '', 'order:42:lock', '{order:42}:lock', '{order:42}:fence', 'a{b}c', 'a{b}c{d}', '{}', '{}x', 'x{}y{z}',
  '{{a}}', '{a', 'a}', '}{a}', 'a{{b}}', '锁:{订单}', 'emoji:😀', '{user1000}.following', '123456789',
];

/** Each case: commands on one connection, after FLUSHALL on both sides; every reply compared exactly. */
const CASES: Record<string, (readonly string[])[]> = {
  'multi-key commands in one slot': [['MSET', '{t}a', '1', '{t}b', '2'], ['MGET', '{t}a', '{t}b'], ['DEL', '{t}a', '{t}b'], ['EXISTS', 'x', 'x']],
  'multi-key commands across slots': [['MSET', 'lock', '1', 'fence', '2'], ['MGET', 'lock', 'fence'], ['DEL', 'lock', 'fence'], ['EXISTS', 'lock', 'fence'], ['RENAME', 'lock', 'fence'], ['UNLINK', 'a', 'b', 'c']],
  'EVAL whose declared KEYS span slots': [
    ['EVAL', "return redis.call('incr', KEYS[2])", '2', 'lock', 'fence'],
    ['EVAL', 'return 1', '2', '{order:42}:lock', '{order:42}:fence'],
    ['EVAL', "return redis.call('set', KEYS[1], 'x')", '1', 'lock'],
  ],
  'script flags in cluster mode': [
    ['EVAL', "#!lua flags=allow-cross-slot-keys\nreturn redis.call('mget', 'lock', 'fence')", '0'],
    ['EVAL', '#!lua flags=no-cluster\nreturn 1', '0'],
  ],
  'transactions across slots': [
    ['MULTI'], ['SET', 'lock', '1'], ['INCR', 'fence'], ['EXEC'],
    ['MULTI'], ['MSET', 'lock', '1', 'fence', '2'], ['EXEC'],
    ['WATCH', 'lock', 'fence'],
    ['MULTI'], ['SET', '{t}a', '1'], ['INCR', '{t}b'], ['EXEC'],
  ],
};

async function realReplies(port: number, commands: readonly (readonly string[])[]): Promise<Reply[]> {
  const client = await RespClient.connect(port);
  try {
    await client.send(['FLUSHALL']);
    const out: Reply[] = [];
    for (const argv of commands) out.push(await client.send([...argv]));
    return out;
  } finally {
    await client.close();
  }
}

function simReplies(commands: readonly (readonly string[])[]): Reply[] {
  const server = new SimRedisServer({ cluster: true });
  return commands.map((argv, i) => server.execute(argv, i));
}

/**
 * Scripts reaching keys they did not declare, on the three-master cluster (slot ranges as the
 * simulated one's, masters counted from 0: lock (slot 8718) and the tag {order:42} (8691) are
 * served by master 1, fence (5086) by master 0, the tag {d} (11298) by master 2).
 */
const SCRIPT_CASES: (readonly string[])[] = [
  ['EVAL', "redis.call('set', KEYS[1], 'a'); return redis.call('incr', 'fence')", '1', 'lock'],
  ['GET', 'lock'],
  ['EVAL', "return redis.pcall('get', 'fence')", '1', 'lock'],
  ['EVAL', "return redis.call('incr', '{order:42}:fence')", '1', '{order:42}:lock'],
  ['EVAL', "return redis.call('incr', 'lock:{order:42}')", '1', '{order:42}:lock'],
  ['EVAL', "return redis.call('get', 'a{d}')", '1', 'lock'],
  // Another slot of the same master: Redis 7.0 lets it pass.
  ['EVAL', "return redis.call('incr', '{order:42}:fence')", '1', 'lock'],
  ['EVAL', "return redis.call('get', 'fence')", '0'],
  ['EVAL', "return redis.call('get', 'lock')", '0'],
  ['EVAL', "return redis.call('mget', 'lock', 'fence')", '0'],
  ['EVAL', "#!lua flags=allow-cross-slot-keys\nredis.call('get', KEYS[1]); return redis.call('get', 'a{d}')", '1', 'lock'],
  ['EVAL', "return redis.call('ping')", '1', 'lock'],
];

/** The master a cluster client sends a command to: its first key's (EVAL: first declared key's), else the first master. */
function routeOf(argv: readonly string[]): number {
  const keys = commandKeys(argv);
  return keys.length === 0 ? 0 : clusterMasterOf(keyHashSlot(keys[0]));
}

describe('cluster mode against a real Redis Cluster', () => {
  it('runs scripts as a three-master cluster does: an undeclared key of another master is non local, of its own master it passes', async () => {
    const clients = await Promise.all(three.nodes.map((n) => RespClient.connect(n.port)));
    try {
      for (const client of clients) await client.send(['FLUSHALL']);
      const real: Reply[] = [];
      for (const argv of SCRIPT_CASES) real.push(await clients[routeOf(argv)].send([...argv]));
      expect(simReplies(SCRIPT_CASES)).toEqual(real);
      // The story's failure is there: the first script's error names the non-local key.
      expect(real[0]).toMatchObject({ type: 'error', value: expect.stringMatching(/^ERR Script attempted to access a non local key in a cluster node script: [0-9a-f]{40}, on @user_script:1\.$/) });
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('hashes keys to the slots CLUSTER KEYSLOT names (hash tags as Redis reads them)', async () => {
    const client = await RespClient.connect(one.nodes[0].port);
    try {
      for (const key of KEYS) {
        const real = await client.send(['CLUSTER', 'KEYSLOT', key]);
        expect([key, keyHashSlot(key)]).toEqual([key, real.type === 'integer' ? Number(real.value) : real]);
      }
    } finally {
      await client.close();
    }
  });

  it.each(Object.keys(CASES))('%s: the same replies as a one-master cluster', async (name) => {
    const commands = CASES[name];
    expect(simReplies(commands)).toEqual(await realReplies(one.nodes[0].port, commands));
  });

  it('answers CROSSSLOT as every node of a three-master cluster does, whichever node serves the slots', async () => {
    const commands = [['MGET', 'lock', 'fence'], ['EVAL', 'return 1', '2', 'lock', 'fence'], ['DEL', 'a', 'b', 'c']];
    const sim = simReplies(commands);
    expect(sim.every((r) => r.type === 'error' && r.value === "CROSSSLOT Keys in request don't hash to the same slot")).toBe(true);
    for (const node of three.nodes) {
      const client = await RespClient.connect(node.port);
      try {
        for (const [i, argv] of commands.entries()) expect(await client.send(argv)).toEqual(sim[i]);
      } finally {
        await client.close();
      }
    }
  });

  it('leaves a server without cluster mode as it was: keys in any slots mix freely', () => {
    const server = new SimRedisServer();
    expect(server.execute(['MSET', 'lock', '1', 'fence', '2'], 0)).toEqual({ type: 'status', value: 'OK' });
    expect(server.execute(['EVAL', "return redis.call('incr', KEYS[2])", '2', 'lock', 'fence'], 0)).toEqual({ type: 'integer', value: '3' });
  });
});
