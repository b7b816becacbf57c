import { DEFAULT_UNIX_EPOCH_MS } from '../../../src/engine/redis/time';
import { diffCase, near, sleep, timeReply, unixTime, withEpoch } from '../harness';

/**
 * Unix time on the simulated server: its epoch (here the default, 2026-01-01T00:00:00Z) plus the
 * virtual time, which starts at 0 for each case. The real server's clock is the wall clock, so
 * absolute times are written relative to each side's own clock (`{unix-ms+100000}`) and absolute
 * replies are compared as distances from it (`unixTime`, `timeReply`): what must match is what a
 * lock's code sees, e.g. that `SET k v PXAT 1` expires at once and a deadline computed from TIME
 * lands where it should.
 */
const epoch = (diff: ReturnType<typeof diffCase>) => withEpoch(DEFAULT_UNIX_EPOCH_MS, diff);

export const EPOCH_CASES = [
  epoch(diffCase('TIME answers the server clock', timeReply('TIME'), timeReply(`EVAL "return redis.call('TIME')" 0`))),
  epoch(diffCase('SET PXAT and EXAT in 1970 store a key that is gone at once', 'SET k v PXAT 1', 'GET k', 'EXISTS k', 'SET j v EXAT 1', 'GET j', 'SET i v PXAT {unix-ms-1}', 'EXISTS i', 'DBSIZE')),
  epoch(
    diffCase(
      'SET PXAT and EXAT a while from now',
      'SET k v PXAT {unix-ms+100000}',
      near('PTTL k'),
      near('TTL k', 1),
      unixTime('PEXPIRETIME k', 'ms'),
      unixTime('EXPIRETIME k', 's'),
      'SET j v EXAT {unix-s+100}',
      near('TTL j', 1),
      unixTime('EXPIRETIME j', 's'),
    ),
  ),
  epoch(diffCase('SET PXAT a moment from now expires on time', 'SET k v PXAT {unix-ms+100}', 'EXISTS k', sleep(250), 'GET k', 'EXISTS k')),
  epoch(diffCase('EXPIREAT and PEXPIREAT relative to now', 'SET k v', 'EXPIREAT k {unix-s+100}', unixTime('EXPIRETIME k', 's'), near('TTL k', 1), 'PEXPIREAT k {unix-ms+200000}', unixTime('PEXPIRETIME k', 'ms'), 'EXPIREAT k {unix-s-1}', 'EXISTS k')),
  epoch(diffCase('PEXPIREAT now or just past deletes at once', 'SET k v', 'PEXPIREAT k {unix-ms-10}', 'EXISTS k', 'SET j v', 'EXPIREAT j {unix-s-5}', 'EXISTS j')),
  epoch(diffCase('EXPIREAT GT and LT compare Unix times', 'SET k v', 'PEXPIREAT k {unix-ms+300000}', 'PEXPIREAT k {unix-ms+200000} GT', 'PEXPIREAT k {unix-ms+200000} LT', unixTime('PEXPIRETIME k', 'ms'), 'EXPIRE k 400 GT', unixTime('EXPIRETIME k', 's'))),
  epoch(diffCase('GETEX EXAT and PXAT relative to now', 'SET k v', 'GETEX k PXAT {unix-ms+100000}', unixTime('PEXPIRETIME k', 'ms'), 'GETEX k EXAT {unix-s+50}', near('TTL k', 1), 'GETEX k PXAT {unix-ms-1}', 'EXISTS k')),
  epoch(
    diffCase(
      'a script computes an absolute deadline from TIME',
      `EVAL "local t = redis.call('TIME'); return redis.call('SET', KEYS[1], 'v', 'PXAT', t[1] * 1000 + math.floor(t[2] / 1000) + 100000)" 1 k`,
      near('PTTL k'),
      `EVAL "local t = redis.call('TIME'); return redis.call('SET', KEYS[1], 'v', 'EXAT', t[1] - 1)" 1 j`,
      'EXISTS j',
    ),
  ),
  epoch(diffCase('relative expiry does not depend on the epoch', 'SET k v PX 100000', near('PTTL k'), unixTime('PEXPIRETIME k', 'ms'), 'PSETEX j 200000 v', unixTime('EXPIRETIME j', 's'))),
  epoch(diffCase('an expiry overflow is judged in Unix time', 'SET k v', 'PEXPIRE k 9223372036854775807', 'PEXPIRE k 9223372036854775000', 'EXPIRE k 9223372036854775', 'SET j v PX 9223372036854775000', 'TTL k', 'EXISTS j')),
];
