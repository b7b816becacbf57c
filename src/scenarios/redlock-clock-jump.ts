import type { Step } from '../engine/program';
import type { Scenario } from '../engine/scenario';
import { redlockAcquire, redlockNodes, redlockParams, redlockRelease, text } from './common';
import { COMPARE_AND_DELETE } from './scripts';

/*
 * Kleppmann's first Redlock counterexample ("How to do distributed locking", 2016): client A
 * holds r1, r2, r3 (r4 and r5 cannot be reached); r3's clock jumps forward and its copy of the
 * lock expires; client B, which cannot reach r1 and r2, takes r3, r4 and r5. Both hold a majority.
 */

export function redlockClient(workMs: number): Step[] {
  return [
    ...redlockAcquire({ nodeTimeoutMs: 50, retryAfterMs: 1000, jitterMs: 200, attemptCountMax: 10 }),
    { op: 'work', durationMs: workMs, note: text('business logic, within the validity', '在有效期内完成业务逻辑') },
    { op: 'leave' },
    ...redlockRelease('unlock', 'unlockNode', 50, true),
    { op: 'end' },
  ];
}

export const redlockClockJump: Scenario = {
  id: 'redlock-clock-jump',
  title: text('Redlock: a clock jump on one node gives two majorities', 'Redlock：一个节点的时钟跳变造成两个多数派'),
  summary: text(
    "A holds r1, r2, r3; r3's clock jumps ahead and expires A's key there; B takes r3, r4, r5: both hold a majority.",
    'A 持有 r1、r2、r3；r3 的时钟向前跳变，A 在那里的键过期了；B 拿到 r3、r4、r5：两者都持有多数派。',
  ),
  lesson: text(
    'Redlock runs the lock on five independent Redis primaries and takes it only with a majority (3 of 5), within a validity ' +
      'time it measures with its own clock. Each node expires the key on its own clock. Martin Kleppmann\'s first counterexample ' +
      '("How to do distributed locking", 2016) is a clock that jumps: A acquires r1, r2 and r3 (r4 and r5 are cut off from A); ' +
      "then r3's clock jumps ahead by more than the lease (an NTP step, an operator fixing the time), so r3 drops A's key at once; " +
      'B, which cannot reach r1 and r2, acquires r3, r4 and r5. Both believe they hold the lock, and both have a majority. ' +
      "Redlock's safety rests on clocks that advance at roughly the same rate: antirez's reply (\"Is Redlock safe?\") accepts the " +
      'assumption and asks operators not to step clocks (slew them instead). The simulation only shows what happens when that ' +
      'assumption fails; it does not say how often it does.',
    'Redlock 在五个相互独立的 Redis 主节点上加锁，只有拿到多数派（5 个中的 3 个）且仍在有效期内才算成功，有效期用客户端自己的时钟测量。' +
      '每个节点按自己的时钟让键过期。Martin Kleppmann 在《How to do distributed locking》（2016）中的第一个反例就是时钟跳变：' +
      'A 拿到了 r1、r2、r3（A 连不上 r4 和 r5）；随后 r3 的时钟向前跳了比租期更长的时间（NTP 校时、运维手动改时间），r3 立刻删除了 A 的键；' +
      'B 连不上 r1 和 r2，却拿到了 r3、r4、r5。两者都认为自己持有锁，而且都有多数派。Redlock 的安全性依赖于各时钟以大致相同的速率前进：' +
      'antirez 的回应（《Is Redlock safe?》）接受这一假设，并要求运维不要让时钟跳变（改用平滑调整）。本模拟只展示这一假设不成立时会发生什么，并不说明它多常见。',
  ),
  params: redlockParams(10_000),
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  nodes: redlockNodes(5),
  defaultSchedule: 'A/@r4 A/@r5 B/@r1 B/@r2 A +200 @r3+11000 B +7000',
  narration: [
    { step: 0, text: text('The network splits: A cannot reach r4 and r5 ...', '网络分裂：A 连不上 r4 和 r5……') },
    { step: 2, text: text('... and B cannot reach r1 and r2.', '……B 连不上 r1 和 r2。') },
    { step: 4, text: text('A starts its Redlock: SET NX PX 10000 on r1 answers OK.', 'A 开始执行 Redlock：在 r1 上 SET NX PX 10000 返回 OK。') },
    {
      step: 5,
      text: text(
        'A gets r2 and r3; r4 and r5 time out after 50 ms each. 3 votes of 5 at t=100, validity 10000 - 100 - 102 = 9798 ms: A enters and works for 5 s.',
        'A 拿到 r2 和 r3；r4、r5 各在 50 毫秒后超时。t=100 时 5 票中得 3 票，有效期 10000 - 100 - 102 = 9798 毫秒：A 进入临界区，工作 5 秒。',
      ),
    },
    { step: 6, text: text("r3's clock jumps 11 s ahead: on r3's clock A's key has expired, and r3 drops it now.", 'r3 的时钟向前跳了 11 秒：按 r3 的时钟，A 的键已经过期，r3 立刻删除了它。') },
    { step: 7, text: text('B starts its Redlock: its SET to r1 is lost in the partition, so it waits its 50 ms timeout.', 'B 开始执行 Redlock：发往 r1 的 SET 在分区中丢失，它等待 50 毫秒超时。') },
    {
      step: 8,
      text: text(
        'B times out on r1 and r2 but gets r3, r4 and r5: a majority, with 9.7 s of validity. B enters while A is still inside. Both then unlock what they can reach; on r3 A finds B\'s token and leaves it.',
        'B 在 r1 和 r2 上超时，却拿到了 r3、r4、r5：多数派，有效期 9.7 秒。B 在 A 仍在临界区时进入。之后两者解开各自能连上的节点；A 在 r3 上发现 B 的 token，于是不删。',
      ),
    },
  ],
  variants: [
    {
      id: 'clock-jump',
      title: text('A clock jump on r3', 'r3 上的时钟跳变'),
      summary: text('Two clients hold a majority at once.', '两个客户端同时持有多数派。'),
      clients: [
        { id: 'A', program: redlockClient(5000) },
        { id: 'B', program: redlockClient(1000) },
      ],
      expect: { violations: ['mutual-exclusion'], absent: ['foreign-release'] },
    },
  ],
  explore: {
    faults: { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 0, clients: ['A'], partitionCountMax: 1, clockJumpCountMax: 1, clockJumpsMs: [11000], nodes: ['r3', 'r4'] },
    depthMax: 7,
    horizonMs: 1000,
    note: {
      en: 'Searched with one 11 s clock jump of r3 or r4 and one partition between A and r3 or r4, schedules of up to 7 choices in the first second. One jump and one partition are enough: the story partitions more links than it needs.',
      zh: '搜索时允许 r3 或 r4 的时钟跳变 11 秒一次，以及 A 与 r3 或 r4 之间一次网络分区，调度最多 7 个选择、限于第一秒内。一次跳变加一次分区就够了：故事里分区的链路比需要的多。',
    },
  },
  defaultVariant: 'clock-jump',
};
