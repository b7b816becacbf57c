import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { ACQUIRE_WITH_FENCING_TOKEN, COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from './scripts';
import { acquireCommand, acquiredVar, releaseWithLua, text, timerLoop, writeToDb } from './common';

/*
 * Martin Kleppmann's objection to lease-based locks ("How to do distributed locking", 2016): a
 * process paused longer than its lease (a stop-the-world GC) wakes up believing it still holds
 * the lock and writes, after another client has taken the lock and written. The Lua release does
 * not help; it only stops the late client deleting the other's lock. Fencing tokens make the
 * storage refuse the late write; a watchdog does not help here, because the pause freezes it too.
 */

type Variant = 'lua-release' | 'fencing' | 'watchdog';

const renewEveryMs = 2000;

function acquire(variant: Variant, startsWatchdog: boolean): Step[] {
  const fencing = variant === 'fencing';
  return [
    acquireCommand(fencing),
    { op: 'if', when: { test: 'notNil', reply: acquiredVar(fencing) }, goto: 'locked' },
    { op: 'retry', goto: 'acquire', afterMs: 1000, attemptCountMax: 10, note: text('taken: wait and retry', '锁被占用：等待后重试') },
    { op: 'end', note: text('give up', '放弃') },
    ...(startsWatchdog
      ? [
          { op: 'start', label: 'locked', client: 'W', note: text('start the watchdog thread, as Redisson does once the lock is taken', '加锁成功后启动看门狗线程，与 Redisson 一样') } satisfies Step,
          { op: 'enter' } satisfies Step,
        ]
      : [{ op: 'enter', label: 'locked' } satisfies Step]),
  ];
}

const write = (variant: Variant, value: string): Step => writeToDb(variant === 'fencing', value);

function holder(variant: Variant): Step[] {
  return [
    ...acquire(variant, variant === 'watchdog'),
    { op: 'work', durationMs: 4000, note: text('read, compute the new value', '读取数据，计算新值') },
    write(variant, "A's update"),
    { op: 'leave' },
    releaseWithLua(),
    { op: 'end' },
  ];
}

function other(variant: Variant): Step[] {
  return [...acquire(variant, false), write(variant, "B's update"), { op: 'work', durationMs: 2000, note: text('business logic', '业务逻辑') }, { op: 'leave' }, releaseWithLua(), { op: 'end' }];
}

/** A's watchdog thread (the watchdog variant): renews A's lease every ttl/3 while the lock is A's. */
function watchdog(): Step[] {
  return timerLoop({
    everyMs: renewEveryMs,
    roundCountMax: 1000,
    action: {
      op: 'eval',
      script: 'renew',
      keys: ['${lockKey}'],
      args: ['${token}', '${ttlMs}'],
      saveAs: 'renewed',
      note: text('extend the lease to ttlMs again, only if the lock is still A\'s', '仅当锁仍属于 A 时，把租期重新延长到 ttlMs'),
    },
    keepGoing: { op: 'if', when: { test: 'eq', left: '${renewed}', right: '1' }, goto: 'timer' },
    timerNote: text('every ttlMs/3, like Redisson\'s watchdog (no cap: 1000 only bounds the simulation)', '每隔 ttlMs/3，与 Redisson 看门狗一样（不设上限：1000 只是模拟的边界）'),
    stopNote: text('stop', '停止'),
  });
}

function clients(variant: Variant): ClientSpec[] {
  const a: ClientSpec = { id: 'A', program: holder(variant) };
  const b: ClientSpec = { id: 'B', program: other(variant) };
  return variant === 'watchdog' ? [a, { id: 'W', program: watchdog(), tokenFrom: 'A', process: 'A', startedBy: 'A' }, b] : [a, b];
}

export const leaseExpiresMidWork: Scenario = {
  id: 'lease-expires-mid-work',
  title: text('The lease expires mid-work: a pause longer than the TTL', '租期在工作中途到期：比 TTL 更长的停顿'),
  summary: text(
    'A GC pause longer than the lease lets B in while A still believes it holds the lock; both write.',
    '一次比租期更长的 GC 停顿让 B 拿到了锁，而 A 仍以为锁在自己手里；两者都写入了数据。',
  ),
  lesson: text(
    'A has taken the lock correctly (SET NX PX, a token, the Lua release) and is computing its result when a stop-the-world GC ' +
      'pause freezes it for 7 s, longer than its 6 s lease. Redis expires the lock, B acquires it and writes, then A wakes up and ' +
      'writes too, over B\'s data, still believing it holds the lock: nothing told it otherwise, and it cannot check without another ' +
      'race. This is Martin Kleppmann\'s argument in "How to do distributed locking": a lease alone cannot give mutual exclusion when ' +
      'pauses (GC, page faults, a stopped VM, a slow network) can be longer than the lease. The fix that holds is fencing: the lock ' +
      'hands out a number that grows with every grant (here INCR, in the same script as the SET NX), every write carries it, and ' +
      'the storage refuses a number lower than one it has already seen. With fencing A\'s late write is rejected, so there is no ' +
      'stale write; but A and B were still both inside the critical section, so mutual-exclusion remains: fencing protects the ' +
      'data, not the lock. Fencing holds only under its conditions: the storage itself must check the token on every write (a ' +
      'store that cannot, such as a plain file or an external API, gets no protection); the counter must never go backwards, even ' +
      'when Redis fails over to a replica that missed the last INCR; and in a Redis Cluster the lock key and the counter must ' +
      'share a hash slot for one script to touch both (hash tags, {order:42}:lock and {order:42}:fence). A watchdog (lane W, Redisson-style renewal every ttl/3, see the watchdog scenario) does not save this run: ' +
      'it lives in A\'s process, so the same pause freezes it and the lease lapses anyway. Renewal helps a holder that is slow but ' +
      'running, not one that is frozen.',
    'A 已经用正确的方式加了锁（SET NX PX、token、Lua 释放），正在计算要写入的结果时，一次 STW GC 停顿把它冻结了 7 秒，比 6 秒的租期还长。' +
      'Redis 让锁过期，B 拿到锁并写入；随后 A 醒来，仍然以为锁在自己手里，也写入了，覆盖了 B 的数据：没有任何东西通知它锁已易主，' +
      '而它若要检查，又会引入新的竞态。这正是 Martin Kleppmann 在《How to do distributed locking》中的论点：' +
      '只要停顿（GC、缺页、虚拟机被挂起、网络变慢）可能比租期更长，单靠租约就无法保证互斥。真正可靠的修复是防护令牌（fencing token）：' +
      '锁每次授予时都发放一个递增的编号（这里用 INCR，与 SET NX 放在同一个脚本里），每次写入都带上它，存储拒绝比已见过的编号更小的写入。' +
      '有了防护令牌，A 迟到的写入会被拒绝，不再有过期写入；但 A 和 B 确实同时待在临界区里，所以 mutual-exclusion 依然存在：' +
      '防护令牌保护的是数据，而不是锁本身。防护令牌只在满足条件时有效：存储本身必须在每次写入时检查令牌（无法检查的存储，比如普通文件或外部 API，得不到任何保护）；' +
      '计数器绝不能倒退，即使 Redis 故障转移到一个漏掉了最后一次 INCR 的副本也不行；在 Redis Cluster 里，锁键和计数器必须位于同一个哈希槽，' +
      '一个脚本才能同时操作两者（用哈希标签，如 {order:42}:lock 和 {order:42}:fence）。看门狗（W 泳道，Redisson 式每隔 ttl/3 续期，见 watchdog 场景）救不了这一次：' +
      '它运行在 A 的进程里，同一次停顿也把它冻结了，租期照样过期。续期只能帮助慢但仍在运行的持有者，帮不了被冻结的持有者。',
  ),
  params: { lockKey: 'lock', ttlMs: '6000', fencingKey: 'lock:fencing' },
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE, acquireWithFencingToken: ACQUIRE_WITH_FENCING_TOKEN, renew: COMPARE_AND_PEXPIRE },
  resources: [{ id: 'db', fencing: false }],
  defaultSchedule: 'A +3000 A~7000 +5500 B +3000',
  narration: [
    { step: 0, text: text('A takes the lock with a 6 s lease and starts computing its update (4 s).', 'A 以 6 秒的租期加锁，开始计算要写入的数据（4 秒）。') },
    { step: 1, text: text('Three seconds in, A is still computing; its lease runs until t=6000.', '第 3 秒，A 仍在计算；它的租期持续到 t=6000。') },
    { step: 2, text: text('The schedule injects a 7 s stop-the-world GC pause into A\'s process: longer than the 6 s lease.', '调度向 A 的进程注入一次 7 秒的 STW GC 停顿：比 6 秒的租期还长。') },
    { step: 3, text: text('A\'s lease expired after t=6000. A is still frozen and cannot know.', 'A 的租期在 t=6000 之后已经到期。A 仍处于冻结中，对此一无所知。') },
    { step: 4, text: text('B takes the free lock, enters while A is still inside, and writes its update.', 'B 拿到空闲的锁，在 A 仍在临界区时进入，并写入自己的数据。') },
    { step: 5, text: text('At t=10000 A wakes up, its work done 6 s late, still believing it holds the lock: it writes over B\'s data. Its release finds B\'s token and deletes nothing.', 't=10000 时 A 醒来，工作晚了 6 秒才完成，仍以为锁在自己手里：它写入并覆盖了 B 的数据。它的释放发现是 B 的 token，什么也没删。') },
  ],
  variants: [
    {
      id: 'lua-release',
      title: text('SET NX PX + Lua release, no fencing', 'SET NX PX + Lua 释放，无防护令牌'),
      summary: text('Both A and B write: the late write from the paused A wins.', 'A 和 B 都写入了：被停顿的 A 的迟到写入覆盖了结果。'),
      clients: clients('lua-release'),
      expect: { violations: ['mutual-exclusion', 'stale-write'], absent: ['foreign-release'] },
    },
    {
      id: 'fencing',
      title: text('Fencing tokens', '防护令牌（fencing token）'),
      summary: text('The storage rejects A\'s write with an older token; the overlap itself remains.', '存储拒绝了 A 携带旧 token 的写入；但两者的重叠依然存在。'),
      clients: clients('fencing'),
      resources: [{ id: 'db', fencing: true }],
      narration: [
        { step: 0, text: text('A takes the lock and fencing token 1 in one script, and starts computing (4 s).', 'A 用一个脚本同时拿到锁和防护令牌 1，开始计算（4 秒）。') },
        { step: 4, text: text('B takes the lock and fencing token 2, enters while A is still inside, and writes with token 2.', 'B 拿到锁和防护令牌 2，在 A 仍在临界区时进入，并携带令牌 2 写入。') },
        { step: 5, text: text('At t=10000 A wakes up and writes with token 1. The storage has seen 2 and rejects it: B\'s data is safe.', 't=10000 时 A 醒来并携带令牌 1 写入。存储已经见过 2，于是拒绝了它：B 的数据安然无恙。') },
      ],
      expect: { violations: ['mutual-exclusion'], absent: ['stale-write', 'foreign-release'] },
    },
    {
      id: 'watchdog',
      title: text('Watchdog renewal (frozen by the same pause)', '看门狗续期（被同一次停顿冻结）'),
      summary: text('W renews A\'s lease every 2 s until the GC pause freezes it too; the lease lapses anyway.', 'W 每 2 秒为 A 续期，直到 GC 停顿把它也冻结；租期照样过期。'),
      clients: clients('watchdog'),
      narration: [
        { step: 0, text: text('A takes the lock with a 6 s lease, starts its watchdog W, and starts computing (4 s).', 'A 以 6 秒的租期加锁，启动看门狗 W，开始计算（4 秒）。') },
        { step: 1, text: text('W renewed the lease at t=2000: it now runs until t=8000.', 'W 在 t=2000 续期：租期现在持续到 t=8000。') },
        { step: 2, text: text('The 7 s GC pause freezes A\'s whole process, W included: the renewal due at t=4000 cannot run.', '7 秒的 GC 停顿冻结了 A 的整个进程，包括 W：本应在 t=4000 进行的续期无法执行。') },
        { step: 3, text: text('The last renewal ran out after t=8000: the lease lapsed while A and W were frozen.', '最后一次续期在 t=8000 之后到期：租期在 A 和 W 冻结期间失效了。') },
        { step: 5, text: text('At t=10000 A wakes and writes over B\'s data. W\'s renewal runs 6 s late, finds B\'s token, answers 0, and W stops.', 't=10000 时 A 醒来并覆盖了 B 的数据。W 的续期晚了 6 秒才执行，发现是 B 的 token，返回 0，W 停止工作。') },
      ],
      expect: { violations: ['mutual-exclusion', 'stale-write'], absent: ['foreign-release'] },
    },
  ],
  defaultVariant: 'lua-release',
  explore: {
    faults: { stallCountMax: 1, stallLengthsMs: [7000], crashCountMax: 0 },
    note: {
      en: 'Searched with one 7 s stall (longer than the lease) at any point. Fencing tokens stop the stale write; nothing stops two clients from working at once after such a stall.',
      zh: '搜索时允许在任意位置插入一次 7 秒停顿（比租期长）。fencing token 能挡住过期写入；但这样的停顿之后，没有什么能阻止两个客户端同时工作。',
    },
  },
};
