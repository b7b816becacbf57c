/**
 * Goal: real lock libraries run UNMODIFIED as Lockstep clients, on virtual time (issue 24). Their
 * own setTimeout retries, setInterval refreshes, Date.now deadlines, crypto.randomUUID and
 * crypto.randomBytes identifiers and Math.random jitter are answered by the run: timers are
 * activities of the client's process (`A·1`), so a stall freezes a refresh and the explorer can
 * schedule it. The explorer finds the lock's real violation where one exists (a Mutex whose lock
 * expires under a stall, with refresh off) and none where the library holds (refresh on, Redlock's
 * auto-extension), within its bounds.
 *
 * redis-semaphore 5.8.0 (CommonJS, `require('node:crypto')`) and redlock 5.0.0-beta.2 (an ES module:
 * `import { randomBytes } from "crypto"`, the live binding that needs syncBuiltinESMExports) are
 * pinned devDependencies. redis-semaphore's Semaphore needs sorted sets (ZADD), which this branch's
 * simulated Redis does not have yet: only its Mutex is tested here.
 */
import { Mutex, Semaphore } from 'redis-semaphore';
import Redlock from 'redlock';
import { describe, expect, it } from 'vitest';
import { AsyncClientError, explore, simulate, type AsyncClientCode, type LockstepRedis } from '../../src/api';
import { virtualGlobalsInstalled } from '../../src/api/async/virtual-globals';

type MutexClient = ConstructorParameters<typeof Mutex>[0];
type RedlockClient = ConstructorParameters<typeof Redlock>[0] extends Iterable<infer C> ? C : never;
/** The libraries type their client as ioredis; Lockstep's has the methods they call. */
const asMutexClient = (redis: LockstepRedis) => redis as unknown as MutexClient;
const asRedlockClient = (redis: LockstepRedis) => redis as unknown as RedlockClient;

/**
 * redis-semaphore's Mutex around a critical section of `workMs`; it retries every 100 ms for up to
 * 10 s. `onLockLost`: the library's default throws inside its setInterval callback (in Node, an
 * unhandled rejection).
 */
const mutexJob =
  (options: { readonly lockTimeout: number; readonly refreshInterval: number; readonly workMs: number; readonly retryInterval?: number; readonly onLockLost?: () => void }): AsyncClientCode =>
  async (redis, ctx) => {
    const mutex = new Mutex(asMutexClient(redis), 'orders', {
      lockTimeout: options.lockTimeout,
      refreshInterval: options.refreshInterval,
      acquireTimeout: 10_000,
      retryInterval: options.retryInterval ?? 100,
      ...(options.onLockLost ? { onLockLost: options.onLockLost } : {}),
    });
    await mutex.acquire();
    ctx.enter();
    await ctx.work(options.workMs);
    ctx.leave();
    await mutex.release();
  };

/** Redlock on one node: acquire (with retries and jitter), the critical section, release. */
const redlockAcquireJob =
  (workMs: number): AsyncClientCode =>
  async (redis, ctx) => {
    const redlock = new Redlock([asRedlockClient(redis)], { retryCount: 20, retryDelay: 200, retryJitter: 100 });
    const lock = await redlock.acquire(['orders'], 1000);
    ctx.enter();
    await ctx.work(workMs);
    ctx.leave();
    await lock.release();
  };

/** Redlock's using(): the lock is extended automatically while the routine runs. */
const redlockUsingJob =
  (workMs: number): AsyncClientCode =>
  async (redis, ctx) => {
    const redlock = new Redlock([asRedlockClient(redis)], { retryCount: 40, retryDelay: 200, retryJitter: 100 });
    await redlock.using(['orders'], 1000, async () => {
      ctx.enter();
      await ctx.work(workMs);
      ctx.leave();
    });
  };

const commandsOf = (events: readonly { kind: string; clientId: string | null; atMs: number; argv?: readonly string[] }[]) =>
  events.filter((e) => e.kind === 'command').map((e) => `${e.clientId} ${(e.argv ?? [])[0]} @${e.atMs}`);

describe('redis-semaphore 5.8.0 Mutex, unmodified', () => {
  it('retries on its own setTimeout and refreshes on its setInterval: the refresh runs as A·k at its due times and keeps B out', async () => {
    const job = mutexJob({ lockTimeout: 1000, refreshInterval: 400, workMs: 2000 });
    const result = await simulate({ clients: { A: job, B: job }, lockKey: 'mutex:orders', schedule: 'A B +4000' });
    expect(result.violations).toEqual([]);
    const events = result.trace.events;
    // The refresh is an activity of A's process (EVALSHA; EVAL once, on NOSCRIPT), every 400 ms of virtual time.
    const refreshes = events.filter((e) => e.kind === 'command' && e.clientId?.startsWith('A·') && e.argv[0] === 'evalsha').map((e) => e.atMs);
    expect(refreshes.slice(0, 4)).toEqual([400, 800, 1200, 1600]);
    expect(new Set(events.filter((e) => e.kind === 'command' && e.clientId?.startsWith('A·')).map((e) => e.clientId)).size).toBeGreaterThanOrEqual(4);
    // B retried every 100 ms (its own timers B·1, B·2, …) and got the lock only after A released it.
    const bSets = events.filter((e) => e.kind === 'command' && e.clientId === 'B' && e.argv[0] === 'set');
    expect(bSets.map((e) => e.atMs).slice(0, 3)).toEqual([0, 100, 200]);
    const enters = events.filter((e) => e.kind === 'enter').map((e) => [e.clientId, e.atMs]);
    expect(enters).toEqual([
      ['A', 0],
      ['B', 2000],
    ]);
    // Its identifier came from crypto.randomUUID, seeded: a UUID v4 shape, different for A and B.
    const values = events.filter((e) => e.kind === 'command' && e.argv[0] === 'set' && e.clientId !== null).map((e) => (e.kind === 'command' ? e.argv[2] : ''));
    expect(values[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(values).size).toBe(2);
    expect(virtualGlobalsInstalled()).toBe(false);
  });

  it('a stall of A’s process freezes its refresh too: the lock expires and B enters beside A (the trace says the refresh fired late)', async () => {
    const lost: number[] = [];
    const job = mutexJob({ lockTimeout: 1000, refreshInterval: 400, workMs: 2000, onLockLost: () => void lost.push(1) });
    const result = await simulate({ clients: { A: job, B: job }, lockKey: 'mutex:orders', schedule: 'A B A~1500 +4000' });
    expect(result.violations.map((v) => v.kind)).toContain('mutual-exclusion');
    const late = result.trace.events.find((e) => e.kind === 'wake' && e.clientId?.startsWith('A·') && e.lateMs > 0);
    expect(late?.kind === 'wake' && late.lateCause).toBe('stall');
    // The late refresh found B's value: the library reported the lost lock (A was still inside).
    expect(lost.length).toBeGreaterThan(0);
  });

  it('with its default onLockLost, the throw inside the interval stops the run naming the activity', async () => {
    const job = mutexJob({ lockTimeout: 1000, refreshInterval: 400, workMs: 2000 });
    const error = await simulate({ clients: { A: job, B: job }, lockKey: 'mutex:orders', schedule: 'A B A~1500 +4000' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AsyncClientError);
    expect((error as AsyncClientError).clientId).toBe('A');
    expect((error as AsyncClientError).activityId).toMatch(/^A·[0-9]+$/);
    expect((error as Error).message).toMatch(/a setInterval's run\) threw: Lost mutex for key mutex:orders/);
  });

  it('the explorer finds the expiry race with refresh off (lockTimeout 1000 ms, one stall), and its schedule replays it', async () => {
    const job = mutexJob({ lockTimeout: 1000, refreshInterval: 0, workMs: 300 });
    const found = await explore({ clients: { A: job, B: job }, lockKey: 'mutex:orders', faults: { stalls: 1, stallLengthsMs: [2000] }, invariants: ['mutual-exclusion'], depthMax: 8 });
    expect(found.violations.map((v) => v.kind)).toEqual(['mutual-exclusion']);
    const replay = await simulate({ clients: { A: job, B: job }, lockKey: 'mutex:orders', schedule: found.violations[0].schedule });
    expect(replay.violations.map((v) => v.kind)).toContain('mutual-exclusion');
  });

  it('work longer than lockTimeout, no faults: refresh off loses the lock within the bounds, refresh on holds it', async () => {
    const bounds = { lockKey: 'mutex:orders', depthMax: 7, runCountMax: 2000, invariants: ['mutual-exclusion'] as const };
    const off = mutexJob({ lockTimeout: 1000, refreshInterval: 0, workMs: 1500, retryInterval: 500 });
    const unsafe = await explore({ clients: { A: off, B: off }, ...bounds });
    // The bounds reach the expiry: without refresh the lock runs out under A's feet.
    expect(unsafe.violations.map((v) => v.kind)).toEqual(['mutual-exclusion']);
    const on = mutexJob({ lockTimeout: 1000, refreshInterval: 400, workMs: 1500, retryInterval: 500 });
    const safe = await explore({ clients: { A: on, B: on }, ...bounds });
    expect(safe.violations).toEqual([]);
    expect(safe.statesExplored).toBeGreaterThan(10);
  });
});

describe('redlock 5.0.0-beta.2 on one node, unmodified', () => {
  it('acquire with retries (setTimeout, Math.random jitter) and release: B waits for A', async () => {
    const result = await simulate({ clients: { A: redlockAcquireJob(300), B: redlockAcquireJob(300) }, lockKey: 'orders', schedule: 'A B +5000' });
    expect(result.violations).toEqual([]);
    const enters = result.trace.events.filter((e) => e.kind === 'enter').map((e) => e.clientId);
    expect(enters).toEqual(['A', 'B']);
    // Its value is crypto.randomBytes(16) through the ES module's named import (a live binding,
    // patched with syncBuiltinESMExports): 32 hex digits, the same for the same seed, other for another.
    const valueOf = (r: typeof result) => {
      const sent = r.trace.events.find((e) => e.kind === 'command' && e.clientId === 'A' && e.argv[0] === 'evalsha');
      return sent?.kind === 'command' ? sent.argv[4] : null;
    };
    expect(valueOf(result)).toMatch(/^[0-9a-f]{32}$/);
    const again = await simulate({ clients: { A: redlockAcquireJob(300), B: redlockAcquireJob(300) }, lockKey: 'orders', schedule: 'A B +5000' });
    const otherSeed = await simulate({ clients: { A: redlockAcquireJob(300), B: redlockAcquireJob(300) }, lockKey: 'orders', schedule: 'A B +5000', seed: 2 });
    expect(valueOf(again)).toBe(valueOf(result));
    expect(valueOf(otherSeed)).not.toBe(valueOf(result));
    expect(JSON.stringify(again.trace)).toBe(JSON.stringify(result.trace));
  });

  it('the explorer finds the GC-pause race in acquire/release (Redlock has no fencing)', async () => {
    const found = await explore({ clients: { A: redlockAcquireJob(300), B: redlockAcquireJob(300) }, lockKey: 'orders', faults: { stalls: 1, stallLengthsMs: [2000] }, invariants: ['mutual-exclusion'], depthMax: 8 });
    expect(found.violations.map((v) => v.kind)).toEqual(['mutual-exclusion']);
  });

  it('using() extends the lock on its own timer while the routine runs: A·k extends, B enters only after A', async () => {
    const result = await simulate({ clients: { A: redlockUsingJob(2500), B: redlockUsingJob(300) }, lockKey: 'orders', schedule: 'A B +8000' });
    expect(result.violations).toEqual([]);
    const extensions = commandsOf(result.trace.events as never).filter((c) => c.startsWith('A·'));
    expect(extensions.length).toBeGreaterThanOrEqual(3);
    const enters = result.trace.events.filter((e) => e.kind === 'enter').map((e) => [e.clientId, e.atMs]);
    expect(enters[0]).toEqual(['A', 0]);
    expect(enters[1][0]).toBe('B');
    expect(enters[1][1]).toBeGreaterThanOrEqual(2500);
  });

  it('using() with no faults: the explorer finds no violation', async () => {
    const result = await explore({ clients: { A: redlockUsingJob(1500), B: redlockUsingJob(300) }, lockKey: 'orders', depthMax: 5, runCountMax: 600 });
    expect(result.violations).toEqual([]);
  });
});

describe('redis-semaphore 5.8.0 Semaphore (sorted sets), unmodified', () => {
  /** A counting semaphore of 2 (its acquire script keeps a sorted set scored by the client's virtual Date.now()). */
  const semaphoreJob =
    (workMs: number, entered: [string, number][] = []): AsyncClientCode =>
    async (redis, ctx) => {
      const semaphore = new Semaphore(asMutexClient(redis), 'jobs', 2, { lockTimeout: 5000, refreshInterval: 0, acquireTimeout: 10_000, retryInterval: 100 });
      await semaphore.acquire();
      entered.push([ctx.id, ctx.now()]);
      await ctx.work(workMs);
      await semaphore.release();
    };

  it('two holders at most: C waits for a free slot (its retries on its own timers), and enters when A releases', async () => {
    const entered: [string, number][] = [];
    const run = await simulate({
      // A semaphore is not a lock: no key for the lock checkers to watch.
      lockKey: 'no-lock',
      clients: { A: semaphoreJob(300, entered), B: semaphoreJob(2000, entered), C: semaphoreJob(100, entered) },
      schedule: 'A B C +1000',
    });
    expect(entered.slice(0, 2)).toEqual([
      ['A', 0],
      ['B', 0],
    ]);
    // C's retries (every 100 ms on its own timer) find both slots taken until A releases at t=300.
    expect(entered[2][0]).toBe('C');
    expect(entered[2][1]).toBeGreaterThanOrEqual(300);
    expect(entered[2][1]).toBeLessThan(500);
    // The sorted set was real: ZADD's members, scored by each client's virtual clock, inside the script.
    expect(run.trace.events.some((e) => e.kind === 'command' && e.argv[0].startsWith('eval') && e.argv.some((a) => a.includes('zadd')))).toBe(true);
  });

  it('the explorer searches three Semaphore clients with no violation', async () => {
    const result = await explore({ clients: { A: semaphoreJob(300), B: semaphoreJob(300), C: semaphoreJob(300) }, lockKey: 'no-lock', depthMax: 6, runCountMax: 3000 });
    expect(result.violations).toEqual([]);
    expect(result.statesExplored).toBeGreaterThan(10);
  });
});

describe('redlock 5.0.0-beta.2 on three nodes, unmodified', () => {
  const quorumJob =
    (workMs: number): AsyncClientCode =>
    async (_redis, ctx) => {
      const redlock = new Redlock(ctx.nodes.map(asRedlockClient), { retryCount: 0 });
      const lock = await redlock.acquire(['orders'], 10_000).catch(() => null);
      if (lock === null) return;
      ctx.enter();
      await ctx.work(workMs);
      ctx.leave();
      await lock.release().catch(() => null);
    };

  it('using() auto-extends on three nodes: each extension goes to every node, from an activity of A', async () => {
    const job: AsyncClientCode = async (_redis, ctx) => {
      const redlock = new Redlock(ctx.nodes.map(asRedlockClient), { retryCount: 0 });
      await redlock.using(['orders'], 1000, async () => {
        ctx.enter();
        await ctx.work(2500);
        ctx.leave();
      });
    };
    const run = await simulate({ nodes: ['r1', 'r2', 'r3'], lockKey: 'orders', clients: { A: job }, schedule: 'A +3000' });
    const extensions = run.trace.events.filter((e) => e.kind === 'command' && e.clientId !== 'A' && e.clientId?.startsWith('A·') && e.argv[0].startsWith('eval'));
    expect(new Set(extensions.map((e) => (e.kind === 'command' ? e.node : null)))).toEqual(new Set(['r1', 'r2', 'r3']));
    expect(run.violations).toEqual([]);
  });

  it('the explorer finds the quorum broken by a node restart without persistence (the Redlock debate), and its schedule replays', async () => {
    const result = await explore({ nodes: ['r1', 'r2', 'r3'], lockKey: 'orders', clients: { A: quorumJob(5000), B: quorumJob(5000) }, faults: { nodeCrashes: 1, nodes: ['r2'] }, invariants: ['mutual-exclusion'], depthMax: 16, runCountMax: 20000 });
    const [found] = result.violations;
    expect(found?.kind).toBe('mutual-exclusion');
    expect(found?.schedule).toMatch(/!@r\d/);
    const replay = await simulate({ nodes: ['r1', 'r2', 'r3'], lockKey: 'orders', clients: { A: quorumJob(5000), B: quorumJob(5000) }, schedule: found?.schedule });
    expect(replay.violations.map((v) => v.kind)).toContain('mutual-exclusion');
  });
});
