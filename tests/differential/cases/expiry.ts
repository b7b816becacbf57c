import { diffCase, near, sleep } from '../harness';

/**
 * Expiry commands with long TTLs (wall time never matters here; see harness.ts). GT/LT steps always
 * compare TTLs that differ by seconds: equal relative TTLs set a few ms apart would compare by
 * the wall-clock ms between the two commands.
 */
export const EXPIRY_CASES = [
  diffCase('TTL and PTTL on absent, persistent and expiring keys', 'TTL k', 'PTTL k', 'SET k v', 'TTL k', 'PTTL k', 'EXPIRE k 1000', 'TTL k', near('PTTL k')),
  diffCase('TTL rounds to the nearest second', 'SET k v PX 100400', 'TTL k', 'SET j v PX 100600', 'TTL j'),
  diffCase('EXPIRE returns 1 or 0', 'EXPIRE k 100', 'SET k v', 'EXPIRE k 100', 'TTL k', 'PEXPIRE k 200000', 'TTL k'),
  diffCase('EXPIRE argument parsing', 'SET k v', 'EXPIRE k abc', 'EXPIRE k 1.5', 'EXPIRE k " 10"', 'EXPIRE k 01', 'TTL k'),
  diffCase('EXPIRE overflow', 'SET k v', 'EXPIRE k 9223372036854775807', 'PEXPIRE k 9223372036854775807', 'EXPIRE k 9223372036854775', 'TTL k'),
  diffCase('EXPIRE zero or negative deletes', 'SET k v', 'EXPIRE k 0', 'EXISTS k', 'SET j v', 'PEXPIRE j -100', 'EXISTS j'),
  diffCase('EXPIRE NX/XX', 'SET k v', 'EXPIRE k 100 XX', 'TTL k', 'EXPIRE k 100 NX', 'TTL k', 'EXPIRE k 200 NX', 'EXPIRE k 300 XX', 'TTL k'),
  diffCase('EXPIRE GT/LT', 'SET k v', 'EXPIRE k 100 GT', 'TTL k', 'EXPIRE k 100 LT', 'TTL k', 'EXPIRE k 50 GT', 'EXPIRE k 200 GT', 'TTL k', 'EXPIRE k 300 LT', 'EXPIRE k 150 LT', 'TTL k'),
  diffCase('EXPIRE flags are case-insensitive and conflicts refused', 'SET k v', 'EXPIRE k 100 nx', 'EXPIRE k 100 NX XX', 'EXPIRE k 100 GT LT', 'EXPIRE k 100 NX GT', 'EXPIRE k 200 XX GT', 'EXPIRE k 100 FOO', 'EXPIRE k 150 GT GT', 'TTL k'),
  diffCase('EXPIRE flags on an absent key', 'EXPIRE k 100 NX', 'EXPIRE k 100 FOO', 'EXPIRE k abc NX'),
  diffCase('EXPIRE LT on a key without TTL, GT with negative', 'SET k v', 'EXPIRE k 100 LT', 'TTL k', 'SET j v', 'EXPIRE j -1 GT', 'EXISTS j', 'EXPIRE j -1 LT', 'EXISTS j'),
  diffCase('EXPIREAT and PEXPIREAT', 'SET k v', 'EXPIREAT k 4102444800', 'EXPIRETIME k', 'PEXPIREAT k 4102444800500', 'PEXPIRETIME k', 'EXPIRETIME k', 'EXPIREAT missing 4102444800'),
  diffCase('EXPIREAT in the past deletes', 'SET k v', 'EXPIREAT k 1', 'EXISTS k', 'SET j v', 'PEXPIREAT j 0', 'EXISTS j'),
  diffCase('EXPIREAT flags', 'SET k v', 'EXPIREAT k 4102444800 NX', 'EXPIREAT k 4102444900 NX', 'EXPIREAT k 4102444900 GT', 'EXPIRETIME k', 'EXPIREAT k 4102444850 LT', 'EXPIRETIME k', 'EXPIREAT k 4102444850 XX GT'),
  diffCase('EXPIRETIME and PEXPIRETIME on absent and persistent keys', 'EXPIRETIME k', 'PEXPIRETIME k', 'SET k v', 'EXPIRETIME k', 'PEXPIRETIME k'),
  diffCase('PERSIST', 'PERSIST k', 'SET k v', 'PERSIST k', 'EXPIRE k 100', 'PERSIST k', 'TTL k'),
  diffCase('EXPIRE on other types', 'HSET h f v', 'EXPIRE h 100', 'TTL h', 'RPUSH l a', 'PEXPIRE l 100000', 'TTL l', 'SADD s a', 'EXPIRE s 100', 'PERSIST s', 'TTL s'),
  diffCase('TTL after GETSET and APPEND', 'SET k v EX 1000', 'APPEND k x', 'TTL k', 'GETSET k y', 'TTL k'),
  diffCase('RENAME carries the TTL', 'SET k v EX 1000', 'RENAME k j', 'TTL j', 'EXISTS k'),
  // Translated (in our own words) from Redis 7.0's tests/unit/expire.tcl.
  diffCase('EXPIRE can be set several times, and the key stays readable', 'SET x foobar', 'EXPIRE x 5', 'TTL x', 'EXPIRE x 10', 'TTL x', 'EXPIRE x 2', 'GET x'),
  diffCase('a key with a short TTL is gone after it, and writing it again works', 'SET x foobar PX 100', 'EXISTS x', sleep(250), 'GET x', 'EXISTS x', 'SET x foo', 'EXPIRE x 1000', 'LPUSH x foo', 'SET x bar', 'TTL x'),
  diffCase('SETEX sets, overwrites and expires', 'SETEX k 10000 ciao', 'GET k', 'TTL k', 'SETEX k 10000 bye', 'GET k', 'PSETEX s 100 v', sleep(250), 'GET s', 'SETEX z -10 foo', 'EXISTS z'),
  diffCase('PERSIST undoes an EXPIRE and answers 0 on keys without one', 'SET x foo', 'EXPIRE x 50', 'TTL x', 'PERSIST x', 'TTL x', 'GET x', 'SET y v', 'PERSIST y', 'PERSIST nokey'),
  diffCase('sub-second PSETEX, PEXPIRE and PEXPIREAT', 'PSETEX a 100 v', 'SET b v', 'PEXPIRE b 100', 'SET c v', 'PEXPIREAT c {unix-ms+100}', 'MGET a b c', sleep(250), 'MGET a b c'),
  diffCase('an EXPIRE with an empty string is not an integer', 'SET foo bar', 'EXPIRE foo ""', 'TTL foo'),
  diffCase('EXPIRE overflows when converted to milliseconds or added to now', 'SET foo bar', 'EXPIRE foo 9223370399119966', 'EXPIRE foo 9223372036854776', 'EXPIRE foo 10000000000000000', 'EXPIRE foo 18446744073709561', 'PEXPIRE foo 9223372036854770000', 'TTL foo'),
  diffCase('EXPIRE with a big negative number', 'SET foo bar', 'EXPIRE foo -9223372036854776', 'EXPIRE foo -9999999999999999', 'TTL foo'),
  diffCase('PEXPIREAT with big positive and negative numbers', 'SET foo bar', 'PEXPIREAT foo 9223372036854770000', 'PEXPIRETIME foo', near('PTTL foo'), 'PEXPIREAT foo -9223372036854770000', 'TTL foo'),
  diffCase('64-bit expiry times are exact', 'SET k v', 'PEXPIREAT k 9223372036854775807', 'PEXPIRETIME k', 'EXPIRETIME k', near('PTTL k'), near('TTL k'), 'PEXPIREAT k 9223372036854775806', 'PEXPIRETIME k', 'PEXPIREAT k 9223372036854775807 GT', 'PEXPIRETIME k', 'PEXPIREAT k 9223372036854775806 GT', 'PEXPIREAT k 9223372036854775806 LT', 'PEXPIRETIME k', 'PEXPIREAT k 9007199254740993', 'PEXPIRETIME k'),
  diffCase('EXPIRETIME rounds near the 64-bit limit', 'SET k v', 'PEXPIREAT k 9223372036854775307', 'EXPIRETIME k', 'PEXPIREAT k 9223372036854775308', 'EXPIRETIME k', 'EXPIREAT k 9223372036854775', 'PEXPIRETIME k'),
  diffCase('SET and GETEX with absolute times near the 64-bit limit', 'SET k v PXAT 9223372036854775807', 'PEXPIRETIME k', 'SET j v EXAT 9223372036854775', 'PEXPIRETIME j', 'GETEX j PXAT 9223372036854775806', 'PEXPIRETIME j', 'SET i v PX 9223372036854775000', 'SET i v EX 9223372036854775', 'EXISTS i'),
  diffCase('SET removes an expiry; SET KEEPTTL and GETEX PERSIST', 'SET foo bar EX 100', 'SET foo bar', 'TTL foo', 'SET foo bar EX 100', 'SET foo bar2 KEEPTTL', 'TTL foo', 'GET foo', 'GETEX foo PERSIST', 'TTL foo'),
  diffCase('EXPIRE NX, XX, GT, LT on keys with and without a TTL', 'SET foo bar EX 100', 'EXPIRE foo 200 NX', 'TTL foo', 'SET bar v', 'EXPIRE bar 200 NX', 'TTL bar', 'EXPIRE foo 300 XX', 'TTL foo', 'SET baz v', 'EXPIRE baz 200 XX', 'TTL baz', 'EXPIRE foo 100 GT', 'EXPIRE foo 400 GT', 'TTL foo', 'EXPIRE bar 400 GT', 'EXPIRE foo 500 LT', 'EXPIRE foo 150 LT', 'TTL foo', 'EXPIRE baz 100 LT', 'TTL baz', 'EXPIRE foo 120 LT XX', 'TTL foo', 'SET q v', 'EXPIRE q 100 LT XX', 'TTL q'),
  diffCase('EXPIRE option conflicts and unknown options', 'SET foo bar', 'EXPIRE foo 200 LT GT', 'EXPIRE foo 200 NX GT', 'EXPIRE foo 200 NX LT', 'EXPIRE foo 200 NX XX', 'EXPIRE foo 200 AB', 'EXPIRE foo 200 XX AB', 'EXPIRE nokey 200 AB'),
  diffCase('EXPIRE with a negative time deletes, with or without a TTL, and not a missing key', 'SET foo bar EX 100', 'EXPIRE foo -10 LT', 'TTL foo', 'SET foo bar', 'EXPIRE foo -10', 'TTL foo', 'EXPIRE none 100', 'EXPIRE none 100 NX', 'EXPIRE none -100'),
];
