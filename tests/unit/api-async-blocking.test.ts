/**
 * Goal: async client code may use a blocking pop: `await redis.blpop(...)` resolves when another
 * client pushes (at the push's virtual time), or with null at the timeout.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/api';

describe('blocking pops from async client code', () => {
  it('a worker waits in BLPOP until a producer pushes, then at its timeout gets null', async () => {
    const got: unknown[] = [];
    const result = await simulate({
      clients: {
        W: async (redis) => {
          got.push(await redis.blpop('jobs', 5));
          got.push(await redis.blpop('jobs', 1));
        },
        P: async (redis, ctx) => {
          await ctx.sleep(1200);
          await redis.rpush('jobs', 'job-1');
        },
      },
      schedule: 'W P +8000',
    });
    expect(got).toEqual([['jobs', 'job-1'], null]);
    const replies = result.trace.events.filter((e) => e.kind === 'reply' && e.clientId === 'W').map((e) => e.atMs);
    expect(replies).toEqual([1200, 2200]);
  });
});
