import type { ClientSpec, Scenario } from '../engine/scenario';
import type { IfStep, Step } from '../engine/program';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE, REENTRANT_LOCK, REENTRANT_RENEW, REENTRANT_UNLOCK } from './scripts';
import { text } from './common';

/*
 * Redisson's RLock is reentrant: a hash whose field is the owner's id and whose value counts how
 * many times the owner has locked it. Locking twice needs unlocking twice; another client's unlock
 * or renewal finds no field of its own and does nothing. A plain SET NX lock is not reentrant:
 * the owner's nested lock call is refused by its own lock.
 */

type Variant = 'reentrant' | 'non-reentrant';

interface LockOps {
  lock: Step;
  lockFailed: IfStep;
  unlock: Step;
  renew: Step;
}

function ops(variant: Variant, saveAs: string): LockOps {
  if (variant === 'reentrant') {
    return {
      lock: { op: 'eval', script: 'lock', keys: ['${lockKey}'], args: ['${ttlMs}', '${token}'], saveAs, note: text('nil = locked (or re-entered); a number = taken, its PTTL', 'nil 表示加锁（或重入）成功；数字表示被占用，值为其 PTTL') },
      lockFailed: { op: 'if', when: { test: 'notNil', reply: saveAs }, goto: 'failed' },
      unlock: { op: 'eval', script: 'unlock', keys: ['${lockKey}'], args: ['${ttlMs}', '${token}'], saveAs: 'unlocked', note: text('0 = still held (count > 0), 1 = deleted, nil = not my lock', '0 表示仍持有（计数 > 0），1 表示已删除，nil 表示不是我的锁') },
      renew: { op: 'eval', script: 'renew', keys: ['${lockKey}'], args: ['${ttlMs}', '${token}'], saveAs: 'renewed', note: text('1 = extended, 0 = not my lock', '1 表示已续期，0 表示不是我的锁') },
    };
  }
  return {
    lock: { op: 'command', argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs, note: text('OK = locked, nil = taken (by anyone, me included)', 'OK 表示加锁成功，nil 表示被占用（被任何人占用，包括我自己）') },
    lockFailed: { op: 'if', when: { test: 'nil', reply: saveAs }, goto: 'failed' },
    unlock: { op: 'eval', script: 'compareAndDelete', keys: ['${lockKey}'], args: ['${token}'], saveAs: 'unlocked', note: text('1 = deleted, 0 = not my lock', '1 表示已删除，0 表示不是我的锁') },
    renew: { op: 'eval', script: 'compareAndPexpire', keys: ['${lockKey}'], args: ['${token}', '${ttlMs}'], saveAs: 'renewed', note: text('1 = extended, 0 = not my lock', '1 表示已续期，0 表示不是我的锁') },
  };
}

/** A locks, calls a method that locks again, unlocks on the way out of each. */
function owner(variant: Variant): Step[] {
  const outer = ops(variant, 'outer');
  const inner = ops(variant, 'inner');
  return [
    { ...outer.lock, label: 'outerLock' },
    { op: 'if', when: { test: variant === 'reentrant' ? 'notNil' : 'nil', reply: 'outer' }, goto: 'busy' },
    { op: 'enter' },
    { op: 'work', durationMs: 1000, note: text('outer method', '外层方法') },
    { ...inner.lock, label: 'innerLock', note: text('a nested method locks the same lock', '嵌套方法再次获取同一把锁') },
    { ...inner.lockFailed, goto: 'innerFailed' },
    { op: 'work', durationMs: 1000, note: text('nested method', '嵌套方法') },
    { ...inner.unlock, note: text('nested method unlocks: the count goes 2 -> 1, the lock stays', '嵌套方法解锁：计数 2 -> 1，锁仍在') },
    { op: 'work', durationMs: 1000, note: text('back in the outer method', '回到外层方法') },
    { ...outer.unlock, label: 'outerUnlock', note: text('outer method unlocks', '外层方法解锁') },
    { op: 'leave' },
    { op: 'end' },
    { op: 'retry', label: 'innerFailed', goto: 'innerLock', afterMs: 1000, attemptCountMax: 1, note: text('refused by my own lock: try once more', '被自己的锁拒绝：再试一次') },
    { op: 'goto', goto: 'outerUnlock', note: text('give up the nested call (an error), unlock the outer lock', '放弃嵌套调用（报错），释放外层锁') },
    { op: 'end', label: 'busy' },
  ];
}

/** B's lock is refused; its cleanup code unlocks and renews anyway; later it locks for real. */
function other(variant: Variant): Step[] {
  const b = ops(variant, 'acquired');
  return [
    { ...b.lock, label: 'lock' },
    { ...b.lockFailed, goto: 'failed' },
    { op: 'enter' },
    { op: 'work', durationMs: 1000, note: text('business logic', '业务逻辑') },
    { op: 'leave' },
    { ...b.unlock },
    { op: 'end' },
    { ...b.unlock, label: 'failed', note: text('a finally block unlocks although the lock was refused: not B\'s lock, no effect', 'finally 块在加锁失败时仍去解锁：不是 B 的锁，不起作用') },
    { ...b.renew, note: text('a renewal from a client that does not own the lock: no effect', '不持有锁的客户端尝试续期：不起作用') },
    { op: 'retry', goto: 'lock', afterMs: 1500, attemptCountMax: 3, note: text('try again later', '稍后再试') },
    { op: 'end', note: text('give up', '放弃') },
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: owner(variant) },
    { id: 'B', program: other(variant) },
  ];
}

export const reentrant: Scenario = {
  id: 'reentrant',
  title: text('Reentrant locks: Redisson\'s hash with a counter', '可重入锁：Redisson 的带计数哈希'),
  summary: text(
    'A locks twice and must unlock twice; B\'s unlock and renewal do nothing; a SET NX lock refuses its own owner.',
    'A 加锁两次就要解锁两次；B 的解锁和续期不起作用；SET NX 锁会拒绝它自己的持有者。',
  ),
  lesson: text(
    'Code that holds a lock often calls code that takes the same lock. With SET lock token NX the nested call is refused by the ' +
      'lock its own caller holds, and the request fails (or waits for its own lease to expire). Redisson\'s RLock is reentrant: ' +
      'the lock is a hash whose field is the owner\'s id (its client UUID and thread id; a token here) and whose value counts ' +
      'entries. Its lock script (HEXISTS, HINCRBY, PEXPIRE) takes a free lock or re-enters its own, and answers the PTTL when another ' +
      'owner holds it; its unlock script decrements the count, keeps the lock while the count is above 0 and deletes the key when ' +
      'it reaches 0. Unlocking as often as you locked is now the caller\'s job. Every script checks the owner\'s field first, so ' +
      'another client\'s unlock answers nil (Redisson throws IllegalMonitorStateException: the classic unlock in a finally block ' +
      'after a failed tryLock) and another client\'s renewal answers 0: only the owner can release or extend.',
    '持有锁的代码经常会调用另一段需要同一把锁的代码。用 SET lock token NX 加的锁，嵌套调用会被它的调用者自己持有的锁拒绝，' +
      '请求因此失败（或者一直等到自己的租期过期）。Redisson 的 RLock 是可重入的：锁是一个哈希，字段是持有者的标识' +
      '（客户端 UUID 加线程 ID；这里用 token 代替），值是重入次数。它的加锁脚本（HEXISTS、HINCRBY、PEXPIRE）能获取空闲的锁或重入自己的锁，' +
      '被别人持有时返回其 PTTL；解锁脚本把计数减一，计数大于 0 时保留锁，减到 0 时删除键。加了几次锁就要解几次锁，这成了调用者的责任。' +
      '每个脚本都先检查持有者字段，所以别的客户端来解锁会得到 nil（Redisson 会抛出 IllegalMonitorStateException：' +
      'tryLock 失败后仍在 finally 块里解锁就是经典的例子），别的客户端来续期会得到 0：只有持有者才能释放或续期。',
  ),
  params: { lockKey: 'lock', ttlMs: '30000' },
  lockKey: 'lock',
  scripts: {
    lock: REENTRANT_LOCK,
    unlock: REENTRANT_UNLOCK,
    renew: REENTRANT_RENEW,
    compareAndDelete: COMPARE_AND_DELETE,
    compareAndPexpire: COMPARE_AND_PEXPIRE,
  },
  defaultSchedule: 'A B B B A A A B B',
  narration: [
    { step: 0, text: text('A locks: the hash lock gets A\'s field with count 1. A starts its outer method.', 'A 加锁：哈希锁里出现 A 的字段，计数为 1。A 开始执行外层方法。') },
    { step: 1, text: text('B tries to lock and gets a number (the lock\'s PTTL): taken.', 'B 尝试加锁，得到一个数字（锁的 PTTL）：已被占用。') },
    { step: 2, text: text('B\'s finally block unlocks anyway. The script finds no field for B and answers nil: A\'s lock is untouched.', 'B 的 finally 块照样去解锁。脚本找不到 B 的字段，返回 nil：A 的锁毫发无损。') },
    { step: 3, text: text('A renewal from B answers 0: only the owner can extend the lease.', 'B 发起的续期返回 0：只有持有者才能延长租期。') },
    { step: 4, text: text('A\'s nested method locks again: re-entry, the count becomes 2.', 'A 的嵌套方法再次加锁：重入，计数变为 2。') },
    { step: 5, text: text('B\'s retry at t=1500 is refused again. At t=2000 the nested method unlocks: the count drops to 1 and the script answers 0: still held.', 'B 在 t=1500 的重试再次被拒绝。t=2000 时嵌套方法解锁：计数降到 1，脚本返回 0：锁仍被持有。') },
    { step: 6, text: text('The outer method unlocks: the count reaches 0 and the key is deleted (answer 1).', '外层方法解锁：计数归零，键被删除（返回 1）。') },
    { step: 7, text: text('B retries and gets the lock.', 'B 重试，拿到了锁。') },
  ],
  variants: [
    {
      id: 'reentrant',
      title: text('Redisson reentrant hash lock', 'Redisson 可重入哈希锁'),
      summary: text('Lock twice, unlock twice; only the owner can unlock or renew.', '加锁两次、解锁两次；只有持有者能解锁或续期。'),
      clients: clients('reentrant'),
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
    {
      id: 'non-reentrant',
      title: text('SET NX: not reentrant', 'SET NX：不可重入'),
      summary: text('A\'s nested call is refused by A\'s own lock and fails.', 'A 的嵌套调用被 A 自己的锁拒绝，调用失败。'),
      clients: clients('non-reentrant'),
      narration: [
        { step: 0, text: text('A locks with SET NX and starts its outer method.', 'A 用 SET NX 加锁，开始执行外层方法。') },
        { step: 1, text: text('B is refused (nil).', 'B 加锁失败（nil）。') },
        { step: 2, text: text('B\'s finally block unlocks anyway: the compare-and-delete script sees A\'s token and answers 0.', 'B 的 finally 块照样去解锁：比较并删除脚本看到的是 A 的 token，返回 0。') },
        { step: 3, text: text('B\'s renewal answers 0 as well.', 'B 的续期同样返回 0。') },
        { step: 4, text: text('A\'s nested method tries to lock: refused by A\'s own lock.', 'A 的嵌套方法尝试加锁：被 A 自己的锁拒绝。') },
        { step: 5, text: text('B\'s retry at t=1500 is refused. At t=2000 A\'s nested lock is refused again: A gives up the nested call, an error for this request.', 'B 在 t=1500 的重试被拒绝。t=2000 时 A 的嵌套加锁再次被拒绝：A 放弃嵌套调用，这次请求以出错告终。') },
        { step: 6, text: text('A unlocks its outer lock.', 'A 释放外层锁。') },
        { step: 7, text: text('B retries and gets the lock.', 'B 重试，拿到了锁。') },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
  ],
  defaultVariant: 'reentrant',
};
