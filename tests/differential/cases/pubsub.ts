import { diffCase, near } from '../harness';

/**
 * Pub/Sub with RESP2: lock libraries publish on release to wake waiters. Many cases follow what
 * Redis 7.0's own tests/unit/pubsub.tcl checks, written anew. `@sub` and `@sub2` are subscriber
 * connections; every step also compares what each connection received besides its reply.
 */

/**
 * Redisson's RLock scripts, unmodified, from redisson/redisson RedissonLock.java
 * (tryLockInnerAsync and unlockInnerAsync at commit 66863978b4a9, Apache License 2.0): the
 * Java string literals joined as Redisson sends them. The release publishes on the lock's channel
 * through `redis.call(ARGV[4], ...)`, ARGV[4] being "publish" outside a sharded cluster.
 */
const REDISSON_LOCK =
  "if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then " +
  "redis.call('hincrby', KEYS[1], ARGV[2], 1); " +
  "redis.call('pexpire', KEYS[1], ARGV[1]); " +
  'return nil; ' +
  'end; ' +
  "return redis.call('pttl', KEYS[1]);";
const REDISSON_UNLOCK =
  "local val = redis.call('get', KEYS[3]); " +
  'if val ~= false then ' +
  'return tonumber(val);' +
  'end; ' +
  "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then " +
  'return nil;' +
  'end; ' +
  "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); " +
  'if (counter > 0) then ' +
  "redis.call('pexpire', KEYS[1], ARGV[2]); " +
  "redis.call('set', KEYS[3], 0, 'px', ARGV[5]); " +
  'return 0; ' +
  'else ' +
  "redis.call('del', KEYS[1]); " +
  'redis.call(ARGV[4], KEYS[2], ARGV[1]); ' +
  "redis.call('set', KEYS[3], 1, 'px', ARGV[5]); " +
  'return 1; ' +
  'end; ';

/** The keys and arguments Redisson 3.x passes for a lock named `orders` held by thread 1 of one client. */
const LOCK_NAME = 'orders';
const CHANNEL = 'redisson_lock__channel:{orders}';
const HOLDER = '1f9e0e2c-6f0e-4bd4-9b1e-2d3f4a5b6c7d:1';
const lockLine = `EVAL "${REDISSON_LOCK}" 1 ${LOCK_NAME} 30000 ${HOLDER}`;
const unlockLine = (requestId: string) =>
  `EVAL "${REDISSON_UNLOCK}" 3 ${LOCK_NAME} ${CHANNEL} redisson_unlock_latch:{orders}:${requestId} 0 30000 ${HOLDER} publish 13500`;

export const PUBSUB_CASES = [
  diffCase('PING while subscribed answers an array; after unsubscribing, PONG', '@sub SUBSCRIBE somechannel', '@sub PING', '@sub PING foo', '@sub UNSUBSCRIBE somechannel', '@sub PING'),
  diffCase('SUBSCRIBE two channels, PUBLISH counts receivers, messages arrive', '@sub SUBSCRIBE chan1 chan2', 'PUBLISH chan1 hello', 'PUBLISH chan2 world', '@sub UNSUBSCRIBE chan1', 'PUBLISH chan1 hello', 'PUBLISH chan2 world', '@sub UNSUBSCRIBE chan2', 'PUBLISH chan2 world'),
  diffCase('two subscribers on one channel', '@sub SUBSCRIBE chan1', '@sub2 SUBSCRIBE chan1', 'PUBLISH chan1 hello', '@sub2 UNSUBSCRIBE', 'PUBLISH chan1 again'),
  diffCase('UNSUBSCRIBE without arguments leaves every channel', '@sub SUBSCRIBE chan1', '@sub UNSUBSCRIBE', 'PUBLISH chan1 hello', '@sub GET k'),
  diffCase('SUBSCRIBE to one channel more than once', '@sub SUBSCRIBE chan1 chan1 chan1', 'PUBLISH chan1 hello'),
  diffCase('UNSUBSCRIBE from channels never subscribed', '@sub UNSUBSCRIBE foo bar quux', '@sub PING'),
  diffCase('UNSUBSCRIBE and PUNSUBSCRIBE always answer', 'PUNSUBSCRIBE', 'UNSUBSCRIBE', 'PUNSUBSCRIBE', 'UNSUBSCRIBE'),
  diffCase('PSUBSCRIBE: patterns match channels', '@sub PSUBSCRIBE foo.* bar.*', 'PUBLISH foo.1 hello', 'PUBLISH bar.1 hello', 'PUBLISH foo1 hello', 'PUBLISH barfoo.1 hello', 'PUBLISH qux.1 hello', '@sub PUNSUBSCRIBE foo.*', 'PUBLISH foo.1 hello', 'PUBLISH bar.1 hello', '@sub PUNSUBSCRIBE bar.*', 'PUBLISH bar.1 hello'),
  diffCase('two pattern subscribers', '@sub PSUBSCRIBE chan.*', '@sub2 PSUBSCRIBE chan.*', 'PUBLISH chan.foo hello'),
  diffCase('PUNSUBSCRIBE without arguments', '@sub PSUBSCRIBE chan1.*', '@sub PUNSUBSCRIBE', 'PUBLISH chan1.hi hello', 'PUNSUBSCRIBE foo.* bar.*'),
  diffCase('a channel and a matching pattern both receive', '@sub SUBSCRIBE foo.bar', '@sub PSUBSCRIBE foo.*', 'PUBLISH foo.bar hello', '@sub UNSUBSCRIBE', '@sub PING', '@sub PUNSUBSCRIBE', '@sub PING'),
  diffCase('pattern syntax: classes, ranges, escapes', '@sub PSUBSCRIBE news.[ab]* q\\?x [0-9]', 'PUBLISH news.alpha 1', 'PUBLISH news.c 2', 'PUBLISH q?x 3', 'PUBLISH qax 4', 'PUBLISH 7 5'),
  diffCase('a subscribed connection may only run the subscribe family, PING, QUIT and RESET', '@sub SUBSCRIBE c', '@sub GET k', '@sub SET k v', '@sub MULTI', '@sub PUBLISH c x', '@sub EVAL "return 1" 0', '@sub NOSUCH', '@sub GET', '@sub PSUBSCRIBE p*', '@sub PING a b', 'EXISTS k'),
  diffCase('EXEC from a subscribed connection is refused with EXECABORT', '@sub SUBSCRIBE c', '@sub EXEC', '@sub DISCARD'),
  diffCase('RESET while subscribed leaves every subscription silently', '@sub SUBSCRIBE a b', '@sub PSUBSCRIBE p*', '@sub RESET', 'PUBLISH a x', 'PUBLISH pq x', '@sub SET k v', 'GET k'),
  diffCase('QUIT closes a subscriber', '@sub SUBSCRIBE a', '@sub QUIT', 'PUBLISH a x'),
  diffCase('PUBLISH with nobody listening, and its arity', 'PUBLISH nobody hi', 'PUBLISH c', 'PUBLISH c a b'),
  diffCase('binary-safe channels and messages', '@sub SUBSCRIBE "\\xff\\x00c"', 'PUBLISH "\\xff\\x00c" "\\x00\\xfe"', '@sub PSUBSCRIBE "\\xff*"', 'PUBLISH "\\xffz" m'),
  diffCase('publishing from a script', '@sub SUBSCRIBE events', `EVAL "return redis.call('publish', KEYS[1], ARGV[1])" 1 events hello`, `EVAL "redis.call('publish', 'events', 'a'); redis.call('publish', 'events', 'b'); return 2" 0`),
  diffCase('SUBSCRIBE inside a transaction', 'MULTI', 'SUBSCRIBE ch', 'EXEC', 'PUBLISH ch x', '@sub PUBLISH ch y', 'PING'),
  diffCase('a transaction that subscribes to two channels keeps its array one entry per command', 'MULTI', 'SUBSCRIBE a b', 'EXEC', '@sub PUBLISH b x'),
  diffCase('a transaction that subscribes, publishes and echoes: replies and the message share one stream', 'MULTI', 'SUBSCRIBE ch', 'PUBLISH ch hi', 'ECHO after', 'EXEC', 'PING'),
  diffCase('a transaction publishes to subscribers of another connection', '@sub SUBSCRIBE ch', 'MULTI', 'PUBLISH ch one', 'SET k v', 'PUBLISH ch two', 'EXEC'),
  diffCase(
    "Redisson's lock and unlock scripts, unmodified: the release publishes to waiters",
    `@sub SUBSCRIBE ${CHANNEL}`,
    lockLine,
    'HGETALL orders',
    lockLine,
    'HGETALL orders',
    unlockLine('req-1'),
    'HGETALL orders',
    unlockLine('req-2'),
    'EXISTS orders',
    unlockLine('req-2'),
    unlockLine('req-3'),
  ),
  diffCase("Redisson's lock script answers the PTTL to a competing holder", lockLine, near(`EVAL "${REDISSON_LOCK}" 1 ${LOCK_NAME} 30000 other-client:7`)),
];
