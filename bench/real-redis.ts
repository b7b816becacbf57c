import Redis from 'ioredis';
import { startRealRedis } from '../tests/support/real-redis';
import { measureAsync } from './measure';

/** One command as the bench sends it: a name and its arguments. */
export type Argv = readonly (string | number)[];

export const PIPELINE_BATCH = 100;

/**
 * A real redis-server's rate for a workload, over loopback through ioredis: each command awaited,
 * and pipelined by PIPELINE_BATCH. `prepare` runs first (setup and a check of the reply). When no
 * server can start, the reason instead, for the table's note.
 */
export async function realRedisRates(workload: readonly Argv[], prepare?: (client: Redis) => Promise<void>): Promise<{ awaited: number; pipelined: number } | string> {
  let server;
  try {
    server = await startRealRedis();
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
  const client = new Redis({ port: server.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    await prepare?.(client);
    const awaited = await measureAsync(async () => {
      for (const [name, ...args] of workload) await client.call(String(name), ...args);
      return workload.length;
    });
    const pipelined = await measureAsync(async () => {
      const pipeline = client.pipeline();
      for (let i = 0; i < PIPELINE_BATCH; i++) {
        const [name, ...args] = workload[i % workload.length];
        pipeline.call(String(name), ...args);
      }
      await pipeline.exec();
      return PIPELINE_BATCH;
    });
    return { awaited, pipelined };
  } finally {
    client.disconnect();
    await server.stop();
  }
}
