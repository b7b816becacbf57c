import type { ClientSpec, Scenario, ScriptSpec } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE } from './scripts';
import { text } from './common';

/*
 * Redis runs one command at a time, and a Lua script is one command. A slow script blocks every
 * other client: their commands wait behind it, and past busy-reply-threshold (5 s) they get BUSY.
 * SCRIPT KILL can stop a script only while it has not written: once it has, Redis refuses
 * (UNKILLABLE), because scripts have no rollback and killing it would leave half its writes
 * applied; the only way out is SHUTDOWN NOSAVE. A script that fails after a write keeps the write.
 */

type Variant = 'read-only' | 'wrote-first' | 'no-rollback';

/** Loop iterations: about 300,000 Lua instructions, 15 s of virtual time at this scenario's speed. */
const iterations = '100000';

const SLOW_SCAN: ScriptSpec = {
  title: { en: 'A slow read-only scan', zh: '一次缓慢的只读扫描' },
  source: `local snapshot = redis.call("get", KEYS[1])
local checksum = 0
for i = 1, tonumber(ARGV[1]) do
  checksum = (checksum + i) % 1000003
end
return checksum`,
};

const SLOW_REBUILD: ScriptSpec = {
  title: { en: 'A slow rebuild that writes first', zh: '先写入、再慢慢计算的重建' },
  source: `redis.call("set", KEYS[1], "rebuilding")
local checksum = 0
for i = 1, tonumber(ARGV[1]) do
  checksum = (checksum + i) % 1000003
end
redis.call("set", KEYS[1], checksum)
return checksum`,
};

const FAILS_AFTER_WRITE: ScriptSpec = {
  title: { en: 'A slow rebuild that fails after its first write', zh: '先写入、最后出错的慢重建' },
  source: `redis.call("set", KEYS[1], "rebuilding")
local checksum = 0
for i = 1, tonumber(ARGV[1]) do
  checksum = (checksum + i) % 1000003
end
redis.call("incr", KEYS[1])
return checksum`,
};

const scriptOf: Record<Variant, string> = { 'read-only': 'slowScan', 'wrote-first': 'slowRebuild', 'no-rollback': 'failsAfterWrite' };

function slowCaller(variant: Variant): Step[] {
  return [
    {
      op: 'eval',
      script: scriptOf[variant],
      keys: ['report'],
      args: [iterations],
      saveAs: 'result',
      note:
        variant === 'read-only'
          ? text('a report computed inside Redis: reads, then loops for 15 s', '在 Redis 里计算报表：先读取，再循环 15 秒')
          : variant === 'wrote-first'
            ? text('writes first, then loops for 15 s', '先写入，再循环 15 秒')
            : text('writes first, loops for 15 s, then fails: INCR of a non-number', '先写入，循环 15 秒，最后出错：对非数字执行 INCR'),
    },
    { op: 'end' },
  ];
}

function lockClient(): Step[] {
  return [
    { op: 'command', label: 'acquire', argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'acquired', note: text('an ordinary lock request', '一次普通的加锁请求') },
    { op: 'if', when: { test: 'error', reply: 'acquired' }, goto: 'busy' },
    { op: 'if', when: { test: 'nil', reply: 'acquired' }, goto: 'busy' },
    { op: 'enter' },
    { op: 'work', durationMs: 1000, note: text('business logic', '业务逻辑') },
    { op: 'leave' },
    { op: 'eval', script: 'compareAndDelete', keys: ['${lockKey}'], args: ['${token}'], saveAs: 'released', releases: true },
    { op: 'end' },
    { op: 'retry', label: 'busy', goto: 'acquire', afterMs: 2000, attemptCountMax: 10, note: text('BUSY (or taken): try again in 2 s', 'BUSY（或锁被占用）：2 秒后再试') },
    { op: 'end', note: text('give up', '放弃') },
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: slowCaller(variant) },
    { id: 'B', program: lockClient() },
    {
      id: 'O',
      program: [
        { op: 'command', argv: ['SCRIPT', 'KILL'], saveAs: 'killed', note: text('the operator tries to stop the running script', '运维人员尝试终止正在运行的脚本') },
        { op: 'end' },
      ],
    },
  ];
}

export const longScript: Scenario = {
  id: 'long-script',
  title: text('A long Lua script blocks everyone: BUSY and SCRIPT KILL', '长时间运行的 Lua 脚本阻塞所有人：BUSY 与 SCRIPT KILL'),
  summary: text(
    'A slow script holds the whole server; others get BUSY; SCRIPT KILL works only if the script has not written.',
    '一个慢脚本占住了整个服务器；其他客户端收到 BUSY；SCRIPT KILL 只在脚本尚未写入时有效。',
  ),
  lesson: text(
    'Scripts are atomic because Redis runs nothing else while one runs; that is why the lock scripts in the other scenarios are ' +
      'safe, and why a slow script is dangerous. Here A computes a report in a 15 s Lua loop. For its whole duration no other ' +
      'client is served; once it has run longer than busy-reply-threshold (lua-time-limit, 5 s by default) Redis answers every ' +
      'other command with BUSY, so B cannot even take or release a lock. The only commands accepted are SCRIPT KILL and SHUTDOWN ' +
      'NOSAVE. SCRIPT KILL stops a script that has only read, and its caller gets an error. A script that has already written ' +
      'cannot be killed (UNKILLABLE): Redis has no rollback for scripts, so stopping it halfway would leave half its writes ' +
      'applied; everyone waits until it ends, or the server is shut down without saving. For the same reason a script is atomic ' +
      'in isolation only, not all-or-nothing: one that fails after a write (no-rollback) returns an error and its write stays. ' +
      'Keep scripts short and bounded (a lock script runs in microseconds), do bulk work outside Redis or in small batches, and ' +
      'do not loop over an unbounded data set inside a script.',
    '脚本之所以是原子的，是因为它运行期间 Redis 不执行任何其他命令；这正是其他场景里的锁脚本安全的原因，也正是慢脚本危险的原因。' +
      '这里 A 在一个 15 秒的 Lua 循环里计算报表。在它运行的整个过程中，其他客户端都得不到服务；一旦运行时间超过 busy-reply-threshold' +
      '（即 lua-time-limit，默认 5 秒），Redis 对其他所有命令都回复 BUSY，B 连加锁、解锁都做不到。此时只接受 SCRIPT KILL 和 SHUTDOWN NOSAVE。' +
      'SCRIPT KILL 能终止只读过数据的脚本，其调用者会收到一个错误。已经写入过数据的脚本无法被终止（UNKILLABLE）：' +
      'Redis 的脚本没有回滚，半途停下会留下一半已生效的写入；所以所有人只能等它结束，或者不保存数据直接关闭服务器。' +
      '同理，脚本只保证执行期间不被打断，并不保证"要么全做、要么不做"：写入之后才出错的脚本（no-rollback 变体）会返回错误，而它的写入依然保留。' +
      '让脚本保持简短、有界（锁脚本只需几微秒），大批量的工作放到 Redis 之外或拆成小批次，不要在脚本里遍历没有上限的数据集。',
  ),
  params: { lockKey: 'lock', ttlMs: '5000' },
  lockKey: 'lock',
  // Slowed down so that a loop of about 300,000 instructions takes 15 s of virtual time.
  scriptTiming: { nsPerInstruction: 50_000, busyReplyThresholdMs: 5_000 },
  scripts: { slowScan: SLOW_SCAN, slowRebuild: SLOW_REBUILD, failsAfterWrite: FAILS_AFTER_WRITE, compareAndDelete: COMPARE_AND_DELETE },
  defaultSchedule: 'A +1000 B O +5000 +12000',
  narration: [
    { step: 0, text: text('A starts a script that would run for 15 s. A waits for its reply; Redis serves nobody else meanwhile.', 'A 启动一个要运行 15 秒的脚本。A 等待它的回复；在此期间 Redis 不为其他任何人服务。') },
    { step: 2, text: text('At t=1000 B only wants a lock: its SET waits behind the script.', 't=1000 时 B 只是想加个锁：它的 SET 只能排在脚本后面等待。') },
    { step: 3, text: text('The operator sends SCRIPT KILL: it waits too. Before the 5 s busy-reply-threshold Redis does not read other clients\' commands at all.', '运维人员发送 SCRIPT KILL：它也只能等待。在 5 秒的 busy-reply-threshold 之前，Redis 根本不读取其他客户端的命令。') },
    { step: 4, text: text('At t=5000 the script has run 5 s: Redis answers the waiting commands. B gets BUSY. SCRIPT KILL stops the script, which has only read: OK. A\'s reply is an error: its script was killed.', 't=5000 时脚本已运行 5 秒：Redis 开始回复等待中的命令。B 收到 BUSY。SCRIPT KILL 终止了只读过数据的脚本：OK。A 收到的回复是一个错误：它的脚本被终止了。') },
    { step: 5, text: text('B retries at t=7000 and is served at once.', 'B 在 t=7000 重试，立刻得到了服务。') },
  ],
  variants: [
    {
      id: 'read-only',
      title: text('Read-only script: SCRIPT KILL works', '只读脚本：SCRIPT KILL 有效'),
      summary: text('The kill frees the server at once.', '终止脚本后，服务器立刻恢复服务。'),
      clients: clients('read-only'),
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release'] },
    },
    {
      id: 'wrote-first',
      title: text('Script that wrote first: UNKILLABLE', '先写入的脚本：无法终止'),
      summary: text('SCRIPT KILL is refused; everyone waits the full 15 s.', 'SCRIPT KILL 被拒绝；所有人只能等满 15 秒。'),
      clients: clients('wrote-first'),
      narration: [
        { step: 0, text: text('A starts a script that writes a key, then loops for 15 s.', 'A 启动一个脚本：先写入一个键，然后循环 15 秒。') },
        { step: 4, text: text('At t=5000 B gets BUSY, and SCRIPT KILL answers UNKILLABLE: the script has written, and Redis cannot undo a script\'s writes.', 't=5000 时 B 收到 BUSY，SCRIPT KILL 返回 UNKILLABLE：脚本已经写入了数据，而 Redis 无法撤销脚本的写入。') },
        { step: 5, text: text('B keeps getting BUSY. After 15 s the script ends and A finally gets its result; only B\'s next retry, at t=17000, is served.', 'B 一直收到 BUSY。15 秒后脚本结束，A 终于拿到了结果；直到 B 的下一次重试（t=17000）才得到服务。') },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release'] },
    },
    {
      id: 'no-rollback',
      title: text('Script that fails after a write: no rollback', '写入后才出错的脚本：没有回滚'),
      summary: text('The script ends with an error, and its first write stays.', '脚本以错误结束，而它的第一次写入依然保留。'),
      clients: clients('no-rollback'),
      narration: [
        { step: 0, text: text('A starts a script that writes report = "rebuilding", loops for 15 s, then runs INCR on that text.', 'A 启动一个脚本：写入 report = "rebuilding"，循环 15 秒，然后对这段文字执行 INCR。') },
        { step: 4, text: text('At t=5000 B gets BUSY, and SCRIPT KILL answers UNKILLABLE: the script has written.', 't=5000 时 B 收到 BUSY，SCRIPT KILL 返回 UNKILLABLE：脚本已经写入了数据。') },
        { step: 5, text: text('After 15 s the INCR fails and A\'s reply is an error; but report still holds "rebuilding": a script is atomic in isolation, not all-or-nothing.', '15 秒后 INCR 失败，A 收到一个错误；但 report 仍然是 "rebuilding"：脚本执行期间不会被打断，但并不是"要么全做、要么不做"。') },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release'] },
    },
  ],
  defaultVariant: 'read-only',
};
