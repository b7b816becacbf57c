import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE } from './scripts';
import { lockedJob, releaseWithLua, text, type RetryOptions } from './common';

/*
 * Contention: three clients want a lock that A holds. Each retries a bounded number of times and
 * then gives up (reports an error) instead of spinning forever. Fixed-interval retries arrive in
 * lockstep; exponential backoff with random jitter (drawn from the run's seeded RNG) spreads them
 * out. Neither is fair: who gets the lock next is whoever retries at the right moment.
 */

type Variant = 'fixed-interval' | 'jittered-backoff';

const retryOptions: Record<Variant, RetryOptions> = {
  'fixed-interval': { retryAfterMs: 300, attemptCountMax: 3 },
  'jittered-backoff': { retryAfterMs: 200, attemptCountMax: 3, backoffFactor: 2, jitterMs: 200 },
};

function contender(variant: Variant): Step[] {
  return lockedJob({ ...retryOptions[variant], workMs: 500, release: releaseWithLua() });
}

function holder(): Step[] {
  return lockedJob({ retryAfterMs: 300, attemptCountMax: 3, workMs: 1000, release: releaseWithLua() });
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: holder() },
    { id: 'B', program: contender(variant) },
    { id: 'C', program: contender(variant) },
    { id: 'D', program: contender(variant) },
  ];
}

export const retryAndBackoff: Scenario = {
  id: 'retry-and-backoff',
  title: text('Retry and backoff: waiting for a lock without spinning forever', '重试与退避：等锁，但不无限空转'),
  summary: text(
    'Three clients wait for A\'s lock with bounded retries; jittered backoff spreads them out; nobody is served in order.',
    '三个客户端以有限次数重试等待 A 的锁；带随机抖动的退避把它们错开；但没有人按先来后到被服务。',
  ),
  lesson: text(
    'SET NX does not wait: when the lock is taken it answers nil at once, and waiting is the client\'s job. A loop that retries ' +
      'immediately hammers Redis and never ends if the holder never lets go, so every retry loop needs a bound: at most N attempts ' +
      '(or a total deadline), then give up and report an error, as redis-py\'s Lock(blocking_timeout=...) and Redisson\'s ' +
      'tryLock(waitTime, ...) do. Retrying at a fixed interval makes waiting clients retry in lockstep, all hitting Redis at the ' +
      'same instants; exponential backoff (each wait twice the last) with random jitter spreads them out (this run draws the jitter ' +
      'from its seed, so it replays exactly). Neither makes the lock fair: whoever happens to retry just after the release wins, so ' +
      'a client that waited longest can lose to one that just arrived, and an unlucky one gives up. A fair lock needs a queue: ' +
      'Redisson\'s RedissonFairLock keeps waiters in a Redis list and grants the lock in arrival order, at the cost of more keys, ' +
      'more scripts and timeouts for waiters that vanish.',
    'SET NX 不会等待：锁被占用时它立刻返回 nil，等待是客户端自己的事。立即重试的循环会狂刷 Redis，而且如果持有者永不释放，' +
      '循环就永不结束；所以每个重试循环都需要上限：最多 N 次（或一个总的截止时间），到了就放弃并报错，redis-py 的 ' +
      'Lock(blocking_timeout=...) 和 Redisson 的 tryLock(waitTime, ...) 都是这么做的。固定间隔重试会让等待的客户端步调一致，' +
      '在同一时刻一起打到 Redis 上；指数退避（每次等待翻倍）加随机抖动能把它们错开（本次运行的抖动取自种子，因此可以精确重放）。' +
      '但两者都不能让锁变得公平：谁恰好在释放之后重试，谁就赢，等得最久的客户端可能输给刚到的，运气差的则只能放弃。' +
      '公平锁需要排队：Redisson 的 RedissonFairLock 把等待者放进 Redis 列表，按到达顺序授予锁，代价是更多的键、更多的脚本，' +
      '以及要为消失的等待者处理超时。',
  ),
  params: { lockKey: 'lock', ttlMs: '5000' },
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  defaultSchedule: 'A B C D B C D A D C B D C B',
  narration: [
    { step: 0, text: text('A takes the lock for 1 s of work.', 'A 拿到锁，要处理 1 秒。') },
    { step: 3, text: text('B, C and D arrive in that order; each is refused and schedules a retry.', 'B、C、D 依次到达；每个都加锁失败，并安排一次重试。') },
    { step: 6, text: text('With a fixed interval all three retry at the same instant, t=300: a small thundering herd.', '固定间隔下，三者在同一时刻 t=300 一起重试：一次小型的惊群。') },
    { step: 7, text: text('A releases the lock.', 'A 释放了锁。') },
    { step: 8, text: text('D, the last to arrive, happens to retry first and wins: SET NX keeps no queue.', '最后到达的 D 恰好最先重试，赢得了锁：SET NX 不维护任何队列。') },
    { step: 12, text: text('C gets the lock after D.', 'C 在 D 之后拿到了锁。') },
    { step: 13, text: text('B, the first to arrive, spends its last retry while C holds the lock and gives up: bounded, but not fair.', '最先到达的 B 在 C 持锁时用掉了最后一次重试，只能放弃：有界，但不公平。') },
  ],
  variants: [
    {
      id: 'fixed-interval',
      title: text('Fixed interval, at most 3 retries', '固定间隔，最多重试 3 次'),
      summary: text('Waiters retry in lockstep every 300 ms.', '等待者每 300 毫秒步调一致地重试。'),
      clients: clients('fixed-interval'),
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
    {
      id: 'jittered-backoff',
      title: text('Exponential backoff with jitter, at most 3 retries', '指数退避加随机抖动，最多重试 3 次'),
      summary: text('Waits double each time, plus a random 0-200 ms: the retries spread out.', '每次等待翻倍，再加 0 到 200 毫秒的随机量：重试被错开。'),
      clients: clients('jittered-backoff'),
      narration: [
        { step: 3, text: text('B, C and D arrive in that order; each waits 200 ms plus a random 0-200 ms drawn from the seed.', 'B、C、D 依次到达；每个等待 200 毫秒再加 0 到 200 毫秒的随机量（取自种子）。') },
        { step: 6, text: text('The retries land at different times, and each next wait doubles.', '重试落在不同的时刻，而且每次等待都翻倍。') },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
  ],
  defaultVariant: 'fixed-interval',
};
