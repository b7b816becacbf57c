import type { ScriptSpec } from '../engine/scenario';

/** The canonical safe release from the Redis docs ("Distributed Locks with Redis"), as Redisson and redis-py use it. */
export const COMPARE_AND_DELETE: ScriptSpec = {
  title: { en: 'Compare and delete', zh: '比较并删除' },
  source: `if redis.call("get", KEYS[1]) == ARGV[1] then
  return redis.call("del", KEYS[1])
else
  return 0
end`,
};
