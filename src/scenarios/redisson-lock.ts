import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { REDISSON_UNLOCK, REENTRANT_LOCK } from './scripts';
import { text } from './common';

/*
 * How Redisson's RLock waits: instead of polling, a waiter SUBSCRIBEs to the lock's channel and
 * sleeps until the unlock script's PUBLISH, or until the lock's remaining TTL has passed, whichever
 * comes first. The unlock wakes waiters at once; a holder that crashes publishes nothing, and the
 * waiter wakes when the lease it was told about runs out. Polling, for contrast, finds the lock free
 * only at its next retry.
 */

type Variant = 'pubsub' | 'polling';

/** The lock script (Redisson's tryLockInnerAsync): nil = locked, else the lock's PTTL. */
const tryLock = (label?: string): Step => ({
  op: 'eval',
  ...(label === undefined ? {} : { label }),
  script: 'lock',
  keys: ['${lockKey}'],
  args: ['${ttlMs}', '${owner}'],
  saveAs: 'ttl',
  note: text('nil = locked; a number = taken, its remaining TTL in ms', 'nil 表示加锁成功；数字表示被占用，值为剩余 TTL（毫秒）'),
});

function critical(): Step[] {
  return [
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 2000, note: text('business logic', '业务逻辑') },
    { op: 'leave' },
    {
      op: 'eval',
      script: 'unlock',
      keys: ['${lockKey}', '${channel}'],
      args: ['0', '${ttlMs}', '${owner}'],
      saveAs: 'unlocked',
      releases: true,
      note: text('count to 0: delete the lock and PUBLISH 0 on its channel', '计数减到 0：删除锁，并在锁的频道上 PUBLISH 0'),
    },
    { op: 'end' },
  ];
}

function client(variant: Variant): Step[] {
  if (variant === 'polling') {
    return [
      tryLock('acquire'),
      { op: 'if', when: { test: 'nil', reply: 'ttl' }, goto: 'locked' },
      { op: 'retry', goto: 'acquire', afterMs: 1500, attemptCountMax: 10, note: text('taken: try again in 1.5 s', '被占用：1.5 秒后再试') },
      { op: 'end', note: text('give up', '放弃') },
      ...critical(),
    ];
  }
  return [
    tryLock(),
    { op: 'if', when: { test: 'nil', reply: 'ttl' }, goto: 'locked' },
    {
      op: 'command',
      argv: ['SUBSCRIBE', '${channel}'],
      connection: 'pubsub',
      note: text('taken: listen on the lock\'s channel (Redisson\'s Pub/Sub connection)', '被占用：订阅锁的频道（Redisson 的 Pub/Sub 连接）'),
    },
    { ...tryLock('again'), note: text('try again now that nothing can be missed', '订阅之后再试一次：从此不会错过解锁消息') },
    { op: 'if', when: { test: 'nil', reply: 'ttl' }, goto: 'subscribedLocked' },
    {
      op: 'waitMessage',
      channel: '${channel}',
      timeoutMs: '${ttl}',
      saveAs: 'message',
      note: text('sleep until the unlock message, at most the lock\'s remaining TTL', '睡眠直到收到解锁消息，最多等到锁的剩余 TTL'),
    },
    {
      op: 'retry',
      goto: 'again',
      afterMs: 0,
      attemptCountMax: 10,
      note: text('woken (message or timeout): try again at once; Redisson\'s lock() loops without a bound, 10 rounds here', '被唤醒（消息或超时）：立即再试；Redisson 的 lock() 不限次数，这里限 10 轮'),
    },
    { op: 'end', note: text('give up', '放弃') },
    {
      op: 'command',
      label: 'subscribedLocked',
      argv: ['UNSUBSCRIBE', '${channel}'],
      connection: 'pubsub',
      note: text('locked: stop listening', '加锁成功：取消订阅'),
    },
    { op: 'goto', goto: 'locked' },
    ...critical(),
  ];
}

/** Redisson's owner id is the client's UUID and the thread id; the token stands in for the UUID. */
const ownerId: Step = { op: 'set', var: 'owner', value: '${token}:1', note: text('owner id: client UUID + thread id', '持有者标识：客户端 UUID + 线程 ID') };

function clients(variant: Variant): ClientSpec[] {
  return ['A', 'B', 'C'].map((id) => ({ id, program: [ownerId, ...client(variant)] }));
}

export const redissonLock: Scenario = {
  id: 'redisson-lock',
  title: text('Redisson\'s lock: waiters woken by Pub/Sub', 'Redisson 的锁：由 Pub/Sub 唤醒等待者'),
  summary: text(
    'The unlock PUBLISHes and wakes the waiters at once; a crashed holder publishes nothing, and its waiter wakes when the lease runs out.',
    '解锁时 PUBLISH 立即唤醒等待者；崩溃的持有者什么也不会发布，等待者在租期耗尽时醒来。',
  ),
  lesson: text(
    'Redisson\'s RLock is a hash lock (field: the owner\'s client UUID and thread id; value: the re-entry count, see the reentrant ' +
      'scenario) and its waiters do not poll. A waiter whose lock script answers a number (the lock\'s remaining TTL) SUBSCRIBEs to ' +
      'the lock\'s channel, redisson_lock__channel:{name}, on a separate Pub/Sub connection, tries once more, then sleeps until a ' +
      'message arrives or until that TTL has passed, whichever comes first, and tries again. The unlock script deletes the lock ' +
      'and PUBLISHes 0 on the channel in the same atomic step, so every waiter wakes at the instant of the unlock. A holder that ' +
      'crashes publishes nothing: its waiters sleep until the lease it had runs out and then take the lock. Here the lease is ' +
      'explicit (lock(5, SECONDS): 5 s, no renewal). With lock() and no lease, Redisson uses its watchdog: a 30 s lease ' +
      '(lockWatchdogTimeout) renewed every 10 s while the holder\'s process lives, so a crashed holder\'s lock lasts up to 30 s. ' +
      'Pub/Sub is only the wake-up call: a message that never arrives (a crash, a dropped connection) costs time, not safety, ' +
      'because the waiter never waits longer than the TTL before trying again. The polling variant retries every 1.5 s instead: ' +
      'it learns the lock is free only at its next retry.',
    'Redisson 的 RLock 是一把哈希锁（字段是持有者的客户端 UUID 加线程 ID，值是重入次数，见 reentrant 场景），它的等待者不轮询。' +
      '加锁脚本返回一个数字（锁的剩余 TTL）时，等待者在单独的 Pub/Sub 连接上 SUBSCRIBE 锁的频道 redisson_lock__channel:{name}，' +
      '再试一次，然后睡眠，直到收到消息或者那段 TTL 过去（以先到者为准），再重试。解锁脚本在同一个原子步骤里删除锁并在频道上 PUBLISH 0，' +
      '所以每个等待者都在解锁的那一刻醒来。崩溃的持有者什么也不会发布：它的等待者一直睡到它的租期耗尽，然后拿到锁。' +
      '这里的租期是显式指定的（lock(5, SECONDS)：5 秒，不续期）。如果调用 lock() 而不指定租期，Redisson 会启用看门狗：' +
      '租期 30 秒（lockWatchdogTimeout），只要持有者的进程还活着，每 10 秒续期一次；因此崩溃的持有者的锁最多会保留 30 秒。' +
      'Pub/Sub 只负责唤醒：消息没有到达（崩溃、连接断开）损失的是时间而不是安全性，因为等待者最多等一个 TTL 就会重试。' +
      '轮询变体改为每 1.5 秒重试一次：它只有在下一次重试时才会发现锁已空闲。',
  ),
  params: { lockKey: 'lock:order:42', ttlMs: '5000', channel: 'redisson_lock__channel:{lock:order:42}' },
  lockKey: 'lock:order:42',
  scripts: { lock: REENTRANT_LOCK, unlock: REDISSON_UNLOCK },
  defaultSchedule: 'A B C +3000 !B +7000',
  narration: [
    { step: 0, text: text('A locks (answer nil) with a 5 s lease and starts 2 s of work.', 'A 加锁成功（返回 nil），租期 5 秒，开始 2 秒的业务处理。') },
    { step: 1, text: text('B\'s lock script answers 5000: taken, 5 s left.', 'B 的加锁脚本返回 5000：被占用，还剩 5 秒。') },
    { step: 2, text: text('C is refused the same way.', 'C 同样被拒绝。') },
    {
      step: 3,
      text: text(
        'B and C subscribe, try once more and sleep, each at most 5 s. At t=2000 A unlocks: the script deletes the lock and PUBLISHes 0. Both waiters wake at t=2000; B tries first and takes the lock; C is told 5000 again and sleeps.',
        'B 和 C 订阅频道，再试一次，然后睡眠，各自最多 5 秒。t=2000 时 A 解锁：脚本删除锁并 PUBLISH 0。两个等待者都在 t=2000 醒来；B 先尝试并拿到了锁；C 再次得到 5000，继续睡眠。',
      ),
    },
    { step: 4, text: text('B crashes at t=3000 while holding the lock: no unlock, no message. C keeps sleeping.', 'B 在 t=3000 持锁时崩溃：没有解锁，也没有消息。C 继续睡眠。') },
    {
      step: 5,
      text: text(
        'C\'s wait times out at t=7000, when B\'s lease ends; the key still exists at that millisecond (PTTL 0), so C waits 1 ms more. At t=7001 Redis has dropped the key and C takes the lock: as soon as the lease allows, with no message.',
        'C 的等待在 t=7000 超时，正是 B 的租期结束之时；这一毫秒键仍然存在（PTTL 为 0），于是 C 再等 1 毫秒。t=7001 时 Redis 已删除该键，C 拿到了锁：租期一结束就拿到，不需要任何消息。',
      ),
    },
  ],
  variants: [
    {
      id: 'pubsub',
      title: text('Redisson: subscribe, sleep until the unlock message or the TTL', 'Redisson：订阅，睡到解锁消息或 TTL 到期'),
      summary: text('B takes the lock at the instant A unlocks; C takes it 1 ms after the crashed B\'s lease ends.', 'A 解锁的那一刻 B 就拿到了锁；崩溃的 B 的租期结束 1 毫秒后 C 拿到了锁。'),
      clients: clients('pubsub'),
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
    {
      id: 'polling',
      title: text('Polling: retry every 1.5 s', '轮询：每 1.5 秒重试一次'),
      summary: text('The lock sits free from A\'s unlock at t=2000 until B\'s retry at t=3000; C gets it at t=9000, 999 ms after the crashed B\'s lease ended.', '锁从 A 在 t=2000 解锁起一直空闲，直到 B 在 t=3000 重试；C 在 t=9000 才拿到锁，比崩溃的 B 的租期结束晚了 999 毫秒。'),
      clients: clients('polling'),
      narration: [
        { step: 1, text: text('B is refused (5000 ms left) and will retry every 1.5 s.', 'B 被拒绝（还剩 5000 毫秒），之后每 1.5 秒重试一次。') },
        {
          step: 3,
          text: text(
            'A unlocks at t=2000 (nobody is subscribed to its message). Nobody notices until B\'s retry at t=3000 takes the lock; C, refused at t=3000, waits for its next retry.',
            'A 在 t=2000 解锁（没有人订阅它发布的消息）。直到 B 在 t=3000 重试时拿到锁，才有人注意到；C 在 t=3000 被拒绝，等待下一次重试。',
          ),
        },
        { step: 4, text: text('B crashes holding the lock.', 'B 持锁时崩溃。') },
        { step: 5, text: text('B\'s lease ends: Redis drops the key at t=8001. C\'s retries at t=4500, 6000 and 7500 are refused; the one at t=9000 takes the lock, 999 ms after it became free.', 'B 的租期结束：Redis 在 t=8001 删除了该键。C 在 t=4500、6000 和 7500 的重试都被拒绝；t=9000 的那次拿到了锁，比锁空闲晚了 999 毫秒。') },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
  ],
  defaultVariant: 'pubsub',
};
