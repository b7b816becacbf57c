import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { ACQUIRE_WITH_FENCING_TOKEN, COMPARE_AND_DELETE } from './scripts';
import { acquireCommand, acquiredVar, releaseWithLua, text, writeToDb } from './common';

/*
 * The compare-and-delete release answers 1 (my lock, deleted) or 0 (not my lock any more). A 0
 * is the only news a holder ever gets that its lease ran out while it worked: its result was
 * written without the lock. Code that ignores the reply reports success and nobody knows. Checking
 * it records the loss so someone can compensate; it does not undo the write. Fencing (the storage
 * refuses a write with an older token) prevents the damage; checking only tells.
 */

type Variant = 'ignored' | 'checked' | 'fenced';

const fenced = (variant: Variant) => variant === 'fenced';

function acquire(variant: Variant): Step[] {
  return [
    acquireCommand(fenced(variant)),
    { op: 'if', when: { test: 'notNil', reply: acquiredVar(fenced(variant)) }, goto: 'locked' },
    { op: 'retry', goto: 'acquire', afterMs: 1000, attemptCountMax: 10, note: text('taken: wait 1 s and try again', '锁被占用：等 1 秒再试') },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
  ];
}

const write = (variant: Variant, value: string): Step => writeToDb(fenced(variant), value);

/** What A does with the release's reply. */
function afterRelease(variant: Variant): Step[] {
  if (variant === 'ignored') {
    return [
      { op: 'set', var: 'outcome', value: 'success', note: text('report success: nobody looks at the release\'s reply', '报告成功：没有人看释放的返回值') },
      { op: 'end' },
    ];
  }
  return [
    { op: 'if', when: { test: 'eq', left: '${released}', right: '0' }, goto: 'lost' },
    { op: 'set', var: 'outcome', value: 'success', note: text('1: the lock was still mine, the job ran under it', '1：锁仍是我的，任务在锁的保护下完成') },
    { op: 'end' },
    {
      op: 'command',
      label: 'lost',
      argv: ['RPUSH', 'alerts', 'A: lock lost before its release; the job ran past its lease'],
      note: text(
        '0: the lease ran out during the job. Record it (a log line, a metric, a page to the on-call; a Redis list here so you can see it)',
        '0：任务期间租期已到期。记录下来（一行日志、一个指标、一条给值班人员的告警；这里用 Redis 列表，方便查看）',
      ),
    },
    { op: 'set', var: 'outcome', value: 'failed: lock lost', note: text('report failure to the caller, who can retry or reconcile', '向调用方报告失败，由其重试或核对') },
    { op: 'end' },
  ];
}

function holder(variant: Variant): Step[] {
  return [
    ...acquire(variant),
    { op: 'work', durationMs: 5000, note: text('the job: usually 1 s, this time 5 s (a slow query, a big input)', '任务：通常 1 秒，这一次要 5 秒（慢查询、大输入）') },
    write(variant, "A's result"),
    { op: 'leave' },
    releaseWithLua(text('release: 1 = my lock, deleted; 0 = not my lock any more', '释放：1 表示是我的锁，已删除；0 表示锁已不再属于我')),
    ...afterRelease(variant),
  ];
}

function other(variant: Variant): Step[] {
  return [
    ...acquire(variant),
    write(variant, "B's result"),
    { op: 'work', durationMs: 2000, note: text('business logic', '业务逻辑') },
    { op: 'leave' },
    releaseWithLua(),
    { op: 'end' },
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: holder(variant) },
    { id: 'B', program: other(variant) },
  ];
}

export const releaseResult: Scenario = {
  id: 'release-result',
  title: text('Ignoring the release\'s reply: the work done without the lock', '忽略释放的返回值：在锁之外完成的工作'),
  summary: text(
    'A\'s lease runs out during a slow job; its release answers 0. Ignored, nobody knows A\'s result was written without the lock.',
    'A 的租期在一个慢任务中途到期；它的释放返回 0。忽略这个返回值，就没有人知道 A 的结果是在没有锁的情况下写入的。',
  ),
  lesson: text(
    'The compare-and-delete release answers 1 when it deleted the caller\'s own lock and 0 when the lock was no longer the ' +
      'caller\'s. A 0 is the only news the holder ever gets that its lease ran out while it worked: by then it has already ' +
      'written its result without the lock, over whatever the next holder wrote. Here A\'s job, usually 1 s, takes 5 s against a ' +
      '3 s lease; B takes the lock at t=4000 and stores its result; A stores its own at t=5000 and releases, and the script ' +
      'answers 0 because the lock holds B\'s token. Code that ignores the reply (a release in a finally block whose result ' +
      'nobody reads, an exception caught and dropped) reports success, and the overlap is invisible. Libraries do report it: ' +
      'redis-py\'s Lock.release() raises LockNotOwnedError when its script answers 0 (since redis-py 6.0, ' +
      'raise_on_release_error=False turns that into a logged warning when a with block exits), and Redisson\'s unlock() throws ' +
      'IllegalMonitorStateException when the lock is not held by the current thread. Checking the reply lets A record the loss ' +
      '(an alert, a failed status) so that someone can reconcile the two results or run the job again. It does not undo anything: ' +
      'the stale write has happened, and so has the overlap. Checking the lock before writing only narrows the window (the lease ' +
      'can run out between the check and the write). Only the storage can refuse the late write: with a fencing token (the fenced ' +
      'variant) A\'s write is rejected, and the checked release still tells A that its job did not count. Fencing prevents; ' +
      'checking tells. Use both, and size the lease from the slow tail (lease-sizing).',
    '比较并删除脚本在删除了调用者自己的锁时返回 1，在锁已不再属于调用者时返回 0。返回 0 是持有者能得到的唯一消息，' +
      '告诉它租期在它工作时已经到期：而此时它早已在没有锁的情况下写入了结果，覆盖了下一个持有者写入的内容。' +
      '这里 A 的任务通常 1 秒，这一次却用了 5 秒，而租期只有 3 秒；B 在 t=4000 拿到锁并保存了自己的结果；A 在 t=5000 保存它的结果并释放锁，' +
      '脚本返回 0，因为锁里是 B 的 token。忽略返回值的代码（finally 块里的释放没人看结果、捕获异常后直接丢掉）会报告成功，' +
      '这次重叠也就无人知晓。客户端库其实会报告它：redis-py 的 Lock.release() 在脚本返回 0 时抛出 LockNotOwnedError' +
      '（从 redis-py 6.0 起，raise_on_release_error=False 会让 with 块退出时只记录一条警告），Redisson 的 unlock() 在锁不被当前线程持有时抛出 ' +
      'IllegalMonitorStateException。检查返回值能让 A 把这次损失记录下来（一条告警、一个失败状态），以便有人核对两份结果或者重新执行任务。' +
      '但它什么也撤销不了：过期写入已经发生，重叠也已经发生。在写入前先检查锁只能缩小窗口（租期可能恰好在检查和写入之间到期）。' +
      '只有存储本身才能拒绝迟到的写入：使用防护令牌（fenced 变体）时，A 的写入被拒绝，而检查释放结果仍然告诉 A 它的任务没有生效。' +
      '防护令牌负责阻止，检查返回值负责告知。两者都要用，并按慢尾来设定租期（见 lease-sizing）。',
  ),
  params: { lockKey: 'lock', ttlMs: '3000', fencingKey: 'lock:fencing' },
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE, acquireWithFencingToken: ACQUIRE_WITH_FENCING_TOKEN },
  resources: [{ id: 'db', fencing: false }],
  defaultSchedule: 'A +1000 B +3000 +1000 +2000',
  narration: [
    { step: 0, text: text('A takes the lock with a 3 s lease and starts its job. It usually takes 1 s; this time it will take 5 s.', 'A 以 3 秒的租期加锁，开始执行任务。任务通常 1 秒，这一次要 5 秒。') },
    { step: 2, text: text('B arrives and is refused; it retries every second.', 'B 到来，加锁失败；它每秒重试一次。') },
    {
      step: 3,
      text: text(
        'A\'s lease ends after t=3000 while A still works. B\'s retry at t=4000 takes the lock; B enters while A is still inside and stores its result.',
        'A 的租期在 t=3000 之后结束，而 A 仍在工作。B 在 t=4000 的重试拿到了锁；B 在 A 仍在临界区时进入，并保存了自己的结果。',
      ),
    },
    {
      step: 4,
      text: text(
        'At t=5000 A\'s job ends: it stores its result over B\'s, then releases. The script finds B\'s token and answers 0. A never looks at the reply and reports success: nobody knows its result was written without the lock.',
        't=5000 时 A 的任务结束：它用自己的结果覆盖了 B 的，然后释放锁。脚本发现是 B 的 token，返回 0。A 从不看这个返回值，报告成功：没有人知道它的结果是在没有锁的情况下写入的。',
      ),
    },
    { step: 5, text: text('B finishes at t=6000 and releases its own lock (1). The storage holds A\'s result.', 'B 在 t=6000 完成，释放了自己的锁（返回 1）。存储里留下的是 A 的结果。') },
  ],
  variants: [
    {
      id: 'ignored',
      title: text('Release, ignore the reply, report success', '释放后忽略返回值，报告成功'),
      summary: text('The release answers 0 and A reports success anyway: the overlap goes unnoticed.', '释放返回 0，A 照样报告成功：这次重叠无人察觉。'),
      clients: clients('ignored'),
      expect: { violations: ['mutual-exclusion', 'stale-write'], absent: ['foreign-release'] },
    },
    {
      id: 'checked',
      title: text('Check the reply: on 0, raise an alert', '检查返回值：为 0 时发出告警'),
      summary: text('A sees the 0, records an alert and reports failure; the stale write has happened all the same.', 'A 看到了 0，记录告警并报告失败；但过期写入照样已经发生。'),
      clients: clients('checked'),
      narration: [
        {
          step: 4,
          text: text(
            'At t=5000 A\'s job ends: it stores its result over B\'s, then releases. The script finds B\'s token and answers 0. A checks the reply, pushes an alert onto the alerts list and reports failure: the loss is known and can be reconciled, but the storage still holds A\'s stale result.',
            't=5000 时 A 的任务结束：它用自己的结果覆盖了 B 的，然后释放锁。脚本发现是 B 的 token，返回 0。A 检查了返回值，向 alerts 列表推入一条告警并报告失败：损失已被知晓，可以核对补救；但存储里仍是 A 过期的结果。',
          ),
        },
        { step: 5, text: text('B finishes at t=6000 and releases its own lock (1). Checking told; it did not prevent: only fencing does.', 'B 在 t=6000 完成，释放了自己的锁（返回 1）。检查只是告知，并没有阻止：只有防护令牌能阻止。') },
      ],
      expect: { violations: ['mutual-exclusion', 'stale-write'], absent: ['foreign-release'] },
    },
    {
      id: 'fenced',
      title: text('Fencing token, and the reply checked', '防护令牌，并检查返回值'),
      summary: text('The storage refuses A\'s write with the older token; the checked release tells A its job did not count.', '存储拒绝了 A 携带旧令牌的写入；检查释放结果告诉 A 它的任务没有生效。'),
      clients: clients('fenced'),
      resources: [{ id: 'db', fencing: true }],
      narration: [
        { step: 0, text: text('A takes the lock and fencing token 1 with a 3 s lease, and starts a job that will take 5 s.', 'A 以 3 秒的租期拿到锁和防护令牌 1，开始一个要 5 秒的任务。') },
        {
          step: 3,
          text: text(
            'A\'s lease ends after t=3000 while A still works. B\'s retry at t=4000 takes the lock and fencing token 2; B enters while A is still inside and stores its result with token 2.',
            'A 的租期在 t=3000 之后结束，而 A 仍在工作。B 在 t=4000 的重试拿到了锁和防护令牌 2；B 在 A 仍在临界区时进入，并携带令牌 2 保存结果。',
          ),
        },
        {
          step: 4,
          text: text(
            'At t=5000 A stores its result with token 1: the storage has seen 2 and refuses it. A\'s release answers 0; A records an alert and reports failure, so its caller knows the job must run again.',
            't=5000 时 A 携带令牌 1 保存结果：存储已经见过 2，于是拒绝了它。A 的释放返回 0；A 记录告警并报告失败，调用方因此知道任务需要重新执行。',
          ),
        },
        { step: 5, text: text('B finishes and releases its own lock. The storage holds B\'s result; A and B still overlapped.', 'B 完成并释放了自己的锁。存储里是 B 的结果；但 A 和 B 仍然发生了重叠。') },
      ],
      expect: { violations: ['mutual-exclusion'], absent: ['stale-write', 'foreign-release'] },
    },
  ],
  defaultVariant: 'ignored',
};
