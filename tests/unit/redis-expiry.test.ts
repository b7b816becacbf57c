import { describe, expect, it } from 'vitest';
import type { Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';
import { DEFAULT_UNIX_EPOCH_MS } from '../../src/engine/redis/time';

/**
 * The exact expiry boundary on virtual time, against Redis 7.0's documented semantics (db.c
 * keyIsExpired: a key is expired when now > when; expire.c checkAlreadyExpired: setting a time
 * <= now deletes at once; ttlGenericCommand: TTL = (ms + 500) / 1000). The differential suite
 * cannot test these: the real server runs on wall time.
 */
const T = 1_000_000;
/** Absolute times are Unix times: the server's epoch plus the virtual time. */
const U = DEFAULT_UNIX_EPOCH_MS + T;

function at(server: SimRedisServer, nowMs: number, line: string): Reply {
  return server.execute(line.split(' '), nowMs);
}
const int = (value: number): Reply => ({ type: 'integer', value: String(value) });
const bulk = (value: string): Reply => ({ type: 'bulk', value });
const nil: Reply = { type: 'nil' };

describe('expiry boundary on virtual time', () => {
  it('a key set with PX 5000 at t is visible at t+5000 with PTTL 0 and gone at t+5001', () => {
    const s = new SimRedisServer();
    expect(at(s, T, 'SET k v PX 5000')).toEqual({ type: 'status', value: 'OK' });
    expect(at(s, T + 4999, 'PTTL k')).toEqual(int(1));
    expect(at(s, T + 5000, 'GET k')).toEqual(bulk('v'));
    expect(at(s, T + 5000, 'PTTL k')).toEqual(int(0));
    expect(at(s, T + 5000, 'TTL k')).toEqual(int(0));
    expect(at(s, T + 5001, 'GET k')).toEqual(nil);
    expect(at(s, T + 5001, 'PTTL k')).toEqual(int(-2));
    expect(at(s, T + 5001, 'EXISTS k')).toEqual(int(0));
  });

  it('a lock can be taken again at t+5001 but not at t+5000', () => {
    const s = new SimRedisServer();
    at(s, T, 'SET lock a NX PX 5000');
    expect(at(s, T + 5000, 'SET lock b NX PX 5000')).toEqual(nil);
    expect(at(s, T + 5001, 'SET lock b NX PX 5000')).toEqual({ type: 'status', value: 'OK' });
    expect(at(s, T + 5001, 'GET lock')).toEqual(bulk('b'));
  });

  it('TTL rounds half up to whole seconds', () => {
    const s = new SimRedisServer();
    for (const [ms, seconds] of [[499, 0], [500, 1], [1499, 1], [1500, 2], [2000, 2]] as const) {
      at(s, T, `SET k${ms} v PX ${ms}`);
      expect(at(s, T, `TTL k${ms}`), `PX ${ms}`).toEqual(int(seconds));
    }
  });

  it('EXPIRE 0, PEXPIRE -1 and PEXPIREAT now delete at once; PEXPIREAT now+1 keeps the key one more ms', () => {
    const s = new SimRedisServer();
    at(s, T, 'MSET a 1 b 2 c 3 d 4');
    expect(at(s, T, 'EXPIRE a 0')).toEqual(int(1));
    expect(at(s, T, 'PEXPIRE b -1')).toEqual(int(1));
    expect(at(s, T, `PEXPIREAT c ${U}`)).toEqual(int(1));
    expect(at(s, T, `PEXPIREAT d ${U + 1}`)).toEqual(int(1));
    expect(at(s, T, 'EXISTS a b c d')).toEqual(int(1));
    expect(at(s, T + 1, 'GET d')).toEqual(bulk('4'));
    expect(at(s, T + 2, 'GET d')).toEqual(nil);
  });

  it('GETEX PXAT now deletes the key after answering it; SET PXAT now stores a key that is gone 1 ms later', () => {
    const s = new SimRedisServer();
    at(s, T, 'SET g v');
    expect(at(s, T, `GETEX g PXAT ${U}`)).toEqual(bulk('v'));
    expect(at(s, T, 'EXISTS g')).toEqual(int(0));
    at(s, T, `SET p v PXAT ${U}`);
    expect(at(s, T, 'GET p')).toEqual(bulk('v'));
    expect(at(s, T + 1, 'GET p')).toEqual(nil);
  });

  it('EXPIRETIME and PEXPIRETIME report the absolute time, rounded to seconds for EXPIRETIME', () => {
    const s = new SimRedisServer();
    at(s, T, 'SET k v PX 2499');
    expect(at(s, T, 'PEXPIRETIME k')).toEqual(int(U + 2499));
    expect(at(s, T, 'EXPIRETIME k')).toEqual(int(Math.floor((U + 2499 + 500) / 1000)));
  });

  it('KEEPTTL, INCR and HSET keep the absolute expiry; SET without KEEPTTL drops it', () => {
    const s = new SimRedisServer();
    at(s, T, 'SET n 1 PX 1000');
    at(s, T + 400, 'INCR n');
    at(s, T + 500, 'SET n 7 KEEPTTL');
    expect(at(s, T + 500, 'PTTL n')).toEqual(int(500));
    at(s, T, 'HSET h f 1');
    at(s, T, 'PEXPIRE h 1000');
    at(s, T + 999, 'HSET h g 2');
    expect(at(s, T + 1000, 'HLEN h')).toEqual(int(2));
    expect(at(s, T + 1001, 'HLEN h')).toEqual(int(0));
    at(s, T + 1001, 'SET m 1 PX 10');
    at(s, T + 1002, 'SET m 2');
    expect(at(s, T + 5000, 'PTTL m')).toEqual(int(-1));
  });

  it('DBSIZE, KEYS and the inspector never count a key past its expiry', () => {
    const s = new SimRedisServer();
    at(s, T, 'SET a 1 PX 10');
    at(s, T, 'SET b 1');
    expect(at(s, T + 10, 'DBSIZE')).toEqual(int(2));
    expect(at(s, T + 11, 'DBSIZE')).toEqual(int(1));
    expect(at(s, T + 11, 'KEYS *')).toEqual({ type: 'array', value: [bulk('b')] });
    expect(s.inspect(T + 11).map((e) => e.key)).toEqual(['b']);
  });

  it('a snapshot taken before the boundary restores a key that expires at the same virtual time', () => {
    const s = new SimRedisServer();
    at(s, T, 'SET k v PX 100');
    const snapshot = s.snapshot();
    expect(at(s, T + 101, 'GET k')).toEqual(nil);
    s.restore(snapshot);
    expect(at(s, T + 100, 'GET k')).toEqual(bulk('v'));
    expect(at(s, T + 101, 'GET k')).toEqual(nil);
  });
});
