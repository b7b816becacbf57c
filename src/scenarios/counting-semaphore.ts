import type { ClientSpec, Scenario, ScriptSpec } from '../engine/scenario';
import type { Step } from '../engine/program';
import { text } from './common';

/*
 * A counting semaphore lets `limit` clients in at once. The redis-semaphore way: a sorted set of
 * holders, each scored by the holder's clock when it last acquired or refreshed; an acquire first
 * prunes entries older than the timeout (their holders are presumed dead), then counts. A holder
 * that outlives its entry (a slow job, a GC pause) is pruned while it still works, and a newcomer
 * takes its place: limit + 1 inside. Refreshing the entry between batches keeps a slow holder's
 * place through a pause shorter than the timeout minus a batch; nothing on Redis's side stops a
 * holder paused past the timeout (the challenge shows it).
 */

type Variant = 'no-refresh' | 'refresh';

/** Scripts' ARGV: 1 limit, 2 my id, 3 timeout (ms), 4 now (ms, my clock). Scores are times, so a replay scales ARGV 4 with the timeout. */
const semaphoreDurations = { argv: [3, 4] };

/** redis-semaphore's acquire: prune stale entries, and take a place only while fewer than the limit hold one. */
const ACQUIRE: ScriptSpec = {
  title: text('Acquire a place (prune, count, add)', '占一个名额（清理、计数、加入）'),
  source: `redis.call('zremrangebyscore', KEYS[1], '-inf', tonumber(ARGV[4]) - tonumber(ARGV[3]))
if redis.call('zcard', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('zadd', KEYS[1], ARGV[4], ARGV[2])
  redis.call('pexpire', KEYS[1], ARGV[3])
  return 1
end
return 0`,
  durationsMs: semaphoreDurations,
};

/** redis-semaphore's refresh: a new score for my entry, only if it is still there (0: it was pruned, the place is lost). */
const REFRESH: ScriptSpec = {
  title: text('Refresh my place if I still have it', '名额还在才续期'),
  source: `redis.call('zremrangebyscore', KEYS[1], '-inf', tonumber(ARGV[4]) - tonumber(ARGV[3]))
if redis.call('zscore', KEYS[1], ARGV[2]) then
  redis.call('zadd', KEYS[1], ARGV[4], ARGV[2])
  redis.call('pexpire', KEYS[1], ARGV[3])
  return 1
end
return 0`,
  durationsMs: semaphoreDurations,
};

const batchCount = 4;

function refreshSteps(): Step[] {
  return [
    { op: 'clock', saveAs: 'nowMs' },
    {
      op: 'eval',
      script: 'refresh',
      keys: ['${semaphoreKey}'],
      args: ['${limit}', '${token}', '${timeoutMs}', '${nowMs}'],
      saveAs: 'refreshed',
      note: text('between batches: a new score for my entry, if it is still there', '批次之间：如果我的条目还在，就给它一个新的分数'),
    },
    { op: 'if', when: { test: 'eq', left: '${refreshed}', right: '0' }, goto: 'lost', note: text('0: my place was pruned', '0：我的名额已被清理') },
  ];
}

function holder(variant: Variant): Step[] {
  const refresh = variant === 'refresh';
  return [
    { op: 'clock', label: 'acquire', saveAs: 'nowMs', note: text('my clock (ms): the score of my entry', '我的时钟（毫秒）：我的条目的分数') },
    {
      op: 'eval',
      script: 'acquire',
      keys: ['${semaphoreKey}'],
      args: ['${limit}', '${token}', '${timeoutMs}', '${nowMs}'],
      saveAs: 'acquired',
      note: text('prune entries older than the timeout, then take a place if fewer than limit hold one', '清理超时的条目，若持有者少于上限就占一个名额'),
    },
    { op: 'if', when: { test: 'eq', left: '${acquired}', right: '1' }, goto: 'locked' },
    { op: 'retry', goto: 'acquire', afterMs: 1000, attemptCountMax: 8, note: text('full: try again in 1 s', '已满：1 秒后再试') },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
    { op: 'set', var: 'batch', value: '0' },
    { op: 'work', label: 'batch', durationMs: 1500, note: text(`one batch of the job (${batchCount} in all: 6 s, longer than the 5 s timeout)`, `任务的一个批次（共 ${batchCount} 批：6 秒，比 5 秒的超时长）`) },
    { op: 'set', var: 'batch', value: '${batch}', add: 1 },
    ...(refresh
      ? [{ op: 'if', when: { test: 'ge', left: '${batch}', right: String(batchCount) }, goto: 'done' } satisfies Step, ...refreshSteps(), { op: 'goto', goto: 'batch' } satisfies Step]
      : [{ op: 'if', when: { test: 'lt', left: '${batch}', right: String(batchCount) }, goto: 'batch' } satisfies Step]),
    { op: 'leave', label: 'done' },
    {
      op: 'command',
      label: 'release',
      argv: ['ZREM', '${semaphoreKey}', '${token}'],
      saveAs: 'released',
      releases: true,
      note: text('give my place back', '归还我的名额'),
    },
    { op: 'end' },
    ...(refresh
      ? ([
          { op: 'leave', label: 'lost', note: text('the place is lost: stop the job (redis-semaphore calls onLockLost)', '名额已失去：停止任务（redis-semaphore 会调用 onLockLost）') },
          { op: 'goto', goto: 'release' },
        ] satisfies Step[])
      : []),
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return ['A', 'B', 'C'].map((id) => ({ id, program: holder(variant) }));
}

export const countingSemaphore: Scenario = {
  id: 'counting-semaphore',
  title: text('A counting semaphore: a holder that outlives its entry', '计数信号量：比自己的条目活得更久的持有者'),
  summary: text(
    'Two places, kept in a sorted set scored by time. A slow, paused holder\'s entry goes stale and is pruned while it works: a third client gets in.',
    '两个名额，保存在按时间打分的有序集合里。慢且被停顿的持有者还在工作，它的条目却已过期并被清理：第三个客户端挤了进来。',
  ),
  lesson: text(
    'A counting semaphore lets a fixed number of clients in at once: here 2, say two connections a partner\'s API allows. ' +
      'redis-semaphore (Node) keeps the holders in a sorted set, each scored by the holder\'s clock when it took its place, and ' +
      'acquires with one Lua script: remove the entries older than the timeout (their holders are presumed dead), count what is ' +
      'left, and add mine if fewer than the limit hold one (Redis in Action\'s semaphore does the same with ZRANK). The timeout ' +
      'is what makes a crashed holder\'s place come back. It is also the bug: an entry says nothing about whether its holder is ' +
      'alive. A\'s job takes 6 s, longer than the 5 s timeout, and a GC pause slows it down further: at t=5500 C\'s acquire prunes ' +
      'A\'s entry, scored at t=0, while A is still working, and C takes the place. Three clients now use what allows two. ' +
      'redis-semaphore\'s answer is to refresh: the holder gives its entry a new score regularly (here between batches of its job) ' +
      'with a script that does so only if the entry is still there, and learns when it is not (redis-semaphore calls its ' +
      'onLockLost; here the holder stops its job). That keeps a slow ' +
      'holder\'s place through a pause shorter than the timeout minus the time between refreshes (5 s - 1.5 s here). It cannot ' +
      'keep a holder paused for longer than the timeout: the entry is pruned while the holder is frozen inside, and the refresh that ' +
      'finds it gone comes after the newcomer is already in (try it in the challenge). Where exceeding the limit must never happen, ' +
      'the protected resource has to enforce it itself.',
    '计数信号量允许固定数量的客户端同时进入：这里是 2 个，比如合作方 API 允许的两个连接。' +
      'redis-semaphore（Node）把持有者保存在有序集合里，每个条目的分数是持有者占到名额时它自己的时钟；加锁用一个 Lua 脚本完成：' +
      '先删除比超时更老的条目（认为它们的持有者已经死了），再数剩下的条目，若少于上限就加入我的条目（《Redis 实战》里的信号量用 ZRANK 做同样的事）。' +
      '超时让崩溃持有者的名额得以回收。它也正是问题所在：条目并不能说明持有者是否还活着。A 的任务要 6 秒，比 5 秒的超时长，' +
      '一次 GC 停顿又让它更慢：t=5500 时 C 的加锁清理掉了 A 在 t=0 打分的条目，而 A 还在工作，C 占了这个名额。' +
      '现在有三个客户端在使用只允许两个的资源。redis-semaphore 的答案是续期：持有者定期（这里是在任务的批次之间）给自己的条目一个新分数，' +
      '脚本只在条目还在时才这么做，条目不在了它就会知道（redis-semaphore 会调用 onLockLost；这里的持有者随即停止任务）。这能让慢持有者在短于“超时减去续期间隔”（这里是 5 秒 - 1.5 秒）的停顿中保住名额。' +
      '但它保不住停顿超过超时的持有者：持有者被冻结在临界区里时条目就被清理了，等到续期发现条目不在时，新来者早已进入（在挑战里试试看）。' +
      '如果绝不允许超出上限，就必须由被保护的资源自己来限制。',
  ),
  params: { semaphoreKey: 'semaphore', limit: '2', timeoutMs: '5000' },
  lockKey: 'semaphore',
  holderKeys: ['semaphore'],
  holderCountMax: 2,
  checkers: ['over-limit'],
  scripts: { acquire: ACQUIRE, refresh: REFRESH },
  defaultSchedule: 'A +1000 B +1000 A~2500 +3500 C +9000',
  narration: [
    { step: 0, text: text('A takes a place at t=0: its entry\'s score is 0. Its job is 4 batches of 1.5 s: 6 s, longer than the 5 s timeout.', 'A 在 t=0 占到名额：条目分数为 0。它的任务是 4 批、每批 1.5 秒，共 6 秒，比 5 秒的超时长。') },
    { step: 2, text: text('B takes the second place at t=1000 (score 1000).', 'B 在 t=1000 占到第二个名额（分数 1000）。') },
    { step: 4, text: text('At t=2000 a 2.5 s GC pause freezes A mid-batch.', 't=2000 时一次 2.5 秒的 GC 停顿把 A 冻结在批次中途。') },
    { step: 5, text: text('A resumes at t=4500 and works on. From t=5000 its entry, scored at t=0, counts as stale: nothing in it says A is alive.', 'A 在 t=4500 恢复，继续工作。从 t=5000 起，它在 t=0 打分的条目被视为过期：条目里没有任何信息表明 A 还活着。') },
    { step: 6, text: text('C arrives at t=5500. Its acquire prunes A\'s entry, counts one holder (B) and takes the place: A, B and C are all inside a semaphore of 2.', 'C 在 t=5500 到来。它的加锁清理掉 A 的条目，数出一个持有者（B），于是占了名额：A、B、C 都在上限为 2 的信号量里。') },
    { step: 7, text: text('A finishes at t=7500; its ZREM answers 0: its place was gone long before. Nothing told A while it worked.', 'A 在 t=7500 完成；它的 ZREM 返回 0：名额早就没了。它工作期间没有任何东西告诉它。') },
  ],
  variants: [
    {
      id: 'no-refresh',
      title: text('Score set once, at acquire', '分数只在加锁时设置一次'),
      summary: text('A job longer than the timeout is pruned while it works: three holders.', '比超时更长的任务在工作中被清理：三个持有者。'),
      clients: clients('no-refresh'),
      expect: { violations: ['over-limit'], absent: [] },
    },
    {
      id: 'refresh',
      title: text('Refresh the entry between batches', '在批次之间续期条目'),
      summary: text('The entry\'s score follows the job, late but in time after the pause: C waits its turn.', '条目的分数跟着任务走，停顿后虽晚但仍及时：C 等到了自己的轮次。'),
      clients: clients('refresh'),
      narration: [
        { step: 0, text: text('A takes a place at t=0 (score 0). After each 1.5 s batch it refreshes its entry: a new score, if the entry is still there.', 'A 在 t=0 占到名额（分数 0）。每完成一个 1.5 秒的批次，它就续期自己的条目：条目还在，就给它一个新分数。') },
        { step: 4, text: text('A refreshed at t=1500. At t=2000 a 2.5 s GC pause freezes A mid-batch.', 'A 在 t=1500 续期过一次。t=2000 时一次 2.5 秒的 GC 停顿把 A 冻结在批次中途。') },
        { step: 5, text: text('A resumes at t=4500 and refreshes 1.5 s late, but its entry (score 1500) is not stale until t=6500: the score becomes 4500.', 'A 在 t=4500 恢复，晚了 1.5 秒才续期，但它的条目（分数 1500）要到 t=6500 才过期：分数变成了 4500。') },
        { step: 6, text: text('C arrives at t=5500: nothing is stale, two places are taken, C is refused and retries every second.', 'C 在 t=5500 到来：没有条目过期，两个名额都被占着，C 被拒绝，每秒重试一次。') },
        { step: 7, text: text('B gives its place back at t=7000 and C\'s retry at t=7500 takes it; A gives its own back in the same millisecond. Never more than two inside. A pause longer than the timeout would still beat this: see the challenge.', 'B 在 t=7000 归还名额，C 在 t=7500 的重试占到了它；A 在同一毫秒归还自己的名额。里面始终不超过两个。但超过超时的停顿仍能打败它：见挑战。') },
      ],
      expect: { violations: [], absent: ['over-limit'] },
    },
  ],
  defaultVariant: 'no-refresh',
  explore: {
    faults: { stallCountMax: 1, stallLengthsMs: [2500], crashCountMax: 0 },
    depthMax: 7,
    note: {
      en: 'Searched with one 2.5 s stall (the story\'s pause) at any point, up to 7 choices. A stall longer than the 5 s timeout beats the refresh too (the challenge).',
      zh: '搜索时允许在任意位置插入一次 2.5 秒停顿（故事中的停顿），最多 7 个选择。比 5 秒超时更长的停顿同样能打败续期（见挑战）。',
    },
  },
};
