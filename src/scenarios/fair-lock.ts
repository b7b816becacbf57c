import type { ClientSpec, Scenario, ScriptSpec } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE } from './scripts';
import { releaseWithLua, text } from './common';

/*
 * A fair lock serves waiters in arrival order: they queue in a Redis list, and only the head may
 * take the lock when it is free. The lock itself has a lease, so a crashed holder's lock expires;
 * a queue entry without one does not. B crashes while at the head of the queue: the lock is free,
 * but it is not C's turn, and never will be. The fix gives every queue entry a lease that the
 * waiter's polls renew; an entry whose waiter stopped polling is dropped from the head, and the next
 * waiter moves up. (RedissonFairLock drops a head past its deadline too, but sets each deadline once,
 * when the waiter joins: the lesson's text says how.)
 */

type Variant = 'no-timeout' | 'entry-lease';

/** Joins the queue once; takes the lock only when it is free and the caller is at the head. */
const FAIR_ACQUIRE: ScriptSpec = {
  title: text('Queue, and take the lock in turn', '排队，轮到时再加锁'),
  source: `if redis.call('exists', KEYS[1]) == 0 then
  local head = redis.call('lindex', KEYS[2], 0)
  if head == false or head == ARGV[1] then
    if head == ARGV[1] then
      redis.call('lpop', KEYS[2])
    end
    redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return 1
  end
end
if not redis.call('lpos', KEYS[2], ARGV[1]) then
  redis.call('rpush', KEYS[2], ARGV[1])
end
return 0`,
  durationsMs: { argv: [2] },
};

/**
 * The same, with a lease on every queue entry (a sorted set of deadlines, as RedissonFairLock keeps
 * its waiters' timeouts): each poll renews the caller's, and waiters at the head whose lease ran out
 * are dropped first. ARGV: 1 my id, 2 lock lease (ms), 3 now (ms, my clock), 4 entry lease (ms).
 */
const FAIR_ACQUIRE_WITH_ENTRY_LEASES: ScriptSpec = {
  title: text('Queue with entry leases, and take the lock in turn', '带条目租期的排队，轮到时再加锁'),
  source: `for _ = 1, redis.call('llen', KEYS[2]) do
  local first = redis.call('lindex', KEYS[2], 0)
  if tonumber(redis.call('zscore', KEYS[3], first) or 0) > tonumber(ARGV[3]) then
    break
  end
  redis.call('lpop', KEYS[2])
  redis.call('zrem', KEYS[3], first)
end
if redis.call('exists', KEYS[1]) == 0 then
  local head = redis.call('lindex', KEYS[2], 0)
  if head == false or head == ARGV[1] then
    if head == ARGV[1] then
      redis.call('lpop', KEYS[2])
      redis.call('zrem', KEYS[3], ARGV[1])
    end
    redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return 1
  end
end
if not redis.call('lpos', KEYS[2], ARGV[1]) then
  redis.call('rpush', KEYS[2], ARGV[1])
end
redis.call('zadd', KEYS[3], tonumber(ARGV[3]) + tonumber(ARGV[4]), ARGV[1])
return 0`,
  // ARGV 3 is a time: scaled with the durations so that deadlines keep their distances.
  durationsMs: { argv: [2, 3, 4] },
};

function acquire(variant: Variant): Step[] {
  return variant === 'no-timeout'
    ? [
        {
          op: 'eval',
          label: 'acquire',
          script: 'fairAcquire',
          keys: ['${lockKey}', '${queueKey}'],
          args: ['${token}', '${ttlMs}'],
          saveAs: 'acquired',
          note: text('take the lock if it is free and I am first in the queue; else join the queue (once)', '锁空闲且我排在队首就加锁；否则加入队列（只加一次）'),
        },
      ]
    : [
        { op: 'clock', label: 'acquire', saveAs: 'nowMs', note: text('my clock (ms): my entry\'s lease is counted from it', '我的时钟（毫秒）：我的条目租期从它算起') },
        {
          op: 'eval',
          script: 'fairAcquire',
          keys: ['${lockKey}', '${queueKey}', '${leaseKey}'],
          args: ['${token}', '${ttlMs}', '${nowMs}', '${entryTtlMs}'],
          saveAs: 'acquired',
          note: text('drop waiters at the head whose lease ran out; take the lock in turn; else queue and extend my lease', '先移除队首租期已到的等待者；轮到我就加锁；否则排队并延长我的租期'),
        },
      ];
}

function leaveQueue(variant: Variant): Step[] {
  const lrem: Step = { op: 'command', argv: ['LREM', '${queueKey}', '0', '${token}'], note: text('gave up: leave the queue', '放弃：离开队列') };
  return variant === 'no-timeout' ? [lrem] : [lrem, { op: 'command', argv: ['ZREM', '${leaseKey}', '${token}'] }];
}

function waiter(variant: Variant): Step[] {
  return [
    ...acquire(variant),
    { op: 'if', when: { test: 'eq', left: '${acquired}', right: '1' }, goto: 'locked' },
    { op: 'retry', goto: 'acquire', afterMs: 1000, attemptCountMax: 10, note: text('not my turn: look again in 1 s', '还没轮到我：1 秒后再看') },
    ...leaveQueue(variant),
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 2000, note: text('business logic', '业务逻辑') },
    { op: 'leave' },
    releaseWithLua(),
    { op: 'end' },
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return ['A', 'B', 'C'].map((id) => ({ id, program: waiter(variant) }));
}

export const fairLock: Scenario = {
  id: 'fair-lock',
  title: text('A fair lock: the queue\'s head crashes', '公平锁：队首崩溃'),
  summary: text(
    'Waiters queue in a list and take the lock in turn. B dies at the head of the queue: the lock is free, but it is never C\'s turn.',
    '等待者在列表里排队，依次加锁。B 在队首死掉：锁是空闲的，却永远轮不到 C。',
  ),
  lesson: text(
    'SET NX serves whoever retries first (retry-and-backoff shows it). A fair lock serves waiters in arrival order: a waiter ' +
      'that finds the lock taken joins a queue (a Redis list), and a script lets a client take the lock only when the lock is ' +
      'free and the client is at the head of the queue. The lock has a lease, so a crashed holder\'s lock expires. The queue ' +
      'entries here have none: B crashes while it is first in line, A releases, and the lock stays free with nobody allowed to ' +
      'take it. C asks every second and is told it is not its turn, until it gives up (a waiter that gives up removes itself ' +
      'with LREM; a crashed one cannot). The fix is a deadline on every queue entry, kept in a sorted set, and a script that ' +
      'first drops waiters at the head whose deadline has passed. Redisson\'s RedissonFairLock does that, setting each deadline ' +
      'once, when the waiter joins (the deadline of the waiter ahead, or what is left of the lock\'s lease, plus a thread wait ' +
      'time). The variant here renews the deadline with every poll instead: a waiter that stops asking (crashed, or paused for ' +
      'longer) is dropped from the head and the next one moves up. A poll extends the entry by 2 s: B, dead after its poll at t=1500, has an entry that runs out at t=3500, and C\'s poll at t=4000 drops it and takes the lock. The ' +
      'timeout trades one waiting problem for a smaller one: everyone behind a dead waiter still waits until its lease runs out (and the next poll), and ' +
      'a live waiter paused for longer than its lease loses its place and joins again at the back.',
    'SET NX 谁先重试就给谁（见 retry-and-backoff）。公平锁按到达顺序服务等待者：发现锁被占用的等待者加入一个队列（Redis 列表），' +
      '脚本只在锁空闲且调用者排在队首时才让它加锁。锁本身有租期，所以崩溃持有者的锁会过期。但这里的队列条目没有租期：' +
      'B 在排第一时崩溃，A 释放了锁，锁一直空闲，却没有人被允许拿它。C 每秒问一次，每次都被告知还没轮到它，直到它放弃' +
      '（放弃的等待者会用 LREM 把自己移出队列；崩溃的等待者做不到）。修复方法是给每个队列条目一个截止时间，保存在有序集合里，' +
      '脚本先移除队首那些截止时间已过的等待者。Redisson 的 RedissonFairLock 就是这样做的，它在等待者入队时一次性设定截止时间' +
      '（前一个等待者的截止时间，或锁剩余的租期，再加上线程等待时间）。这里的变体则在每次轮询时续期：' +
      '停止询问的等待者（崩溃了，或停顿得更久）会被从队首移除，下一个等待者随之上前。每次轮询把条目延长 2 秒：B 在 t=1500 轮询后死掉，它的条目在 t=3500 到期，C 在 t=4000 的轮询移除了它并加锁成功。超时把一个等待问题换成了一个较小的问题：' +
      '死去等待者后面的所有人仍要等到它的租期耗尽（再加上下一次轮询），而停顿超过租期的活着的等待者会失去位置，重新排到队尾。',
  ),
  params: { lockKey: 'lock', queueKey: 'lock:queue', leaseKey: 'lock:queue:leases', ttlMs: '3000', entryTtlMs: '2000' },
  lockKey: 'lock',
  waitMsMax: 7000,
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  defaultSchedule: 'A +500 B +500 C +500 !B +12000',
  narration: [
    { step: 0, text: text('A finds the lock free and the queue empty: it takes the lock for 2 s of work.', 'A 发现锁空闲、队列为空：它加锁，开始 2 秒的工作。') },
    { step: 2, text: text('B arrives at t=500: the lock is taken, so B joins the queue and will ask again every second.', 'B 在 t=500 到来：锁被占用，于是 B 加入队列，之后每秒再问一次。') },
    { step: 4, text: text('C arrives at t=1000 and queues behind B.', 'C 在 t=1000 到来，排在 B 后面。') },
    { step: 5, text: text('B asks again at t=1500 (still taken). Then B\'s process crashes, while B is first in line.', 'B 在 t=1500 又问了一次（仍被占用）。随后 B 的进程崩溃，而 B 正排在第一位。') },
    { step: 6, text: text('A releases at t=2000. The lock is free, but the head of the queue is B, who will never ask again. C is refused every second, waits longer than any wait here should take, and finally gives up.', 'A 在 t=2000 释放锁。锁空闲了，但队首是 B，而 B 再也不会来问了。C 每秒都被拒绝，等待时间超过了这里任何等待应有的时长，最后放弃。') },
  ],
  variants: [
    {
      id: 'no-timeout',
      title: text('Queue entries without a timeout', '队列条目不设超时'),
      summary: text('A dead waiter at the head blocks everyone behind it, forever.', '队首死去的等待者永远挡住身后所有人。'),
      clients: clients('no-timeout'),
      scripts: { fairAcquire: FAIR_ACQUIRE },
      expect: { violations: ['starvation'], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
    {
      id: 'entry-lease',
      title: text('Queue entries with a lease each poll renews', '队列条目带租期，每次轮询续期'),
      summary: text('Each poll extends the waiter\'s entry; a dead head is dropped and the next one moves up.', '每次轮询都延长等待者的条目；死去的队首被移除，下一个上前。'),
      clients: clients('entry-lease'),
      scripts: { fairAcquire: FAIR_ACQUIRE_WITH_ENTRY_LEASES },
      narration: [
        { step: 2, text: text('B arrives at t=500: the lock is taken, so B queues with an entry lease of 2 s, which each of its polls extends.', 'B 在 t=500 到来：锁被占用，于是 B 排队，条目租期 2 秒，它每次轮询都会延长。') },
        { step: 5, text: text('B\'s poll at t=1500 extends its entry to t=3500. Then B\'s process crashes, while B is first in line.', 'B 在 t=1500 的轮询把条目延长到 t=3500。随后 B 的进程崩溃，而 B 正排在第一位。') },
        { step: 6, text: text('A releases at t=2000; C is refused at t=2000 and t=3000 (B\'s entry runs until t=3500). At t=4000 C\'s poll drops B\'s expired entry, C is at the head, and it takes the lock: 3 s after it arrived.', 'A 在 t=2000 释放锁；C 在 t=2000 和 t=3000 被拒绝（B 的条目有效到 t=3500）。t=4000 时 C 的轮询移除了 B 过期的条目，C 来到队首并加锁成功：距它到达过了 3 秒。') },
      ],
      expect: { violations: [], absent: ['starvation', 'mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
  ],
  defaultVariant: 'no-timeout',
  explore: {
    faults: { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 1, clients: ['B'] },
    note: {
      en: 'Searched with one crash of B at any point. A crashed lock holder is the lease lesson (its lock expires), left out here.',
      zh: '搜索时允许 B 在任意位置崩溃一次。锁持有者崩溃属于租期的课程（它的锁会过期），这里不包含。',
    },
  },
};
