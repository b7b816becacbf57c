// Goal: DELEX, the Redis 8.4 command the get-then-del scenario's delex variant releases with,
// behaves as Redis 8.4 documents it: conditional delete of a string, integer 1/0, WRONGTYPE on
// other types with a condition, plain DEL without one, syntax errors for malformed conditions.
import { describe, expect, it } from 'vitest';
import { SimRedisServer } from '../../src/engine/redis/server';
import type { Reply } from '../../src/engine/redis/reply';

function serverWith(...setup: string[][]): SimRedisServer {
  const server = new SimRedisServer();
  for (const argv of setup) server.execute(argv, 0);
  return server;
}

const int = (n: number): Reply => ({ type: 'integer', value: String(n) });

describe('DELEX key IFEQ|IFNE value', () => {
  it('IFEQ deletes only when the value is equal, and answers 1 or 0', () => {
    const server = serverWith(['SET', 'lock', 'tokA']);
    expect(server.execute(['DELEX', 'lock', 'IFEQ', 'tokB'], 1)).toEqual(int(0));
    expect(server.execute(['GET', 'lock'], 1)).toEqual({ type: 'bulk', value: 'tokA' });
    expect(server.execute(['delex', 'lock', 'ifeq', 'tokA'], 1)).toEqual(int(1));
    expect(server.execute(['EXISTS', 'lock'], 1)).toEqual(int(0));
  });

  it('IFNE deletes only when the value differs', () => {
    const server = serverWith(['SET', 'k', 'v']);
    expect(server.execute(['DELEX', 'k', 'IFNE', 'v'], 1)).toEqual(int(0));
    expect(server.execute(['DELEX', 'k', 'IFNE', 'other'], 1)).toEqual(int(1));
  });

  it('a missing (or expired) key answers 0 under any condition', () => {
    const server = serverWith(['SET', 'k', 'v', 'PX', '100']);
    expect(server.execute(['DELEX', 'k', 'IFEQ', 'v'], 101)).toEqual(int(0));
    expect(server.execute(['DELEX', 'missing', 'IFNE', 'v'], 101)).toEqual(int(0));
  });

  it('with a condition, a non-string key is WRONGTYPE and stays; without one, any key is deleted like DEL', () => {
    const server = serverWith(['HSET', 'h', 'f', 'v']);
    const refused = server.execute(['DELEX', 'h', 'IFEQ', 'v'], 1);
    expect(refused.type === 'error' && refused.value.startsWith('WRONGTYPE')).toBe(true);
    expect(server.execute(['EXISTS', 'h'], 1)).toEqual(int(1));
    expect(server.execute(['DELEX', 'h'], 1)).toEqual(int(1));
    expect(server.execute(['DELEX', 'h'], 1)).toEqual(int(0));
  });

  it('a condition without its value, an unknown word or extra words is a syntax error, before the key is looked up', () => {
    const server = serverWith(['HSET', 'h', 'f', 'v']);
    for (const argv of [
      ['DELEX', 'h', 'IFEQ'],
      ['DELEX', 'h', 'IFGT', 'v'],
      ['DELEX', 'h', 'IFEQ', 'v', 'IFNE', 'w'],
    ]) {
      expect(server.execute(argv, 1), argv.join(' ')).toEqual({ type: 'error', value: 'ERR syntax error' });
    }
    expect(server.execute(['DELEX'], 1)).toEqual({ type: 'error', value: "ERR wrong number of arguments for 'delex' command" });
  });

  it('IFDEQ/IFDNE (XXH3 digests) are refused with a message, never answered wrongly', () => {
    const server = serverWith(['SET', 'k', 'v']);
    const reply = server.execute(['DELEX', 'k', 'IFDEQ', '1234'], 1);
    expect(reply.type).toBe('error');
    expect(server.execute(['EXISTS', 'k'], 1)).toEqual(int(1));
  });

  it('inside a Lua script, as any write command', () => {
    const server = serverWith(['SET', 'lock', 'tokA']);
    expect(server.execute(['EVAL', "return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])", '1', 'lock', 'tokA'], 1)).toEqual(int(1));
  });
});
