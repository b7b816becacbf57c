/**
 * The Redlock debate, told fairly (the lesson's dialog, loaded on demand with it): Martin
 * Kleppmann's "How to do distributed locking" (2016) and antirez's reply "Is Redlock safe?"
 * (2016), each claim beside the runs that show it. The rule: say what each side argued and what
 * the runs show, nothing more; a detail we could not verify is left out. A leaf like the rest of
 * the catalog: the runs it names are plain ids, checked against the scenarios by a unit test.
 */
import type { Lang } from './translate';

export type DebateSide = 'kleppmann' | 'antirez' | 'both';

/** A run that shows a claim: a scenario's variant under its own schedule. */
export interface DebateRun {
  readonly scenarioId: string;
  readonly variantId: string;
}

export interface DebateClaimSpec {
  readonly id: DebateClaimId;
  readonly side: DebateSide;
  readonly runs: readonly DebateRun[];
}

export type DebateClaimId = 'pause' | 'fencing' | 'timing' | 'clocks' | 'restarts' | 'validity' | 'random-value' | 'any-lease';

/** The claims in the order told: Kleppmann's argument, antirez's reply, what both sides accept. */
export const DEBATE_CLAIMS: readonly DebateClaimSpec[] = [
  { id: 'pause', side: 'kleppmann', runs: [{ scenarioId: 'redlock-gc-pause', variantId: 'no-check' }] },
  { id: 'fencing', side: 'kleppmann', runs: [{ scenarioId: 'failover-before-replication', variantId: 'fencing' }] },
  { id: 'timing', side: 'kleppmann', runs: [{ scenarioId: 'redlock-clock-jump', variantId: 'clock-jump' }] },
  { id: 'clocks', side: 'antirez', runs: [{ scenarioId: 'redlock-clock-jump', variantId: 'clock-jump' }] },
  {
    id: 'restarts',
    side: 'antirez',
    runs: [
      { scenarioId: 'redlock-restart-without-fsync', variantId: 'no-fsync' },
      { scenarioId: 'redlock-restart-without-fsync', variantId: 'delayed-restart' },
      { scenarioId: 'redlock-restart-without-fsync', variantId: 'fsync' },
    ],
  },
  { id: 'validity', side: 'antirez', runs: [{ scenarioId: 'redlock-gc-pause', variantId: 'check-validity' }] },
  { id: 'random-value', side: 'antirez', runs: [] },
  {
    id: 'any-lease',
    side: 'both',
    runs: [
      { scenarioId: 'lease-expires-mid-work', variantId: 'lua-release' },
      { scenarioId: 'lease-expires-mid-work', variantId: 'fencing' },
    ],
  },
];

export interface DebateText {
  readonly title: string;
  readonly intro: string;
  readonly sides: Readonly<Record<DebateSide, string>>;
  readonly claims: Readonly<Record<DebateClaimId, string>>;
  /** A run's link text: "{scenario} · {variant}" is filled by the dialog from the scenario's titles. */
  readonly showRun: string;
  readonly noRun: string;
  readonly sources: string;
  readonly kleppmannSource: string;
  readonly antirezSource: string;
}

const en: DebateText = {
  title: 'The Redlock debate',
  intro:
    'In 2016 Martin Kleppmann argued that Redlock is heavier than needed for locks that only save work, and not safe enough for locks that correctness depends on; antirez (Salvatore Sanfilippo, who designed Redlock) replied. Each claim below links to a run that shows it; the runs show what happens under one schedule, they do not settle the argument.',
  sides: {
    kleppmann: 'Kleppmann: "How to do distributed locking"',
    antirez: 'antirez: "Is Redlock safe?"',
    both: 'What both accept',
  },
  claims: {
    pause:
      'A client can stop for longer than its lease after the acquire replies arrived (a stop-the-world GC pause, a page fault, a stopped VM). Its keys expire on every node, on time; another client acquires a majority; the paused client wakes believing it holds the lock and writes. No node did anything wrong.',
    fencing:
      'The remedy is a fencing token: a number that grows with every acquire, sent with each write and checked by the storage, which refuses a token older than one it has already seen. Redlock produces no such number: its random value does not grow.',
    timing:
      'Redlock is safe only under timing assumptions: bounded network delay, bounded process pauses and bounded clock error. When a node\'s clock jumps forward, the key expires early on that node, and a second client can gather a majority while the first still believes it holds the lock.',
    clocks:
      'Redlock does assume clocks that do not jump: each node counts the TTL on its own clock. antirez argues that this can be had in practice, with clocks nobody sets by hand and time synchronisation that does not step them. The clock-jump run breaks exactly this assumption.',
    restarts:
      'A node that restarts without its data forgets the keys it held, so the same lock can be granted twice. Redlock\'s answer: persist every write (fsync), or keep a crashed node down for longer than the longest lease (a delayed restart).',
    validity:
      'The client measures how long acquiring took and keeps only the rest of the lease (the validity). antirez adds that a client can check, after its work, whether its validity has passed, and then not use the result. In the pause run this check stops A\'s write; A and B were still inside together, and a pause between the check and the write would get past it.',
    'random-value':
      'Where the storage can check something, antirez notes that the lock\'s unique random value can serve instead of a counter: the storage accepts a write only from the client whose value holds the lock. No Lockstep scenario shows this yet.',
    'any-lease':
      'The pause problem is not Redlock\'s alone: any lock with a lease has it, on a single Redis node too, and only a check at the storage keeps the late write out.',
  },
  showRun: 'Show: {run}',
  noRun: 'No run shows this yet.',
  sources: 'Sources',
  kleppmannSource: 'Martin Kleppmann, "How to do distributed locking" (February 2016)',
  antirezSource: 'antirez, "Is Redlock safe?" (February 2016)',
};

const zh: DebateText = {
  title: 'Redlock 之争',
  intro:
    '2016 年 Martin Kleppmann 认为：对只为省事的锁，Redlock 过于笨重；对正确性依赖于它的锁，它又不够安全；Redlock 的设计者 antirez（Salvatore Sanfilippo）作了回应。下面每条论点都链接到演示它的运行；这些运行展示的是某个调度下会发生什么，并不能裁决这场争论。',
  sides: {
    kleppmann: 'Kleppmann：《How to do distributed locking》',
    antirez: 'antirez：《Is Redlock safe?》',
    both: '双方都接受的',
  },
  claims: {
    pause:
      '客户端可能在加锁回复到达之后停顿比租期更久（STW GC 停顿、缺页、虚拟机被挂起）。它的键在每个节点上都按时过期；另一个客户端拿到多数派；停顿的客户端醒来后仍以为自己持有锁并写入。没有哪个节点做错了什么。',
    fencing:
      '补救办法是防护令牌（fencing token）：每次加锁都递增的数字，随每次写入发送，由存储检查，存储拒绝比它已见过的更旧的令牌。Redlock 不产生这样的数字：它的随机值不会递增。',
    timing:
      'Redlock 只有在时间假设成立时才安全：网络延迟有上界、进程停顿有上界、时钟误差有上界。当某个节点的时钟向前跳变，键在该节点上提前过期，第二个客户端就可能在第一个客户端仍以为持有锁时凑齐多数派。',
    clocks:
      'Redlock 确实假设时钟不会跳变：每个节点用自己的时钟计算 TTL。antirez 认为这在实践中可以做到：没有人手动调整时钟，时间同步也不以跳变方式校时。时钟跳变的运行恰恰打破了这一假设。',
    restarts:
      '节点不带数据重启会忘掉它持有的键，于是同一把锁可能被授予两次。Redlock 的答案是：持久化每次写入（fsync），或让崩溃的节点停机时间超过最长的租期（延迟重启）。',
    validity:
      '客户端测量加锁花了多久，只保留租期的剩余部分（有效期）。antirez 补充说，客户端可以在工作完成后检查有效期是否已过，若已过就不使用结果。在停顿的运行中，这一检查阻止了 A 的写入；但 A 和 B 仍曾同时处于临界区，而且若停顿发生在检查和写入之间，检查就拦不住。',
    'random-value':
      'antirez 指出，在存储能做检查的地方，锁的唯一随机值可以代替计数器：存储只接受其值当前持有锁的客户端的写入。Lockstep 目前还没有演示这一点的场景。',
    'any-lease':
      '停顿问题并非 Redlock 独有：任何带租期的锁都有，单个 Redis 节点也一样；只有存储端的检查才能挡住迟到的写入。',
  },
  showRun: '演示：{run}',
  noRun: '目前还没有演示这一点的运行。',
  sources: '出处',
  kleppmannSource: 'Martin Kleppmann，《How to do distributed locking》（2016 年 2 月）',
  antirezSource: 'antirez，《Is Redlock safe?》（2016 年 2 月）',
};

export const REDLOCK_DEBATE: Readonly<Record<Lang, DebateText>> = { en, zh };

export const DEBATE_SOURCES = {
  kleppmann: 'https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html',
  antirez: 'http://antirez.com/news/101',
} as const;
