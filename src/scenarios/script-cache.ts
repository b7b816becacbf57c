import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE } from './scripts';
import { acquireWithSetNxPx, text } from './common';

/*
 * EVALSHA sends only the script's SHA1, so the server must have the script in its cache. The
 * cache is not persisted or replicated as such: after a restart or a failover it is empty and
 * EVALSHA answers NOSCRIPT. Clients that only ever send EVALSHA then fail to release their locks;
 * ioredis (defineCommand) and redis-py (Script) fall back to sending the source.
 */

type Variant = 'evalsha-only' | 'fallback';

const releaseBySha: Step = {
  op: 'eval',
  label: 'release',
  script: 'compareAndDelete',
  keys: ['${lockKey}'],
  args: ['${token}'],
  bySha: true,
  saveAs: 'released',
  releases: true,
  note: text('release by SHA1 only: the server must have the script cached', '只按 SHA1 释放：服务器必须缓存了这个脚本'),
};

function onNoScript(variant: Variant): Step[] {
  if (variant === 'evalsha-only') {
    return [
      { op: 'retry', label: 'noscript', goto: 'release', afterMs: 500, attemptCountMax: 1, note: text('NOSCRIPT: try the same EVALSHA again', 'NOSCRIPT：再发一次同样的 EVALSHA') },
      { op: 'end', note: text('give up: the release failed and the lock stays until its lease runs out', '放弃：释放失败，锁会一直留到租期结束') },
    ];
  }
  return [
    {
      op: 'eval',
      label: 'noscript',
      script: 'compareAndDelete',
      keys: ['${lockKey}'],
      args: ['${token}'],
      saveAs: 'released',
      releases: true,
      note: text('NOSCRIPT: send the source with EVAL, which also caches it again', 'NOSCRIPT：用 EVAL 发送脚本源码，同时重新缓存它'),
    },
    { op: 'end' },
  ];
}

function program(variant: Variant, preload: boolean): Step[] {
  return [
    ...(preload
      ? [
          {
            op: 'command',
            argv: ['SCRIPT', 'LOAD', COMPARE_AND_DELETE.source],
            note: text('at startup: load the release script, remember its SHA1', '启动时：加载释放脚本，记下它的 SHA1'),
          } satisfies Step,
        ]
      : []),
    ...acquireWithSetNxPx({ retryAfterMs: 1000, attemptCountMax: 5 }),
    { op: 'work', durationMs: 1000, note: text('business logic', '业务逻辑') },
    { op: 'leave' },
    releaseBySha,
    { op: 'if', when: { test: 'error', reply: 'released' }, goto: 'noscript' },
    { op: 'end' },
    ...onNoScript(variant),
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: program(variant, true) },
    {
      id: 'O',
      program: [
        {
          op: 'command',
          argv: ['SCRIPT', 'FLUSH'],
          note: text(
            'a failover promotes a replica whose script cache is empty (a restart empties it too): SCRIPT FLUSH has the same effect',
            '故障转移提升了一个脚本缓存为空的副本（重启也会清空缓存）：SCRIPT FLUSH 的效果相同',
          ),
        },
        { op: 'end' },
      ],
    },
    { id: 'B', program: program(variant, false) },
  ];
}

export const scriptCache: Scenario = {
  id: 'script-cache',
  title: text('EVALSHA after a failover: NOSCRIPT', '故障转移之后的 EVALSHA：NOSCRIPT'),
  summary: text(
    'The script cache is empty after a restart or failover; EVALSHA answers NOSCRIPT and the client must fall back to EVAL.',
    '重启或故障转移后脚本缓存为空；EVALSHA 返回 NOSCRIPT，客户端必须退回到 EVAL。',
  ),
  lesson: text(
    'A lock\'s release script is sent on every unlock, so clients send EVALSHA with the script\'s SHA1 instead of the source. That ' +
      'works only while the server has the script cached, and the cache is volatile: a restart empties it, and a failover ' +
      'promotes a replica that may never have seen the script. EVALSHA then answers NOSCRIPT. A client that only ever sends ' +
      'EVALSHA, having loaded its scripts once at startup with SCRIPT LOAD, now fails every release: the lock stays until its ' +
      'lease runs out and everyone else waits (longer still if a watchdog keeps renewing it). Retrying the same EVALSHA does not help. ' +
      'Client libraries handle this for you: ioredis\'s defineCommand sends EVALSHA and, on NOSCRIPT, resends with EVAL (which ' +
      'caches the script again); redis-py\'s Script object reloads it and retries. Write your own client code the same way.',
    '锁的释放脚本在每次解锁时都要发送，所以客户端用脚本的 SHA1 发送 EVALSHA，而不是发送源码。但这只有在服务器缓存了该脚本时才有效，' +
      '而脚本缓存是易失的：重启会清空它，故障转移提升的副本可能从没见过这个脚本。此时 EVALSHA 返回 NOSCRIPT。' +
      '如果客户端只在启动时用 SCRIPT LOAD 加载一次脚本、此后只发 EVALSHA，那么之后每一次释放都会失败：锁会一直留到租期结束，' +
      '其他人只能等待（如果还有看门狗在续期，就要等得更久）。重发同样的 EVALSHA 无济于事。客户端库会替你处理：' +
      'ioredis 的 defineCommand 先发 EVALSHA，遇到 NOSCRIPT 就改用 EVAL 重发（同时重新缓存脚本）；redis-py 的 Script 对象会重新加载后再试。' +
      '自己写客户端代码时也要这样做。',
  ),
  params: { lockKey: 'lock', ttlMs: '5000' },
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  defaultSchedule: 'A A O A A B +4000',
  narration: [
    { step: 0, text: text('At startup A loads the release script: SCRIPT LOAD answers its SHA1.', 'A 启动时加载释放脚本：SCRIPT LOAD 返回它的 SHA1。') },
    { step: 1, text: text('A takes the lock and works for 1 s.', 'A 加锁，处理 1 秒。') },
    { step: 2, text: text('A failover (here SCRIPT FLUSH) leaves the server with an empty script cache.', '一次故障转移（这里用 SCRIPT FLUSH 模拟）让服务器的脚本缓存变空。') },
    { step: 3, text: text('A releases with EVALSHA: NOSCRIPT. A waits and sends the same EVALSHA again.', 'A 用 EVALSHA 释放：NOSCRIPT。A 等了一会儿，再发同样的 EVALSHA。') },
    { step: 4, text: text('NOSCRIPT again: A gives up. Its lock stays until the lease runs out at t=5000.', '还是 NOSCRIPT：A 放弃了。它的锁会一直留到 t=5000 租期结束。') },
    { step: 5, text: text('B is refused: A is done with the lock, but it is still there for another 3.5 s.', 'B 加锁失败：A 早就用完了这把锁，它却还要再留 3.5 秒。') },
    { step: 6, text: text('B retries every second; the lease ends after t=5000, and B\'s retry at t=5500 gets the lock: 4 s lost to a release that never ran.', 'B 每秒重试一次；租期在 t=5000 之后结束，B 在 t=5500 的重试拿到了锁：一次没能执行的释放让大家白等了 4 秒。') },
  ],
  variants: [
    {
      id: 'evalsha-only',
      title: text('EVALSHA only (scripts loaded at startup)', '只用 EVALSHA（启动时加载脚本）'),
      summary: text('Every release fails with NOSCRIPT; the lock waits out its lease.', '每次释放都因 NOSCRIPT 失败；锁只能等租期耗尽。'),
      clients: clients('evalsha-only'),
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
    {
      id: 'fallback',
      title: text('EVALSHA, falling back to EVAL on NOSCRIPT', 'EVALSHA，遇到 NOSCRIPT 时退回 EVAL'),
      summary: text('The release succeeds and re-caches the script; B gets the lock at once.', '释放成功并重新缓存了脚本；B 立刻拿到了锁。'),
      clients: clients('fallback'),
      narration: [
        { step: 3, text: text('A releases with EVALSHA: NOSCRIPT. A falls back to EVAL with the source, as ioredis does.', 'A 用 EVALSHA 释放：NOSCRIPT。A 像 ioredis 那样退回到带源码的 EVAL。') },
        { step: 4, text: text('EVAL runs the script (the lock is released) and caches it again.', 'EVAL 执行了脚本（锁被释放），同时重新缓存了它。') },
        { step: 5, text: text('B takes the free lock at once.', 'B 立刻拿到了空闲的锁。') },
        { step: 6, text: text('B\'s EVALSHA release hits the cache again: 1.', 'B 的 EVALSHA 释放再次命中缓存：返回 1。') },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release', 'lock-never-released'] },
    },
  ],
  defaultVariant: 'evalsha-only',
};
