// Goal: the Redis 8.4 additions Lockstep offers on its Redis 7.0 server behave as their redis.io
// pages document them. Redis 7.0.15, which the differential suite runs, cannot execute them, so
// these tests are written from the documentation (redis/docs content/commands/set.md, msetex.md,
// digest.md, read at commit 63f31f69985905d997fa5b0c02e1559b5d04c8b2), not against a server.
import { describe, expect, it } from 'vitest';
import { reply, type Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';
import { DEFAULT_UNIX_EPOCH_MS } from '../../src/engine/redis/time';

const run = (s: SimRedisServer, ...argv: string[]): Reply => s.execute(argv, 1_000);
const WRONGTYPE = reply.error('WRONGTYPE Operation against a key holding the wrong kind of value');

describe('DIGEST (redis.io/commands/digest)', () => {
  it('answers the documented example', () => {
    const s = new SimRedisServer();
    expect(run(s, 'SET', 'key1', 'Hello world')).toEqual(reply.ok());
    expect(run(s, 'DIGEST', 'key1')).toEqual(reply.bulk('b6acb9d84a38ff74'));
  });

  it('answers nil for a missing key and an error for a non-string', () => {
    const s = new SimRedisServer();
    expect(run(s, 'DIGEST', 'missing')).toEqual(reply.nil());
    run(s, 'HSET', 'h', 'f', 'v');
    expect(run(s, 'DIGEST', 'h')).toEqual(WRONGTYPE);
  });
});

describe('SET with IFEQ, IFNE, IFDEQ, IFDNE (redis.io/commands/set)', () => {
  it('IFEQ sets only when the current value is equal; it never creates the key', () => {
    const s = new SimRedisServer();
    expect(run(s, 'SET', 'lock', 'new', 'IFEQ', 'old')).toEqual(reply.nil());
    expect(run(s, 'EXISTS', 'lock')).toEqual(reply.integer(0));
    run(s, 'SET', 'lock', 'tokA');
    expect(run(s, 'SET', 'lock', 'tokB', 'IFEQ', 'other')).toEqual(reply.nil());
    expect(run(s, 'SET', 'lock', 'tokB', 'IFEQ', 'tokA')).toEqual(reply.ok());
    expect(run(s, 'GET', 'lock')).toEqual(reply.bulk('tokB'));
  });

  it('IFNE sets when the value differs, and creates a missing key', () => {
    const s = new SimRedisServer();
    expect(run(s, 'SET', 'k', 'v1', 'IFNE', 'x')).toEqual(reply.ok());
    expect(run(s, 'SET', 'k', 'v2', 'IFNE', 'v1')).toEqual(reply.nil());
    expect(run(s, 'SET', 'k', 'v2', 'IFNE', 'other')).toEqual(reply.ok());
    expect(run(s, 'GET', 'k')).toEqual(reply.bulk('v2'));
  });

  it('IFDEQ and IFDNE compare the DIGEST, case-insensitively; IFDEQ never creates, IFDNE does', () => {
    const s = new SimRedisServer();
    expect(run(s, 'SET', 'key1', 'x', 'IFDEQ', 'b6acb9d84a38ff74')).toEqual(reply.nil());
    expect(run(s, 'SET', 'key1', 'Hello world', 'IFDNE', 'b6acb9d84a38ff74')).toEqual(reply.ok());
    expect(run(s, 'SET', 'key1', 'next', 'IFDNE', 'B6ACB9D84A38FF74')).toEqual(reply.nil());
    expect(run(s, 'SET', 'key1', 'next', 'IFDEQ', 'B6ACB9D84A38FF74')).toEqual(reply.ok());
    expect(run(s, 'GET', 'key1')).toEqual(reply.bulk('next'));
  });

  it('a digest that is not 16 hex characters is refused, as DELEX refuses it', () => {
    const s = new SimRedisServer();
    run(s, 'SET', 'k', 'v');
    expect(run(s, 'SET', 'k', 'w', 'IFDEQ', 'xyz')).toEqual(reply.error('ERR must be exactly 16 hexadecimal characters'));
    expect(run(s, 'GET', 'k')).toEqual(reply.bulk('v'));
  });

  it('with GET answers the previous value whether or not the key was set', () => {
    const s = new SimRedisServer();
    run(s, 'SET', 'k', 'v1');
    expect(run(s, 'SET', 'k', 'v2', 'IFEQ', 'nope', 'GET')).toEqual(reply.bulk('v1'));
    expect(run(s, 'GET', 'k')).toEqual(reply.bulk('v1'));
    expect(run(s, 'SET', 'k', 'v2', 'IFEQ', 'v1', 'GET')).toEqual(reply.bulk('v1'));
    expect(run(s, 'GET', 'k')).toEqual(reply.bulk('v2'));
    expect(run(s, 'SET', 'fresh', 'v', 'IFNE', 'x', 'GET')).toEqual(reply.nil());
  });

  it('IFEQ without an expiry option drops the TTL, as every SET that stores does (an immortal lock)', () => {
    const s = new SimRedisServer();
    run(s, 'SET', 'lock', 'tokA', 'PX', '30000');
    expect(run(s, 'SET', 'lock', 'tokA2', 'IFEQ', 'tokA')).toEqual(reply.ok());
    expect(run(s, 'PTTL', 'lock')).toEqual(reply.integer(-1));
    run(s, 'SET', 'lock', 'tokB', 'PX', '30000');
    expect(run(s, 'SET', 'lock', 'tokB2', 'IFEQ', 'tokB', 'KEEPTTL')).toEqual(reply.ok());
    expect(run(s, 'PTTL', 'lock')).toEqual(reply.integer(30_000));
    expect(run(s, 'SET', 'lock', 'tokC', 'IFEQ', 'tokB2', 'PX', '5000')).toEqual(reply.ok());
    expect(run(s, 'PTTL', 'lock')).toEqual(reply.integer(5_000));
  });

  it('conditions are mutually exclusive and take a value; a non-string key is WRONGTYPE', () => {
    const s = new SimRedisServer();
    const syntax = reply.error('ERR syntax error');
    expect(run(s, 'SET', 'k', 'v', 'NX', 'IFEQ', 'a')).toEqual(syntax);
    expect(run(s, 'SET', 'k', 'v', 'IFEQ', 'a', 'XX')).toEqual(syntax);
    expect(run(s, 'SET', 'k', 'v', 'IFEQ', 'a', 'IFNE', 'b')).toEqual(syntax);
    expect(run(s, 'SET', 'k', 'v', 'IFEQ')).toEqual(syntax);
    run(s, 'HSET', 'h', 'f', 'v');
    expect(run(s, 'SET', 'h', 'v', 'IFNE', 'x')).toEqual(WRONGTYPE);
    expect(run(s, 'TYPE', 'h')).toEqual(reply.status('hash'));
  });
});

describe('MSETEX (redis.io/commands/msetex)', () => {
  it('sets every pair with one shared expiry and answers 1', () => {
    const s = new SimRedisServer();
    expect(run(s, 'MSETEX', '2', 'a', '1', 'b', '2', 'PX', '5000')).toEqual(reply.integer(1));
    expect(run(s, 'MGET', 'a', 'b')).toEqual(reply.array([reply.bulk('1'), reply.bulk('2')]));
    expect(run(s, 'PTTL', 'a')).toEqual(reply.integer(5_000));
    expect(run(s, 'PTTL', 'b')).toEqual(reply.integer(5_000));
  });

  it('NX sets only if none of the keys exist, XX only if all do; otherwise 0 and nothing changes', () => {
    const s = new SimRedisServer();
    run(s, 'SET', 'a', 'old');
    expect(run(s, 'MSETEX', '2', 'a', '1', 'b', '2', 'NX')).toEqual(reply.integer(0));
    expect(run(s, 'EXISTS', 'b')).toEqual(reply.integer(0));
    expect(run(s, 'MSETEX', '2', 'a', '1', 'b', '2', 'XX')).toEqual(reply.integer(0));
    expect(run(s, 'GET', 'a')).toEqual(reply.bulk('old'));
    run(s, 'SET', 'b', 'old');
    expect(run(s, 'MSETEX', '2', 'a', '1', 'b', '2', 'XX', 'EX', '10')).toEqual(reply.integer(1));
    expect(run(s, 'TTL', 'b')).toEqual(reply.integer(10));
  });

  it('without an expiry the old TTLs go; KEEPTTL keeps them; EXAT and PXAT are Unix times', () => {
    const s = new SimRedisServer();
    run(s, 'SET', 'a', 'v', 'PX', '9000');
    run(s, 'MSETEX', '1', 'a', 'w', 'KEEPTTL');
    expect(run(s, 'PTTL', 'a')).toEqual(reply.integer(9_000));
    run(s, 'MSETEX', '1', 'a', 'x');
    expect(run(s, 'PTTL', 'a')).toEqual(reply.integer(-1));
    run(s, 'MSETEX', '1', 'a', 'y', 'PXAT', String(DEFAULT_UNIX_EPOCH_MS + 4_000));
    expect(run(s, 'PTTL', 'a')).toEqual(reply.integer(3_000));
  });

  it('refuses a bad numkeys, missing pairs, conflicting options and bad expiry times', () => {
    const s = new SimRedisServer();
    expect(run(s, 'MSETEX', '0', 'a', '1')).toEqual(reply.error('ERR invalid numkeys value'));
    expect(run(s, 'MSETEX', 'x', 'a', '1')).toEqual(reply.error('ERR invalid numkeys value'));
    expect(run(s, 'MSETEX', '2', 'a', '1')).toEqual(reply.error('ERR wrong number of key-value pairs'));
    expect(run(s, 'MSETEX', '1', 'a', '1', 'NX', 'XX')).toEqual(reply.error('ERR syntax error'));
    expect(run(s, 'MSETEX', '1', 'a', '1', 'EX', '1', 'PX', '1')).toEqual(reply.error('ERR syntax error'));
    expect(run(s, 'MSETEX', '1', 'a', '1', 'GET')).toEqual(reply.error('ERR syntax error'));
    expect(run(s, 'MSETEX', '1', 'a', '1', 'EX', '0')).toEqual(reply.error("ERR invalid expire time in 'msetex' command"));
    expect(run(s, 'MSETEX', '1', 'a')).toEqual(reply.error("ERR wrong number of arguments for 'msetex' command"));
    expect(run(s, 'EXISTS', 'a')).toEqual(reply.integer(0));
  });
});
