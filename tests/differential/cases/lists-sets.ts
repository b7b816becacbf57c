import { diffCase, sorted } from '../harness';

/** Lists and sets: queues and lock waiters. Set replies compare as multisets (hash-table order). */
export const LIST_SET_CASES = [
  diffCase('LPUSH/RPUSH order and LRANGE', 'RPUSH l a b', 'LPUSH l c d', 'LRANGE l 0 -1', 'LLEN l', 'LRANGE l 1 2', 'LRANGE l -2 -1', 'LRANGE l 5 10', 'LRANGE l -100 100', 'LRANGE l 2 1'),
  diffCase('LPOP/RPOP', 'RPUSH l a b c d', 'LPOP l', 'RPOP l', 'LRANGE l 0 -1', 'LPOP missing', 'RPOP missing'),
  diffCase('LPOP/RPOP with count', 'RPUSH l a b c d e', 'LPOP l 2', 'RPOP l 2', 'LPOP l 0', 'LPOP l 5', 'EXISTS l', 'LPOP l 1', 'LPOP missing 2', 'RPOP missing 0'),
  diffCase('LPOP count errors', 'RPUSH l a', 'LPOP l -1', 'LPOP l abc', 'RPOP l 1 2', 'LRANGE l 0 -1'),
  diffCase('LRANGE argument errors', 'RPUSH l a', 'LRANGE l a b', 'LRANGE l 0 1.5', 'LRANGE missing 0 -1'),
  diffCase('LPUSHX/RPUSHX', 'LPUSHX l a', 'RPUSH l a', 'LPUSHX l b', 'RPUSHX l c d', 'LRANGE l 0 -1'),
  diffCase('LINDEX and LLEN', 'RPUSH l a b c', 'LINDEX l 0', 'LINDEX l -1', 'LINDEX l 5', 'LINDEX l x', 'LLEN missing'),
  diffCase('list emptied by pops is deleted', 'RPUSH l a', 'RPOP l', 'EXISTS l', 'TYPE l'),
  diffCase('SADD/SREM/SCARD/SISMEMBER', 'SADD s a b a', 'SADD s b c', 'SCARD s', 'SISMEMBER s a', 'SISMEMBER s z', 'SREM s a z', 'SCARD s', 'SISMEMBER missing a', 'SCARD missing'),
  diffCase('SMEMBERS (sorted for comparison)', 'SADD s c a b', sorted('SMEMBERS s'), sorted('SMEMBERS missing')),
  diffCase('SMEMBERS of integers', 'SADD s 3 1 2 10', 'SMEMBERS s'),
  diffCase('SMEMBERS of integers with negatives and duplicates', 'SADD s -5 3 0 3 -10', 'SMEMBERS s', 'SREM s 0', 'SMEMBERS s'),
  diffCase('LRANGE with extreme indexes', 'RPUSH l a b c', 'LRANGE l -9223372036854775808 9223372036854775807', 'LRANGE l 9223372036854775807 -1', 'LINDEX l -9223372036854775808', 'LINDEX l 9223372036854775807'),
  diffCase('list and set keep the TTL when changed', 'RPUSH l a', 'EXPIRE l 1000', 'LPUSH l b', 'RPOP l', 'TTL l', 'SADD s a', 'EXPIRE s 1000', 'SADD s b', 'SREM s a', 'TTL s'),
  diffCase('set emptied by SREM is deleted', 'SADD s a', 'SREM s a', 'EXISTS s', 'SREM s a'),
  diffCase('SMISMEMBER', 'SADD s a b', 'SMISMEMBER s a z b', 'SMISMEMBER missing a'),
];
