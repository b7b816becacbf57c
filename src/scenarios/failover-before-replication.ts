import type { Step } from '../engine/program';
import type { ClientSpec, NodeSpec, Scenario } from '../engine/scenario';
import { releaseWithLua, text } from './common';
import { COMPARE_AND_DELETE } from './scripts';

/*
 * Redis replication is asynchronous: a primary acknowledges a write before its replicas have it.
 * If the primary dies in that window and a replica is promoted, the lock is gone and a second
 * client takes it. WAIT narrows the window; a fencing counter that does not fail over with the
 * lock keeps the protected data safe.
 */

type Variant = 'async' | 'wait' | 'fencing';

const replyTimeoutMs = 500;

function acquire(variant: Variant): Step[] {
  const fence: Step[] =
    variant === 'fencing'
      ? [
          {
            op: 'command',
            label: 'acquire',
            argv: ['INCR', '${fencingKey}'],
            node: 'f',
            timeoutMs: replyTimeoutMs,
            saveAs: 'fencingToken',
            note: text('take the next fencing token from the counter node f (not part of this failover)', '从计数器节点 f（不参与这次故障转移）领取下一个防护令牌'),
          },
        ]
      : [];
  const wait: Step[] =
    variant === 'wait'
      ? [
          {
            op: 'command',
            label: 'replicated',
            argv: ['WAIT', '1', '100'],
            timeoutMs: replyTimeoutMs,
            saveAs: 'acks',
            note: text('wait until 1 replica has the lock, at most 100 ms', '等待至少 1 个副本拿到锁，最多 100 毫秒'),
          },
          { op: 'if', when: { test: 'error', reply: 'acks' }, goto: 'unsafe' },
          { op: 'if', when: { test: 'ge', left: '${acks}', right: '1' }, goto: 'locked', note: text('a replica has it: go on', '已有副本拿到：继续') },
          {
            op: 'eval',
            label: 'unsafe',
            script: 'compareAndDelete',
            keys: ['${lockKey}'],
            args: ['${token}'],
            timeoutMs: replyTimeoutMs,
            note: text('no replica has it: give it back and try again', '没有副本拿到：交还锁，再试一次'),
          },
          { op: 'retry', goto: 'acquire', afterMs: 500, attemptCountMax: 10, note: text('try again later', '稍后再试') },
          { op: 'end', note: text('give up', '放弃') },
        ]
      : [];
  return [
    ...fence,
    {
      op: 'command',
      ...(variant === 'fencing' ? {} : { label: 'acquire' }),
      argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'],
      timeoutMs: replyTimeoutMs,
      saveAs: 'acquired',
      note: text('take the lock on the primary (Sentinel tells the client which node that is)', '在主节点上加锁（由 Sentinel 告诉客户端是哪个节点）'),
    },
    { op: 'if', when: { test: 'error', reply: 'acquired' }, goto: 'again' },
    { op: 'if', when: { test: 'notNil', reply: 'acquired' }, goto: variant === 'wait' ? 'replicated' : 'locked' },
    { op: 'retry', label: 'again', goto: 'acquire', afterMs: 500, attemptCountMax: 10, note: text('taken, or no answer: wait and retry', '被占用或无应答：等待后重试') },
    { op: 'end', note: text('give up', '放弃') },
    ...wait,
    { op: 'enter', label: 'locked' },
  ];
}

function write(variant: Variant, value: string): Step {
  return variant === 'fencing'
    ? { op: 'write', resource: 'db', value, fencingToken: '${fencingToken}', note: text('write, showing the fencing token', '写入，并出示防护令牌') }
    : { op: 'write', resource: 'db', value, note: text('write to the protected storage', '写入受保护的存储') };
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: [...acquire(variant), { op: 'work', durationMs: 3000, note: text('compute the update', '计算要写入的数据') }, write(variant, "A's update"), { op: 'leave' }, releaseWithLua(), { op: 'end' }] },
    { id: 'B', program: [...acquire(variant), write(variant, "B's update"), { op: 'work', durationMs: 1000, note: text('business logic', '业务逻辑') }, { op: 'leave' }, releaseWithLua(), { op: 'end' }] },
  ];
}

const primaryAndReplica: NodeSpec[] = [
  { id: 'r1', role: 'primary' },
  { id: 'r2', role: 'replica', replicaOf: 'r1', replicationDelayMs: 1000 },
];

export const failoverBeforeReplication: Scenario = {
  id: 'failover-before-replication',
  title: text('Failover before replication: the promoted replica never had the lock', '复制之前的故障转移：被提升的副本从未有过这把锁'),
  summary: text(
    'The primary acknowledges A\'s lock and dies before its replica has it; the replica is promoted and B takes the lock too.',
    '主节点确认了 A 的锁，却在副本拿到之前宕机；副本被提升，B 也拿到了锁。',
  ),
  lesson: text(
    'Redis replicates asynchronously: the primary answers OK to SET NX before any replica has the write. Here A takes the lock ' +
      'on r1, whose replica r2 applies writes 1 s late; r1 crashes 200 ms later, the failover (Sentinel) promotes r2, which never ' +
      'saw the lock, and B acquires it on r2 while A is still working. Both are inside the critical section, and A\'s late write ' +
      'lands after B\'s. Redis documents this: a failover can lose acknowledged writes. WAIT (variant wait) makes A wait until a ' +
      'replica has the lock: it narrows the window but does not close it, because WAIT counts any replica, and the failover may ' +
      'promote another one (here r2, for example because r3 has a lower replica-priority or the Sentinels cannot reach it). ' +
      'Fencing (variant fencing) saves the data on this schedule: the storage refuses A\'s older token. That needs a counter ' +
      'that does not go backwards: here it lives on a node (f) this failover does not touch; an INCR on r1 itself could have ' +
      'been lost with the lock, and tokens would repeat. It is still not enough: the tokens are taken apart from the lock, so ' +
      'they are ordered by when a client took one, not by when it got the lock. Find a race shows B taking its token before A ' +
      'and its lock after A (B A A @r2^ A): A holds the higher token without the lock, and the storage accepts its write. A ' +
      'fencing token protects only when it is handed out with the lock itself. The mutual exclusion is lost in every variant.',
    'Redis 的复制是异步的：主节点在任何副本拿到写入之前就对 SET NX 返回 OK。这里 A 在 r1 上加锁，而 r1 的副本 r2 要晚 1 秒才应用写入；' +
      '200 毫秒后 r1 崩溃，故障转移（Sentinel）提升了从未见过这把锁的 r2，B 在 A 仍在工作时从 r2 拿到了锁。两者都在临界区内，' +
      'A 迟到的写入落在 B 的之后。Redis 文档写明了这一点：故障转移可能丢失已确认的写入。WAIT（变体 wait）让 A 等到某个副本拿到锁：' +
      '它缩小了窗口，却没有关闭它，因为 WAIT 计算的是任意副本，而故障转移可能提升另一个副本（这里是 r2，例如因为 r3 的 replica-priority 更低，' +
      '或哨兵连不上它）。在这个调度下，防护令牌（变体 fencing）保住了数据：存储拒绝了 A 更旧的令牌。这需要一个不会倒退的计数器：这里它位于这次故障转移不涉及的节点 f 上；' +
      '若在 r1 上 INCR，它可能和锁一起丢失，令牌就会重复。但这还不够：令牌与锁分开领取，于是令牌的大小取决于客户端领取令牌的先后，而不是拿到锁的先后。' +
      '“找出竞态”给出了 B 先于 A 领取令牌、却晚于 A 拿到锁的调度（B A A @r2^ A）：A 持有更大的令牌却没有锁，存储接受了它的写入。' +
      '只有随锁本身一起发放的防护令牌才能起到保护作用。在每个变体中，互斥本身都失效了。',
  ),
  params: { lockKey: 'lock', ttlMs: '10000', fencingKey: 'fence' },
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  resources: [{ id: 'db', fencing: false }],
  nodes: primaryAndReplica,
  defaultSchedule: 'A +200 !@r1 @r2^ B +5000',
  narration: [
    { step: 0, text: text('A takes the lock on the primary r1: OK. A enters and computes for 3 s.', 'A 在主节点 r1 上加锁：OK。A 进入临界区，计算 3 秒。') },
    { step: 1, text: text('200 ms pass. r2 applies r1\'s writes 1 s after they are made: it does not have the lock yet.', '过了 200 毫秒。r2 在 r1 写入 1 秒后才应用：它还没有这把锁。') },
    { step: 2, text: text('r1 crashes. The write to lock that r2 had not got dies with it.', 'r1 崩溃。r2 尚未收到的对 lock 的写入随之丢失。') },
    { step: 3, text: text('The failover promotes r2; clients now send their commands to r2, which has no lock.', '故障转移提升了 r2；客户端现在把命令发给 r2，而 r2 上没有锁。') },
    { step: 4, text: text('B takes the lock on r2 and enters while A is still inside; B writes.', 'B 在 r2 上拿到锁，在 A 仍在临界区时进入；B 写入。') },
    { step: 5, text: text('A finishes at t=3000 and writes over B\'s update; its release finds B\'s token on r2 and deletes nothing.', 'A 在 t=3000 完成并覆盖了 B 的数据；它的释放在 r2 上发现是 B 的 token，什么也没删。') },
  ],
  variants: [
    {
      id: 'async',
      title: text('Asynchronous replication', '异步复制'),
      summary: text('The lock dies with the primary; B takes it on the promoted replica.', '锁随主节点一起丢失；B 在被提升的副本上拿到了锁。'),
      clients: clients('async'),
      expect: { violations: ['mutual-exclusion', 'stale-write'], absent: ['foreign-release'] },
    },
    {
      id: 'wait',
      title: text('WAIT 1 after the SET', 'SET 之后 WAIT 1'),
      summary: text('r3 acknowledges A\'s lock, but the failover promotes r2, which had not: the window is narrower, not closed.', 'r3 确认了 A 的锁，但故障转移提升的是尚未收到它的 r2：窗口变窄了，却没有关闭。'),
      clients: clients('wait'),
      nodes: [...primaryAndReplica, { id: 'r3', role: 'replica', replicaOf: 'r1', replicationDelayMs: 50 }],
      narration: [
        { step: 0, text: text('A takes the lock on the primary r1: OK.', 'A 在主节点 r1 上加锁：OK。') },
        { step: 1, text: text('A sends WAIT 1 100. r3 applies the write at t=50, so WAIT answers 1 and A enters; r2, 1 s behind, does not have it.', 'A 发送 WAIT 1 100。r3 在 t=50 应用了写入，WAIT 返回 1，A 进入临界区；落后 1 秒的 r2 还没有。') },
        { step: 3, text: text('The failover promotes r2, not r3 (say r3 has a lower replica-priority); r3 resyncs from r2 and loses the lock too.', '故障转移提升的是 r2 而不是 r3（比如 r3 的 replica-priority 更低）；r3 从 r2 全量同步，也丢了锁。') },
      ],
      expect: { violations: ['mutual-exclusion', 'stale-write'], absent: ['foreign-release'] },
    },
    {
      id: 'fencing',
      title: text('Fencing tokens from a counter that does not fail over', '来自不参与故障转移的计数器的防护令牌'),
      summary: text('On this schedule the storage refuses A\'s older token and B\'s data is safe; tokens taken apart from the lock do not make every schedule safe.', '在这个调度下，存储拒绝了 A 更旧的令牌，B 的数据安全；但与锁分开领取的令牌并不能让每个调度都安全。'),
      clients: clients('fencing'),
      nodes: [...primaryAndReplica, { id: 'f', role: 'primary' }],
      resources: [{ id: 'db', fencing: true }],
      narration: [
        { step: 0, text: text('A takes fencing token 1 from the counter on f.', 'A 从 f 上的计数器领取防护令牌 1。') },
        { step: 1, text: text('A takes the lock on r1 and computes for 3 s; r2 does not have the lock yet.', 'A 在 r1 上加锁，计算 3 秒；r2 还没有这把锁。') },
        { step: 4, text: text('B takes token 2 from f and the lock on r2, enters while A is inside, and writes with token 2.', 'B 从 f 领取令牌 2，在 r2 上加锁，在 A 仍在临界区时进入，并携带令牌 2 写入。') },
        { step: 5, text: text('A writes with token 1 at t=3000: the storage has seen 2 and refuses it.', 'A 在 t=3000 携带令牌 1 写入：存储已见过 2，于是拒绝了它。') },
      ],
      expect: { violations: ['mutual-exclusion'], absent: ['stale-write', 'foreign-release'] },
    },
  ],
  explore: {
    faults: { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 0, nodeCrashCountMax: 1, promoteCountMax: 1, nodes: ['r1', 'r2'] },
    depthMax: 5,
    note: {
      en:
        'Searched with one crash (and restart) of r1 or r2 and one promotion at any point, schedules of up to 5 choices. The promotion alone is enough: r2 promoted while r1 still runs (a failover the old primary did not notice) loses the lock just the same. ' +
        'Fencing does not stop every stale write here: when B takes its token before A but its lock after A (B A A @r2^ A), A holds the higher token without the lock, and the storage accepts its write. A counter apart from the lock orders tokens by when they were taken, not by when the lock was.',
      zh:
        '搜索时允许在任意位置让 r1 或 r2 崩溃（并重启）一次、提升一次副本，调度最多 5 个选择。单是提升就够了：r1 仍在运行时提升 r2（旧主节点没察觉的故障转移）同样会丢锁。' +
        '防护令牌在这里挡不住所有过期写入：如果 B 先于 A 领取令牌、却晚于 A 拿到锁（B A A @r2^ A），A 持有更大的令牌却没有锁，存储接受了它的写入。独立于锁的计数器按领取令牌的先后排序，而不是按拿到锁的先后。',
    },
  },
  defaultVariant: 'async',
};
