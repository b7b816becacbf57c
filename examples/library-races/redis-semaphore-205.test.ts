/**
 * redis-semaphore #205, "Race condition between releasing and refreshing locks", fixed in 5.5.1
 * (#206). In 5.5.0 a refresh that is already running when `release()` is called finds the lock gone
 * and reports it lost: `onLockLost` is called for a lock its holder gave up on purpose (with the
 * default handler, an unhandled error that ends the process). The worker below says so when it
 * happens; the explorer finds the shortest schedule on 5.5.0 and none on 5.5.1.
 */
import { describe, expect, it } from 'vitest';
import { explore, simulate, AsyncClientError, type AsyncClientCode } from 'lockstep';
import { Mutex as Mutex550 } from 'redis-semaphore-5.5.0';
import { Mutex as Mutex551 } from 'redis-semaphore-5.5.1';

type MutexClass = typeof Mutex551;

const worker =
  (Mutex: MutexClass): AsyncClientCode =>
  async (redis, ctx) => {
    let releasing = false;
    const mutex = new Mutex(redis as never, 'lock', {
      lockTimeout: 1000,
      refreshInterval: 400,
      acquireAttemptsLimit: 1,
      // A lock lost while working is the application's business; one lost after release() is the bug.
      onLockLost: (error) => {
        if (releasing) throw new Error(`onLockLost after release(): ${error.message}`);
      },
    });
    if (!(await mutex.tryAcquire())) return;
    ctx.enter();
    await ctx.work(700);
    ctx.leave();
    releasing = true;
    await mutex.release();
  };

const search = (Mutex: MutexClass) =>
  explore({ clients: { A: worker(Mutex) }, lockKey: 'mutex:lock', invariants: ['client-error'], faults: { stalls: 1, stallLengthsMs: [100, 200, 500] }, depthMax: 10 });

describe('redis-semaphore #205: release races refresh and reports a lock it never lost', () => {
  it('5.5.0: the explorer finds the refresh that reports the released lock lost, and the schedule replays', async () => {
    const found = await search(Mutex550 as unknown as MutexClass);
    expect(found.violations).toHaveLength(1);
    const [violation] = found.violations;
    expect(violation).toMatchObject({ kind: 'client-error', schedule: 'A A·1 A~500 A A A·1' });
    expect(violation.message).toContain("activity A·1 (a setInterval's run) threw: onLockLost after release(): Lost mutex for key mutex:lock");
    await expect(simulate({ clients: { A: worker(Mutex550 as unknown as MutexClass) }, lockKey: 'mutex:lock', schedule: violation.schedule })).rejects.toBeInstanceOf(AsyncClientError);
  });

  it('5.5.1: the same search finds no such schedule, exhaustively', async () => {
    const held = await search(Mutex551);
    expect(held.violations).toEqual([]);
    expect(held.exhaustive).toBe(true);
  });
});
