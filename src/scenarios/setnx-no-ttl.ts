import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { releaseWithDel, text } from './common';

/*
 * The first lock everyone writes: SETNX lock token, work, DEL. It works until the holder dies
 * holding it: the key has no expiry, so it stays forever and every other client waits forever.
 * Fix: give the lock a lease in the same command that takes it, SET key token NX PX ttl.
 */

type Acquire = 'setnx' | 'set-nx-px';

function acquire(kind: Acquire): Step {
  return kind === 'setnx'
    ? {
        op: 'command',
        label: 'acquire',
        argv: ['SETNX', '${lockKey}', '${token}'],
        saveAs: 'acquired',
        note: text('1 if the key was free and is now mine, 0 if taken; no expiry', '键空闲则写入并返回 1，已被占用返回 0；没有过期时间'),
      }
    : {
        op: 'command',
        label: 'acquire',
        argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'],
        saveAs: 'acquired',
        note: text('take the lock and its lease in one command', '一条命令同时加锁并设置租期'),
      };
}

function program(kind: Acquire): Step[] {
  return [
    acquire(kind),
    kind === 'setnx'
      ? { op: 'if', when: { test: 'eq', left: '${acquired}', right: '1' }, goto: 'locked' }
      : { op: 'if', when: { test: 'notNil', reply: 'acquired' }, goto: 'locked' },
    {
      op: 'command',
      argv: ['PTTL', '${lockKey}'],
      saveAs: 'leaseLeftMs',
      note: text('how long until the holder\'s lease runs out? (-1: never)', '持有者的租期还剩多久？（-1 表示永不过期）'),
    },
    { op: 'retry', goto: 'acquire', afterMs: 1500, attemptCountMax: 5, note: text('wait 1.5 s and try again, at most 5 times', '等 1.5 秒再试，最多 5 次') },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 2000, note: text('business logic', '业务逻辑') },
    { op: 'leave' },
    releaseWithDel(text('release (a plain DEL: the plain-del scenario shows what is wrong with it)', '释放（直接 DEL：其问题见 plain-del 场景）')),
    { op: 'end' },
  ];
}

function clients(kind: Acquire): ClientSpec[] {
  return [
    { id: 'A', program: program(kind) },
    { id: 'B', program: program(kind) },
  ];
}

export const setnxNoTtl: Scenario = {
  id: 'setnx-no-ttl',
  title: text('SETNX without a TTL: the lock that outlives its holder', 'SETNX 不设过期时间：比持有者活得更久的锁'),
  summary: text(
    'The holder crashes while holding a lock with no expiry; nobody can ever take it again.',
    '持有者在持锁期间崩溃，而锁没有过期时间；之后再也没有人能拿到它。',
  ),
  lesson: text(
    'SETNX lock token takes the lock only if the key does not exist, and DEL gives it back. Nothing else ever removes the key: ' +
      'if the holder crashes (a kill -9, an OOM, a lost machine) between SETNX and DEL, the key stays forever. PTTL answers -1 ' +
      '(no expiry), every other client\'s SETNX answers 0, and they wait until someone deletes the key by hand. A lock in Redis must ' +
      'therefore be a lease: SET lock token NX PX 5000 takes the lock and its expiry in one atomic command, so a dead holder\'s lock ' +
      'frees itself after at most 5 s. The price is that a live holder can now lose its lock too, which the later scenarios deal with.',
    'SETNX lock token 仅在键不存在时加锁，DEL 负责释放。除此之外没有任何东西会删除这个键：' +
      '如果持有者在 SETNX 和 DEL 之间崩溃（被 kill -9、OOM、机器宕机），这个键就会永远留在那里。PTTL 返回 -1（永不过期），' +
      '其他客户端的 SETNX 一律返回 0，只能一直等到有人手动删除它。所以 Redis 里的锁必须是一份租约：' +
      'SET lock token NX PX 5000 在一条原子命令里同时加锁并设置过期时间，持有者挂了，锁最多 5 秒后自动释放。' +
      '代价是活着的持有者也可能失去锁，后面的场景会逐一处理这个问题。',
  ),
  params: { lockKey: 'lock', ttlMs: '5000' },
  lockKey: 'lock',
  defaultSchedule: 'A !A B +3000 +3000 +3000',
  narration: [
    {
      step: 0,
      text: text('A takes the lock (SETNX answers 1) and starts 2 s of work.', 'A 加锁成功（SETNX 返回 1），开始 2 秒的业务处理。'),
    },
    {
      step: 1,
      text: text('A crashes in the middle of its work. Its DEL will never run. Look at the lock key\'s TTL.', 'A 在业务处理中途崩溃，它的 DEL 永远不会执行了。注意锁键的 TTL。'),
    },
    {
      step: 2,
      text: text('B arrives: SETNX answers 0, the lock is taken.', 'B 到来：SETNX 返回 0，锁已被占用。'),
    },
    {
      step: 3,
      text: text('B asks how long the lease has left: PTTL answers -1, the lock never expires. B retries every 1.5 s and is refused each time.', 'B 查询租期还剩多久：PTTL 返回 -1，这把锁永不过期。B 每隔 1.5 秒重试一次，每次都被拒绝。'),
    },
    {
      step: 5,
      text: text('At t=7500 B has used its 5 retries and gives up: the dead A holds the lock forever.', 't=7500 时 B 用完了 5 次重试，只能放弃：已经死掉的 A 永远占着这把锁。'),
    },
  ],
  variants: [
    {
      id: 'setnx',
      title: text('SETNX, no expiry', 'SETNX，不设过期'),
      summary: text('A crashed holder keeps the lock forever.', '崩溃的持有者永远占着锁。'),
      clients: clients('setnx'),
      expect: { violations: ['lock-never-released'], absent: ['mutual-exclusion', 'foreign-release'] },
    },
    {
      id: 'set-nx-px',
      title: text('SET NX PX: lock and lease in one command', 'SET NX PX：加锁与租期一条命令完成'),
      summary: text('The dead holder\'s lease runs out and B gets the lock.', '死去持有者的租期到期，B 拿到了锁。'),
      clients: clients('set-nx-px'),
      narration: [
        {
          step: 0,
          text: text('A takes the lock and its 5 s lease in one command (SET NX PX answers OK) and starts 2 s of work.', 'A 用一条命令加锁并设置 5 秒租期（SET NX PX 返回 OK），开始 2 秒的业务处理。'),
        },
        {
          step: 2,
          text: text('B arrives: SET NX PX answers nil, the lock is taken.', 'B 到来：SET NX PX 返回 nil，锁已被占用。'),
        },
        {
          step: 3,
          text: text('B asks how long the lease has left: PTTL shows A\'s lease running out. B retries every 1.5 s; the lock is still A\'s.', 'B 查询租期还剩多久：PTTL 显示 A 的租期正在倒数。B 每隔 1.5 秒重试一次；锁仍然是 A 的。'),
        },
        {
          step: 4,
          text: text('A\'s lease ends: Redis drops the key after t=5000. At t=6000 B\'s retry answers OK and B does its work.', 'A 的租期结束：t=5000 之后 Redis 删除了该键。t=6000 时 B 的重试返回 OK，B 开始处理业务。'),
        },
        {
          step: 5,
          text: text('B finishes and releases the lock. A dead holder cost everyone at most one lease.', 'B 完成并释放了锁。死去的持有者最多让大家多等一个租期。'),
        },
      ],
      expect: { violations: [], absent: ['lock-never-released', 'mutual-exclusion', 'foreign-release'] },
    },
  ],
  defaultVariant: 'setnx',
  explore: {
    faults: { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 1 },
    note: { en: 'Searched with one crash of either client at any point.', zh: '搜索时允许任一客户端在任意位置崩溃一次。' },
  },
};
