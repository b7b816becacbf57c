/**
 * Goal: your own async lock code runs as Lockstep clients, deterministically. Every ioredis call is
 * a scheduling point, ctx.sleep and ctx.work run on the virtual clock, the same seed and schedule
 * give the same trace (fast-check, for async clients too), code that awaits something Lockstep does
 * not control is caught with a clear error, and the explorer finds the race in the naive lock of
 * the worked example (examples/my-lock-tests/src/lock.ts) and none in the script release.
 */
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AsyncClientError,
  ReplyError,
  UncontrolledAwaitError,
  explore,
  simulate,
  type AsyncClientCode,
  type ClientContext,
  type LockstepRedis,
} from '../../src/api';
import { formatSchedule, type Choice } from '../../src/engine/schedule';
import { RedisLock, lockedJob } from '../../examples/my-lock-tests/src/lock';
import { runs } from '../support/size';

/** The worked example as a Lockstep client: its timers and critical section come from ctx. */
const job =
  (naive: boolean): AsyncClientCode =>
  (redis, ctx) =>
    lockedJob({ lock: new RedisLock(redis, 'lock', 5000), token: ctx.token, naive, work: () => ctx.work(2000), onEnter: ctx.enter, onLeave: ctx.leave });

/** The get-then-del demonstration (docs/SCHEDULES.md): A pauses between its GET and its DEL. */
const demonstration = 'A A A~5000 +4000 B +1000';

describe('the worked example: a hand-written ioredis lock', () => {
  it('naive release (GET, compare, DEL): A deletes B\'s lock under the demonstration schedule', async () => {
    const result = await simulate({ clients: { A: job(true), B: job(true) }, schedule: demonstration, expect: { violations: ['foreign-release'] } });
    expect(result.violations.map((v) => [v.kind, v.message, v.atMs])).toEqual([['foreign-release', "A deleted B's lock", 7000]]);
    expect(result.verdict.ok).toBe(true);
    const commands = result.trace.events.filter((e) => e.kind === 'command').map((e) => `${e.clientId} ${e.kind === 'command' ? e.argv[0] : ''} @${e.atMs}`);
    expect(commands).toEqual(['A set @0', 'A get @2000', 'B set @6000', 'A del @7000']);
  });

  it('script release: the same schedule is safe', async () => {
    const result = await simulate({ clients: { A: job(false), B: job(false) }, schedule: demonstration, expect: { absent: ['foreign-release'] } });
    expect(result.violations).toEqual([]);
    expect(result.verdict.ok).toBe(true);
  });

  it('the explorer finds the race in the naive release, and the schedule replays it', async () => {
    const found = await explore({ clients: { A: job(true), B: job(true) }, faults: { stalls: 1, stallLengthsMs: [5000] }, depthMax: 8, invariants: ['foreign-release'] });
    expect(found.violations).toHaveLength(1);
    const race = found.violations[0];
    expect(race).toMatchObject({ kind: 'foreign-release', message: "A deleted B's lock" });
    expect(race.schedule).toBe('A A A~5000 +3001 B A');
    const replay = await simulate({ clients: { A: job(true), B: job(true) }, schedule: race.schedule });
    expect(replay.violations.map((v) => v.kind)).toEqual(['foreign-release']);
  });

  it('the explorer finds no foreign release in the script release, exhaustively within its bounds', async () => {
    const result = await explore({ clients: { A: job(false), B: job(false) }, faults: { stalls: 1, stallLengthsMs: [5000] }, depthMax: 8, invariants: ['foreign-release'] });
    expect(result.violations).toEqual([]);
    expect(result.exhaustive).toBe(true);
    expect(result.statesExplored).toBeGreaterThan(10);
  });
});

describe('determinism: same seed and schedule, same trace (fast-check)', () => {
  /** A client with a retry loop, a watchdog-free lease and a sleep: enough to make order matter. */
  const retrying: AsyncClientCode = async (redis, ctx) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      if ((await redis.set('lock', ctx.token, 'NX', 'PX', 3000)) === 'OK') {
        ctx.enter();
        await ctx.work(1500);
        ctx.leave();
        await redis.eval('if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0', 1, 'lock', ctx.token);
        return;
      }
      await ctx.sleep(1000 + attempt * 500);
    }
  };
  const choice = fc.oneof(
    fc.constantFrom('A', 'B', 'C').map((clientId): Choice => ({ kind: 'step', clientId })),
    fc.integer({ min: 1, max: 4000 }).map((ms): Choice => ({ kind: 'advance', ms })),
    fc.record({ clientId: fc.constantFrom('A', 'B', 'C'), ms: fc.integer({ min: 1, max: 5000 }) }).map(({ clientId, ms }): Choice => ({ kind: 'stall', clientId, ms })),
  );

  it('two runs of any schedule give byte-identical traces (seeded)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(choice, { maxLength: 12 }), fc.integer({ min: 0, max: 1000 }), async (choices, seed) => {
        const schedule = formatSchedule(choices);
        const run = () => simulate({ clients: { A: retrying, B: retrying, C: retrying }, schedule, seed }).then((r) => JSON.stringify(r.trace), (e: Error) => `error: ${e.message}`);
        expect(await run()).toBe(await run());
      }),
      { seed: 1616, numRuns: runs(40) },
    );
  });

  it('an async client gives the trace of the same program written as data', async () => {
    const asData = await simulate({ scenario: 'get-then-del', schedule: demonstration });
    const asCode = await simulate({ clients: { A: job(true), B: job(true) }, schedule: demonstration });
    const shape = (r: typeof asData) => r.trace.events.filter((e) => e.kind === 'command' || e.kind === 'violation').map((e) => [e.kind, e.clientId, e.atMs, e.lockAfter.holder]);
    expect(shape(asCode)).toEqual(shape(asData));
  });
});

describe('code Lockstep does not control is caught', () => {
  const cases: [string, AsyncClientCode][] = [
    ['a real socket', async (redis) => {
      await redis.get('lock');
      await new Promise((resolve) => {
        const socket = connect(1, '127.0.0.1', () => resolve(null));
        socket.on('error', () => socket.destroy());
      });
      await redis.del('lock');
    }],
    ['real I/O', async (redis) => {
      await readFile(new URL(import.meta.url));
      await redis.get('lock');
    }],
    ['a promise nobody settles', async () => {
      await new Promise(() => {});
    }],
  ];
  for (const [name, code] of cases) {
    it(`${name}: UncontrolledAwaitError at clients.A`, async () => {
      const error = await simulate({ clients: { A: code }, schedule: 'A A +1000' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UncontrolledAwaitError);
      expect((error as UncontrolledAwaitError).path).toBe('clients.A');
      expect((error as Error).message).toMatch(/did not reach a Lockstep action .* it awaits something Lockstep does not control/);
    });
  }

  it('code that throws stops the run with the client and the cause', async () => {
    const error = await simulate({
      clients: {
        A: async (redis) => {
          await redis.get('lock');
          throw new TypeError('lock lost');
        },
      },
      schedule: 'A +10',
    }).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(AsyncClientError);
    expect((error as AsyncClientError).path).toBe('clients.A');
    expect((error as Error).message).toBe("clients.A: client A's code threw: lock lost");
  });

  it('awaiting plain promises and async helpers is fine (they settle on microtasks)', async () => {
    const helper = async (redis: LockstepRedis) => Promise.resolve(await redis.get('k'));
    const result = await simulate({
      clients: {
        A: async (redis) => {
          await redis.set('k', 'v');
          for (let i = 0; i < 100; i++) await Promise.resolve(i);
          expect(await helper(redis)).toBe('v');
        },
      },
      schedule: 'A A +1',
    });
    expect(result.trace.events.filter((e) => e.kind === 'command')).toHaveLength(2);
  });
});

describe('the ioredis-compatible client', () => {
  /** Runs one client to its end and returns what its code saw. */
  async function observe(code: (redis: LockstepRedis, ctx: ClientContext, seen: unknown[]) => Promise<void>, schedule = '+100000 A +100000'): Promise<unknown[]> {
    const seen: unknown[] = [];
    await simulate({ clients: { A: (redis, ctx) => code(redis, ctx, seen) }, schedule });
    return seen;
  }

  it('SET with its options, GET, DEL, PEXPIRE, PTTL: ioredis reply shapes', async () => {
    const seen = await observe(async (redis, ctx, out) => {
      out.push(await redis.set('lock', ctx.token, 'PX', 5000, 'NX'));
      out.push(await redis.set('lock', 'other', 'NX', 'PX', 5000));
      out.push(await redis.get('lock'));
      out.push(await redis.pttl('lock'));
      out.push(await redis.pexpire('lock', 100));
      out.push(await redis.pttl('lock'));
      out.push(await redis.del('lock', 'nothing'));
      out.push(await redis.get('lock'));
      out.push(await redis.set('n', 5, 'EX', 10, 'GET'));
    });
    expect(seen).toEqual(['OK', null, expect.stringMatching(/^[0-9a-f-]{36}$/), 5000, 1, 100, 1, null, null]);
  });

  it('time passes only on the virtual clock: ctx.sleep, ctx.work and expiry', async () => {
    const seen = await observe(async (redis, ctx, out) => {
      await redis.set('lease', 'x', 'PX', 1500);
      out.push(ctx.now());
      await ctx.sleep(1000);
      out.push(ctx.now(), await redis.pttl('lease'));
      await ctx.work(1000);
      out.push(ctx.now(), await redis.get('lease'));
    }, 'A +100000');
    expect(seen).toEqual([0, 1000, 500, 2000, null]);
  });

  it('EVAL, EVALSHA and defineCommand as ioredis sends them: EVAL on a connection\'s first use, EVALSHA after, EVAL again after NOSCRIPT', async () => {
    const lua = 'return redis.call("incrby", KEYS[1], ARGV[1])';
    const result = await simulate({
      clients: {
        A: async (redis) => {
          expect(await redis.eval(lua, 1, 'n', 2)).toBe(2);
          redis.defineCommand('bump', { numberOfKeys: 1, lua: 'return redis.call("incrby", KEYS[1], ARGV[1]) * 10' });
          expect(await redis.bump('n', 3)).toBe(50);
          expect(await redis.bump('n', 1)).toBe(60);
          await expect(redis.evalsha('0000000000000000000000000000000000000000', 0)).rejects.toThrow(ReplyError);
          expect(await redis.script('FLUSH')).toBe('OK');
          expect(await redis.bump('n', 1)).toBe(70);
          // Without numberOfKeys the caller passes the key count first (as @sesamecare-oss/redlock does).
          redis.defineCommand('bumpAny', { lua: 'return redis.call("incrby", KEYS[1], ARGV[1])' });
          expect(await redis.bumpAny(1, 'n', 1)).toBe(8);
        },
      },
      schedule: '+100000 A +100000',
    });
    const argv = result.trace.events.flatMap((e) => (e.kind === 'command' ? [e.argv.slice(0, 1).concat(e.argv.slice(2)).join(' ')] : []));
    expect(argv).toEqual(['eval 1 n 2', 'eval 1 n 3', 'evalsha 1 n 1', 'evalsha 0', 'script', 'evalsha 1 n 1', 'eval 1 n 1', 'eval 1 n 1']);
  });

  it('multi() rejects with EXECABORT and the queueing errors (previousErrors), as ioredis does; a closed connection refuses before the wire', async () => {
    const seen = await observe(async (redis, _ctx, out) => {
      // Code that waits for ioredis's 'ready' gets it, as from a real client that has just connected.
      await new Promise((resolve) => redis.once('ready', resolve));
      out.push(await redis.multi([['set', 'k'], ['get', 'k']]).exec().catch((e: Error & { previousErrors?: Error[] }) => [e.message, e.previousErrors?.map((p) => p.message)]));
      out.push(await redis.connect().catch((e: Error) => e.message));
      let events = '';
      redis.on('end', () => (events += 'end'));
      out.push(await redis.quit(), redis.status);
      out.push(await redis.get('k').catch((e: Error) => e.message));
      await redis.connect();
      out.push(redis.status, events, await redis.get('k'));
    });
    expect(seen).toEqual([
      ['EXECABORT Transaction discarded because of previous errors.', ["ERR wrong number of arguments for 'set' command"]],
      'Redis is already connecting/connected',
      'OK',
      'end',
      'Connection is closed.',
      'ready',
      'end',
      null,
    ]);
  });

  it('an error reply rejects with a ReplyError carrying Redis\'s text', async () => {
    const seen = await observe(async (redis, _ctx, out) => {
      await redis.set('s', 'text');
      out.push(await redis.incr('s').catch((e: Error) => [e.name, e.message]));
    });
    expect(seen).toEqual([['ReplyError', 'ERR value is not an integer or out of range']]);
  });

  it('each command is a scheduling point: two clients interleave command by command', async () => {
    const counter: AsyncClientCode = async (redis) => {
      const n = Number(await redis.get('n'));
      await redis.set('n', n + 1);
    };
    const interleaved = await simulate({ clients: { A: counter, B: counter }, schedule: 'A B A B' });
    expect(interleaved.keys.find((k) => k.key === 'n')).toMatchObject({ value: '1' });
    const serial = await simulate({ clients: { A: counter, B: counter }, schedule: 'A A B B' });
    expect(serial.keys.find((k) => k.key === 'n')).toMatchObject({ value: '2' });
  });

  it('WATCH, MULTI and EXEC per client connection: B\'s write between A\'s WATCH and EXEC aborts A\'s transaction, and is not queued in it', async () => {
    const results: unknown[] = [];
    const incrementWatched: AsyncClientCode = async (redis) => {
      await redis.watch('n');
      const n = Number(await redis.get('n'));
      results.push(await redis.multi().set('n', n + 1).exec());
    };
    const writer: AsyncClientCode = async (redis) => {
      await redis.set('n', 10);
    };
    // A: WATCH, GET; B: SET; A: MULTI, SET (queued), EXEC -> nil: the watched key changed.
    const aborted = await simulate({ clients: { A: incrementWatched, B: writer }, schedule: 'A A B A A A' });
    expect(results).toEqual([null]);
    expect(aborted.keys.find((k) => k.key === 'n')).toMatchObject({ value: '10' });
    // B's SET between A's MULTI and EXEC runs on B's connection at once; A's EXEC still sees the WATCHed change.
    results.length = 0;
    const between = await simulate({ clients: { A: incrementWatched, B: writer }, schedule: 'A A A B A A' });
    expect(results).toEqual([null]);
    expect(between.keys.find((k) => k.key === 'n')).toMatchObject({ value: '10' });
    results.length = 0;
    const alone = await simulate({ clients: { A: incrementWatched, B: writer }, schedule: 'A A A A A B' });
    expect(results).toEqual([[[null, 'OK']]]);
    expect(alone.keys.find((k) => k.key === 'n')).toMatchObject({ value: '10' });
  });

  it('SUBSCRIBE and PUBLISH: one SUBSCRIBE for two channels resolves with the count, the publisher counts its receivers, and ioredis refuses GET in subscriber mode before the wire', async () => {
    const seen: unknown[] = [];
    const subscriber: AsyncClientCode = async (redis) => {
      seen.push(await redis.subscribe('jobs', 'done'));
      seen.push(redis.mode);
      seen.push(await redis.get('x').catch((error: Error) => `${error.name}: ${error.message}`));
    };
    const publisher: AsyncClientCode = async (redis) => {
      seen.push(await redis.publish('jobs', 'go'));
    };
    const result = await simulate({ clients: { A: subscriber, B: publisher }, schedule: 'A B' });
    expect(seen).toEqual([2, 'subscriber', 'Error: Connection in subscriber mode, only subscriber commands may be used', 1]);
    expect(result.trace.events.flatMap((e) => (e.kind === 'command' ? [e.argv.join(' ')] : []))).toEqual(['subscribe jobs done', 'publish jobs go']);
  });

  it('replaces a built-in scenario\'s clients: your code against its checkers and lock key', async () => {
    const result = await simulate({ scenario: 'get-then-del', clients: { A: job(true) }, schedule: demonstration });
    expect(result.violations.map((v) => v.kind)).toEqual(['foreign-release']);
  });

  it('a helper in the same process: started by its owner, frozen by the owner\'s stall', async () => {
    const owner: AsyncClientCode = async (redis, ctx) => {
      await redis.set('lock', ctx.token, 'PX', 1000);
      ctx.start('W');
      await ctx.work(5000);
    };
    const watchdog: AsyncClientCode = async (redis, ctx) => {
      for (let i = 0; i < 10; i++) {
        await ctx.sleep(300);
        await redis.pexpire('lock', 1000);
      }
    };
    const clients = { A: owner, W: { run: watchdog, process: 'A', startedBy: 'A', tokenFrom: 'A' } };
    const kept = await simulate({ clients, schedule: 'A +2500' });
    expect(kept.keys.map((k) => k.key)).toEqual(['lock']);
    const stalled = await simulate({ clients, schedule: 'A A~2000 +2500' });
    expect(stalled.keys).toEqual([]);
    expect(stalled.trace.events.some((e) => e.kind === 'wake' && e.clientId === 'W' && e.lateCause === 'stall')).toBe(true);
  });
});
