import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from './scripts';
import { acquireWithSetNxPx, lockedJob, releaseWithLua, text, timerLoop } from './common';

/*
 * Redisson's answer to "how long should the lease be?": a short lease, renewed every ttl/3 by a
 * watchdog thread for as long as the owner holds the lock. It keeps a slow holder's lock alive and
 * lets a dead holder's lock expire. It is frozen with its process by a stop-the-world pause, so it
 * survives a pause only while the lease outlasts the renewal interval plus the pause (starved
 * renews too rarely), and it renews a hung holder's lock forever (a zombie lock) unless renewals
 * are capped. W is A's watchdog: a helper client that A starts once it holds the lock, sharing A's
 * token and process. The schedule injects the GC pause; the hang is A's own code (a call with no
 * timeout), so it is in A's program.
 */

type Variant = 'renewal' | 'starved' | 'zombie' | 'capped';

const renewalCountCap = 3;

function renewEveryMs(variant: Variant): number {
  return variant === 'starved' ? 5000 : 2000;
}

/** What A does after its first 7 s of work. */
function secondPhase(variant: Variant): Step[] {
  switch (variant) {
    case 'renewal':
    case 'starved':
      return [{ op: 'work', durationMs: 1000, note: text('the job\'s last second: 8 s in all, longer than the 6 s lease', '任务的最后 1 秒：总共 8 秒，比 6 秒的租期长') }];
    case 'zombie':
    case 'capped':
      return [{ op: 'hang', note: text('waits for a reply that never comes (a call with no timeout)', '等待一个永远不会到来的响应（调用没有设超时）') }];
  }
}

function holder(variant: Variant): Step[] {
  return [
    ...acquireWithSetNxPx({ retryAfterMs: 1000, attemptCountMax: 3 }),
    { op: 'start', client: 'W', note: text('start the watchdog thread now that the lock is taken, as Redisson does', '加锁成功后启动看门狗线程，与 Redisson 一样') },
    { op: 'work', durationMs: 7000, note: text('a long job', '一个耗时很长的任务') },
    ...secondPhase(variant),
    { op: 'leave' },
    releaseWithLua(),
    { op: 'end' },
  ];
}

function watchdog(variant: Variant): Step[] {
  const capped = variant === 'capped';
  const everyMs = renewEveryMs(variant);
  return timerLoop({
    everyMs,
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
      : variant === 'starved'
        ? text('every 5 s: just before the 6 s lease runs out (no cap: 1000 only bounds the simulation)', '每隔 5 秒：恰好赶在 6 秒租期到期之前（不设上限：1000 只是模拟的边界）')
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
  return lockedJob({ retryAfterMs: 3000, attemptCountMax: 5, workMs: 1000, release: releaseWithLua() });
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: holder(variant) },
    { id: 'W', program: watchdog(variant), tokenFrom: 'A', process: 'A', startedBy: 'A' },
    { id: 'B', program: other() },
  ];
}

export const watchdogScenario: Scenario = {
  id: 'watchdog',
  title: text('The watchdog: renewing the lease while the work goes on', '看门狗：工作未完，租期续上'),
  summary: text(
    'A Redisson-style watchdog renews A\'s lease every ttl/3, through a short GC pause; renewing too rarely starves it, and a hung A turns it into a zombie.',
    'Redisson 式看门狗每隔 ttl/3 为 A 续期，能扛过短暂的 GC 停顿；续期间隔太长会让它饥饿，A 卡死则让它变成僵尸锁。',
  ),
  lesson: text(
    'No single lease length is right: too short and a slow holder loses its lock mid-work, too long and a crashed holder blocks ' +
      'everyone for the whole lease. Redisson\'s answer is the watchdog: take a short lease (its lockWatchdogTimeout, 30 s by ' +
      'default; 6 s here) and let a background thread renew it every lease/3 with a script that extends the key only if it still ' +
      'holds the owner\'s id. Watch the lock\'s TTL: a sawtooth that never reaches zero while A works, so B is refused even though ' +
      'A\'s job takes 8 s; if A\'s process crashed, the renewals would stop with it and the lock would expire within one lease. ' +
      'The watchdog lives in A\'s process, so a stop-the-world pause freezes it too: its renewals run late, and the lease survives ' +
      'only if it outlasts the renewal interval plus the pause. Renewing every 2 s, A\'s 6 s lease survives this run\'s 3.5 s GC ' +
      'pause; renewing every 5 s (starved), the same pause lets the lease lapse and B enters while A is frozen inside. A pause ' +
      'longer than the lease starves any watchdog (lease-expires-mid-work shows it; only fencing protects the data then). And if A ' +
      'hangs while its process stays alive (a call with no timeout, a deadlock), the watchdog renews a lock nobody is using, ' +
      'forever: a zombie lock, and B gives up. Capping the renewals (or a lease with no watchdog, Redisson\'s lock(leaseTime)) ' +
      'bounds how long a hung holder can block everyone, at a price: when the cap runs out, B enters while A, hung but alive, is ' +
      'still inside. Put deadlines on the work itself and fence the writes.',
    '租期设多长都不对：太短，慢持有者会在工作中途失去锁；太长，崩溃的持有者会让所有人干等整个租期。Redisson 的答案是看门狗：' +
      '用一个较短的租期（lockWatchdogTimeout，默认 30 秒；这里是 6 秒），由后台线程每隔租期的三分之一续期一次，' +
      '续期脚本只在键里仍是持有者的标识时才延长过期时间。观察锁的 TTL：A 工作期间它呈锯齿状，从不归零，所以即便 A 的任务要 8 秒，' +
      'B 也一直加锁失败；而如果 A 的进程崩溃，续期随之停止，锁最多一个租期后就会过期。' +
      '看门狗运行在 A 的进程里，STW 停顿也会把它冻结：续期会推迟，只有当租期长于续期间隔加上停顿时长时，锁才能保住。' +
      '每 2 秒续期一次时，A 的 6 秒租期扛过了本次运行中 3.5 秒的 GC 停顿；每 5 秒续期一次时（starved 变体），同样的停顿让租期失效，' +
      'B 在 A 冻结于临界区内时闯了进来。比租期更长的停顿会让任何看门狗陷入饥饿（见 lease-expires-mid-work；那时只有防护令牌能保护数据）。' +
      '如果 A 卡死而进程仍然活着（调用没有超时、死锁），看门狗会为一把没人在用的锁永远续期：这就是僵尸锁，B 最终只能放弃。' +
      '给续期次数设上限（或者不用看门狗、直接用 Redisson 的 lock(leaseTime) 指定租期）可以限制卡死的持有者堵住所有人的时间，' +
      '但也有代价：上限一到，B 就会在 A（卡住但还活着）仍在临界区时进入。所以要给业务本身设超时，并给写入加上防护令牌。',
  ),
  params: { lockKey: 'lock', ttlMs: '6000' },
  lockKey: 'lock',
  lockHoldMsMax: 15_000,
  scripts: { compareAndDelete: COMPARE_AND_DELETE, renew: COMPARE_AND_PEXPIRE },
  defaultSchedule: 'A +1000 B +3500 A~3500 +2500 +3000 +6500',
  narration: [
    { step: 0, text: text('A takes the lock with a 6 s lease, starts its watchdog W, and begins an 8 s job: longer than the lease.', 'A 以 6 秒的租期加锁，启动看门狗 W，开始一个 8 秒的任务：比租期还长。') },
    { step: 1, text: text('W is A\'s watchdog thread: it shares A\'s token and process, and wakes every 2 s (ttl/3).', 'W 是 A 的看门狗线程：它与 A 共用 token 和进程，每 2 秒（ttl/3）醒来一次。') },
    { step: 2, text: text('B arrives and is refused; it retries every 3 s.', 'B 到来，加锁失败；它每 3 秒重试一次。') },
    { step: 3, text: text('W renewed at t=2000 and t=4000: each time the TTL jumps back to 6000 ms, a sawtooth that never reaches zero.', 'W 在 t=2000 和 t=4000 续期：每次 TTL 都跳回 6000 毫秒，呈锯齿状，从不归零。') },
    { step: 4, text: text('The schedule injects a 3.5 s stop-the-world GC pause into A\'s process: A and W freeze.', '调度向 A 的进程注入一次 3.5 秒的 STW GC 停顿：A 和 W 都被冻结。') },
    { step: 5, text: text('The renewal due at t=6000 cannot run, but the lease from t=4000 lasts until t=10000: B\'s retry at t=7000 is refused.', '本应在 t=6000 进行的续期无法执行，但 t=4000 续上的租期持续到 t=10000：B 在 t=7000 的重试被拒绝。') },
    { step: 6, text: text('At t=8000 the pause ends: W renews 2 s late but in time, A finishes at t=9000 and releases, and B\'s retry at t=10000 takes the lock.', 't=8000 停顿结束：W 晚了 2 秒才续期，但仍来得及；A 在 t=9000 完成并释放锁，B 在 t=10000 的重试拿到了锁。') },
    { step: 7, text: text('B works and releases. The watchdog kept A\'s lock through an 8 s job and a 3.5 s pause.', 'B 处理完并释放锁。看门狗让 A 的锁撑过了 8 秒的任务和 3.5 秒的停顿。') },
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
      title: text('Starved: renewals too rare for a GC pause', '饥饿：续期间隔太长，扛不住 GC 停顿'),
      summary: text('Renewing every 5 s, the same pause freezes W past the 6 s lease: it lapses and B enters.', '每 5 秒才续期一次，同样的停顿把 W 冻结到 6 秒租期之后：租期失效，B 闯了进来。'),
      clients: clients('starved'),
      narration: [
        { step: 1, text: text('W renews only every 5 s here: just before the 6 s lease would run out.', '这里 W 每 5 秒才续期一次：恰好赶在 6 秒租期到期之前。') },
        { step: 3, text: text('No renewal yet: the first is due at t=5000.', '还没有续期：第一次续期要到 t=5000。') },
        { step: 5, text: text('The renewal due at t=5000 cannot run: W is frozen. The lease lapses after t=6000, and B\'s retry at t=7000 takes the lock and enters while A, frozen, is still inside.', '本应在 t=5000 进行的续期无法执行：W 被冻结了。租期在 t=6000 之后失效，B 在 t=7000 的重试拿到了锁，并在 A（冻结中）仍在临界区时进入。') },
        { step: 6, text: text('At t=8000 W wakes 3 s late: the lock is B\'s, its renewal answers 0 and W stops. A resumes believing it still holds the lock; its release at t=9000 deletes nothing.', 't=8000 W 晚了 3 秒才醒来：锁已是 B 的，续期返回 0，W 停止。A 恢复运行，仍以为锁在自己手里；它在 t=9000 的释放什么也没删。') },
        { step: 7, text: text('Renew every lease/3: then a pause must outlast two thirds of the lease to starve the watchdog.', '每隔租期的三分之一续期：这样停顿必须超过租期的三分之二，才会让看门狗陷入饥饿。') },
      ],
      expect: { violations: ['mutual-exclusion'], absent: ['lock-held-too-long', 'foreign-release'] },
    },
    {
      id: 'zombie',
      title: text('Zombie lock: A hangs, the watchdog renews forever', '僵尸锁：A 卡死，看门狗永远续期'),
      summary: text('Nobody uses the lock, nobody else can get it; B gives up.', '没人在用这把锁，别人也拿不到；B 最终放弃。'),
      clients: clients('zombie'),
      narration: [
        { step: 6, text: text('At t=8000 W renews late but in time; A\'s work ends and its thread then waits on a call that never answers (no timeout). A does no work, but its process is alive.', 't=8000 W 虽然晚了但仍及时续期；A 的工作结束，随后它的线程开始等待一个永远不会返回的调用（没有超时）。A 不再做任何事，但进程还活着。') },
        { step: 7, text: text('W keeps renewing: it checks that the lock is A\'s, not that A makes progress. At t=16000 the lock has been held 16 s, longer than any job here should take: a zombie lock. B\'s last retry is refused and B gives up.', 'W 继续续期：它只检查锁是否属于 A，而不检查 A 是否还在推进工作。到 t=16000，锁已被持有 16 秒，超过这里任何任务应有的时长：这是一把僵尸锁。B 的最后一次重试被拒绝，B 放弃了。') },
      ],
      expect: { violations: ['lock-held-too-long'], absent: ['mutual-exclusion', 'foreign-release'] },
    },
    {
      id: 'capped',
      title: text('Capped renewals', '限制续期次数'),
      summary: text('After 3 renewals the lease runs out: B gets the lock, while the hung A is still inside.', '续期 3 次后租期到期：B 拿到了锁，而卡住的 A 还在临界区里。'),
      clients: clients('capped'),
      narration: [
        { step: 6, text: text('At t=8000 W\'s third renewal is its last: the cap is reached, W reports the lease left (6 s) and stops. A\'s thread now waits on a call that never answers.', 't=8000 W 的第三次续期是最后一次：达到上限，W 报告剩余租期（6 秒）后停止。A 的线程开始等待一个永远不会返回的调用。') },
        { step: 7, text: text('The lease runs out after t=14000: B\'s retry at t=16000 takes the lock. A is hung, not dead, and still inside: the cap traded a zombie for an overlap.', '租期在 t=14000 之后到期：B 在 t=16000 的重试拿到了锁。A 只是卡住而不是死了，仍在临界区里：上限把僵尸锁换成了临界区重叠。') },
      ],
      expect: { violations: ['mutual-exclusion'], absent: ['lock-held-too-long', 'foreign-release'] },
    },
  ],
  defaultVariant: 'renewal',
  explore: {
    faults: { stallCountMax: 1, stallLengthsMs: [3500], crashCountMax: 0 },
    depthMax: 14,
    note: { en: 'Searched with one 3.5 s stall at any point, up to 14 choices.', zh: '搜索时允许在任意位置插入一次 3.5 秒停顿，最多 14 个选择。' },
  },
};
