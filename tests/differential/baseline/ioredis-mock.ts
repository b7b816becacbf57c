import { Worker } from 'node:worker_threads';
import type { Reply } from '../../../src/engine/redis/reply';
import type { Executor, Observation } from '../harness';

/**
 * ioredis-mock 8.13 as an executor: the fidelity baseline Lockstep's own server is measured
 * against (docs/REDIS-FIDELITY.md). Commands go through the mock's public API as a user of the
 * library would call them (`redis.set(...)`, `redis.multi()...exec()`), each connection a mock
 * instance on the case's own keyspace; its replies are plain JS values, converted naively to typed
 * replies (a string is a status reply when it is one of the usual status words, else bulk).
 * Messages arrive as the instances' `message` events. It runs in a worker thread
 * (ioredis-mock.worker.mjs): a command the mock never finishes is stopped after
 * COMMAND_WAIT_MS and answered with an error, so it counts as a mismatch. Not a test subject: its
 * mismatches are counted, never fixed.
 */

const COMMAND_WAIT_MS = 2_000;

let worker: Worker | null = null;

function baselineWorker(): Worker {
  worker ??= new Worker(new URL('./ioredis-mock.worker.mjs', import.meta.url));
  worker.unref();
  return worker;
}

function request<T>(message: object): Promise<T | null> {
  const current = baselineWorker();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      current.off('message', onMessage);
      // The mock is stuck in a synchronous loop: only stopping the thread ends it.
      void current.terminate();
      if (worker === current) worker = null;
      resolve(null);
    }, COMMAND_WAIT_MS);
    const onMessage = (answer: T) => {
      clearTimeout(timer);
      resolve(answer);
    };
    current.once('message', onMessage);
    current.postMessage(message);
  });
}

export function ioredisMockExecutor(): Executor {
  let ready: Promise<unknown> | null = null;
  let stopped = false;
  return {
    unixNowMs: () => Date.now(),
    async run(connection, argv): Promise<Observation> {
      ready ??= request({ type: 'reset' });
      await ready;
      if (stopped) return { reply: { type: 'error', value: 'BASELINE ioredis-mock was stopped earlier in this case' }, pushes: {}, unixNowMs: Date.now() };
      const answer = await request<{ reply: Reply; pushes: Record<string, Reply[]> }>({ type: 'run', connection, argv: [...argv] });
      if (answer === null) {
        stopped = true;
        return { reply: { type: 'error', value: `BASELINE ioredis-mock did not answer within ${COMMAND_WAIT_MS} ms` }, pushes: {}, unixNowMs: Date.now() };
      }
      return { ...answer, unixNowMs: Date.now() };
    },
  };
}

/** Ends the worker (at the end of a measurement). */
export async function stopIoredisMockBaseline(): Promise<void> {
  const current = worker;
  worker = null;
  await current?.terminate();
}
