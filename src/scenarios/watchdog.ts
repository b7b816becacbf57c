import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from './scripts';
import { acquireWithSetNxPx, lockedJob, releaseWithLua, text, timerLoop } from './common';

/*
 * Redisson's answer to "how long should the lease be?": a short lease, renewed every ttl/3 by a
 * watchdog thread for as long as the owner holds the lock. It keeps a slow holder's lock alive and
 * lets a dead holder's lock expire. It cannot renew through a stop-the-world pause (it is frozen
 * with its process), and it renews a hung holder's lock forever (a zombie lock) unless renewals
 * are capped. W is A's watchdog: a separate simulated client that shares A's token and process.
 */

type Variant = 'renewal' | 'starved' | 'zombie' | 'capped';

const renewEveryMs = 2000;
const renewalCountCap = 3;

/** What A does after its first 7 s of work. */
function secondPhase(variant: Variant): Step[] {
  switch (variant) {
    case 'renewal':
      return [{ op: 'work', durationMs: 1000, note: text('the job\'s last second: 8 s in all, longer than the 6 s lease', '任务的最后 1 秒：总共 8 秒，比 6 秒的租期长') }];
    case 'starved':
      return [{ op: 'pause', reason: 'gc', durationMs: 7000, note: text('a 7 s stop-the-world GC pause: the watchdog thread freezes too', '一次 7 秒的 STW GC 停顿：看门狗线程也被冻结') }];
    case 'zombie':
    case 'capped':
      return [
        {
          op: 'pause',
          label: 'hung',
          reason: 'network',
          durationMs: 2000,
          note: text('waits for a reply that never comes (a call with no timeout)', '等待一个永远不会到来的响应（调用没有设超时）'),
        },
        { op: 'goto', goto: 'hung' },
      ];
  }
}

function holder(variant: Variant): Step[] {
  return [
    ...acquireWithSetNxPx({ retryAfterMs: 1000, attemptCountMax: 3 }),
    { op: 'work', durationMs: 7000, note: text('a long job', '一个耗时很长的任务') },
    ...secondPhase(variant),
    { op: 'leave' },
    releaseWithLua(),
    { op: 'end' },
  ];
}

function watchdog(variant: Variant): Step[] {
  const capped = variant === 'capped';
  return timerLoop({
    everyMs: renewEveryMs,
    roundCountMax: capped ? renewalCountCap : 1000,
    action: {
      op: 'eval',
      script: 'renew',
      keys: ['${lockKey}'],
      args: ['${token}', '${ttlMs}'],
      saveAs: 'renewed',
      note: text('reset the lease to ttlMs, only if the lock still holds A\'s token', '仅当锁里仍是 A 的 token 时，把租期重置为 ttlMs'),
    },
    keepGoing: { op: 'if', when: { test: 'eq', left: '${renewed}', right: '1' }, goto: 'timer' },
    timerNote: capped
      ? text(`every ttlMs/3, at most ${renewalCountCap} renewals`, `每隔 ttlMs/3，最多续期 ${renewalCountCap} 次`)
      : text('every ttlMs/3 for as long as the lock is A\'s, like Redisson (no cap: 1000 only bounds the simulation)', '只要锁还是 A 的，就每隔 ttlMs/3 续期，与 Redisson 一致（不设上限：1000 只是模拟的边界）'),
    stopNote: capped
      ? text('cap reached: stop renewing and let the lease run out', '达到上限：停止续期，让租期自然到期')
      : text('stop', '停止'),
    ...(capped
      ? {
          afterCap: {
            op: 'command',
            argv: ['PTTL', '${lockKey}'],
            saveAs: 'leaseLeftMs',
            note: text('cap reached: stop renewing, report how long the lease has left', '达到上限：停止续期，报告租期还剩多久'),
          } satisfies Step,
        }
      : {}),
  });
}

function other(): Step[] {
  return lockedJob({ retryAfterMs: 3000, attemptCountMax: 3, workMs: 1000, release: releaseWithLua() });
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: holder(variant) },
    { id: 'W', program: watchdog(variant), tokenFrom: 'A', process: 'A' },
    { id: 'B', program: other() },
  ];
}

export const watchdogScenario: Scenario = {
  id: 'watchdog',
  title: text('The watchdog: renewing the lease while the work goes on', '看门狗：工作未完，租期续上'),
  summary: text(
    'A Redisson-style watchdog renews A\'s lease every ttl/3; a GC pause starves it, a hung A turns it into a zombie.',
    'Redisson 式看门狗每隔 ttl/3 为 A 续期；GC 停顿会饿死它，A 卡死则让它变成僵尸锁。',
  ),
  lesson: text(
    'No single lease length is right: too short and a slow holder loses its lock mid-work, too long and a crashed holder blocks ' +
      'everyone for the whole lease. Redisson\'s answer is the watchdog: take a short lease (its lockWatchdogTimeout, 30 s by ' +
      'default; 6 s here) and let a background thread renew it every lease/3 with a script that extends the key only if it still ' +
      'holds the owner\'s id. Watch the lock\'s TTL: a sawtooth that never reaches zero while A works, so B is refused even though ' +
      'A\'s job takes 8 s; if A\'s process crashed, the renewals would stop with it and the lock would expire within one lease. ' +
      'Two limits remain. A stop-the-world pause freezes the watchdog with the rest of the process: the lease lapses during the ' +
      'pause and B gets in (starved; only fencing protects against that, see lease-expires-mid-work). And if A hangs while its ' +
      'process stays alive (a call with no timeout, a deadlock), the watchdog renews a lock nobody is using, forever: a zombie lock, ' +
      'and B gives up. Capping the renewals (or a lease with no watchdog, Redisson\'s lock(leaseTime)) bounds how long a hung holder ' +
      'can block everyone, at a price: when the cap runs out, B enters while A, hung but alive, is still inside. Put deadlines on ' +
      'the work itself and fence the writes.',
    '租期设多长都不对：太短，慢持有者会在工作中途失去锁；太长，崩溃的持有者会让所有人干等整个租期。Redisson 的答案是看门狗：' +
      '用一个较短的租期（lockWatchdogTimeout，默认 30 秒；这里是 6 秒），由后台线程每隔租期的三分之一续期一次，' +
      '续期脚本只在键里仍是持有者的标识时才延长过期时间。观察锁的 TTL：A 工作期间它呈锯齿状，从不归零，所以即便 A 的任务要 8 秒，' +
      'B 也一直加锁失败；而如果 A 的进程崩溃，续期随之停止，锁最多一个租期后就会过期。但仍有两个局限。' +
      'STW 停顿会把看门狗连同整个进程一起冻结：租期在停顿期间过期，B 闯了进来（starved 变体；只有 fencing 能防住这种情况，见 lease-expires-mid-work）。' +
      '如果 A 卡死而进程仍然活着（调用没有超时、死锁），看门狗会为一把没人在用的锁永远续期：这就是僵尸锁，B 最终只能放弃。' +
      '给续期次数设上限（或者不用看门狗、直接用 Redisson 的 lock(leaseTime) 指定租期）可以限制卡死的持有者堵住所有人的时间，' +
      '但也有代价：上限一到，B 就会在 A（卡住但还活着）仍在临界区时进入。所以要给业务本身设超时，并对写入做 fencing。',
  ),
  params: { lockKey: 'lock', ttlMs: '6000' },
  lockKey: 'lock',
  lockHoldMsMax: 12_000,
  scripts: { compareAndDelete: COMPARE_AND_DELETE, renew: COMPARE_AND_PEXPIRE },
  defaultSchedule: 'A W +1000 B W W B W A W B A +4000 B',
  narration: [
    { step: 0, text: text('A takes the lock with a 6 s lease and starts an 8 s job: longer than the lease.', 'A 以 6 秒的租期加锁，开始一个 8 秒的任务：比租期还长。') },
    { step: 1, text: text('W is A\'s watchdog thread: it shares A\'s token and A\'s process, and wakes every 2 s (ttl/3).', 'W 是 A 的看门狗线程：它与 A 共用 token 和进程，每 2 秒（ttl/3）醒来一次。') },
    { step: 3, text: text('B tries the lock and is refused.', 'B 尝试加锁，被拒绝。') },
    { step: 4, text: text('W renews: the TTL jumps back to 6000 ms. Watch it saw up and down from here on.', 'W 续期：TTL 跳回 6000 毫秒。从这里开始观察它的锯齿形起伏。') },
    { step: 8, text: text('7 s in, A starts the job\'s last second. The lease it took at t=0 would have ended at t=6000.', '第 7 秒，A 开始任务的最后 1 秒。它在 t=0 拿到的租期本应在 t=6000 结束。') },
    { step: 10, text: text('B is refused again: W\'s renewals keep A\'s lock alive.', 'B 再次被拒绝：W 的续期让 A 的锁一直有效。') },
    { step: 11, text: text('A finishes and releases its own lock (the script returns 1).', 'A 完成任务，释放自己的锁（脚本返回 1）。') },
    { step: 13, text: text('B\'s next try finds the lock free and takes it.', 'B 下一次尝试时发现锁已空闲，成功加锁。') },
  ],
  variants: [
    {
      id: 'renewal',
      title: text('Watchdog renews a slow holder\'s lease', '看门狗为慢持有者续期'),
      summary: text('The TTL saws up and down; B waits until A really is done.', 'TTL 呈锯齿状起伏；B 一直等到 A 真正完成。'),
      clients: clients('renewal'),
      expect: { violations: [], absent: ['mutual-exclusion', 'lock-held-too-long', 'foreign-release'] },
    },
    {
      id: 'starved',
      title: text('Starved by a GC pause', '被 GC 停顿饿死'),
      summary: text('The pause freezes A and its watchdog; the lease lapses and B enters.', '停顿冻结了 A 和它的看门狗；租期过期，B 进入了临界区。'),
      clients: clients('starved'),
      narration: [
        { step: 8, text: text('A is hit by a 7 s stop-the-world GC pause. W is frozen with it: the last renewal (t=6000) lasts until t=12000.', 'A 遭遇 7 秒的 STW GC 停顿，W 也随之冻结：最后一次续期（t=6000）只撑到 t=12000。') },
        { step: 9, text: text('W wakes when the pause ends (t=14000), too late: the lease lapsed at t=12000, so its renewal answers 0 and W stops.', 'W 在停顿结束时（t=14000）醒来，已经太晚：租期在 t=12000 过期，续期返回 0，W 停止。') },
        { step: 10, text: text('B takes the free lock and enters while A, just unfrozen, still believes it is inside.', 'B 拿到空闲的锁并进入，而刚解冻的 A 仍以为自己在临界区里。') },
        { step: 11, text: text('A\'s release finds B\'s token and deletes nothing.', 'A 释放锁时发现是 B 的 token，什么也没删。') },
      ],
      expect: { violations: ['mutual-exclusion'], absent: ['lock-held-too-long', 'foreign-release'] },
    },
    {
      id: 'zombie',
      title: text('Zombie lock: A hangs, the watchdog renews forever', '僵尸锁：A 卡死，看门狗永远续期'),
      summary: text('Nobody uses the lock, nobody else can get it; B gives up.', '没人在用这把锁，别人也拿不到；B 最终放弃。'),
      clients: clients('zombie'),
      narration: [
        { step: 8, text: text('A\'s thread now waits on a call that never answers. A does no work, but its process is alive.', 'A 的线程开始等待一个永远不会返回的调用。A 不再做任何事，但进程还活着。') },
        { step: 9, text: text('W keeps renewing: it only checks that the lock is A\'s, not that A is making progress.', 'W 继续续期：它只检查锁是否属于 A，而不检查 A 是否还在推进工作。') },
        { step: 12, text: text('13 s in, the lock has been held longer than any job here should take: a zombie lock.', '到第 13 秒，锁被持有的时间已超过这里任何任务应有的时长：这是一把僵尸锁。') },
        { step: 13, text: text('B\'s last attempt is refused and B gives up.', 'B 的最后一次尝试被拒绝，B 放弃了。') },
      ],
      expect: { violations: ['lock-held-too-long'], absent: ['mutual-exclusion', 'foreign-release'] },
    },
    {
      id: 'capped',
      title: text('Capped renewals', '限制续期次数'),
      summary: text('After 3 renewals the lease runs out: B gets the lock, while the hung A is still inside.', '续期 3 次后租期到期：B 拿到了锁，而卡住的 A 还在临界区里。'),
      clients: clients('capped'),
      narration: [
        { step: 7, text: text('W\'s third renewal is its last: the cap is reached, W stops renewing.', 'W 的第三次续期是最后一次：达到上限，W 停止续期。') },
        { step: 8, text: text('A\'s thread now waits on a call that never answers.', 'A 的线程开始等待一个永远不会返回的调用。') },
        { step: 9, text: text('W reports the lease left (5 s) and stops.', 'W 报告剩余租期（5 秒）后停止。') },
        { step: 13, text: text('The lease ran out at t=12000: B takes the lock. A is hung, not dead, and still inside: the cap traded a zombie for an overlap.', '租期在 t=12000 到期：B 拿到了锁。A 只是卡住而不是死了，仍在临界区里：上限把僵尸锁换成了临界区重叠。') },
      ],
      expect: { violations: ['mutual-exclusion'], absent: ['lock-held-too-long', 'foreign-release'] },
    },
  ],
  defaultVariant: 'renewal',
};
