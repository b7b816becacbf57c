/**
 * node-redlock #299 (and #296, #169): "Wrong acquire() lock duration". redlock 5.0.0-beta.2, the
 * last release, computes a lock's expiration from the start of the first attempt: an acquire that
 * needed retries returns a lock whose `expiration` has already passed, though the key in Redis is
 * fine (and `using()` then aborts its routine at once). No release fixes it, so the gallery shows
 * the bug and what a caller can do: retry with `retryCount: 0` in its own loop, so that each
 * attempt measures from its own start. The explorer finds the bug and none with the workaround.
 */
import { describe, expect, it } from 'vitest';
import Redlock, { ExecutionError, type Lock } from 'redlock';
import { explore, simulate, AsyncClientError, type AsyncClientCode } from 'lockstep';

/** A holds the lock for 1500 ms of work. */
const holder: AsyncClientCode = async (redis, ctx) => {
  const redlock = new Redlock([redis as never], { retryCount: 0 });
  const lock = await redlock.acquire(['lock'], 2000).catch((error: unknown) => {
    if (error instanceof ExecutionError) return null;
    throw error;
  });
  if (lock === null) return;
  await ctx.work(1500);
  await lock.release();
};

/** B waits for the lock with retries (the library's, or its own), then checks what it got. */
const waiter =
  (retries: 'redlock' | 'own'): AsyncClientCode =>
  async (redis) => {
    const redlock = new Redlock([redis as never], { retryCount: retries === 'redlock' ? 8 : 0, retryDelay: 300, retryJitter: 0 });
    let lock: Lock | undefined;
    for (let attempt = 0; lock === undefined; attempt++) {
      try {
        lock = await redlock.acquire(['lock'], 1000);
      } catch (error) {
        if (!(error instanceof ExecutionError) || retries === 'redlock' || attempt === 8) throw error;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }
    if (lock.expiration <= Date.now()) throw new Error(`acquire returned a lock that expired ${Date.now() - lock.expiration} ms ago`);
    await lock.release();
  };

const search = (retries: 'redlock' | 'own') => explore({ clients: { A: holder, B: waiter(retries) }, invariants: ['client-error'], depthMax: 20 });

describe('node-redlock #299: a lock acquired after retries comes back already expired', () => {
  it('5.0.0-beta.2 with its own retries: the explorer finds the expired lock, and the schedule replays', async () => {
    const found = await search('redlock');
    const [violation] = found.violations;
    expect(violation).toMatchObject({ kind: 'client-error', schedule: 'A A B A B' });
    expect(violation.message).toContain("client B's code threw: acquire returned a lock that expired 512 ms ago");
    await expect(simulate({ clients: { A: holder, B: waiter('redlock') }, schedule: violation.schedule })).rejects.toBeInstanceOf(AsyncClientError);
  });

  it('the workaround (retryCount 0, retries in the caller): the same search finds none, exhaustively', async () => {
    const held = await search('own');
    expect(held.violations).toEqual([]);
    expect(held.exhaustive).toBe(true);
  });
});
