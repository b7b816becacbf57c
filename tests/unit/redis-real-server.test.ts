import { describe, expect, it } from 'vitest';
import { REDIS_NOT_INSTALLED, startRealRedis } from '../support/real-redis';
import { RespClient } from '../support/resp-client';

/** The test support that the differential suite and the EVAL benchmark stand on. */
describe('startRealRedis', () => {
  it('fails with an install hint when redis-server is missing', async () => {
    const saved = process.env.LOCKSTEP_REDIS_SERVER;
    process.env.LOCKSTEP_REDIS_SERVER = '/nonexistent/redis-server';
    try {
      await expect(startRealRedis()).rejects.toThrow(REDIS_NOT_INSTALLED);
    } finally {
      if (saved === undefined) delete process.env.LOCKSTEP_REDIS_SERVER;
      else process.env.LOCKSTEP_REDIS_SERVER = saved;
    }
  });

  it('starts a private server that answers typed RESP replies, and stops it', async () => {
    const redis = await startRealRedis();
    const client = await RespClient.connect(redis.port);
    try {
      expect(await client.send(['PING'])).toEqual({ type: 'status', value: 'PONG' });
      expect(await client.send(['SET', 'k', '\udcff'])).toEqual({ type: 'status', value: 'OK' });
      expect(await client.send(['GET', 'k'])).toEqual({ type: 'bulk', value: '\udcff' });
      expect(await client.send(['STRLEN', 'k'])).toEqual({ type: 'integer', value: '1' });
      expect(await client.send(['GET', 'missing'])).toEqual({ type: 'nil' });
      expect(await client.send(['CONFIG', 'GET', 'save'])).toEqual({ type: 'array', value: [{ type: 'bulk', value: 'save' }, { type: 'bulk', value: '' }] });
      expect(await client.send(['NOPE'])).toMatchObject({ type: 'error' });
    } finally {
      await client.close();
      await redis.stop();
    }
    expect(() => process.kill(redis.pid, 0)).toThrow();
  });
});
