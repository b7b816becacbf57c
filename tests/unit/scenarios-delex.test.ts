// Goal: DELEX, the Redis 8.4 command the get-then-del scenario's delex variant releases with,
// behaves as Redis 8.4 documents it: conditional delete of a string (by value or by DIGEST), integer 1/0, WRONGTYPE on
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

  it('IFDEQ/IFDNE compare the DIGEST (16 hex characters, any case); other digests are an error', () => {
    const server = serverWith(['SET', 'k', 'hello']);
    const digestReply = server.execute(['DIGEST', 'k'], 1);
    expect(digestReply.type).toBe('bulk');
    const digest = digestReply.type === 'bulk' ? digestReply.value : '';
    for (const bad of ['1234', `${digest}0`, 'zzzzzzzzzzzzzzzz']) {
      expect(server.execute(['DELEX', 'k', 'IFDEQ', bad], 1)).toEqual({ type: 'error', value: 'ERR must be exactly 16 hexadecimal characters' });
    }
    expect(server.execute(['DELEX', 'k', 'IFDNE', digest.toUpperCase()], 1)).toEqual(int(0));
    expect(server.execute(['DELEX', 'k', 'IFDEQ', '0000000000000000'], 1)).toEqual(int(0));
    expect(server.execute(['DELEX', 'k', 'IFDEQ', digest.toUpperCase()], 1)).toEqual(int(1));
    expect(server.execute(['EXISTS', 'k'], 1)).toEqual(int(0));
  });

  it('inside a Lua script, as any write command', () => {
    const server = serverWith(['SET', 'lock', 'tokA']);
    expect(server.execute(['EVAL', "return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])", '1', 'lock', 'tokA'], 1)).toEqual(int(1));
  });
});

describe('DIGEST key', () => {
  // Reference values: XXH3_64bits from the xxHash C library (libxxhash 0.8.1), seed 0.
  it.each([
    ['', '2d06800538d394c2'],
    ['abc', '78af5f94892f3950'],
    ['hello', '9555e8555c62dcfd'],
    ['tok-0123456789abcdef', 'efb3ea055db5daf9'],
    ['x'.repeat(150), 'f172bdf9d31bae6a'],
    ['redis'.repeat(60), '9446288e4f3120e9'],
    ['é', 'f7940a006cf10cb3'],
  ])('of a %j-like value (length %#) is XXH3-64 as 16 lower-case hex characters', (value, expected) => {
    const server = serverWith(['SET', 'k', value]);
    expect(server.execute(['DIGEST', 'k'], 1)).toEqual({ type: 'bulk', value: expected });
  });

  it('is nil for a missing key and WRONGTYPE for a hash', () => {
    const server = serverWith(['HSET', 'h', 'f', 'v']);
    expect(server.execute(['DIGEST', 'missing'], 1)).toEqual({ type: 'nil' });
    const wrong = server.execute(['DIGEST', 'h'], 1);
    expect(wrong.type === 'error' && wrong.value.startsWith('WRONGTYPE')).toBe(true);
  });
});

