/**
 * Goal: a real ioredis 5 instance runs over the simulated server with no socket, and puts on the
 * wire what ioredis puts on a socket: a defined command is EVAL the first time on a connection and
 * EVALSHA after that (EVAL again after NOSCRIPT), a duplicate() keeps its own bookkeeping, a
 * defineCommand without numberOfKeys sends the caller's key count, pipelines, multi and callbacks
 * work, and the client is `instanceof Redis` (as redis-semaphore before 5.6 demands).
 */
import Redis from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createIoredisClient, loadIoredis, parseRespRequest } from '../../src/api/async/real-ioredis';
import type { Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';

/** A real ioredis over a simulated server, every command recorded as `connection: argv`. */
function client() {
  const io = loadIoredis();
  if (!io) throw new Error('ioredis 5 is a devDependency: loadIoredis must find it');
  const server = new SimRedisServer();
  const wire: string[] = [];
  let opened = 0;
  const link = {
    send: async (argv: readonly string[], connection: string | undefined): Promise<Reply> => {
      wire.push(`${connection ?? 'main'}: ${argv.join(' ')}`);
      return server.execute(argv, 0, connection ?? 'main');
    },
    openConnection: () => `dup${++opened}`,
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a real ioredis instance
  return { redis: createIoredisClient(io, link) as any, wire, server };
}

describe('a real ioredis over the simulated server', () => {
  it('is an ioredis instance, ready, and answers as ioredis does', async () => {
    const { redis, wire } = client();
    expect(redis).toBeInstanceOf(Redis);
    expect(redis.status).toBe('ready');
    expect(await redis.set('lock', 'a', 'PX', 5000, 'NX')).toBe('OK');
    expect(await redis.set('lock', 'b', 'PX', 5000, 'NX')).toBeNull();
    expect(await redis.pttl('lock')).toBe(5000);
    expect(await redis.hset('h', { f: 1, g: 'x' })).toBe(2);
    expect(await redis.hgetall('h')).toEqual({ f: '1', g: 'x' });
    await expect(redis.incr('lock')).rejects.toThrow('ERR value is not an integer or out of range');
    expect(wire).toEqual(['main: set lock a PX 5000 NX', 'main: set lock b PX 5000 NX', 'main: pttl lock', 'main: hset h f 1 g x', 'main: hgetall h', 'main: incr lock']);
  });

  it('sends a defined command as EVAL first, then EVALSHA, per connection', async () => {
    const { redis, wire } = client();
    redis.defineCommand('release', { numberOfKeys: 1, lua: "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0" });
    redis.defineCommand('free', { lua: 'return #KEYS' });
    await redis.set('lock', 't');
    expect(await redis.release('lock', 'x')).toBe(0);
    expect(await redis.release('lock', 't')).toBe(1);
    expect(await redis.free(2, 'a', 'b')).toBe(2);
    // As in ioredis, a duplicate does not carry defineCommand's methods over: define them again.
    const other = redis.duplicate();
    expect(other).toBeInstanceOf(Redis);
    expect(other.release).toBeUndefined();
    other.defineCommand('release', { numberOfKeys: 1, lua: "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0" });
    expect(await other.release('lock', 't')).toBe(0);
    expect(wire.map((line) => line.replace(/[0-9a-f]{40}/, '<sha>').replace(/ if redis.*end return 0/, ' <lua>'))).toEqual([
      'main: set lock t',
      'main: eval <lua> 1 lock x',
      'main: evalsha <sha> 1 lock t',
      'main: eval return #KEYS 2 a b',
      'dup1: eval <lua> 1 lock t',
    ]);
  });

  it('falls back to EVAL after NOSCRIPT, as ioredis does when the cache was flushed', async () => {
    const { redis, wire } = client();
    redis.defineCommand('one', { numberOfKeys: 0, lua: 'return 1' });
    expect(await redis.one()).toBe(1);
    await redis.script('FLUSH');
    expect(await redis.one()).toBe(1);
    expect(wire.map((line) => line.replace(/[0-9a-f]{40}/, '<sha>'))).toEqual(['main: eval return 1 0', 'main: script FLUSH', 'main: evalsha <sha> 0', 'main: eval return 1 0']);
  });

  it('runs callbacks, pipelines and transactions with ioredis reply shapes', async () => {
    const { redis, wire } = client();
    const got = await new Promise((resolve) => redis.set('k', 'v', (error: unknown, value: unknown) => resolve([error, value])));
    expect(got).toEqual([null, 'OK']);
    expect(await redis.pipeline().get('k').incr('k').exec()).toEqual([
      [null, 'v'],
      [expect.objectContaining({ message: 'ERR value is not an integer or out of range' })],
    ]);
    expect(await redis.multi().set('n', 1).incr('n').exec()).toEqual([
      [null, 'OK'],
      [null, 2],
    ]);
    expect(wire).toEqual(['main: set k v', 'main: get k', 'main: incr k', 'main: multi', 'main: set n 1', 'main: incr n', 'main: exec']);
  });

  it('refuses commands after disconnect(), as ioredis does', async () => {
    const { redis } = client();
    redis.disconnect();
    await expect(redis.get('k')).rejects.toThrow('Connection is closed.');
  });

  it('reads back what a client writes, bytes included', () => {
    expect(parseRespRequest('*3\r\n$3\r\nset\r\n$1\r\nk\r\n$5\r\nv\r\nw!\r\n')).toEqual(['set', 'k', 'v\r\nw!']);
    expect(() => parseRespRequest('+OK\r\n')).toThrow('must be an array');
  });
});
