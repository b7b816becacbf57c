// Real lock libraries, unmodified, under Lockstep: redis-semaphore's Mutex (refresh on) and
// Semaphore, and redlock 5.0.0-beta.2 (acquire with retries, using() with auto-extension, three
// nodes). Their own setTimeout, setInterval, Date.now() and crypto run on Lockstep's virtual clock
// and seed; their ioredis is the real one (this project's), talking to the simulated Redis.
import Redis from 'ioredis';
import Redlock from 'redlock';
import { Mutex, Semaphore } from 'redis-semaphore';
import { describe, expect, it } from 'vitest';
import { explore, simulate, type AsyncClientCode } from 'lockstep';

/** redis-semaphore's Mutex around a critical section; with refresh on, its refresh runs as A·1, A·2, … */
const mutexJob =
  (lockTimeout: number, refreshInterval: number): AsyncClientCode =>
  async (redis, ctx) => {
    // The client Lockstep gives your code is a real ioredis instance when your project has ioredis 5.
    expect(redis).toBeInstanceOf(Redis);
    const mutex = new Mutex(redis as unknown as Redis, 'orders', { lockTimeout, refreshInterval, acquireAttemptsLimit: 1, onLockLost: () => {} });
    if (!(await mutex.tryAcquire())) return;
    ctx.enter();
    await ctx.work(2500);
    ctx.leave();
    await mutex.release();
  };

describe('real lock libraries, unmodified', () => {
  it('redis-semaphore Mutex: refresh on holds the lock through long work; refresh off loses it, and the explorer finds where', async () => {
    const held = await explore({ clients: { A: mutexJob(1000, 400), B: mutexJob(1000, 400) }, lockKey: 'mutex:orders', depthMax: 6 });
    expect(held.violations).toEqual([]);
    const lost = await explore({ clients: { A: mutexJob(1000, 0), B: mutexJob(1000, 0) }, lockKey: 'mutex:orders', depthMax: 6 });
    expect(lost.violations[0]?.kind).toBe('mutual-exclusion');
    const replay = await simulate({ clients: { A: mutexJob(1000, 0), B: mutexJob(1000, 0) }, lockKey: 'mutex:orders', schedule: lost.violations[0].schedule });
    expect(replay.violations.map((v) => v.kind)).toContain('mutual-exclusion');
  });

  it('redis-semaphore Semaphore (a sorted set): a third client waits for one of two slots', async () => {
    const entered: string[] = [];
    const job =
      (workMs: number): AsyncClientCode =>
      async (redis, ctx) => {
        const semaphore = new Semaphore(redis as unknown as Redis, 'jobs', 2, { lockTimeout: 5000, refreshInterval: 0, acquireTimeout: 10_000, retryInterval: 100 });
        await semaphore.acquire();
        entered.push(`${ctx.id}@${ctx.now()}`);
        await ctx.work(workMs);
        await semaphore.release();
      };
    await simulate({ clients: { A: job(300), B: job(2000), C: job(100) }, lockKey: 'no-lock', schedule: 'A B C +1000' });
    expect(entered).toEqual(['A@0', 'B@0', 'C@300']);
  });

  it('redlock on three nodes: using() extends on every node; a restart without persistence breaks the quorum', async () => {
    const using: AsyncClientCode = async (_redis, ctx) => {
      const redlock = new Redlock(ctx.nodes as unknown as Redis[], { retryCount: 3, retryDelay: 200 });
      await redlock.using(['orders'], 1000, async () => {
        ctx.enter();
        await ctx.work(2500);
        ctx.leave();
      });
    };
    const extended = await simulate({ nodes: ['r1', 'r2', 'r3'], lockKey: 'orders', clients: { A: using }, schedule: 'A +3000' });
    const extensionNodes = new Set(extended.trace.events.flatMap((e) => (e.kind === 'command' && e.clientId?.startsWith('A·') ? [e.node] : [])));
    expect(extensionNodes).toEqual(new Set(['r1', 'r2', 'r3']));

    const once: AsyncClientCode = async (_redis, ctx) => {
      const lock = await new Redlock(ctx.nodes as unknown as Redis[], { retryCount: 0 }).acquire(['orders'], 10_000).catch(() => null);
      if (lock === null) return;
      ctx.enter();
      await ctx.work(5000);
      ctx.leave();
    };
    const found = await explore({ nodes: ['r1', 'r2', 'r3'], lockKey: 'orders', clients: { A: once, B: once }, faults: { nodeCrashes: 1, nodes: ['r2'] }, invariants: ['mutual-exclusion'], depthMax: 12 });
    expect(found.violations[0]?.schedule).toMatch(/!@r2 \^@r2/);
  });
});
