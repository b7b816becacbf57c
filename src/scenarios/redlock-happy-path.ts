import type { Scenario } from '../engine/scenario';
import { redlockNodes, redlockParams, text } from './common';
import { redlockClient } from './redlock-clock-jump';
import { COMPARE_AND_DELETE } from './scripts';

/*
 * Redlock as redis.io describes it, when its assumptions hold: five independent primaries, a
 * majority of three, a validity that subtracts the time spent acquiring and a drift allowance.
 */

export const redlockHappyPath: Scenario = {
  id: 'redlock-happy-path',
  title: text('Redlock: a majority of five nodes', 'Redlock：五个节点中的多数派'),
  summary: text(
    'A gets 3 of 5 nodes (two are unreachable) and a validity a little shorter than the lease; B gets 2, fails, backs off and wins later.',
    'A 拿到 5 个节点中的 3 个（两个连不上），有效期比租期略短；B 只拿到 2 个，失败、退避，之后成功。',
  ),
  lesson: text(
    'Redlock (redis.io, "Distributed Locks with Redis") takes a lock on N independent Redis primaries, here five, with no ' +
      'replication between them. The client reads its clock, tries SET NX PX on each node in turn with a short timeout (a node ' +
      'that does not answer costs 50 ms, not the whole lease), and reads its clock again. It holds the lock only if a majority ' +
      '(3) said OK and the validity, the lease minus the time spent acquiring minus a clock drift allowance (1% of the lease + ' +
      '2 ms), is still positive; it must finish its work within that validity. Otherwise it unlocks every node and retries after ' +
      'a random delay, so that competing clients do not keep splitting the votes. Here each request and reply takes 5 ms. A ' +
      'cannot reach r4 and r5, still gets 3 votes, and works within its validity; B gets r4 and r5 only, fails, and gets the ' +
      'lock on a later try once A has released it. Nothing goes wrong under these assumptions; the other Redlock scenarios ' +
      'break one each (a clock jump, a restart without fsync, a process pause).',
    'Redlock（redis.io《Distributed Locks with Redis》）在 N 个相互独立的 Redis 主节点上加锁，这里是五个，节点之间没有复制。' +
      '客户端先读自己的时钟，依次在每个节点上以很短的超时执行 SET NX PX（不应答的节点只耗费 50 毫秒，而不是整个租期），再读一次时钟。' +
      '只有多数节点（3 个）返回 OK，且有效期（租期减去加锁花掉的时间，再减去时钟漂移余量：租期的 1% + 2 毫秒）仍为正，它才持有锁；' +
      '它必须在有效期内完成工作。否则它解开所有节点，随机等待后重试，以免竞争的客户端一直分散选票。这里每个请求和回复各需 5 毫秒。' +
      'A 连不上 r4 和 r5，仍拿到 3 票，并在有效期内完成工作；B 只拿到 r4 和 r5，失败，在 A 释放之后的某次重试中拿到锁。' +
      '在这些假设成立时一切正常；其他 Redlock 场景各打破一个假设（时钟跳变、不 fsync 的重启、进程停顿）。',
  ),
  params: redlockParams(10_000),
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  nodes: redlockNodes(5),
  links: { delayMs: 5 },
  defaultSchedule: 'A/@r4 A/@r5 A +200 B +8000',
  narration: [
    { step: 0, text: text('A cannot reach r4 and r5.', 'A 连不上 r4 和 r5。') },
    { step: 2, text: text('A reads its clock (t=0) and sends SET NX PX 10000 to r1; the request takes 5 ms each way.', 'A 读取时钟（t=0），向 r1 发送 SET NX PX 10000；请求和回复各需 5 毫秒。') },
    {
      step: 3,
      text: text(
        'r1, r2, r3 answer OK; r4 and r5 time out. At t=130 A has 3 votes and a validity of 10000 - 130 - 102 = 9768 ms: it enters and works for 5 s.',
        'r1、r2、r3 返回 OK；r4 和 r5 超时。t=130 时 A 有 3 票，有效期 10000 - 130 - 102 = 9768 毫秒：它进入临界区，工作 5 秒。',
      ),
    },
    {
      step: 5,
      text: text(
        'B gets r4 and r5 only: 2 votes. It unlocks them, waits a random 1.0-1.2 s and tries again, until A has finished and unlocked; then it gets all five.',
        'B 只拿到 r4 和 r5：2 票。它解开这两个节点，随机等待 1.0-1.2 秒再试，直到 A 完成并解锁；随后它拿到全部五个节点。',
      ),
    },
  ],
  variants: [
    {
      id: 'majority',
      title: text('Three of five, then five of five', '五中取三，之后五个全拿'),
      summary: text('One holder at a time.', '任何时刻只有一个持有者。'),
      clients: [
        { id: 'A', program: redlockClient(5000) },
        { id: 'B', program: redlockClient(1000) },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release'] },
    },
  ],
  explore: {
    faults: { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 0, partitionCountMax: 2, nodes: ['r4', 'r5'] },
    depthMax: 6,
    horizonMs: 1000,
    note: {
      en: 'Searched with up to two partitions between a client and r4 or r5 (each may be healed), schedules of up to 6 choices in the first second: not exhaustive.',
      zh: '搜索时允许客户端与 r4 或 r5 之间最多两次网络分区（可以恢复），调度最多 6 个选择、限于第一秒内：并非穷尽。',
    },
  },
  defaultVariant: 'majority',
};
