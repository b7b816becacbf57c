import { diffCase } from '../harness';

/** EVAL and friends: run by A1's Lua engine (src/engine/redis/lua/). Lock release and renewal are scripts. */
const UNLOCK = `"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"`;
const RENEW = `"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"`;

export const SCRIPTING_CASES = [
  diffCase('EVAL returns each Lua type', 'EVAL "return 1" 0', `EVAL "return 'x'" 0`, 'EVAL "return 3.99" 0', 'EVAL "return true" 0', 'EVAL "return false" 0', 'EVAL "return nil" 0', "EVAL \"return {1, 'a', {2, 'b'}}\" 0", 'EVAL "return {1, nil, 2}" 0'),
  diffCase('EVAL status and error tables', `EVAL "return redis.status_reply('FINE')" 0`, `EVAL "return redis.error_reply('MY bad')" 0`, `EVAL "return {ok='DONE'}" 0`, `EVAL "return {err='ERR custom'}" 0`),
  diffCase('EVAL KEYS and ARGV', 'EVAL "return KEYS" 2 a b c', 'EVAL "return ARGV" 1 a b c', 'EVAL "return tonumber(ARGV[1]) + 1" 0 41'),
  diffCase('EVAL redis.call replies converted', `EVAL "return redis.call('SET', KEYS[1], ARGV[1])" 1 k v`, `EVAL "return redis.call('GET', KEYS[1])" 1 k`, `EVAL "return redis.call('GET', KEYS[1])" 1 missing`, `EVAL "return redis.call('INCR', KEYS[1])" 1 n`, `EVAL "return redis.call('HGETALL', KEYS[1])" 1 missing`),
  diffCase('EVAL lock acquire with SET NX PX', `EVAL "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])" 1 lock tok 100000`, `EVAL "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])" 1 lock other 100000`, 'GET lock'),
  diffCase('EVAL unlock script: owner and non-owner', 'SET lock tok', `EVAL ${UNLOCK} 1 lock other`, 'GET lock', `EVAL ${UNLOCK} 1 lock tok`, 'EXISTS lock'),
  diffCase('EVAL renew script', 'SET lock tok PX 100000', `EVAL ${RENEW} 1 lock tok 200000`, 'TTL lock', `EVAL ${RENEW} 1 lock other 300000`, 'TTL lock'),
  diffCase('EVAL numkeys errors', 'EVAL "return 1" -1', 'EVAL "return 1" 2 a', 'EVAL "return 1" abc', 'EVAL "return 1"'),
  diffCase('EVAL compile and runtime errors', 'EVAL "return +" 0', 'EVAL "return nil + 1" 0', `EVAL "error('boom')" 0`),
  diffCase('EVAL redis.call error propagates, pcall returns it', 'SET k abc', `EVAL "return redis.call('INCR', KEYS[1])" 1 k`, `EVAL "local r = redis.pcall('INCR', KEYS[1]); return r['err']" 1 k`, 'HSET h f v', `EVAL "return redis.call('GET', KEYS[1])" 1 h`),
  diffCase('EVAL redis.call with bad command or arity', `EVAL "return redis.call('NOPE')" 0`, `EVAL "return redis.call('GET')" 0`, `EVAL "return redis.pcall('GET')" 0`),
  diffCase('EVAL writes before an error are kept', `EVAL "redis.call('SET', KEYS[1], 'v'); return redis.call('INCR', KEYS[1])" 1 k`, 'GET k'),
  diffCase('EVALSHA and SCRIPT LOAD/EXISTS/FLUSH', 'EVALSHA ffffffffffffffffffffffffffffffffffffffff 0', 'SCRIPT LOAD "return 42"', 'EVALSHA 1fa00e76656cc152ad327c13fe365858fd7be306 0', 'SCRIPT EXISTS 1fa00e76656cc152ad327c13fe365858fd7be306 ffffffffffffffffffffffffffffffffffffffff', 'SCRIPT FLUSH', 'EVALSHA 1fa00e76656cc152ad327c13fe365858fd7be306 0'),
  diffCase('EVAL caches the script for EVALSHA', 'EVAL "return 42" 0', 'EVALSHA 1fa00e76656cc152ad327c13fe365858fd7be306 0'),
  diffCase('EVAL_RO refuses writes', `EVAL_RO "return redis.call('GET', KEYS[1])" 1 k`, `EVAL_RO "return redis.call('SET', KEYS[1], 'v')" 1 k`, 'EXISTS k'),
  diffCase('EVAL global variables are protected', 'EVAL "x = 1; return 1" 0', 'EVAL "return x" 0'),
  diffCase('EVAL redis.sha1hex and libraries', `EVAL "return redis.sha1hex('')" 0`, `EVAL "return cjson.encode({1, 2, 3})" 0`, `EVAL "return bit.band(6, 3)" 0`),
  diffCase('EVAL arity', 'EVAL', 'EVAL "return 1"', 'EVALSHA abc'),
  diffCase('EVAL script with a TTL read', 'SET k v EX 1000', `EVAL "return redis.call('TTL', KEYS[1])" 1 k`, `EVAL "return redis.call('TYPE', KEYS[1])" 1 k`),
];
