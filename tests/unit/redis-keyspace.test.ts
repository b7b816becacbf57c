import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Keyspace, KeyspaceSnapshot } from '../../src/engine/redis/keyspace';
import type { Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';
import { runs } from '../support/size';

/**
 * The keyspace is Lockstep's own (no ioredis-mock): snapshots are cheap copies that later commands
 * can never change, their JSON is a sorted plain form that equal keyspaces share byte for byte,
 * and a restore (from a snapshot or from parsed JSON) gives back exactly the same server.
 */
const run = (s: SimRedisServer, nowMs: number, line: string): Reply => s.execute(line.split(' '), nowMs);

const WRITES = [
  'SET a 1',
  'SET a 2 PX 5000',
  'APPEND a x',
  'INCR n',
  'RPUSH l x y',
  'LPUSH l z',
  'LPOP l',
  'SADD s m n',
  'SREM s m',
  'HSET h f v g w',
  'HDEL h f',
  'HINCRBY h c 3',
  'DEL a',
  'EXPIRE s 100',
  'PERSIST s',
  'RENAME h h2',
  'FLUSHALL',
];

describe('keyspace snapshots', () => {
  it('are not changed by any later command (copy-on-write values, seed 11)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WRITES), { maxLength: 12 }), fc.array(fc.constantFrom(...WRITES), { maxLength: 12 }), (before, after) => {
        const s = new SimRedisServer();
        for (const line of before) run(s, 1_000, line);
        const snapshot = s.snapshot();
        const frozen = JSON.stringify(snapshot);
        for (const line of after) run(s, 1_000, line);
        expect(JSON.stringify(snapshot)).toBe(frozen);
        // Restoring it (twice, from the same snapshot) gives the same keyspace back.
        s.restore(snapshot);
        expect(JSON.stringify(s.snapshot())).toBe(frozen);
        for (const line of after) run(s, 1_000, line);
        s.restore(snapshot);
        expect(JSON.stringify(s.snapshot())).toBe(frozen);
      }),
      { seed: 11, numRuns: runs(200) },
    );
  });

  it('restore from parsed JSON as well as from the snapshot object', () => {
    const s = new SimRedisServer();
    for (const line of ['SET a 1 PX 5000', 'RPUSH l x y', 'SADD s 3 1 2', 'HSET h b 1 a 2']) run(s, 1_000, line);
    const plain = JSON.parse(JSON.stringify(s.snapshot()));
    const copy = new SimRedisServer();
    copy.restore(plain);
    expect(JSON.stringify(copy.snapshot())).toBe(JSON.stringify(s.snapshot()));
    expect(run(copy, 3_000, 'PTTL a')).toEqual({ type: 'integer', value: '3000' });
    expect(run(copy, 6_001, 'EXISTS a')).toEqual({ type: 'integer', value: '0' });
  });

  it('keep the plain JSON form: sorted keys, then key, expiry, type, value per entry', () => {
    const s = new SimRedisServer();
    run(s, 0, 'SET b v PX 100');
    run(s, 0, 'SADD a z y');
    expect(JSON.stringify(s.snapshot().keyspace)).toBe(
      '{"entries":[{"key":"a","expireAtMs":null,"type":"set","value":["y","z"]},{"key":"b","expireAtMs":100,"type":"string","value":"v"}]}',
    );
  });

  it('carry an expiry beyond 2^53 ms exactly', () => {
    const s = new SimRedisServer();
    run(s, 0, 'SET k v');
    run(s, 0, 'PEXPIREAT k 9223372036854775807');
    const snapshot = JSON.parse(JSON.stringify(s.snapshot()));
    const copy = new SimRedisServer();
    copy.restore(snapshot);
    expect(run(copy, 0, 'PEXPIRETIME k')).toEqual({ type: 'integer', value: '9223372036854775807' });
    expect(snapshot.keyspace.entries[0].expireAtExact).toBe(String(9223372036854775807n - BigInt(s.unixEpochMs)));
  });

  it('take O(keys) work: a snapshot shares the stored values', () => {
    const k = new Keyspace();
    k.write('l', { type: 'list', value: ['a', 'b'] }, { keepTtl: false });
    const snapshot = k.snapshot();
    expect(snapshot).toBeInstanceOf(KeyspaceSnapshot);
    expect(snapshot.values.get('l')).toBe(k.get('l'));
  });
});

describe('expiry on the virtual clock', () => {
  it('removes due keys before every command and reports each as changed', () => {
    const k = new Keyspace();
    const touched: string[] = [];
    k.onTouch = (key) => touched.push(key);
    k.write('a', { type: 'string', value: '1' }, { keepTtl: false });
    k.setExpireAt('a', 100);
    k.write('b', { type: 'string', value: '2' }, { keepTtl: false });
    touched.length = 0;
    k.expireDue(100);
    expect(k.has('a')).toBe(true);
    k.expireDue(101);
    expect(k.has('a')).toBe(false);
    expect(touched).toEqual(['a']);
  });

  it('does not scan before the earliest expiry (a lower bound kept through deletes)', () => {
    const k = new Keyspace();
    k.write('a', { type: 'string', value: '1' }, { keepTtl: false });
    k.setExpireAt('a', 50);
    k.write('b', { type: 'string', value: '2' }, { keepTtl: false });
    k.setExpireAt('b', 80);
    k.delete('a');
    k.expireDue(60);
    expect(k.has('b')).toBe(true);
    k.expireDue(81);
    expect(k.has('b')).toBe(false);
  });
});
