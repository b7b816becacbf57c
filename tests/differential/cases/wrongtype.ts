import { diffCase } from '../harness';

/** Every typed command on a key of another type must answer WRONGTYPE (or, where Redis does, not). */
const SETUP = ['SET str v', 'HSET hash f v', 'RPUSH list a', 'SADD set a'];

const STRING_ON_HASH = ['GET hash', 'GETSET hash v', 'GETDEL hash', 'GETEX hash', 'GETEX hash PERSIST', 'APPEND hash x', 'STRLEN hash', 'INCR hash', 'DECR hash', 'INCRBY hash 1', 'DECRBY hash 1', 'INCRBYFLOAT hash 1', 'SETRANGE hash 0 x', 'GETRANGE hash 0 1', 'MGET hash str', 'SETNX hash v', 'MSETNX hash v'];
const HASH_ON_STRING = ['HSET str f v', 'HMSET str f v', 'HGET str f', 'HMGET str f', 'HDEL str f', 'HEXISTS str f', 'HINCRBY str f 1', 'HINCRBYFLOAT str f 1', 'HLEN str', 'HGETALL str', 'HKEYS str', 'HVALS str', 'HSETNX str f v', 'HSTRLEN str f'];
const LIST_ON_SET = ['LPUSH set a', 'RPUSH set a', 'LPUSHX set a', 'RPUSHX set a', 'LPOP set', 'RPOP set', 'LPOP set 2', 'LRANGE set 0 -1', 'LLEN set', 'LINDEX set 0'];
const SET_ON_LIST = ['SADD list a', 'SREM list a', 'SMEMBERS list', 'SISMEMBER list a', 'SMISMEMBER list a', 'SCARD list'];

export const WRONGTYPE_CASES = [
  diffCase('string commands on a hash', ...SETUP, ...STRING_ON_HASH, 'TYPE hash'),
  diffCase('hash commands on a string', ...SETUP, ...HASH_ON_STRING, 'TYPE str'),
  diffCase('list commands on a set', ...SETUP, ...LIST_ON_SET, 'TYPE set'),
  diffCase('set commands on a list', ...SETUP, ...SET_ON_LIST, 'TYPE list'),
  diffCase('WRONGTYPE beats a bad argument where Redis checks the type first', ...SETUP, 'INCRBY hash abc', 'HINCRBY str f abc', 'LRANGE set a b', 'LPOP set -1', 'GETEX hash EX 0'),
  diffCase('type-agnostic commands on every type', ...SETUP, 'EXISTS str hash list set', 'TYPE list', 'EXPIRE list 1000', 'TTL list', 'PERSIST list', 'RENAME set set2', 'TYPE set2', 'DEL str hash list set2'),
];
