import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE } from './scripts';
import { lockedJob, releaseWithLua, text, type RetryOptions } from './common';

/*
 * Contention: B and C want a lock that A holds; D arrives just after A lets go. SET NX does not
 * wait, so waiting is the client's loop. An unbounded spin (while (!tryLock()) sleep(50))
 * hammers Redis; fixed-interval retries arrive in lockstep; exponential backoff with random
 * jitter (drawn from the run's seeded RNG) spreads them out, and a deadline bounds the wait in
 * time. None is fair: whoever retries just after the release wins, and the newcomer D does.
 */

type Variant = 'spin' | 'fixed-interval' | 'jittered-backoff';

const retryOptions: Record<Variant, RetryOptions> = {
  spin: {
    retryAfterMs: 50,
    attemptCountMax: 1000,
    retryNote: text('while (!tryLock()) sleep(50): no bound (1000 only bounds the simulation)', 'while (!tryLock()) sleep(50)：没有上限（1000 只是模拟的边界）'),
  },
  'fixed-interval': { retryAfterMs: 400, attemptCountMax: 4, retryNote: text('wait 400 ms and try again, at most 4 times', '等 400 毫秒再试，最多 4 次') },
  'jittered-backoff': {
    retryAfterMs: 100,
    attemptCountMax: 6,
    backoffFactor: 2,
    jitterMs: 100,
    deadlineMs: 2500,
    retryNote: text('wait 100 ms x 2 per attempt + 0-100 ms jitter; give up past a 2.5 s deadline', '等待 100 毫秒、每次翻倍，再加 0 到 100 毫秒抖动；超过 2.5 秒的截止时间就放弃'),
  },
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
  defaultSchedule: 'A B C +1100 D +2500',
  narration: [
    { step: 0, text: text('A takes the lock for 1 s of work.', 'A 拿到锁，要处理 1 秒。') },
    { step: 2, text: text('B and C arrive together; both are refused and wait 400 ms before trying again.', 'B 和 C 同时到达；都加锁失败，各等 400 毫秒再试。') },
    { step: 3, text: text('With a fixed interval B and C retry at the same instants (t=400, 800): a small thundering herd. A releases at t=1000, but nobody is retrying then.', '固定间隔下，B 和 C 在相同的时刻（t=400、800）一起重试：一次小型的惊群。A 在 t=1000 释放了锁，但那一刻没有人在重试。') },
    { step: 4, text: text('D arrives at t=1100, finds the lock free and takes it: the newcomer beats the two clients that waited 1.1 s. SET NX keeps no queue.', 'D 在 t=1100 到达，发现锁空闲，直接拿走：新来的击败了已经等了 1.1 秒的两个客户端。SET NX 不维护任何队列。') },
    { step: 5, text: text('B and C retry together at t=1200 and are refused again. At t=1600 D releases; B, first in line at that instant, wins, and C spends its last retry and gives up: bounded, but not fair.', 'B 和 C 在 t=1200 一起重试，再次被拒绝。t=1600 时 D 释放锁；那一刻排在前面的 B 赢了，C 用掉了最后一次重试，只能放弃：有界，但不公平。') },
  ],
  variants: [
    {
      id: 'spin',
      title: text('Unbounded spin: retry every 50 ms, forever', '无界自旋：每 50 毫秒重试，永不停止'),
      summary: text('Waiters hammer Redis with a SET every 50 ms and never give up.', '等待者每 50 毫秒就向 Redis 发一次 SET，而且永不放弃。'),
      clients: clients('spin'),
      narration: [
        { step: 2, text: text('B and C arrive together; both are refused and spin: a SET every 50 ms.', 'B 和 C 同时到达；都加锁失败，开始自旋：每 50 毫秒一次 SET。') },
        { step: 3, text: text('In the first second B and C send about 40 SETs between them, all refused. At t=1000 A releases and B\'s next spin takes the lock; C keeps spinning.', '在第一秒里，B 和 C 一共发了约 40 次 SET，全部被拒绝。t=1000 时 A 释放锁，B 的下一次自旋拿到了锁；C 继续自旋。') },
        { step: 4, text: text('D arrives at t=1100 and starts spinning too.', 'D 在 t=1100 到达，也开始自旋。') },
        { step: 5, text: text('C and D spin until they get the lock, each one after the other. Count the SETs in the log: a spin costs Redis a command every 50 ms per waiter, and it would never stop if the holder never let go.', 'C 和 D 一直自旋，直到先后拿到锁。数一数日志里的 SET：每个等待者每 50 毫秒就给 Redis 一条命令；如果持有者永不释放，它也永不停止。') },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
    {
      id: 'fixed-interval',
      title: text('Fixed interval, at most 4 retries', '固定间隔，最多重试 4 次'),
      summary: text('Waiters retry in lockstep every 400 ms, and give up after 4 tries.', '等待者每 400 毫秒步调一致地重试，4 次后放弃。'),
      clients: clients('fixed-interval'),
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
    {
      id: 'jittered-backoff',
      title: text('Exponential backoff with jitter and a deadline', '指数退避加随机抖动，并设截止时间'),
      summary: text('Waits double each time, plus a random 0-100 ms; a waiter gives up past its 2.5 s deadline.', '每次等待翻倍，再加 0 到 100 毫秒的随机量；超过 2.5 秒的截止时间就放弃。'),
      clients: clients('jittered-backoff'),
      narration: [
        { step: 2, text: text('B and C arrive together; each waits 100 ms plus a random 0-100 ms drawn from the seed.', 'B 和 C 同时到达；每个等待 100 毫秒再加 0 到 100 毫秒的随机量（取自种子）。') },
        { step: 3, text: text('Their retries land at different times, and each next wait doubles: fewer commands, spread out.', '它们的重试落在不同的时刻，而且每次等待都翻倍：命令更少，也更分散。') },
        {
          step: 5,
          text: text(
            'D releases at t=1600; B\'s retry at t=1618 takes the lock. C is refused at t=1739, and its next retry would land past its 2.5 s deadline, so it gives up and reports an error instead of waiting on.',
            'D 在 t=1600 释放锁；B 在 t=1618 的重试拿到了锁。C 在 t=1739 被拒绝，它的下一次重试会落在 2.5 秒的截止时间之后，于是它放弃并报错，而不是继续等下去。',
          ),
        },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
  ],
  defaultVariant: 'fixed-interval',
  explore: {
    depthMax: 7,
    note: { en: 'Searched up to 7 choices: the spinning variant alone has hundreds of thousands of states beyond that.', zh: '搜索最多 7 个选择：仅自旋变体在此之外就有数十万个状态。' },
  },
};
