import type { Step } from '../engine/program';
import type { Scenario } from '../engine/scenario';
import { redlockAcquire, redlockNodes, redlockParams, redlockRelease, text } from './common';
import { COMPARE_AND_DELETE } from './scripts';

/*
 * Three clients race for a Redlock and split the five votes (2, 2, 1): nobody has a majority, all
 * unlock, and the random part of the retry delay lets one of them go first next time.
 */

function client(): Step[] {
  return [
    ...redlockAcquire({ nodeTimeoutMs: 50, retryAfterMs: 100, jitterMs: 200, attemptCountMax: 20, rotate: true }),
    { op: 'work', durationMs: 500, note: text('business logic, within the validity', '在有效期内完成业务逻辑') },
    { op: 'leave' },
    ...redlockRelease('unlock', 'unlockNode', 50, true),
    { op: 'end' },
  ];
}

export const redlockSplitVote: Scenario = {
  id: 'redlock-split-vote',
  title: text('Redlock: a split vote, and the random backoff that ends it', 'Redlock：选票分散，以及结束它的随机退避'),
  summary: text(
    'A, B and C start at once on different nodes and get 2, 2 and 1 votes: nobody wins; jittered retries let one go first.',
    'A、B、C 同时从不同节点开始，分别拿到 2、2、1 票：谁也没赢；带随机抖动的重试让其中一个先走。',
  ),
  lesson: text(
    'When several clients try a Redlock at the same moment, each can win some nodes and none a majority: here A, B and C ' +
      'start together, each from a different node (as clients that send to all nodes at once meet the others on different ' +
      'nodes first), and end with 2, 2 and 1 of the five votes. Nobody enters. Each one must then unlock every node at once ' +
      '(else its keys block the others until they expire) and wait before trying again; the wait has a random part, so the ' +
      'clients stop arriving together and one of them acquires all five nodes while the others find them taken. redis.io\'s ' +
      'description of Redlock asks for exactly this: release on failure, retry after a random delay. With the same delay and ' +
      'no jitter they could keep splitting. A split vote costs time, not safety: nobody is ever inside together here.',
    '多个客户端在同一时刻尝试 Redlock 时，每个都可能赢得部分节点，却没有一个拿到多数：这里 A、B、C 同时开始，各自从不同节点开始' +
      '（就像同时向所有节点发送请求的客户端，会先在不同节点上碰到彼此），最后在五票中分别得到 2、2、1 票。谁也没有进入临界区。' +
      '每个客户端都必须立刻解开所有节点（否则它的键会阻挡别人，直到过期），并等待一段时间再试；等待时间带有随机部分，' +
      '于是客户端不再同时到达，其中一个拿到全部五个节点，其余的发现节点已被占用。redis.io 对 Redlock 的描述正是这样要求的：' +
      '失败时释放，随机延迟后重试。若延迟相同、没有抖动，它们可能一直分散选票。选票分散只耗费时间，不影响安全：这里从未有两个客户端同时在临界区内。',
  ),
  params: redlockParams(10_000),
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  nodes: redlockNodes(5),
  links: { delayMs: 5 },
  defaultSchedule: 'A B C +4000',
  narration: [
    { step: 0, text: text('A starts at r1 ...', 'A 从 r1 开始……') },
    { step: 1, text: text('... B at r3 ...', '……B 从 r3 开始……') },
    { step: 2, text: text('... and C at r5, all at t=0; each request takes 5 ms each way.', '……C 从 r5 开始，都在 t=0；每个请求和回复各需 5 毫秒。') },
    {
      step: 3,
      text: text(
        'Round one: A gets r1, r2; B r3, r4; C r5. 2, 2 and 1 votes: nobody has 3. All three unlock and wait 100 ms plus a random 0-200 ms; the earliest retry takes all five nodes, the others find them taken and retry until it has released.',
        '第一轮：A 拿到 r1、r2；B 拿到 r3、r4；C 拿到 r5。2、2、1 票：谁都没有 3 票。三者都解锁并等待 100 毫秒加随机的 0-200 毫秒；最早重试的拿到全部五个节点，其余的发现节点已被占用，一直重试到它释放为止。',
      ),
    },
  ],
  variants: [
    {
      id: 'jittered-retry',
      title: text('Retry after 100 ms + random 0-200 ms', '100 毫秒 + 随机 0-200 毫秒后重试'),
      summary: text('The first round splits; a later one has a winner, then another.', '第一轮选票分散；之后的某一轮有了赢家，然后是下一个。'),
      clients: [
        { id: 'A', program: client(), vars: { firstNode: '1' } },
        { id: 'B', program: client(), vars: { firstNode: '3' } },
        { id: 'C', program: client(), vars: { firstNode: '5' } },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release'] },
    },
  ],
  explore: {
    depthMax: 6,
    note: {
      en: 'Searched without faults, schedules of up to 6 choices: three clients with random backoff have more schedules than a test can hold; not exhaustive.',
      zh: '不注入故障搜索，调度最多 6 个选择：三个客户端加随机退避，调度多到测试容纳不下；并非穷尽。',
    },
  },
  defaultVariant: 'jittered-retry',
};
