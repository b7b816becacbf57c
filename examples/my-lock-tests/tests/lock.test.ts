// My lock (src/lock.ts) under Lockstep's scheduler: every Redis call is a scheduling point, time is
// virtual, and the explorer tries the interleavings (and a GC-like pause) a real deployment meets.
import { describe, expect, it } from 'vitest';
import { explore, simulate, type AsyncClientCode } from 'lockstep';
import { RedisLock, lockedJob } from '../src/lock';

/** My job as a Lockstep client: the real lock code, with Lockstep's redis, token and clock. */
const job =
  (naive: boolean): AsyncClientCode =>
  (redis, ctx) =>
    lockedJob({
      lock: new RedisLock(redis, 'lock', 5000),
      token: ctx.token,
      naive,
      work: () => ctx.work(2000),
      onEnter: ctx.enter,
      onLeave: ctx.leave,
    });

describe('my Redis lock', () => {
  it('the explorer finds the race in the naive release (GET, compare, DEL)', async () => {
    const result = await explore({
      clients: { A: job(true), B: job(true) },
      faults: { stalls: 1, stallLengthsMs: [5000] },
      depthMax: 8,
      invariants: ['foreign-release'],
    });
    expect(result.violations.map((v) => [v.kind, v.message, v.schedule])).toEqual([['foreign-release', "A deleted B's lock", 'A A A~5000 +3001 B A']]);

    // The schedule it found replays, step for step.
    const replay = await simulate({ clients: { A: job(true), B: job(true) }, schedule: result.violations[0].schedule });
    expect(replay.violations.map((v) => v.kind)).toEqual(['foreign-release']);
  });

  it('the script release survives every schedule within the same bounds', async () => {
    const result = await explore({
      clients: { A: job(false), B: job(false) },
      faults: { stalls: 1, stallLengthsMs: [5000] },
      depthMax: 8,
      invariants: ['foreign-release'],
    });
    expect(result.violations).toEqual([]);
    expect(result.exhaustive).toBe(true);
  });
});
