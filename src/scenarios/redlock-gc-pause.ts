import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { redlockAcquire, redlockNodes, redlockParams, redlockRelease, text } from './common';
import { COMPARE_AND_DELETE } from './scripts';

/*
 * Kleppmann's process-pause argument, applied to Redlock: the client pauses after the acquire
 * replies arrived and resumes past its validity. No number of nodes helps a client that does not
 * know time has passed. antirez: check the validity after the work; Kleppmann: the pause can come
 * after the check too.
 */

type Variant = 'no-check' | 'check-validity';

function client(variant: Variant, workMs: number, value: string): Step[] {
  const check: Step[] =
    variant === 'check-validity'
      ? [
          { op: 'clock', saveAs: 'doneMs', note: text('before acting on the result: read my clock', '在使用结果之前：读取我的时钟') },
          { op: 'set', var: 'spentMs', value: '${doneMs}', subtract: ['${startMs}'] },
          { op: 'if', when: { test: 'ge', left: '${spentMs}', right: '${validityMs}' }, goto: 'expired', note: text('past my validity? then do not write', '超过有效期了？那就不写') },
        ]
      : [];
  return [
    ...redlockAcquire({ nodeTimeoutMs: 50, retryAfterMs: 1000, jitterMs: 200, attemptCountMax: 10 }),
    { op: 'work', durationMs: workMs, note: text('compute the update', '计算要写入的数据') },
    ...check,
    { op: 'write', resource: 'db', value, note: text('write to the protected storage', '写入受保护的存储') },
    { op: 'leave', label: 'expired' },
    ...redlockRelease('unlock', 'unlockNode', 50, true),
    { op: 'end' },
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: client(variant, 1000, "A's update") },
    { id: 'B', program: client(variant, 3000, "B's update") },
  ];
}

export const redlockGcPause: Scenario = {
  id: 'redlock-gc-pause',
  title: text('Redlock: a process pause outlives the validity', 'Redlock：进程停顿超过了有效期'),
  summary: text(
    'A holds all five nodes, then a 12 s GC pause lets every key expire; B takes the lock and A, waking, writes anyway.',
    'A 持有全部五个节点，随后一次 12 秒的 GC 停顿让所有键都过期；B 拿到了锁，而 A 醒来后照样写入。',
  ),
  lesson: text(
    'Martin Kleppmann\'s main argument against Redlock ("How to do distributed locking") does not need a faulty node: a client ' +
      'can stop for longer than its lease (a stop-the-world GC, a page fault, a stopped VM) after the acquire replies arrived. ' +
      'Here A gets all five nodes with a validity of about 9.9 s, starts computing, and its process freezes for 12 s. Every ' +
      'node expires the key on time; B acquires a majority and enters; A wakes up believing it holds the lock and ' +
      'writes while the lock is B\'s. More nodes do not help: each one behaves correctly. Kleppmann\'s remedy is a fencing token the ' +
      'storage checks, which Redlock does not provide (its random value does not grow). antirez\'s reply ("Is Redlock safe?") ' +
      'is that the client should check, after the work and before using it, whether its validity has passed: variant ' +
      'check-validity does, and A leaves without writing. That check helps here because the pause came before it; a pause ' +
      'between the check and the write would defeat it, which is Kleppmann\'s rejoinder. In both variants A and B were inside ' +
      'the critical section at once.',
    'Martin Kleppmann 反对 Redlock 的主要论点（《How to do distributed locking》）并不需要出故障的节点：客户端可能在加锁回复到达之后停顿比租期更久' +
      '（STW GC、缺页、虚拟机被挂起）。这里 A 拿到全部五个节点，有效期约 9.9 秒，开始计算，随后它的进程被冻结了 12 秒。' +
      '每个节点都按时让键过期；B 拿到多数派并进入；A 醒来后仍以为持有锁，在锁已属于 B 时写入。节点再多也无济于事：每个节点的行为都是正确的。' +
      'Kleppmann 的补救办法是由存储检查的防护令牌，而 Redlock 并不提供（它的随机值不会递增）。antirez 的回应（《Is Redlock safe?》）是：' +
      '客户端应在工作完成后、使用结果之前检查有效期是否已过：变体 check-validity 这样做了，A 不写入就离开。这一检查在这里有用，是因为停顿发生在检查之前；' +
      '若停顿发生在检查和写入之间，它就失效了，这正是 Kleppmann 的反驳。在两个变体中，A 和 B 都曾同时处于临界区。',
  ),
  params: redlockParams(10_000),
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  resources: [{ id: 'db', fencing: false }],
  nodes: redlockNodes(5),
  defaultSchedule: 'A +200 A~12000 +10000 B +5000',
  narration: [
    { step: 0, text: text('A starts its Redlock: r1 answers OK.', 'A 开始执行 Redlock：r1 返回 OK。') },
    { step: 1, text: text('A gets all five nodes at t=0, with a validity of 10000 - 0 - 102 = 9898 ms, enters and computes for 1 s.', 'A 在 t=0 拿到全部五个节点，有效期 10000 - 0 - 102 = 9898 毫秒，进入临界区并计算 1 秒。') },
    { step: 2, text: text('A stop-the-world GC pause freezes A for 12 s, longer than the lease.', '一次 STW GC 停顿把 A 冻结 12 秒，比租期更长。') },
    { step: 3, text: text('Every node drops A\'s key after t=10000, each on time.', '每个节点都在 t=10000 之后按时删除了 A 的键。') },
    { step: 4, text: text('B gets all five nodes and enters while A still believes it is inside; B computes for 3 s.', 'B 拿到全部五个节点，在 A 仍以为自己在临界区时进入；B 计算 3 秒。') },
    {
      step: 5,
      text: text(
        'At t=12200 A resumes, its work done 11 s late, and writes while the lock is B\'s: a stale write. Its unlock finds B\'s token everywhere. B writes at t=13200.',
        't=12200 时 A 恢复运行，工作晚了 11 秒才完成，在锁已属于 B 时写入：过期写入。它的解锁在每个节点上都发现是 B 的 token。B 在 t=13200 写入。',
      ),
    },
  ],
  variants: [
    {
      id: 'no-check',
      title: text('Write after the work', '工作完成后直接写入'),
      summary: text('A writes while the lock is B\'s.', 'A 在锁已属于 B 时写入。'),
      clients: clients('no-check'),
      expect: { violations: ['mutual-exclusion', 'stale-write'], absent: ['foreign-release'] },
    },
    {
      id: 'check-validity',
      title: text('Check the validity before writing (antirez)', '写入前检查有效期（antirez）'),
      summary: text('A sees its validity has passed and does not write; the overlap remains.', 'A 发现有效期已过，不再写入；但重叠依然存在。'),
      clients: clients('check-validity'),
      narration: [
        { step: 5, text: text('At t=12200 A resumes, reads its clock: 12200 ms spent, validity 9898 ms. It leaves without writing.', 't=12200 时 A 恢复运行，读取时钟：已用 12200 毫秒，有效期 9898 毫秒。它不写入就离开了。') },
      ],
      expect: { violations: ['mutual-exclusion'], absent: ['stale-write', 'foreign-release'] },
    },
  ],
  explore: {
    faults: { stallCountMax: 1, stallLengthsMs: [12_000], crashCountMax: 0, clients: ['A'] },
    depthMax: 8,
    note: {
      en: "Searched with one 12 s pause of A's process at any point, schedules of up to 8 choices. Checking the validity stops the stale write only when the pause comes before the check; both variants lose the mutual exclusion.",
      zh: '搜索时允许在任意位置让 A 的进程停顿 12 秒一次，调度最多 8 个选择。检查有效期只有在停顿发生在检查之前时才能阻止过期写入；两个变体都失去了互斥。',
    },
  },
  defaultVariant: 'no-check',
};
