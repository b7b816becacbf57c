import { SimRedisServer } from '../src/engine/redis/server';
import { createMock } from './ioredis-mock';
import { measure, measureAsync } from './measure';
import { PIPELINE_BATCH, realRedisRates, type Argv } from './real-redis';
import type { BenchRow, BenchTable } from './run';

/**
 * Plain commands, side by side in one run: Lockstep's server (synchronous execute), ioredis-mock
 * 8.13.1 through its promise API (awaited, as an application would), and a real redis-server
 * over loopback through ioredis (awaited, and pipelined by 100). Two workloads: a lock's
 * acquire, check and release (SET NX PX, GET, DEL) and list and set traffic (the commands
 * ioredis-mock used to execute for Lockstep). Then what an explorer does millions of times:
 * snapshot and restore of a 100-key keyspace.
 */

const LOCK_CYCLE: readonly Argv[] = [['set', 'lock', 'tok', 'NX', 'PX', 30000], ['get', 'lock'], ['del', 'lock']];
const LIST_SET: readonly Argv[] = [['lpush', 'q', 'a'], ['llen', 'q'], ['rpop', 'q'], ['sadd', 's', 'm'], ['sismember', 's', 'm'], ['srem', 's', 'm']];
const SNAPSHOT_KEYS = 100;

function lockstepRate(workload: readonly Argv[]): number {
  const server = new SimRedisServer();
  const argvs = workload.map((argv) => argv.map(String));
  let i = 0;
  return measure(() => {
    server.execute(argvs[i++ % argvs.length], 1_000);
  });
}

async function mockRate(workload: readonly Argv[]): Promise<number> {
  const mock = createMock();
  try {
    return await measureAsync(async () => {
      for (const [name, ...args] of workload) await mock[name as string](...args);
      return workload.length;
    });
  } finally {
    mock.disconnect();
  }
}

async function workloadTable(title: string, workload: readonly Argv[]): Promise<BenchTable> {
  const lockstep = lockstepRate(workload);
  const mock = await mockRate(workload);
  const real = await realRedisRates(workload);
  const rows: BenchRow[] = [
    { name: 'Lockstep: SimRedisServer.execute', opsPerSec: lockstep },
    { name: 'ioredis-mock 8.13.1, awaited', opsPerSec: mock },
  ];
  if (typeof real === 'string') rows.push({ name: 'redis-server via ioredis', opsPerSec: null, note: real });
  else {
    rows.push({ name: 'redis-server via ioredis, awaited', opsPerSec: real.awaited, note: 'loopback round trip each' });
    rows.push({ name: `redis-server via ioredis, pipelined x${PIPELINE_BATCH}`, opsPerSec: real.pipelined });
  }
  return { title, unit: 'commands/s', rows, baseline: 'Lockstep: SimRedisServer.execute' };
}

function snapshotTable(): BenchTable {
  const server = new SimRedisServer();
  for (let i = 0; i < SNAPSHOT_KEYS; i++) {
    if (i % 4 === 0) server.execute(['HSET', `h${i}`, 'owner', 'a', 'count', '1'], 0);
    else if (i % 4 === 1) server.execute(['RPUSH', `l${i}`, 'a', 'b', 'c'], 0);
    else server.execute(['SET', `k${i}`, `v${i}`, 'PX', '30000'], 0);
  }
  const snapshot = server.snapshot();
  return {
    title: `Keyspace snapshots (${SNAPSHOT_KEYS} keys: strings with TTLs, hashes, lists)`,
    unit: 'ops/s',
    rows: [
      { name: 'snapshot()', opsPerSec: measure(() => void server.snapshot(), 100) },
      { name: 'restore(snapshot)', opsPerSec: measure(() => server.restore(snapshot), 100) },
      { name: 'JSON.stringify(snapshot()) (the state key)', opsPerSec: measure(() => void JSON.stringify(server.snapshot()), 10) },
    ],
    baseline: 'snapshot()',
  };
}

export async function run(): Promise<BenchTable[]> {
  return [
    await workloadTable('Plain commands: a lock cycle (SET NX PX, GET, DEL)', LOCK_CYCLE),
    await workloadTable('Plain commands: lists and sets (LPUSH, LLEN, RPOP, SADD, SISMEMBER, SREM)', LIST_SET),
    snapshotTable(),
  ];
}
