import type { NodeSpec, Scenario } from '../engine/scenario';
import { redlockNodes, redlockParams, text } from './common';
import { redlockClient } from './redlock-clock-jump';
import { COMPARE_AND_DELETE } from './scripts';

/*
 * Kleppmann's second Redlock counterexample: a node that restarts without the lock it granted
 * (no fsync) lets another client build a second majority. antirez's answers: fsync every write,
 * or keep a restarted node out of service for longer than the longest lease (a delayed restart).
 */

/** The same settings for each of the five nodes. */
function everyNode(spec: Partial<NodeSpec>): Record<string, Partial<NodeSpec>> {
  return Object.fromEntries(['r1', 'r2', 'r3', 'r4', 'r5'].map((id) => [id, spec]));
}

const clients = [
  { id: 'A', program: redlockClient(5000) },
  { id: 'B', program: redlockClient(1000) },
];

export const redlockRestartWithoutFsync: Scenario = {
  id: 'redlock-restart-without-fsync',
  title: text('Redlock: a node restarts without the lock', 'Redlock：节点重启后丢了锁'),
  summary: text(
    'r3 crashes and restarts empty while A holds r1, r2, r3; B takes r3, r4, r5: two majorities. fsync or a delayed restart prevents it.',
    'A 持有 r1、r2、r3 时，r3 崩溃后以空数据重启；B 拿到 r3、r4、r5：出现两个多数派。fsync 或延迟重启可以避免。',
  ),
  lesson: text(
    'A Redlock majority is only as durable as the nodes that form it. Here A holds r1, r2 and r3 (r4 and r5 are cut off from A) ' +
      'when r3 crashes and comes straight back. Without persistence it comes back empty: the lock it granted A is gone, and B ' +
      '(cut off from r1 and r2) takes r3, r4 and r5. Both hold a majority: mutual-exclusion. Martin Kleppmann raises this case; ' +
      "antirez's reply gives two remedies, each a variant here. With fsync on every write (appendfsync always) r3 comes back with " +
      "A's key and B gets only two votes, at a cost in write latency. With a delayed restart r3 comes back empty but serves nobody " +
      'for longer than the lease (here 10 s), so every lock it forgot has expired before it can vote again; it costs availability ' +
      'instead. B retries with jittered backoff and gets the lock once A has released it.',
    'Redlock 多数派的持久程度取决于组成它的节点。这里 A 持有 r1、r2、r3（A 连不上 r4、r5）时，r3 崩溃并立刻重启。' +
      '没有持久化，它重启后是空的：它授予 A 的锁没了，于是 B（连不上 r1、r2）拿到了 r3、r4、r5。两者都持有多数派：mutual-exclusion。' +
      'Martin Kleppmann 提出了这个情形；antirez 的回应给出两个补救办法，这里各是一个变体。每次写入都 fsync（appendfsync always）时，' +
      'r3 重启后仍有 A 的键，B 只拿到两票，代价是写入延迟。延迟重启时，r3 重启后是空的，但在比租期更长的时间内（这里 10 秒）不为任何人服务，' +
      '因此它遗忘的锁在它重新投票之前都已过期；代价是可用性。B 以带随机抖动的退避重试，在 A 释放后拿到锁。',
  ),
  params: redlockParams(10_000),
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  nodes: redlockNodes(5),
  defaultSchedule: 'A/@r4 A/@r5 B/@r1 B/@r2 A +200 !@r3 ^@r3 B +20000',
  narration: [
    { step: 0, text: text('The network splits: A cannot reach r4 and r5, B cannot reach r1 and r2.', '网络分裂：A 连不上 r4、r5，B 连不上 r1、r2。') },
    { step: 4, text: text('A starts its Redlock: r1 answers OK.', 'A 开始执行 Redlock：r1 返回 OK。') },
    { step: 5, text: text('A gets r2 and r3, times out on r4 and r5: 3 votes of 5. A enters and works for 5 s.', 'A 拿到 r2、r3，在 r4、r5 上超时：5 票中得 3 票。A 进入临界区，工作 5 秒。') },
    { step: 6, text: text('r3 crashes.', 'r3 崩溃。') },
    { step: 7, text: text('r3 restarts at once. Without persistence its memory is empty: A\'s key on r3 is gone.', 'r3 立刻重启。没有持久化，它的内存是空的：A 在 r3 上的键没了。') },
    { step: 8, text: text('B starts; its SET to r1 is lost in the partition.', 'B 启动；发往 r1 的 SET 在分区中丢失。') },
    {
      step: 9,
      text: text(
        'B times out on r1 and r2 and gets r3, r4, r5: a majority while A is inside. Two clients hold the Redlock.',
        'B 在 r1、r2 上超时，拿到了 r3、r4、r5：在 A 仍在临界区时拿到多数派。两个客户端同时持有 Redlock。',
      ),
    },
  ],
  variants: [
    {
      id: 'no-fsync',
      title: text('No persistence, immediate restart', '无持久化，立即重启'),
      summary: text('r3 forgets A\'s lock; B builds a second majority.', 'r3 忘了 A 的锁；B 组成了第二个多数派。'),
      clients,
      expect: { violations: ['mutual-exclusion'], absent: ['foreign-release'] },
    },
    {
      id: 'fsync',
      title: text('fsync on every write', '每次写入都 fsync'),
      summary: text('r3 comes back with A\'s key; B gets two votes and waits its turn.', 'r3 重启后仍有 A 的键；B 只得两票，等到轮到自己。'),
      clients,
      // Every node fsyncs (appendfsync always is the deployment's setting): with r3 alone, a crash of r4 loses A's lock the same way.
      nodes: redlockNodes(5, everyNode({ persistence: 'fsync' })),
      narration: [
        { step: 7, text: text('r3 restarts with its data (fsync): A\'s key is still there.', 'r3 带着数据重启（fsync）：A 的键还在。') },
        {
          step: 9,
          text: text(
            'B gets only r4 and r5: 2 votes, not a majority. It unlocks, backs off and retries until A has released r3; then it gets r3, r4, r5.',
            'B 只拿到 r4、r5：2 票，不是多数派。它解锁、退避、重试，直到 A 释放了 r3；随后拿到 r3、r4、r5。',
          ),
        },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release'] },
    },
    {
      id: 'delayed-restart',
      title: text('Delayed restart (down longer than the lease)', '延迟重启（停机时间长于租期）'),
      summary: text('r3 comes back empty but serves nobody for 10 s; B cannot build a majority until A is done.', 'r3 重启后是空的，但 10 秒内不为任何人服务；在 A 完成之前，B 无法组成多数派。'),
      clients,
      // Every node restarts late (an operations rule for the deployment), not r3 alone.
      nodes: redlockNodes(5, everyNode({ restartDelayMs: 10_000 })),
      narration: [
        { step: 7, text: text('r3 restarts empty, but serves no client before t=10200: longer than any lease it may have granted.', 'r3 以空数据重启，但在 t=10200 之前不为任何客户端服务：比它可能授予的任何租期都长。') },
        {
          step: 9,
          text: text(
            'B\'s request to r3 gets no answer: 2 votes only. B unlocks, backs off and retries; it takes r3, r4, r5 once r3 serves again, long after A finished.',
            'B 发往 r3 的请求没有回应：只得 2 票。B 解锁、退避、重试；r3 恢复服务后它拿到 r3、r4、r5，那时 A 早已完成。',
          ),
        },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release'] },
    },
  ],
  explore: {
    faults: { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 0, clients: ['A'], nodeCrashCountMax: 1, partitionCountMax: 1, nodes: ['r3', 'r4'] },
    depthMax: 8,
    note: {
      en:
        'Searched with one crash and restart of r3 or r4 and one partition between A and r3 or r4, schedules of up to 8 choices, with no time limit (the clock moves from one due time to the next). ' +
        'Enough for the restart without fsync; the fixes hold within these bounds, which are not exhaustive and not a proof: 8 choices reach past the delayed restart\'s 10 s on only a few schedules. ' +
        'Searched once to 10 choices and t = 100 s (about 44,000 states, a minute), no schedule broke either fix; longer schedules are more than a test can hold. ' +
        'Each fix must cover every node: with fsync or the delayed restart on r3 alone, a crash of r4 breaks them the same way (A A B B B B !@r4 ^@r4 +1000).',
      zh:
        '搜索时允许 r3 或 r4 崩溃并重启一次，以及 A 与 r3 或 r4 之间一次网络分区，调度最多 8 个选择，不限时间（时钟从一个到期时刻跳到下一个）。' +
        '足以找到不 fsync 的重启；在这些界限内两个修复都成立，但并非穷尽，也不是证明：8 个选择只有少数调度能越过延迟重启的 10 秒。' +
        '曾一次搜索到 10 个选择、t = 100 秒（约 44,000 个状态，一分钟），没有调度打破任一修复；更长的调度超出了测试能容纳的范围。' +
        '每个修复都必须覆盖所有节点：如果只有 r3 做 fsync 或延迟重启，r4 的崩溃会以同样的方式打破它们（A A B B B B !@r4 ^@r4 +1000）。',
    },
  },
  defaultVariant: 'no-fsync',
};
