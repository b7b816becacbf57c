/**
 * A typical hand-written Redis lock, as application code writes it with ioredis: acquire with
 * SET key token NX PX ttl, release with a compare-and-delete script. `releaseNaive` is the version
 * many codebases start with (GET, compare, DEL): two commands, so another client's lock can be
 * deleted between them. The tests run both under Lockstep's scheduler.
 */

/** The part of an ioredis client this lock uses (an ioredis `Redis` fits, and so does Lockstep's). */
export interface RedisLike {
  set(key: string, value: string, ...options: (string | number)[]): Promise<unknown>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then
  return redis.call("del", KEYS[1])
else
  return 0
end`;

export class RedisLock {
  constructor(
    private readonly redis: RedisLike,
    private readonly key: string,
    private readonly ttlMs: number,
  ) {}

  /** True when this token now holds the lock, for ttlMs at most. */
  async acquire(token: string): Promise<boolean> {
    return (await this.redis.set(this.key, token, 'PX', this.ttlMs, 'NX')) === 'OK';
  }

  /** Deletes the lock only if it still holds this token: one atomic script. */
  async release(token: string): Promise<boolean> {
    return (await this.redis.eval(RELEASE, 1, this.key, token)) === 1;
  }

  /** The naive release: the check and the delete are two commands. */
  async releaseNaive(token: string): Promise<boolean> {
    if ((await this.redis.get(this.key)) !== token) return false;
    await this.redis.del(this.key);
    return true;
  }
}

/** A job that takes the lock, works, and releases it; timers come from the caller (setTimeout in production). */
export async function lockedJob(options: {
  readonly lock: RedisLock;
  readonly token: string;
  readonly naive: boolean;
  readonly work: () => Promise<void>;
  readonly onEnter?: () => void;
  readonly onLeave?: () => void;
}): Promise<boolean> {
  if (!(await options.lock.acquire(options.token))) return false;
  options.onEnter?.();
  await options.work();
  options.onLeave?.();
  return options.naive ? options.lock.releaseNaive(options.token) : options.lock.release(options.token);
}
