import { Worker } from 'node:worker_threads';
import { SimRedisServer } from '../src/engine/redis/server';
import { createMock } from './ioredis-mock';
import { ROUND_COUNT, ROUND_MS, measure, measureAsync } from './measure';
import { PIPELINE_BATCH, realRedisRates } from './real-redis';
import type { BenchRow, BenchTable } from './run';

/**
 * EVAL of the compare-and-delete unlock script, side by side, in one run:
 * - the engine: SimRedisServer.execute(EVAL ...), script cached after the first call;
 * - ioredis-mock 8.13.1 (the library Lockstep outgrew) through its promise API, awaited;
 * - a real redis-server over loopback through ioredis, awaited one by one and pipelined by 100;
 * - plain fengari running the same compiled script with no Redis layer (the upper bound).
 * The lock is held by another token, so each EVAL runs GET, compares, and returns 0: the same
 * work everywhere, and the keyspace does not change between iterations.
 */

const UNLOCK = "if redis.call('get',KEYS[1]) == ARGV[1] then return redis.call('del',KEYS[1]) else return 0 end";
const WARMUP_COUNT = 20_000;

function engineRate(): number {
  const server = new SimRedisServer();
  const nowMs = 1_000;
  server.execute(['SET', 'lock', 'tok'], nowMs);
  const argv = ['EVAL', UNLOCK, '1', 'lock', 'other'];
  const first = server.execute(argv, nowMs);
  if (first.type !== 'integer' || first.value !== '0') throw new Error(`engine EVAL answered ${JSON.stringify(first)}`);
  return measure(() => {
    server.execute(argv, nowMs);
  });
}

function plainFengariRate(): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./plain-fengari.worker.mjs', import.meta.url), {
      workerData: { script: UNLOCK, roundCount: ROUND_COUNT, roundMs: ROUND_MS, warmupCount: WARMUP_COUNT },
    });
    worker.once('message', (message: { opsPerSec: number }) => resolve(message.opsPerSec));
    worker.once('error', reject);
  });
}

async function ioredisMockRate(): Promise<number> {
  const mock = createMock();
  try {
    await mock.set('lock', 'tok');
    const first = await mock.eval(UNLOCK, 1, 'lock', 'other');
    if (first !== 0) throw new Error(`ioredis-mock EVAL answered ${String(first)}`);
    return await measureAsync(async () => {
      await mock.eval(UNLOCK, 1, 'lock', 'other');
      return 1;
    });
  } finally {
    mock.disconnect();
  }
}

export async function run(): Promise<BenchTable> {
  const plain = await plainFengariRate();
  const engine = engineRate();
  const mock = await ioredisMockRate();
  const real = await realRedisRates([['eval', UNLOCK, 1, 'lock', 'other']], async (client) => {
    await client.set('lock', 'tok');
    const first = await client.eval(UNLOCK, 1, 'lock', 'other');
    if (first !== 0) throw new Error(`redis EVAL answered ${String(first)}`);
  });
  const rows: BenchRow[] = [
    { name: 'engine: SimRedisServer EVAL (cached)', opsPerSec: engine },
    { name: 'ioredis-mock 8.13.1 eval, awaited', opsPerSec: mock, note: 'a new Lua VM per EVAL' },
    { name: 'plain fengari, no Redis layer', opsPerSec: plain, note: 'upper bound' },
  ];
  if (typeof real === 'string') {
    rows.push({ name: 'redis-server via ioredis, awaited', opsPerSec: null, note: real });
    rows.push({ name: `redis-server via ioredis, pipelined x${PIPELINE_BATCH}`, opsPerSec: null, note: real });
  } else {
    rows.push({ name: 'redis-server via ioredis, awaited', opsPerSec: real.awaited, note: 'loopback round trip each' });
    rows.push({ name: `redis-server via ioredis, pipelined x${PIPELINE_BATCH}`, opsPerSec: real.pipelined });
  }
  return { title: 'EVAL of the unlock script (GET, compare, return 0)', unit: 'EVALs/s', rows, baseline: 'plain fengari, no Redis layer' };
}
