/**
 * How the lessons are taught, beside the lessons themselves: the path (teaching order is
 * SCENARIOS' order; the headline race is where a newcomer starts), the label of each scenario's
 * variant group, its challenges and its predict-then-reveal questions. Keyed by scenario id, so a
 * new scenario needs no entry here: it gets the generic label and a challenge made from its
 * default variant's expected violation.
 */
import type { ChallengeSpec } from '../engine/learn/challenge';
import type { QuestionSpec } from '../engine/learn/question';
import type { LocalizedText } from '../engine/program';
import type { Scenario } from '../engine/scenario';

/** Where a newcomer starts: the race most Redis locks get wrong. */
export const START_SCENARIO_ID = 'get-then-del';

interface Teaching {
  /** What the variants of this scenario differ in: the variant group's label. */
  readonly variantLabel: LocalizedText;
  readonly challenges?: readonly ChallengeSpec[];
  readonly questions?: readonly QuestionSpec[];
}

const text = (en: string, zh: string): LocalizedText => ({ en, zh });

const TEACHING: Readonly<Record<string, Teaching>> = {
  'setnx-no-ttl': { variantLabel: text('Acquire method', '加锁方式') },
  'setnx-then-expire': { variantLabel: text('Acquire method', '加锁方式') },
  'sub-second-lease': { variantLabel: text('Lease setting', '租期设置') },
  'plain-del': { variantLabel: text('Release method', '释放方式') },
  'get-then-del': {
    variantLabel: text('Release method', '释放方式'),
    challenges: [
      {
        id: 'delete-b-lock',
        title: text("Make A delete B's lock", '让 A 删掉 B 的锁'),
        goal: { kind: 'break', violation: 'foreign-release', clients: ['A', 'B'] },
        variantIds: ['get-then-del'],
        start: 'empty',
      },
      {
        id: 'lua-holds',
        title: text('Now switch to the Lua release and try again within 8 choices', '现在换成 Lua 释放，在 8 次选择内再试一次'),
        goal: { kind: 'hold', violation: 'foreign-release' },
        variantIds: ['lua'],
        start: 'empty',
        choiceCountMax: 8,
      },
    ],
    questions: [
      {
        step: 0,
        ask: text('A sends SET lock <token> NX PX 5000. Who holds the lock after this step?', 'A 发送 SET lock <token> NX PX 5000。这一步之后谁持有锁？'),
        about: { kind: 'holder' },
        options: ['A', 'B', 'nobody'],
      },
      {
        step: 4,
        ask: text('At t=6000 B tries SET lock <token> NX PX 5000. Does B get in?', 't=6000 时 B 尝试 SET lock <token> NX PX 5000。B 能进入临界区吗？'),
        about: { kind: 'enters', clientId: 'B' },
        options: ['yes', 'no'],
      },
      {
        step: 5,
        ask: text('At t=7000 A wakes up and sends the DEL it decided on before the pause. What will DEL return?', 't=7000 时 A 醒来，发出停顿前就决定好的 DEL。DEL 会返回什么？'),
        about: { kind: 'reply', clientId: 'A' },
        options: ['1', '0'],
        variantIds: ['get-then-del'],
      },
      {
        step: 1,
        ask: text('A releases with the compare-and-delete script. What will the script return?', 'A 用比较并删除脚本释放锁。脚本会返回什么？'),
        about: { kind: 'reply', clientId: 'A' },
        options: ['1', '0'],
        variantIds: ['lua'],
      },
    ],
  },
  'lease-expires-mid-work': { variantLabel: text('Protection', '保护手段') },
  'lease-sizing': { variantLabel: text('Lease length', '租期长度') },
  'release-result': {
    variantLabel: text('Release reply', '释放的返回值'),
    challenges: [
      {
        id: 'late-write',
        title: text("Checking the reply comes too late: get A's result written over B's anyway", '检查返回值为时已晚：照样让 A 的结果覆盖 B 的'),
        goal: { kind: 'break', violation: 'stale-write', clients: ['A', 'B'] },
        variantIds: ['checked'],
        start: 'empty',
      },
      {
        id: 'fence-holds',
        title: text("Now with the fencing token: try to get A's late write accepted within 10 choices", '现在加上防护令牌：在 10 次选择内设法让 A 迟到的写入被接受'),
        goal: { kind: 'hold', violation: 'stale-write' },
        variantIds: ['fenced'],
        start: 'empty',
        choiceCountMax: 10,
      },
    ],
  },
  watchdog: {
    variantLabel: text('Lease renewal', '租期续期'),
    challenges: [
      {
        id: 'beat-the-watchdog',
        title: text('Find a schedule where the watchdog cannot save A', '找一个看门狗也救不了 A 的调度'),
        goal: { kind: 'break', violation: 'mutual-exclusion' },
        variantIds: ['renewal'],
        start: 'empty',
        // The lesson's search pauses A for 3.5 s, which renewal survives; a longer pause of the
        // whole process (A and its watchdog) is what beats it.
        faults: { stallCountMax: 1, stallLengthsMs: [9000], crashCountMax: 0 },
      },
    ],
    questions: [
      {
        step: 2,
        ask: text('B arrives while A holds the lock. Does B get in?', 'A 持有锁时 B 到来。B 能进入临界区吗？'),
        about: { kind: 'enters', clientId: 'B' },
        options: ['yes', 'no'],
      },
    ],
  },
  reentrant: { variantLabel: text('Lock kind', '锁的类型') },
  'redisson-lock': {
    variantLabel: text('Waiting for the lock', '等待锁的方式'),
    challenges: [
      {
        id: 'pubsub-holds',
        title: text("Try to get two clients inside at once with Redisson's lock within 10 choices", '在 10 次选择内，设法让两个客户端同时持有 Redisson 的锁'),
        goal: { kind: 'hold', violation: 'mutual-exclusion' },
        variantIds: ['pubsub'],
        start: 'empty',
        choiceCountMax: 10,
      },
    ],
  },
  'stock-oversell': {
    variantLabel: text('Stock deduction', '库存扣减'),
    challenges: [
      {
        id: 'oversell',
        title: text('Sell more than there is in stock', '卖出比库存更多的商品'),
        goal: { kind: 'break', violation: 'oversell' },
        variantIds: ['no-lock'],
        start: 'empty',
      },
      {
        id: 'keep-stock',
        title: text('Keep the stock from going negative: run both buyers to the end with a safe deduction', '别让库存变成负数：用安全的扣减方式让两个买家都走完'),
        goal: { kind: 'finish-clean', violations: ['oversell'] },
        variantIds: ['lock', 'lua-decr', 'decr-check', 'watch'],
        start: 'empty',
      },
    ],
  },
  'cache-breakdown': { variantLabel: text('Cache rebuild', '缓存重建') },
  'cache-penetration': {
    variantLabel: text('Missing keys', '不存在的键'),
    challenges: [
      {
        id: 'query-again',
        title: text('Send the query for product 404 to the database a second time', '让 404 号商品的查询第二次打到数据库'),
        goal: { kind: 'break', violation: 'duplicate-rebuild' },
        variantIds: ['no-cache'],
        start: 'empty',
      },
      {
        id: 'two-misses',
        title: text('The miss is cached now: still get the database asked twice', '现在未命中也缓存了：仍然让数据库被问两次'),
        goal: { kind: 'break', violation: 'duplicate-rebuild' },
        variantIds: ['cache-null'],
        start: 'empty',
      },
      {
        id: 'filter-clean',
        title: text('With the known-id check: run both requests to the end without a second query', '先查已知 id：让两个请求都走完，且没有第二次查询'),
        goal: { kind: 'finish-clean', violations: ['duplicate-rebuild'] },
        variantIds: ['filter'],
        start: 'empty',
      },
    ],
  },
  'cache-avalanche': {
    variantLabel: text('Key TTLs', '键的 TTL'),
    challenges: [
      {
        id: 'spike',
        title: text('Send more than 2 reads to the database within 100 ms', '让数据库在 100 毫秒内收到超过 2 次读取'),
        goal: { kind: 'break', violation: 'load-spike' },
        variantIds: ['same-ttl'],
        start: 'empty',
      },
    ],
  },
  'retry-and-backoff': { variantLabel: text('Retry policy', '重试策略') },
  'counting-semaphore': {
    variantLabel: text('Entry refresh', '条目续期'),
    challenges: [
      {
        id: 'third-holder',
        title: text('Get a third client into a semaphore of 2', '让第三个客户端挤进上限为 2 的信号量'),
        goal: { kind: 'break', violation: 'over-limit' },
        variantIds: ['no-refresh'],
        start: 'empty',
      },
      {
        id: 'refresh-holds',
        title: text('Now with refreshes: try to get a third client in within 7 choices, with one 2.5 s pause', '现在加上续期：在 7 次选择内、借助一次 2.5 秒的停顿，设法让第三个客户端进入'),
        goal: { kind: 'hold', violation: 'over-limit' },
        variantIds: ['refresh'],
        start: 'empty',
        choiceCountMax: 7,
      },
      {
        id: 'beat-the-refresh',
        title: text('Find a pause that gets a third client in despite the refreshes', '找一次停顿，让第三个客户端在续期之下仍然挤进来'),
        goal: { kind: 'break', violation: 'over-limit' },
        variantIds: ['refresh'],
        start: 'empty',
        // A pause longer than the 5 s timeout: the entry is pruned while its holder is frozen inside.
        faults: { stallCountMax: 1, stallLengthsMs: [7000], crashCountMax: 0 },
      },
    ],
    questions: [
      {
        step: 6,
        ask: text('C arrives at t=5500; A and B hold the two places. Does C get in?', 'C 在 t=5500 到来；A 和 B 占着两个名额。C 能进入吗？'),
        about: { kind: 'enters', clientId: 'C' },
        options: ['yes', 'no'],
      },
    ],
  },
  'fair-lock': {
    variantLabel: text('Queue entries', '队列条目'),
    challenges: [
      {
        id: 'stuck-queue',
        title: text('Leave C waiting behind a dead waiter', '让 C 困在一个死去的等待者后面'),
        goal: { kind: 'break', violation: 'starvation', clients: ['C'] },
        variantIds: ['no-timeout'],
        start: 'empty',
      },
      {
        id: 'lease-holds',
        title: text('With entry leases: try to leave anyone waiting too long, crashing B once', '有了条目租期：让 B 崩溃一次，设法让某人等得太久'),
        goal: { kind: 'hold', violation: 'starvation' },
        variantIds: ['entry-lease'],
        start: 'empty',
      },
    ],
    questions: [
      {
        step: 6,
        ask: text('A releases at t=2000; B, first in line, has crashed. Does C get in within the next 12 s?', 'A 在 t=2000 释放锁；排在第一的 B 已经崩溃。C 能在接下来的 12 秒内进入吗？'),
        about: { kind: 'enters', clientId: 'C' },
        options: ['yes', 'no'],
      },
    ],
  },
  'read-write-lock': {
    variantLabel: text('Who goes first', '谁优先'),
    challenges: [
      {
        id: 'starve-writer',
        title: text('Keep the writer out for longer than 6 s', '把写者挡在外面超过 6 秒'),
        goal: { kind: 'break', violation: 'starvation', clients: ['W'] },
        variantIds: ['reader-preference'],
        start: 'empty',
      },
      {
        id: 'intent-holds',
        title: text('With the write intent: try to starve anyone within 7 choices', '有了写意图：在 7 次选择内设法让任何人饥饿'),
        goal: { kind: 'hold', violation: 'starvation' },
        variantIds: ['writer-preference'],
        start: 'empty',
        choiceCountMax: 7,
      },
    ],
    questions: [
      {
        step: 4,
        ask: text('Reader B arrives at t=2000, while A reads and the writer W waits. Does B get in?', '读者 B 在 t=2000 到来，此时 A 在读、写者 W 在等。B 能进入吗？'),
        about: { kind: 'enters', clientId: 'B' },
        options: ['yes', 'no'],
      },
    ],
  },
  'script-cache': { variantLabel: text('Script call', '脚本调用方式') },
  'long-script': { variantLabel: text('Script', '脚本写法') },
};

const GENERIC_LABEL = text('Variant', '变体');

/** The variant group's label for a scenario. */
export function variantLabelOf(scenarioId: string): LocalizedText {
  return TEACHING[scenarioId]?.variantLabel ?? GENERIC_LABEL;
}

/**
 * A scenario's challenges: its own, or one made from its default variant's expected violation
 * ("make it happen yourself"), untitled so the page names it from the violation kind.
 */
export function challengesOf(scenario: Scenario): readonly ChallengeSpec[] {
  const own = TEACHING[scenario.id]?.challenges;
  if (own) return own;
  const variant = scenario.variants.find((v) => v.id === scenario.defaultVariant);
  const kind = variant?.expect.violations[0];
  if (!variant || !kind) return [];
  return [{ id: 'reproduce', goal: { kind: 'break', violation: kind }, variantIds: [variant.id], start: 'empty' }];
}

export function questionsOf(scenarioId: string): readonly QuestionSpec[] {
  return TEACHING[scenarioId]?.questions ?? [];
}
