import { diffCase, infoFields, sameType, scanAll, sorted } from '../harness';

/**
 * Connection state and cursors: SELECT's 16 databases, CLIENT SETNAME/GETNAME/ID, INFO (by field
 * presence: a real server reports far more), and SCAN/HSCAN/SSCAN/ZSCAN compared over a whole
 * iteration (Redis's cursors are positions in its own hash tables).
 */
export const CONNECTION_CASES = [
  diffCase('SELECT keeps keys per database', 'SET k zero', 'SELECT 1', 'GET k', 'SET k one', 'DBSIZE', 'SELECT 0', 'GET k', 'DBSIZE', 'SELECT 15', 'EXISTS k', 'SELECT 16', 'SELECT -1', 'SELECT x', 'SELECT 99999999999', 'SELECT 1', 'GET k'),
  diffCase('SELECT is per connection', 'SELECT 2', 'SET k two', '@b GET k', '@b SELECT 2', '@b GET k', '@b DEL k', 'EXISTS k'),
  diffCase('FLUSHDB empties the selected database, FLUSHALL every one', 'SET a 0', 'SELECT 3', 'SET b 3', 'FLUSHDB', 'DBSIZE', 'SELECT 0', 'DBSIZE', 'SELECT 3', 'SET b 3', 'FLUSHALL', 'DBSIZE', 'SELECT 0', 'DBSIZE'),
  diffCase('SELECT inside MULTI changes the database of what follows', 'SET k zero', 'MULTI', 'SELECT 1', 'SET k one', 'GET k', 'EXEC', 'GET k', 'SELECT 0', 'GET k'),
  diffCase('a script runs in its caller database, and its SELECT stays inside it', 'SELECT 4', 'SET k four', `EVAL "return redis.call('GET', KEYS[1])" 1 k`, `EVAL "redis.call('SELECT', 5); redis.call('SET', KEYS[1], 'five'); return redis.call('GET', KEYS[1])" 1 k`, 'GET k', 'SELECT 5', 'GET k', `EVAL "return redis.pcall('SELECT', 99)" 0`),
  diffCase('WATCH sees changes in its own database only', 'SELECT 1', 'WATCH k', '@b SET k other-db', 'MULTI', 'SET done 1', 'EXEC', 'WATCH k', '@b SELECT 1', '@b SET k same-db', 'MULTI', 'SET done 2', 'EXEC'),
  diffCase('expiry and TTL in another database', 'SELECT 7', 'SET k v EX 1000', 'TTL k', 'PERSIST k', 'TTL k', 'SELECT 0', 'TTL k'),
  diffCase('CLIENT SETNAME and GETNAME', 'CLIENT GETNAME', 'CLIENT SETNAME worker-1', 'CLIENT GETNAME', '@b CLIENT GETNAME', 'CLIENT SETNAME "a b"', 'CLIENT SETNAME caf\u00e9', 'CLIENT GETNAME', 'CLIENT SETNAME ""', 'CLIENT GETNAME', 'CLIENT SETNAME', 'CLIENT GETNAME x', 'CLIENT ID x', 'CLIENT foo', 'client SetName MiXed', 'CLIENT getname'),
  diffCase('RESET selects database 0 and drops the name', 'CLIENT SETNAME x', 'SELECT 3', 'SET k three', 'RESET', 'CLIENT GETNAME', 'GET k', 'SELECT 3', 'GET k'),
  diffCase('CLIENT ID answers an integer', sameType('CLIENT ID'), sameType('@b CLIENT ID'), `EVAL "return redis.pcall('CLIENT', 'ID')" 0`),
  diffCase('CLIENT subcommand errors doom a transaction', 'MULTI', 'CLIENT SETNAME', 'CLIENT nope', 'SET k v', 'EXEC', 'EXISTS k', 'MULTI', 'CLIENT SETNAME inside', 'CLIENT GETNAME', 'EXEC', 'CLIENT GETNAME'),
  diffCase('INFO sections by field presence', infoFields('INFO'), infoFields('INFO server'), infoFields('INFO SERVER clients'), infoFields('INFO persistence'), infoFields('INFO nosuchsection'), 'SET k v', 'SELECT 2', 'SET k v EX 100', infoFields('INFO keyspace'), infoFields('INFO all'), infoFields('INFO everything'), `EVAL "return redis.call('INFO', 'replication') ~= ''" 0`),
  // SCAN and friends: the union over a whole iteration, and the argument errors exactly. (A cursor
  // such as -1, 2^64-1, visits the real server's last bucket, which depends on its hash seed.)
  diffCase('SCAN a whole keyspace, with COUNT, MATCH and TYPE', 'MSET a 1 b 2 c 3 d 4 e 5 f 6 g 7 h 8 i 9 j 10 k 11 l 12 user:1 x user:2 y user:3 z', 'RPUSH list a', 'SADD set a', 'HSET hash f v', 'ZADD zset 1 a', scanAll('SCAN {cursor}'), scanAll('SCAN {cursor} COUNT 3'), scanAll('SCAN {cursor} MATCH user:*'), scanAll('SCAN {cursor} MATCH user:* COUNT 1'), scanAll('SCAN {cursor} TYPE list'), scanAll('SCAN {cursor} TYPE zset COUNT 2'), scanAll('SCAN {cursor} TYPE STRING MATCH ?'), scanAll('SCAN {cursor} TYPE nosuchtype')),
  diffCase('SCAN argument errors', 'SET a 1', 'SCAN x', 'SCAN " 0"', 'SCAN 18446744073709551616', 'SCAN 0 COUNT 0', 'SCAN 0 COUNT x', 'SCAN 0 MATCH', 'SCAN 0 foo 1', 'SCAN +0', 'SCAN 0 COUNT -5'),
  diffCase('SCAN in another database', 'SELECT 9', 'MSET x 1 y 2', scanAll('SCAN {cursor}'), 'SELECT 0', scanAll('SCAN {cursor}')),
  diffCase('HSCAN, SSCAN and ZSCAN', 'HSET h f1 v1 f2 v2 f3 v3 other x', 'SADD s a b c d e', 'SADD n 1 2 3 10', 'ZADD z 1 a 2.5 b inf c 0.1 d', scanAll('HSCAN h {cursor}', true), scanAll('HSCAN h {cursor} MATCH f*', true), scanAll('SSCAN s {cursor}'), scanAll('SSCAN s {cursor} COUNT 1'), 'SSCAN n 0', scanAll('ZSCAN z {cursor}', true), scanAll('ZSCAN z {cursor} MATCH [ab]', true), scanAll('HSCAN missing {cursor}')),
  diffCase('HSCAN, SSCAN and ZSCAN errors', 'SET str v', 'HSET h f v', 'HSCAN h x', 'HSCAN missing x', 'HSCAN missing 0 foo', 'HSCAN str 0', 'SSCAN str 0', 'ZSCAN str 0', 'HSCAN h 0 TYPE string', 'HSCAN h 0 COUNT 0', 'HSCAN h 0 MATCH', 'ZSCAN h 0'),
  diffCase('SSCAN over a large set pages through all members', `EVAL "for i = 1, 300 do redis.call('SADD', KEYS[1], 'member:' .. i) end return redis.call('SCARD', KEYS[1])" 1 big`, scanAll('SSCAN big {cursor}'), scanAll('SSCAN big {cursor} COUNT 50 MATCH member:1*'), sorted('SMEMBERS big')),
  diffCase('HSCAN and ZSCAN over large ones', `EVAL "for i = 1, 200 do redis.call('HSET', KEYS[1], 'field:' .. i, i); redis.call('ZADD', KEYS[2], i / 3, 'm' .. i) end return 1" 2 bigh bigz`, scanAll('HSCAN bigh {cursor}', true), scanAll('ZSCAN bigz {cursor} COUNT 7', true)),
];
