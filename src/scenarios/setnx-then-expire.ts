import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { releaseWithDel, text } from './common';

/*
 * The first fix people try for setnx-no-ttl: SETNX, then EXPIRE. Two commands are not atomic: a
 * crash between them leaves a lock with no expiry, exactly as before. Fix: SET key token NX PX ttl.
 */

type Acquire = 'setnx-expire' | 'set-nx-px';

function acquire(kind: Acquire): Step[] {
  if (kind === 'set-nx-px') {
    return [
      {
        op: 'command',
        label: 'acquire',
        argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'],
        saveAs: 'acquired',
        note: text('lock and lease in one atomic command', '加锁和租期在一条原子命令里完成'),
      },
      { op: 'if', when: { test: 'notNil', reply: 'acquired' }, goto: 'locked' },
    ];
  }
  return [
    { op: 'command', label: 'acquire', argv: ['SETNX', '${lockKey}', '${token}'], saveAs: 'acquired', note: text('take the lock (no expiry yet)', '加锁（此时还没有过期时间）') },
    { op: 'if', when: { test: 'eq', left: '${acquired}', right: '0' }, goto: 'busy' },
    {
      op: 'command',
      argv: ['EXPIRE', '${lockKey}', '${ttlSeconds}'],
      note: text('then give it a lease: a second command, not atomic with the first', '再设置租期：这是第二条命令，与上一条不是原子的'),
    },
    { op: 'goto', goto: 'locked' },
  ];
}

function program(kind: Acquire): Step[] {
  return [
    ...acquire(kind),
    { op: 'command', label: 'busy', argv: ['PTTL', '${lockKey}'], saveAs: 'leaseLeftMs', note: text('how long until the lock frees? (-1: never)', '锁还要多久才释放？（-1 表示永不）') },
    { op: 'retry', goto: 'acquire', afterMs: 1500, attemptCountMax: 5, note: text('wait 1.5 s and try again, at most 5 times', '等 1.5 秒再试，最多 5 次') },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 2000, note: text('business logic', '业务逻辑') },
    { op: 'leave' },
    releaseWithDel(text('release (a plain DEL: see plain-del)', '释放（直接 DEL：见 plain-del 场景）')),
    { op: 'end' },
  ];
}

function clients(kind: Acquire): ClientSpec[] {
  return [
    { id: 'A', program: program(kind) },
    { id: 'B', program: program(kind) },
  ];
}

export const setnxThenExpire: Scenario = {
  id: 'setnx-then-expire',
  title: text('SETNX then EXPIRE: two commands, one crash between them', '先 SETNX 再 EXPIRE：两条命令之间的一次崩溃'),
  summary: text(
    'Setting the TTL in a second command leaves a window where a crash makes the lock permanent.',
    '用第二条命令设置 TTL 会留下一个窗口：在窗口内崩溃，锁就永远不会过期。',
  ),
  lesson: text(
    'Adding EXPIRE lock 5 after SETNX looks like a fix for a lock without expiry, but it is two commands: Redis runs other ' +
      'clients\' commands between them, and the client can die between them. If A crashes after SETNX and before EXPIRE, the lock ' +
      'has no TTL (PTTL -1) and nobody can take it until someone deletes it by hand, the same failure as setnx-no-ttl, only rarer ' +
      'and so harder to find. Since Redis 2.6.12, SET key value NX PX milliseconds does both atomically; this is the acquire the ' +
      'Redis docs and redis-py\'s Lock use (Redisson takes its hash lock and sets its expiry inside one Lua script: one atomic step too). ' +
      'SET has taken over other pairs of commands since: its GET option (Redis 6.2) returns the value it replaced, which is why ' +
      'GETSET is deprecated since 6.2, and from Redis 7.0 GET combines with NX: SET lock token NX PX 5000 GET answers nil when it ' +
      'took the lock, and the holder\'s token, setting nothing, when the lock was taken. ' +
      'Whenever two steps must happen together, make them one command or one script.',
    '在 SETNX 之后补一条 EXPIRE lock 5，看上去修好了锁不过期的问题，但它是两条命令：两者之间 Redis 会执行其他客户端的命令，' +
      '客户端本身也可能在两者之间挂掉。如果 A 在 SETNX 之后、EXPIRE 之前崩溃，锁就没有 TTL（PTTL 为 -1），再也没人能拿到它，' +
      '和 setnx-no-ttl 是同一种故障，只是更少见，因而更难排查。从 Redis 2.6.12 起，SET key value NX PX 毫秒数可以原子地同时完成两件事；' +
      'Redis 官方文档和 redis-py 的 Lock 都这样加锁（Redisson 在一个 Lua 脚本里写入哈希锁并设置过期时间：同样是一个原子步骤）。' +
      '此后 SET 又接管了其他成对的命令：它的 GET 选项（Redis 6.2）返回被替换的旧值，GETSET 也因此从 6.2 起被标记为弃用；' +
      '从 Redis 7.0 起 GET 可以与 NX 同用：SET lock token NX PX 5000 GET 加锁成功时返回 nil，锁已被占用时返回持有者的 token，且不写入任何东西。' +
      '凡是必须一起发生的两步，就把它们变成一条命令或一个脚本。',
  ),
  params: { lockKey: 'lock', ttlMs: '5000', ttlSeconds: '5' },
  lockKey: 'lock',
  defaultSchedule: 'A !A B +3000 +3000 +3000',
  narration: [
    { step: 0, text: text('A\'s SETNX answers 1: A holds the lock, with no expiry yet. Its EXPIRE is the next command.', 'A 的 SETNX 返回 1：A 拿到了锁，但还没有过期时间。EXPIRE 是它的下一条命令。') },
    { step: 1, text: text('A crashes before sending EXPIRE. The lock key has no TTL.', 'A 在发出 EXPIRE 之前崩溃了。锁键没有 TTL。') },
    { step: 2, text: text('B arrives: SETNX answers 0, the lock is taken.', 'B 到来：SETNX 返回 0，锁已被占用。') },
    { step: 3, text: text('B asks PTTL: -1, this lock will never expire. B retries every 1.5 s and is refused each time.', 'B 查询 PTTL：-1，这把锁永远不会过期。B 每隔 1.5 秒重试一次，每次都被拒绝。') },
    { step: 5, text: text('At t=7500 B has used its 5 retries and gives up, and so will everyone after it.', 't=7500 时 B 用完了 5 次重试，只能放弃；之后的每个客户端都会如此。') },
  ],
  variants: [
    {
      id: 'setnx-expire',
      title: text('SETNX, then EXPIRE', '先 SETNX，再 EXPIRE'),
      summary: text('A crash between the two commands leaves a lock that never expires.', '两条命令之间的崩溃留下一把永不过期的锁。'),
      clients: clients('setnx-expire'),
      expect: { violations: ['lock-never-released'], absent: ['mutual-exclusion', 'foreign-release'] },
    },
    {
      id: 'set-nx-px',
      title: text('SET NX PX: one atomic command', 'SET NX PX：一条原子命令'),
      summary: text('There is no window: the lock is born with its lease.', '没有窗口期：锁一出生就带着租期。'),
      clients: clients('set-nx-px'),
      narration: [
        { step: 0, text: text('A\'s SET NX PX answers OK: A holds the lock and it already expires in 5 s.', 'A 的 SET NX PX 返回 OK：A 拿到锁，并且锁已经会在 5 秒后过期。') },
        { step: 1, text: text('A crashes at the same moment. There is no second command to miss.', 'A 在同一时刻崩溃。但这次没有第二条命令可以错过。') },
        { step: 2, text: text('B arrives: SET NX PX answers nil, the lock is taken.', 'B 到来：SET NX PX 返回 nil，锁已被占用。') },
        { step: 3, text: text('B is refused; PTTL shows A\'s lease counting down. B retries every 1.5 s.', 'B 加锁失败；PTTL 显示 A 的租期正在倒数。B 每隔 1.5 秒重试一次。') },
        { step: 4, text: text('The lease runs out after t=5000; at t=6000 B\'s retry takes the lock.', '租期在 t=5000 之后到期；t=6000 时 B 的重试拿到了锁。') },
        { step: 5, text: text('B finishes and releases the lock.', 'B 完成并释放了锁。') },
      ],
      expect: { violations: [], absent: ['lock-never-released', 'mutual-exclusion', 'foreign-release'] },
    },
  ],
  defaultVariant: 'setnx-expire',
  explore: {
    faults: { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 1 },
    note: { en: 'Searched with one crash of either client at any point.', zh: '搜索时允许任一客户端在任意位置崩溃一次。' },
  },
};
