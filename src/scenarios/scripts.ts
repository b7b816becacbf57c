import type { ScriptSpec } from '../engine/scenario';

/*
 * Lua sources the scenarios share, written as the libraries they come from write them. Each runs
 * atomically: Redis executes no other command while a script runs.
 */

/**
 * The canonical safe release from the Redis docs ("Distributed Locks with Redis"), as redis-py's
 * Lock uses it. (Redisson's unlock is a hash-lock script with a reentrancy counter and a PUBLISH to
 * waiters: see REDISSON_UNLOCK.)
 */
export const COMPARE_AND_DELETE: ScriptSpec = {
  title: { en: 'Compare and delete', zh: '比较并删除' },
  source: `if redis.call("get", KEYS[1]) == ARGV[1] then
  return redis.call("del", KEYS[1])
else
  return 0
end`,
};

/**
 * Extend the lease only while the lock still holds my token: the string-lock form of Redisson's
 * renewExpiration script, and what redis-py's Lock.extend(replace_ttl=True) runs. 1 = extended, 0 = lost.
 */
export const COMPARE_AND_PEXPIRE: ScriptSpec = {
  title: { en: 'Renew if still mine', zh: '仍是我的锁才续期' },
  source: `if redis.call("get", KEYS[1]) == ARGV[1] then
  return redis.call("pexpire", KEYS[1], ARGV[2])
else
  return 0
end`,
  durationsMs: { argv: [2] },
};

/**
 * Take the lock and a fencing token in one step: the token comes from a counter that only grows,
 * so every grant carries a larger number than the one before (Kleppmann, "How to do distributed
 * locking"). Returns the fencing token, or nil when the lock is taken.
 */
export const ACQUIRE_WITH_FENCING_TOKEN: ScriptSpec = {
  title: { en: 'Acquire with a fencing token', zh: '加锁并领取防护令牌' },
  source: `if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  return redis.call("incr", KEYS[2])
end
return false`,
  durationsMs: { argv: [2] },
};

/**
 * Redisson's RedissonLock.tryLockInnerAsync: a hash lock whose field is the owner's id and whose
 * value counts re-entries. nil = acquired (or re-entered); otherwise the lock's PTTL.
 * KEYS[1] lock, ARGV[1] lease in ms, ARGV[2] owner id.
 */
export const REENTRANT_LOCK: ScriptSpec = {
  title: { en: 'Reentrant lock (Redisson)', zh: '可重入加锁（Redisson）' },
  source: `if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;
return redis.call('pttl', KEYS[1]);`,
  durationsMs: { argv: [1], reply: true },
};

/**
 * Redisson's RedissonLock.unlockInnerAsync without its PUBLISH to waiting clients (the reentrant
 * scenario has no waiters; REDISSON_UNLOCK is the whole script): nil = not my
 * lock; 0 = one re-entry released, still held (lease reset); 1 = count reached 0, key deleted.
 * KEYS[1] lock, ARGV[1] lease in ms, ARGV[2] owner id.
 */
export const REENTRANT_UNLOCK: ScriptSpec = {
  title: { en: 'Reentrant unlock (Redisson)', zh: '可重入解锁（Redisson）' },
  source: `if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then
  return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1);
if (counter > 0) then
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return 0;
else
  redis.call('del', KEYS[1]);
  return 1;
end;`,
  durationsMs: { argv: [1] },
};

/**
 * Redisson's RedissonLock.unlockInnerAsync in its Redisson 3.x form, unmodified: like
 * REENTRANT_UNLOCK, and when the count reaches 0 it deletes the key and PUBLISHes the unlock
 * message (0) on the lock's channel, which wakes the clients waiting for the lock. (Later 3.x
 * releases also store the result under an unlock-latch key, so a retried unlock answers the
 * same, and may send SPUBLISH in a sharded cluster.)
 * KEYS[1] lock, KEYS[2] channel, ARGV[1] unlock message, ARGV[2] lease in ms, ARGV[3] owner id.
 */
export const REDISSON_UNLOCK: ScriptSpec = {
  title: { en: 'Unlock and publish (Redisson)', zh: '解锁并发布消息（Redisson）' },
  source: `if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
  redis.call('pexpire', KEYS[1], ARGV[2]);
  return 0;
else
  redis.call('del', KEYS[1]);
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
return nil;`,
};

/** Redisson's renewExpiration script for its hash lock: extend only if the owner's field is there. */
export const REENTRANT_RENEW: ScriptSpec = {
  title: { en: 'Renew a hash lock (Redisson watchdog)', zh: '哈希锁续期（Redisson 看门狗）' },
  source: `if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return 1;
end;
return 0;`,
  durationsMs: { argv: [1] },
};

/** Check and decrement the stock in one atomic step: 1 = sold, 0 = sold out. */
export const CHECK_AND_DECREMENT: ScriptSpec = {
  title: { en: 'Check and decrement stock', zh: '检查并扣减库存' },
  source: `local stock = tonumber(redis.call("get", KEYS[1]))
if stock and stock > 0 then
  redis.call("decr", KEYS[1])
  return 1
end
return 0`,
};
