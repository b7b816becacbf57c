import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE } from './scripts';
import { releaseWithLua, text } from './common';

/*
 * A 500 ms lease written by code that converts it to whole seconds: 500 / 1000 is 0 in integer
 * arithmetic. EXPIRE key 0 deletes the key at once (everyone enters); SET ... EX 0 is an error
 * (nobody ever gets the lock). Fix: keep milliseconds all the way, SET ... NX PX 500.
 */

type Variant = 'expire-zero' | 'set-ex-zero' | 'px';

function acquire(variant: Variant): Step[] {
  switch (variant) {
    case 'expire-zero':
      return [
        { op: 'command', label: 'acquire', argv: ['SETNX', '${lockKey}', '${token}'], saveAs: 'acquired', note: text('take the lock', '加锁') },
        { op: 'if', when: { test: 'eq', left: '${acquired}', right: '0' }, goto: 'taken' },
        {
          op: 'command',
          argv: ['EXPIRE', '${lockKey}', '${ttlSeconds}'],
          note: text('the lease in seconds: ttlMs / 1000 = 500 / 1000 = 0 in integer division', '以秒为单位的租期：ttlMs / 1000 = 500 / 1000，整数除法得 0'),
        },
        { op: 'goto', goto: 'locked' },
      ];
    case 'set-ex-zero':
      return [
        {
          op: 'command',
          label: 'acquire',
          argv: ['SET', '${lockKey}', '${token}', 'NX', 'EX', '${ttlSeconds}'],
          saveAs: 'acquired',
          note: text('lock and lease in one command, but the lease in seconds: 500 / 1000 = 0', '一条命令加锁并设租期，但租期以秒为单位：500 / 1000 = 0'),
        },
        { op: 'if', when: { test: 'error', reply: 'acquired' }, goto: 'taken' },
        { op: 'if', when: { test: 'nil', reply: 'acquired' }, goto: 'taken' },
        { op: 'goto', goto: 'locked' },
      ];
    case 'px':
      return [
        {
          op: 'command',
          label: 'acquire',
          argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'],
          saveAs: 'acquired',
          note: text('the lease in milliseconds, as it was given', '租期保持毫秒，原样传入'),
        },
        { op: 'if', when: { test: 'nil', reply: 'acquired' }, goto: 'taken' },
        { op: 'goto', goto: 'locked' },
      ];
  }
}

function program(variant: Variant): Step[] {
  return [
    ...acquire(variant),
    { op: 'retry', label: 'taken', goto: 'acquire', afterMs: 100, attemptCountMax: 5, note: text('not acquired: wait 100 ms and try again', '未拿到锁：等 100 毫秒再试') },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 300, note: text('300 ms of work: well within a 500 ms lease', '300 毫秒的业务：远在 500 毫秒租期之内') },
    { op: 'leave' },
    releaseWithLua(),
    { op: 'end' },
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: program(variant) },
    { id: 'B', program: program(variant) },
  ];
}

export const subSecondLease: Scenario = {
  id: 'sub-second-lease',
  title: text('The sub-second lease: 500 ms becomes 0 s', '亚秒级租期：500 毫秒变成了 0 秒'),
  summary: text(
    'A 500 ms lease converted to whole seconds is 0: EXPIRE key 0 deletes the lock at once; SET ... EX 0 is an error.',
    '把 500 毫秒的租期换算成整秒就是 0：EXPIRE key 0 立刻删除锁；SET ... EX 0 则直接报错。',
  ),
  lesson: text(
    'Short jobs want short leases, and a 500 ms lease is reasonable. The bug is in the unit: code that passes seconds to Redis ' +
      'computes 500 / 1000, which integer division makes 0. EXPIRE lock 0 is not "no expiry": Redis deletes the key at once and ' +
      'answers 1, so A believes it holds a lock that no longer exists, B\'s SETNX succeeds, and both are inside. SET lock token NX ' +
      'EX 0 fails the other way: Redis refuses it (ERR invalid expire time), so every acquire errors and nobody ever gets the lock, ' +
      'an outage instead of a race. Redis takes leases in milliseconds with PX (and PEXPIRE): keep the unit from the configuration ' +
      'to the command, and check a lease for a minimum before using it.',
    '短任务适合短租期，500 毫秒的租期很合理。错误出在单位上：把秒传给 Redis 的代码计算 500 / 1000，整数除法得到 0。' +
      'EXPIRE lock 0 并不是"永不过期"：Redis 会立刻删除该键并返回 1，于是 A 以为自己持有一把已经不存在的锁，B 的 SETNX 成功，两者都进入了临界区。' +
      'SET lock token NX EX 0 则以另一种方式失败：Redis 拒绝它（ERR invalid expire time），每次加锁都报错，谁也拿不到锁，' +
      '这是一次服务中断而不是竞态。Redis 用 PX（以及 PEXPIRE）接受毫秒级租期：从配置到命令始终保持同一个单位，使用租期前先检查它不小于一个下限。',
  ),
  params: { lockKey: 'lock', ttlMs: '500', ttlSeconds: '0' },
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  defaultSchedule: 'A B +1000',
  narration: [
    { step: 0, text: text('A\'s SETNX answers 1: A has the lock, with no expiry yet. Its EXPIRE comes next.', 'A 的 SETNX 返回 1：A 拿到了锁，但还没有过期时间。接下来是它的 EXPIRE。') },
    { step: 1, text: text('B arrives: SETNX answers 0, the lock is A\'s. B will retry in 100 ms.', 'B 到来：SETNX 返回 0，锁是 A 的。B 将在 100 毫秒后重试。') },
    {
      step: 2,
      text: text(
        'A sends EXPIRE lock 0: Redis deletes the key at once and answers 1. A enters anyway. At t=100 B\'s retry finds no lock, takes it and enters too.',
        'A 发出 EXPIRE lock 0：Redis 立刻删除该键并返回 1。A 照样进入了临界区。t=100 时 B 重试，发现没有锁，拿到后也进入了。',
      ),
    },
  ],
  variants: [
    {
      id: 'expire-zero',
      title: text('SETNX, then EXPIRE lock 0', 'SETNX，然后 EXPIRE lock 0'),
      summary: text('EXPIRE 0 deletes the lock at once: A and B are both inside.', 'EXPIRE 0 立刻删除了锁：A 和 B 同时在临界区里。'),
      clients: clients('expire-zero'),
      expect: { violations: ['mutual-exclusion'], absent: ['lock-never-released'] },
    },
    {
      id: 'set-ex-zero',
      title: text('SET ... NX EX 0', 'SET ... NX EX 0（以秒为单位）'),
      summary: text('Redis refuses EX 0: every acquire errors and nobody gets the lock.', 'Redis 拒绝 EX 0：每次加锁都报错，谁也拿不到锁。'),
      clients: clients('set-ex-zero'),
      narration: [
        { step: 0, text: text('A\'s SET ... NX EX 0 answers ERR invalid expire time: no lock. A will retry in 100 ms.', 'A 的 SET ... NX EX 0 返回 ERR invalid expire time：没有加上锁。A 将在 100 毫秒后重试。') },
        { step: 1, text: text('B gets the same error.', 'B 得到同样的错误。') },
        { step: 2, text: text('Every retry fails the same way, and both give up: nobody ever did the work. An outage, not a race.', '每次重试都以同样的方式失败，两者最终都放弃了：谁也没有完成工作。这是服务中断，而不是竞态。') },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'lock-never-released'] },
    },
    {
      id: 'px',
      title: text('SET ... NX PX 500: milliseconds', 'SET ... NX PX 500：以毫秒为单位'),
      summary: text('The lease is 500 ms as intended: B waits until A is done.', '租期如愿是 500 毫秒：B 一直等到 A 完成。'),
      clients: clients('px'),
      narration: [
        { step: 0, text: text('A takes the lock with a 500 ms lease and starts 300 ms of work.', 'A 以 500 毫秒的租期加锁，开始 300 毫秒的业务。') },
        { step: 1, text: text('B is refused and retries every 100 ms.', 'B 加锁失败，每 100 毫秒重试一次。') },
        { step: 2, text: text('A finishes at t=300 and releases; B\'s retry then takes the lock and works alone.', 'A 在 t=300 完成并释放锁；B 随后的重试拿到了锁，独自完成工作。') },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'lock-never-released'] },
    },
  ],
  defaultVariant: 'expire-zero',
};
