import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE } from './scripts';
import { lockedJob, releaseWithDel, releaseWithLua, text } from './common';

/*
 * SET NX PX fixed the dead holder, and opened the opposite hole: a slow holder's lease runs out,
 * the next client takes the lock, and the slow one's DEL then deletes the lock it no longer owns.
 * The lock is now free while B still works, and C walks in. Fix: a per-client token as the lock's
 * value, and a release that deletes only its own token, atomically (Lua compare-and-delete).
 */

type Release = 'plain-del' | 'lua';

function program(kind: Release, workMs: number): Step[] {
  return lockedJob({ retryAfterMs: 1000, attemptCountMax: 5, workMs, release: kind === 'plain-del' ? releaseWithDel() : releaseWithLua() });
}

function clients(kind: Release): ClientSpec[] {
  return [
    { id: 'A', program: program(kind, 7000) },
    { id: 'B', program: program(kind, 3000) },
    { id: 'C', program: program(kind, 3000) },
  ];
}

export const plainDel: Scenario = {
  id: 'plain-del',
  title: text('Plain DEL: deleting a lock you no longer own', '直接 DEL：删掉已经不属于你的锁'),
  summary: text(
    'A slow holder\'s lease expires, B takes the lock, and A\'s DEL deletes B\'s lock: C walks in.',
    '慢持有者的租期到期，B 拿到锁，A 的 DEL 却删掉了 B 的锁：C 随之闯入。',
  ),
  lesson: text(
    'With SET lock token NX PX 5000, a holder that works longer than 5 s loses its lock while it is still working: Redis expires ' +
      'the key and B acquires it. That overlap of A and B is already a broken lock (the lease-expires-mid-work scenario is about ' +
      'it). Then it gets worse: A finishes and releases with a plain DEL lock, which deletes whatever is there, here B\'s lock. ' +
      'The key is free while B is still inside, so C acquires and enters too, and B\'s own DEL will delete C\'s lock in turn. ' +
      'The fix has two parts: each client writes a unique token as the lock\'s value, and releases with a Lua script that deletes ' +
      'the key only if it still holds that token, in one atomic step (the release in the Redis docs and redis-py\'s Lock; Redisson\'s ' +
      'unlock script makes the same ownership check on its hash lock). ' +
      'A\'s release then returns 0, B keeps its lock and C waits. The token fixes the wrong delete, not the overlap of A and B, which ' +
      'is why mutual-exclusion still shows with the Lua release.',
    '用 SET lock token NX PX 5000 加锁后，如果持有者的处理时间超过 5 秒，它会在仍在工作时失去锁：Redis 让键过期，B 加锁成功。' +
      'A 和 B 同时在临界区里，这本身已经是锁失效（lease-expires-mid-work 场景专门讲这个问题）。接下来更糟：' +
      'A 处理完后用 DEL lock 直接释放，删掉的是此刻锁里的值，也就是 B 的锁。B 还在临界区里，锁却空了，于是 C 也加锁成功并进入，' +
      '而 B 稍后的 DEL 又会删掉 C 的锁，如此连锁反应。修复分两部分：每个客户端把唯一的 token 写作锁的值；' +
      '释放时用 Lua 脚本，仅当键里仍是自己的 token 时才删除，一步原子完成（Redis 官方文档和 redis-py 的 Lock 都是这样释放锁的；Redisson 的解锁脚本对它的哈希锁做同样的归属检查）。' +
      '这样 A 的释放返回 0，B 保住了锁，C 只能等待。token 修复的是误删，而不是 A 与 B 的重叠，所以用 Lua 释放后 mutual-exclusion 依然存在。',
  ),
  params: { lockKey: 'lock', ttlMs: '5000' },
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  defaultSchedule: 'A +6000 B +1000 C +2000 +3000',
  narration: [
    { step: 0, text: text('A takes the lock with a 5 s lease and starts a slow, 7 s job.', 'A 以 5 秒的租期加锁，开始一个耗时 7 秒的慢任务。') },
    { step: 1, text: text('Six seconds pass. A\'s lease ended after t=5000 while A is still working: the key is gone.', '时间过去 6 秒。A 还在工作，租期却已在 t=5000 之后结束：锁键没了。') },
    { step: 2, text: text('B arrives, acquires the free lock and enters, while A is still inside: the lease alone did not keep them apart.', 'B 到来，拿到空闲的锁并进入临界区，而 A 还在里面：单靠租期没能把它们隔开。') },
    { step: 3, text: text('A finishes at t=7000 and runs DEL lock. The key holds B\'s token: A deletes B\'s lock.', 'A 在 t=7000 处理完毕，执行 DEL lock。此时键里是 B 的 token：A 删掉了 B 的锁。') },
    { step: 4, text: text('C arrives, finds the lock free and enters while B is still inside.', 'C 到来，发现锁是空的，于是在 B 仍在临界区时闯了进去。') },
    { step: 5, text: text('B finishes at t=9000 and its DEL deletes C\'s lock: every release now frees someone else\'s lock.', 'B 在 t=9000 处理完毕，它的 DEL 又删掉了 C 的锁：每一次释放都在释放别人的锁。') },
    { step: 6, text: text('C finishes; its DEL finds no key to delete: its lock was deleted while it worked.', 'C 处理完毕；它的 DEL 已无键可删：它的锁在它工作时就被删掉了。') },
  ],
  variants: [
    {
      id: 'plain-del',
      title: text('DEL whatever is there', '不管是谁的锁，直接 DEL'),
      summary: text('A\'s late DEL frees B\'s lock and C walks in.', 'A 迟到的 DEL 释放了 B 的锁，C 闯了进来。'),
      clients: clients('plain-del'),
      expect: { violations: ['foreign-release', 'mutual-exclusion'], absent: ['lock-never-released'] },
    },
    {
      id: 'lua',
      title: text('Lua compare-and-delete: delete only my token', 'Lua 比较并删除：只删自己的 token'),
      summary: text('A\'s release finds B\'s token and deletes nothing; C has to wait.', 'A 释放时发现是 B 的 token，什么也不删；C 只能等待。'),
      clients: clients('lua'),
      narration: [
        { step: 3, text: text('A finishes at t=7000 and runs the compare-and-delete script. The key holds B\'s token, so the script returns 0: B keeps its lock.', 'A 在 t=7000 处理完毕，执行比较并删除脚本。键里是 B 的 token，脚本返回 0：B 保住了锁。') },
        { step: 4, text: text('C arrives and is refused (B holds the lock); it retries every second.', 'C 到来，加锁失败（锁在 B 手里），每秒重试一次。') },
        { step: 5, text: text('B finishes at t=9000 and its script deletes its own lock (returns 1); C\'s retry at t=9000 then takes it.', 'B 在 t=9000 处理完毕，它的脚本删除了自己的锁（返回 1）；C 在 t=9000 的重试随即拿到了锁。') },
        { step: 6, text: text('C works alone and releases its own lock.', 'C 独自处理业务，并释放了自己的锁。') },
      ],
      expect: { violations: ['mutual-exclusion'], absent: ['foreign-release', 'lock-never-released'] },
    },
  ],
  defaultVariant: 'plain-del',
};
