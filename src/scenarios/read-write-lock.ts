import type { ClientSpec, Scenario, ScriptSpec } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE } from './scripts';
import { releaseWithLua, text } from './common';

/*
 * A read-write lock lets readers share and a writer exclude everyone. Readers register in a hash;
 * the writer may take its lock only when the hash is empty. With readers arriving while others
 * still read, the hash is never empty when the writer looks: the writer starves (reader
 * preference). Writer preference: a waiting writer leaves a write intent, with a short lease its
 * polls renew, and readers that come after it stay out; the readers inside finish, and the writer
 * gets in. A stream of writers can then starve the readers instead.
 */

type Variant = 'reader-preference' | 'writer-preference';

/** A reader gets in when no writer holds the lock. KEYS: write lock, readers. ARGV: my id, lease (ms). */
const READ_LOCK: ScriptSpec = {
  title: text('Read lock: no writer inside', '读锁：没有写者在里面'),
  source: `if redis.call('exists', KEYS[1]) == 1 then
  return 0
end
redis.call('hset', KEYS[2], ARGV[1], 1)
redis.call('pexpire', KEYS[2], ARGV[2])
return 1`,
  durationsMs: { argv: [2] },
};

/** The same, also kept out by a waiting writer's intent (KEYS[3]). */
const READ_LOCK_WRITER_PREFERENCE: ScriptSpec = {
  title: text('Read lock: no writer inside or waiting', '读锁：没有写者在里面或在等待'),
  source: `if redis.call('exists', KEYS[1]) == 1 or redis.call('exists', KEYS[3]) == 1 then
  return 0
end
redis.call('hset', KEYS[2], ARGV[1], 1)
redis.call('pexpire', KEYS[2], ARGV[2])
return 1`,
  durationsMs: { argv: [2] },
};

/** The writer gets in when nobody is inside. KEYS: write lock, readers. ARGV: my id, lease (ms). */
const WRITE_LOCK: ScriptSpec = {
  title: text('Write lock: nobody inside', '写锁：里面没有人'),
  source: `if redis.call('exists', KEYS[1]) == 0 and redis.call('hlen', KEYS[2]) == 0 then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`,
  durationsMs: { argv: [2] },
};

/**
 * The same, and a writer that must wait leaves its intent (KEYS[3]) with a lease of ARGV[3] ms,
 * renewed by each of its polls: it lapses if the writer stops asking. One writer in this story.
 */
const WRITE_LOCK_WITH_INTENT: ScriptSpec = {
  title: text('Write lock, or announce the wait', '写锁，或者宣告正在等待'),
  source: `if redis.call('exists', KEYS[1]) == 0 and redis.call('hlen', KEYS[2]) == 0 then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('del', KEYS[3])
  return 1
end
redis.call('set', KEYS[3], ARGV[1], 'PX', ARGV[3])
return 0`,
  durationsMs: { argv: [2, 3] },
};

function keysOf(variant: Variant): string[] {
  return variant === 'writer-preference' ? ['${lockKey}', '${readersKey}', '${intentKey}'] : ['${lockKey}', '${readersKey}'];
}

function reader(variant: Variant): Step[] {
  return [
    {
      op: 'eval',
      label: 'acquire',
      script: 'readLock',
      keys: keysOf(variant),
      args: ['${token}', '${ttlMs}'],
      saveAs: 'acquired',
      note: text('register as a reader, unless a writer keeps readers out', '登记为读者，除非有写者把读者挡在外面'),
    },
    { op: 'if', when: { test: 'eq', left: '${acquired}', right: '1' }, goto: 'locked' },
    { op: 'retry', goto: 'acquire', afterMs: 500, attemptCountMax: 20, note: text('a writer: try again in 500 ms', '有写者：500 毫秒后再试') },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 3000, note: text('read (shared with other readers)', '读取（与其他读者共享）') },
    { op: 'leave' },
    { op: 'command', argv: ['HDEL', '${readersKey}', '${token}'], saveAs: 'released', releases: true, note: text('unregister', '注销读者') },
    { op: 'end' },
  ];
}

function writer(variant: Variant): Step[] {
  return [
    {
      op: 'eval',
      label: 'acquire',
      script: 'writeLock',
      keys: keysOf(variant),
      args: variant === 'writer-preference' ? ['${token}', '${ttlMs}', '${intentTtlMs}'] : ['${token}', '${ttlMs}'],
      saveAs: 'acquired',
      note:
        variant === 'writer-preference'
          ? text('take the write lock if nobody is inside; else leave my intent, so that new readers wait', '里面没人就拿写锁；否则留下我的写意图，让新来的读者等待')
          : text('take the write lock only if no reader is registered', '只有在没有登记的读者时才拿写锁'),
    },
    { op: 'if', when: { test: 'eq', left: '${acquired}', right: '1' }, goto: 'locked' },
    { op: 'retry', goto: 'acquire', afterMs: 1000, attemptCountMax: 10, note: text('readers inside: try again in 1 s', '里面有读者：1 秒后再试') },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 1000, note: text('write (alone)', '写入（独占）') },
    { op: 'leave' },
    releaseWithLua(),
    { op: 'end' },
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: reader(variant) },
    { id: 'W', program: writer(variant) },
    { id: 'B', program: reader(variant) },
    { id: 'C', program: reader(variant) },
  ];
}

export const readWriteLock: Scenario = {
  id: 'read-write-lock',
  title: text('A read-write lock: a writer starved by readers', '读写锁：被读者饿死的写者'),
  summary: text(
    'Readers share, the writer waits for zero readers. Overlapping reads keep the count above zero, and the writer waits 7 s; a write intent lets it in.',
    '读者共享，写者要等读者归零。相互重叠的读取让读者数始终大于零，写者等了 7 秒；写意图让它得以进入。',
  ),
  lesson: text(
    'A read-write lock lets any number of readers in together and a writer only alone. Here readers register in a Redis hash ' +
      '(HSET, with a lease on the hash; HDEL when done), and a script lets the writer take its lock only when no reader is ' +
      'registered. Each reader checks only that no writer is inside, so a reader that arrives while another still reads gets ' +
      'in at once: with reads that overlap, the hash is never empty when the writer looks. In this run three 3 s reads overlap ' +
      'and W, polling every second, waits 7 s for a 1 s write; with readers that keep coming it would wait as long as they ' +
      'do, and give up. This is reader preference, and it starves writers. Writer preference: a writer that has to wait leaves ' +
      'a write intent (a key with a short lease that its polls renew), and the read script refuses new readers while it is ' +
      'there. The readers inside finish, the count reaches zero, and the writer gets in after the longest read in progress; ' +
      'the readers it held back follow. The price moves to the other side: a stream of writers can starve readers, and a ' +
      'crashed writer\'s intent keeps readers out until its lease runs out. Redisson\'s RReadWriteLock keeps readers and the ' +
      'writer in one hash with a mode field, and grants a read lock whenever the mode is read, whether or not a writer waits: ' +
      'reader preference, as in the first variant.',
    '读写锁允许任意多个读者同时进入，而写者只能单独进入。这里读者在一个 Redis 哈希里登记（HSET，并给哈希设租期；完成后 HDEL），' +
      '脚本只在没有登记的读者时才让写者加锁。每个读者只检查里面没有写者，所以在别人还在读时到来的读者会立刻进入：' +
      '读取相互重叠时，写者每次查看，哈希都不为空。在这次运行里，三次 3 秒的读取首尾重叠，每秒轮询一次的 W 为了 1 秒的写入等了 7 秒；' +
      '如果读者源源不断，它就会一直等下去，直到放弃。这就是读者优先，它会饿死写者。写者优先：必须等待的写者留下一个写意图' +
      '（一个带短租期的键，由它的轮询续期），读脚本在写意图存在时拒绝新读者。里面的读者读完，读者数归零，写者在当前最长的读取结束后进入；' +
      '被它挡住的读者随后跟上。代价转到了另一边：源源不断的写者会饿死读者，而崩溃写者的写意图会把读者挡在外面，直到它的租期到期。' +
      'Redisson 的 RReadWriteLock 把读者和写者放在同一个带 mode 字段的哈希里，只要 mode 是 read 就授予读锁，不管有没有写者在等：' +
      '这就是读者优先，和第一个变体一样。',
  ),
  params: { lockKey: 'rw:write', readersKey: 'rw:readers', intentKey: 'rw:write-intent', ttlMs: '5000', intentTtlMs: '1500' },
  lockKey: 'rw:write',
  // The writer holds rw:write; each reader is a field of rw:readers: all of them hold the lock.
  holderKeys: ['rw:write', 'rw:readers'],
  waitMsMax: 6000,
  // Readers share the critical section: mutual exclusion is not this lock's rule for them.
  checkers: ['starvation'],
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  defaultSchedule: 'A +500 W +1500 B +2000 C +10000',
  narration: [
    { step: 0, text: text('Reader A registers and reads for 3 s.', '读者 A 登记后读取 3 秒。') },
    { step: 2, text: text('Writer W arrives at t=500: a reader is registered, so W is refused and asks again every second.', '写者 W 在 t=500 到来：有读者登记着，W 被拒绝，之后每秒再问一次。') },
    { step: 4, text: text('Reader B arrives at t=2000: no writer inside, so B gets in beside A.', '读者 B 在 t=2000 到来：里面没有写者，于是 B 和 A 一起进入。') },
    { step: 6, text: text('A leaves at t=3000, but B is still reading. C arrives at t=4000 and gets in beside B.', 'A 在 t=3000 离开，但 B 还在读。C 在 t=4000 到来，和 B 一起进入。') },
    { step: 7, text: text('Every time W asks there is a reader. Only when C leaves at t=7000 is the hash empty, and by then W has waited 6.5 s, longer than any wait here should take (6 s). W gets in at t=7500, 7 s after it arrived, for a 1 s write.', 'W 每次询问时都有读者。直到 C 在 t=7000 离开，哈希才为空，而此时 W 已等了 6.5 秒，超过了这里任何等待应有的时长（6 秒）。W 在 t=7500 进入，距它到达已过去 7 秒，只为 1 秒的写入。') },
  ],
  variants: [
    {
      id: 'reader-preference',
      title: text('Reader preference: readers check only for a writer inside', '读者优先：读者只检查里面有没有写者'),
      summary: text('Overlapping readers keep the count above zero; the writer waits as long as they keep coming.', '相互重叠的读者让读者数始终大于零；只要读者源源不断，写者就一直等。'),
      clients: clients('reader-preference'),
      scripts: { readLock: READ_LOCK, writeLock: WRITE_LOCK },
      expect: { violations: ['starvation'], absent: [] },
    },
    {
      id: 'writer-preference',
      title: text('Writer preference: a write intent holds new readers back', '写者优先：写意图挡住新读者'),
      summary: text('W leaves its intent; B and C wait, A finishes, and W writes at t=3500.', 'W 留下写意图；B 和 C 等待，A 读完，W 在 t=3500 写入。'),
      clients: clients('writer-preference'),
      scripts: { readLock: READ_LOCK_WRITER_PREFERENCE, writeLock: WRITE_LOCK_WITH_INTENT },
      narration: [
        { step: 2, text: text('Writer W arrives at t=500: A is reading, so W is refused and leaves its write intent, with a 1.5 s lease each of its polls renews.', '写者 W 在 t=500 到来：A 正在读，W 被拒绝，于是留下写意图，租期 1.5 秒，每次轮询都会续上。') },
        { step: 4, text: text('Reader B arrives at t=2000 and finds W\'s intent: B waits, retrying every 500 ms.', '读者 B 在 t=2000 到来，发现了 W 的写意图：B 等待，每 500 毫秒重试一次。') },
        { step: 6, text: text('A leaves at t=3000; nobody is registered now, and W\'s poll at t=3500 takes the write lock. C arrives at t=4000 while W writes and waits too.', 'A 在 t=3000 离开；现在没有登记的读者，W 在 t=3500 的轮询拿到了写锁。C 在 t=4000 到来时 W 正在写，也只能等待。') },
        { step: 7, text: text('W releases at t=4500 and B and C read together. W waited 3 s, for the one read in progress when it came.', 'W 在 t=4500 释放锁，B 和 C 一起读取。W 等了 3 秒，等的是它到来时正在进行的那一次读取。') },
      ],
      expect: { violations: [], absent: ['starvation'] },
    },
  ],
  defaultVariant: 'reader-preference',
  explore: {
    depthMax: 7,
    note: {
      en: 'Searched up to 7 choices, with no faults. Only starvation is checked: readers share the critical section, and writer and readers are kept apart by the scripts, which no checker here watches.',
      zh: '搜索最多 7 个选择，不注入故障。只检查饥饿：读者共享临界区，写者与读者的互斥由脚本保证，这里没有检查器监视它。',
    },
  },
};
