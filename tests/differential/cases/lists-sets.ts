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
  // Translated (in our own words) from Redis 7.0's tests/unit/type/list.tcl and set.tcl.
  diffCase('push, length, index and pop', 'LPUSH mylist a', 'RPUSH mylist b', 'RPUSH mylist c', 'LLEN mylist', 'LINDEX mylist 0', 'LINDEX mylist 1', 'LINDEX mylist 2', 'LINDEX mylist 3', 'RPOP mylist', 'LPOP mylist', 'LPOP mylist', 'LPOP mylist', 'EXISTS mylist'),
  diffCase('LPOP and RPOP with a wrong number of arguments', 'LPOP key', 'LPOP key 1 1', 'RPOP key 2 2'),
  diffCase('LPOP and RPOP with a count', 'RPUSH listcount aa bb cc dd', 'RPOP listcount 2', 'LPOP listcount 0', 'RPOP listcount 0', 'LPOP listcount 5', 'EXISTS listcount', 'RPUSH listcount x', 'LPOP listcount -1'),
  diffCase('LPOP and RPOP of a missing key, with and without a count', 'LPOP non_existing_key', 'RPOP non_existing_key', 'LPOP non_existing_key 0', 'LPOP non_existing_key 1', 'RPOP non_existing_key 0'),
  diffCase('variadic RPUSH and LPUSH', 'LPUSH mylist a b c d', 'RPUSH mylist 0 1 2 3', 'LRANGE mylist 0 -1'),
  diffCase('LPUSHX and RPUSHX', 'LPUSHX xlist a', 'LLEN xlist', 'RPUSHX xlist a', 'RPUSH xlist a', 'RPUSHX xlist b c', 'LPUSHX xlist d e', 'LRANGE xlist 0 -1', 'SET s v', 'LPUSHX s x'),
  diffCase('LLEN, LINDEX, LPUSH and RPUSH on a non-list', 'SET mylist foobar', 'LLEN mylist', 'LINDEX mylist 0', 'LPUSH mylist 1', 'RPUSH mylist 1', 'LLEN nosuchkey', 'LINDEX nosuchkey 0'),
  diffCase('SADD, SCARD, SISMEMBER, SMISMEMBER, SREM', 'SADD myset foo', 'SADD myset foo', 'SADD myset bar', 'SCARD myset', 'SISMEMBER myset foo', 'SISMEMBER myset bar', 'SISMEMBER myset bla', 'SMISMEMBER myset foo bar', 'SMISMEMBER myset foo bla', 'SREM myset foo', 'SREM myset bar', 'SREM myset bar', 'SCARD myset'),
  diffCase('SADD against a non-set', 'LPUSH mylist foo', 'SADD mylist bar', 'SREM mylist bar', 'SCARD mylist', 'SISMEMBER mylist foo', 'SMISMEMBER mylist foo', 'SMEMBERS mylist'),
  diffCase('an integer set takes a non-integer member', 'SADD myset 17', 'SADD myset a', sorted('SMEMBERS myset'), 'SADD n 1 2 3', 'SADD n 123456789012345678901', sorted('SMEMBERS n')),
  diffCase('SREM with several members, more than needed to empty the set', 'SADD myset a b c', 'SREM myset k k b c', 'SMEMBERS myset', 'SADD s a b c', 'SREM s a b c d', 'EXISTS s'),
  diffCase('SMISMEMBER of a missing key and without members', 'SMISMEMBER nosuchkey a b', 'SMISMEMBER myset'),
];
