/**
 * Goal: inside async clients' code, time and randomness are the run's (async/virtual-globals.ts):
 * timers are activities `A·1`, `A·2` of the client's process, fired at their due virtual time;
 * Date, performance.now, process.hrtime read the virtual clock; process.nextTick is a microtask of
 * the same activity; Math.random and crypto draw from the run's seed per client and activity.
 * Outside clients' code, and after the run, the globals are the real ones. The same seed and
 * schedule give byte-identical traces (fast-check); another seed gives other random values.
 */
import nodeCrypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AsyncClientError, simulate, UncontrolledAwaitError, type AsyncClientCode } from '../../src/api';
import { actorStorage, VirtualTimer, virtualGlobalsInstalled } from '../../src/api/async/virtual-globals';
import { DEFAULT_UNIX_EPOCH_MS } from '../../src/engine/redis/time';
import type { Choice } from '../../src/engine/schedule';
import { formatSchedule } from '../../src/engine/schedule';

const realSetTimeout = globalThis.setTimeout;
const RealDate = globalThis.Date;
const realRandom = Math.random;
const realRandomBytes = nodeCrypto.randomBytes;

/** Writes what the code saw into Redis, so it lands in the trace. */
const report = (redis: Parameters<AsyncClientCode>[0], key: string, value: unknown) => redis.set(key, JSON.stringify(value));

describe('virtual time in clients’ code', () => {
  it('setTimeout is an activity fired at its due virtual time; Date, performance.now and hrtime read the virtual clock', async () => {
    const result = await simulate({
      clients: {
        A: async (redis) => {
          const startedAt = Date.now();
          const perf = performance.now();
          await new Promise((resolve) => setTimeout(resolve, 2500));
          await report(redis, 'seen', { startedAt, perf, after: Date.now(), dateObject: new Date().getTime(), perfAfter: performance.now(), hr: Number(process.hrtime.bigint() / 1_000_000n), hrPair: process.hrtime()[0] });
        },
      },
      schedule: 'A +5000',
    });
    const seen = JSON.parse(result.keys.find((k) => k.key === 'seen')?.value as string);
    expect(seen).toEqual({ startedAt: DEFAULT_UNIX_EPOCH_MS, perf: 0, after: DEFAULT_UNIX_EPOCH_MS + 2500, dateObject: DEFAULT_UNIX_EPOCH_MS + 2500, perfAfter: 2500, hr: 2500, hrPair: 2 });
    const timer = result.trace.events.filter((e) => e.clientId === 'A·1').map((e) => `${e.kind}@${e.atMs}`);
    expect(timer).toEqual(['start@0', 'block@0', 'wake@2500', 'end@2500']);
    // Restored after the run: the test's own globals are the real ones.
    expect(virtualGlobalsInstalled()).toBe(false);
    expect([globalThis.setTimeout, globalThis.Date, Math.random, nodeCrypto.randomBytes]).toEqual([realSetTimeout, RealDate, realRandom, realRandomBytes]);
  });

  it('while a run is going, code that is not a client’s (outside its AsyncLocalStorage context) gets the real globals', async () => {
    let outside: { now: number; timer: unknown } | null = null;
    await simulate({
      clients: {
        A: async (redis) => {
          // What the test runner's own code sees meanwhile: real time, a real timer.
          outside = actorStorage.exit(() => {
            const timer = setTimeout(() => undefined, 1);
            clearTimeout(timer);
            return { now: Date.now(), timer };
          });
          await redis.get('k');
        },
      },
      schedule: 'A',
    });
    expect(outside).not.toBeNull();
    const seen = outside as unknown as { now: number; timer: unknown };
    expect(Math.abs(seen.now - RealDate.now())).toBeLessThan(60_000);
    expect(seen.timer).not.toBeInstanceOf(VirtualTimer);
  });

  it('clearTimeout cancels a pending timer; setInterval runs are activities of their own; setImmediate and nextTick run in order', async () => {
    const result = await simulate({
      clients: {
        A: async (redis) => {
          const order: string[] = [];
          const cancelled = setTimeout(() => order.push('never'), 100);
          clearTimeout(cancelled);
          process.nextTick(() => order.push('tick'));
          await new Promise<void>((resolve) => setImmediate(() => (order.push('immediate'), resolve())));
          let runs = 0;
          await new Promise<void>((resolve) => {
            const interval = setInterval(() => {
              runs += 1;
              if (runs === 3) {
                clearInterval(interval);
                resolve();
              }
            }, 1000);
          });
          await report(redis, 'order', [...order, runs, Date.now() - DEFAULT_UNIX_EPOCH_MS]);
        },
      },
      schedule: 'A +10000',
    });
    expect(JSON.parse(result.keys.find((k) => k.key === 'order')?.value as string)).toEqual(['tick', 'immediate', 3, 3000]);
    const started = result.trace.events.filter((e) => e.kind === 'start' && e.clientId !== 'A').map((e) => e.clientId);
    // A·1 the cancelled timeout, A·2 the immediate, A·3..A·5 the interval's runs (A·6 its next run, cancelled).
    expect(started).toEqual(['A·1', 'A·2', 'A·3', 'A·4', 'A·5', 'A·6']);
    const ends = result.trace.events.filter((e) => e.kind === 'end' && (e.clientId === 'A·1' || e.clientId === 'A·6')).map((e) => [e.clientId, e.atMs]);
    expect(ends).toEqual([
      ['A·1', 0],
      ['A·6', 3000],
    ]);
  });

  it('a throw in a timer callback is an AsyncClientError naming client and activity', async () => {
    const error = await simulate({ clients: { A: () => void setTimeout(() => { throw new Error('boom'); }, 10) }, schedule: 'A +100' }).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(AsyncClientError);
    expect((error as AsyncClientError).activityId).toBe('A·1');
    expect((error as Error).message).toBe("clients.A: client A's activity A·1 (a setTimeout's callback) threw: boom");
  });

  it('a timer callback that awaits real I/O is an UncontrolledAwaitError naming the activity and its last action', async () => {
    const error = await simulate({
      clients: {
        A: (redis) =>
          void setTimeout(async () => {
            await redis.get('k');
            await new Promise(() => {});
          }, 10),
      },
      schedule: 'A +100',
    }).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(UncontrolledAwaitError);
    expect((error as UncontrolledAwaitError).activityId).toBe('A·1');
    expect((error as UncontrolledAwaitError).lastAction).toBe('get k (action 1)');
  });

  it('a schedule names an activity: `A·1` runs the world until A’s timer fires, then steps it', async () => {
    const code: AsyncClientCode = async (redis) => {
      setTimeout(() => void redis.set('by-timer', 'yes'), 700);
      await redis.get('k');
      await redis.set('main', 'done');
    };
    const result = await simulate({ clients: { A: code }, schedule: 'A A·1' });
    expect(result.schedule).toBe('A A·1');
    const set = result.trace.events.find((e) => e.kind === 'command' && e.clientId === 'A·1');
    expect(set?.atMs).toBe(700);
    // Before A's code creates it, A·1 does not exist: the schedule does not fit.
    await expect(simulate({ clients: { A: code }, schedule: 'A·1' })).rejects.toThrow(/no client "A·1"/);
  });

  it('with several Redis nodes, a timer’s commands travel over its client’s link and read its client’s clock', async () => {
    const code: AsyncClientCode = async (redis) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await redis.set('seen', String(Date.now() - DEFAULT_UNIX_EPOCH_MS));
    };
    const result = await simulate({ scenario: 'failover-before-replication', variant: 'async', clients: { A: code, B: async () => undefined }, schedule: 'A A@+2000 +1000' });
    const sent = result.trace.events.find((e) => e.kind === 'command' && e.clientId === 'A');
    expect(sent?.kind === 'command' && [sent.node, sent.atMs]).toEqual(['r1', 500]);
    // A's clock jumped 2 s ahead at t=0: the code woken by its timer at t=500 reads 2500.
    expect(result.keys.find((k) => k.key === 'seen')?.value).toBe('2500');
    // Partitioning A from the primary cuts its timers off too.
    const cut = await simulate({ scenario: 'failover-before-replication', variant: 'async', clients: { A: code, B: async () => undefined }, schedule: 'A A·1/@r1 +1000' });
    expect(cut.trace.events.some((e) => e.kind === 'drop' && e.clientId === 'A')).toBe(true);
  });

  it('a stalled process fires its timer late; a crash means it never fires', async () => {
    const code: AsyncClientCode = async (redis) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await redis.set('fired', String(Date.now() - DEFAULT_UNIX_EPOCH_MS));
    };
    const stalled = await simulate({ clients: { A: code }, schedule: 'A A~2000 +3000' });
    expect(stalled.keys.find((k) => k.key === 'fired')?.value).toBe('2000');
    const crashed = await simulate({ clients: { A: code }, schedule: 'A !A +3000' });
    expect(crashed.keys).toEqual([]);
  });
});

describe('virtual randomness: per client and activity, from the seed', () => {
  const draws: AsyncClientCode = async (redis) => {
    const inTimer = await new Promise<string>((resolve) => setTimeout(() => resolve(nodeCrypto.randomBytes(4).toString('hex')), 5));
    await report(redis, `draws`, [Math.random(), nodeCrypto.randomUUID(), crypto.randomUUID(), Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString('hex'), inTimer]);
  };
  const drawsOf = async (seed: number, schedule = 'A +100') => JSON.parse((await simulate({ clients: { A: draws }, schedule, seed })).keys.find((k) => k.key === 'draws')?.value as string) as unknown[];

  it('same seed, same values; another seed, other values; the interleaving does not change them', async () => {
    const first = await drawsOf(7);
    expect(await drawsOf(7, 'A +50 +50')).toEqual(first);
    const other = await drawsOf(8);
    expect(other.every((value, i) => value !== first[i])).toBe(true);
    expect(first[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  // Clients with timers, intervals and randomness: the trace is a function of seed and schedule.
  const busy: AsyncClientCode = async (redis, ctx) => {
    const token = nodeCrypto.randomBytes(8).toString('hex');
    for (let attempt = 0; attempt < 4; attempt++) {
      if ((await redis.set('lock', token, 'PX', 300, 'NX')) === 'OK') break;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.floor(Math.random() * 100)));
    }
    const refresh = setInterval(() => void redis.pexpire('lock', 300), 100);
    ctx.enter();
    await ctx.work(250);
    ctx.leave();
    clearInterval(refresh);
    await redis.del('lock');
  };
  const choice = fc.oneof(
    fc.constantFrom('A', 'B').map((clientId): Choice => ({ kind: 'step', clientId })),
    fc.integer({ min: 1, max: 400 }).map((ms): Choice => ({ kind: 'advance', ms })),
    fc.record({ clientId: fc.constantFrom('A', 'B'), ms: fc.integer({ min: 1, max: 500 }) }).map(({ clientId, ms }): Choice => ({ kind: 'stall', clientId, ms })),
  );

  it('two runs of any schedule give byte-identical traces; another seed gives other tokens (fast-check)', async () => {
    const outcomes: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(choice, { maxLength: 10 }), fc.integer({ min: 0, max: 1000 }), async (choices, seed) => {
        const schedule = `A B ${formatSchedule(choices)} +2000`;
        const run = (s: number) => simulate({ clients: { A: busy, B: busy }, schedule, seed: s }).then((r) => JSON.stringify(r.trace), (e: Error) => `error: ${e.message}`);
        const [one, two, other] = [await run(seed), await run(seed), await run(seed + 1)];
        outcomes.push(one.startsWith('error') ? one.slice(0, 60) : 'ok');
        expect(two).toBe(one);
        const tokens = (trace: string) => [...trace.matchAll(/"SET","lock","([0-9a-f]{16})"/gi)].map((m) => m[1]);
        if (!one.startsWith('error') && !other.startsWith('error')) expect(tokens(other)[0]).not.toBe(tokens(one)[0]);
      }),
      { seed: 2424, numRuns: 25 },
    );
    // Most schedules fit (a few step a client after it finished): the property is about real runs.
    expect(outcomes.filter((o) => o === 'ok').length).toBeGreaterThan(15);
  });
});
