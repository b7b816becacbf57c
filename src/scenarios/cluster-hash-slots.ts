import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { acquireCommand, releaseWithLua, text, writeToDb } from './common';
import { ACQUIRE_WITH_FENCING_TOKEN, COMPARE_AND_DELETE } from './scripts';

/*
 * On a Redis Cluster every key lives in one of 16384 hash slots, and a command or a script may
 * only use keys of one slot. The acquire-with-fencing-token script touches the lock and the
 * fencing counter: named order:42:lock and order:42:fence they hash to different slots, the
 * cluster refuses the script with CROSSSLOT before it runs, and nobody ever gets the lock. Hash
 * tags ({order:42}:lock, {order:42}:fence) make Redis hash only the tag: one slot, and it works.
 */

function client(value: string): Step[] {
  return [
    { ...acquireCommand(true), note: text('take the lock and the next fencing token in one script (two keys)', '用一个脚本加锁并领取下一个防护令牌（两个键）') },
    {
      op: 'if',
      when: { test: 'error', reply: 'fencingToken' },
      goto: 'failed',
      note: text('an error is not "taken": the script did not run', '出错不等于“锁被占用”：脚本根本没有运行'),
    },
    { op: 'if', when: { test: 'notNil', reply: 'fencingToken' }, goto: 'locked' },
    { op: 'retry', goto: 'acquire', afterMs: 1000, attemptCountMax: 5, note: text('the lock is taken: wait, then try again', '锁被占用：等一会儿再试') },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'end', label: 'failed', note: text('stop and report the error: retrying cannot help', '停止并报告错误：重试也无济于事') },
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 2000, note: text('compute the update', '计算要写入的数据') },
    writeToDb(true, value),
    { op: 'leave' },
    releaseWithLua(),
    { op: 'end' },
  ];
}

function clients(): ClientSpec[] {
  return [
    { id: 'A', program: client("A's update") },
    { id: 'B', program: client("B's update") },
  ];
}

export const clusterHashSlots: Scenario = {
  id: 'cluster-hash-slots',
  title: text('Redis Cluster: the lock and its fencing counter in different hash slots', 'Redis Cluster：锁和它的防护计数器落在不同的哈希槽'),
  summary: text(
    'The acquire script touches order:42:lock and order:42:fence, which hash to different slots: the cluster answers CROSSSLOT and nobody gets the lock. Hash tags fix it.',
    '加锁脚本要操作 order:42:lock 和 order:42:fence，它们落在不同的哈希槽：集群返回 CROSSSLOT，谁也拿不到锁。哈希标签可以修复它。',
  ),
  lesson: text(
    'A Redis Cluster splits its keys over 16384 hash slots (CRC16 of the key, mod 16384), served by different masters, and a ' +
      'command or a script may only use keys of one slot: a script runs on one master and cannot reach another master\'s keys. ' +
      'The acquire-with-fencing-token script sets the lock and increments the fencing counter in one atomic step, so it declares ' +
      'both keys. Named order:42:lock and order:42:fence they hash to slots 11498 and 3932: the cluster refuses the script with ' +
      '"CROSSSLOT Keys in request don\'t hash to the same slot" before any of it runs. Nothing is locked and no token is handed ' +
      'out; a client that treats every reply other than a token as "taken" would retry for ever, so here the clients stop and ' +
      'report the error. Hash tags fix it: when a key contains {...}, Redis hashes only the text between the first { and the ' +
      'next }, so {order:42}:lock and {order:42}:fence share slot 8691 and the script runs (variant hash-tags). The same rule ' +
      'applies to MULTI/EXEC and to any command with several keys. A script that reaches a key it did not declare gets an error ' +
      'when that key belongs to another master ("Script attempted to access a non local key in a cluster node"): declare every ' +
      'key in KEYS and tag the keys that must live together. Fencing itself also needs the counter to survive failover, which ' +
      'a hash tag does not give: see failover-before-replication.',
    'Redis Cluster 把键分散到 16384 个哈希槽（键的 CRC16 对 16384 取模），由不同的主节点负责；一条命令或一个脚本只能使用同一个槽里的键：' +
      '脚本在一个主节点上运行，碰不到其他主节点的键。加锁并领取防护令牌的脚本在一个原子步骤里设置锁并递增防护计数器，所以它声明了两个键。' +
      '命名为 order:42:lock 和 order:42:fence 时，它们分别落在槽 11498 和 3932：集群在脚本运行之前就以 ' +
      '"CROSSSLOT Keys in request don\'t hash to the same slot" 拒绝了它。没有加上锁，也没有发出令牌；把令牌以外的任何回复都当作“锁被占用”的客户端会一直重试，' +
      '所以这里的客户端会停下来并报告错误。哈希标签可以修复它：键里含有 {...} 时，Redis 只对第一个 { 与其后第一个 } 之间的文字求哈希，' +
      '于是 {order:42}:lock 和 {order:42}:fence 同在槽 8691，脚本得以运行（变体 hash-tags）。MULTI/EXEC 以及任何多键命令都遵循同样的规则。' +
      '脚本访问未声明的键时，如果该键属于另一个主节点，会得到错误（"Script attempted to access a non local key in a cluster node"）：' +
      '把每个键都放进 KEYS 声明，并给需要放在一起的键加上哈希标签。防护令牌本身还要求计数器在故障转移后不倒退，这是哈希标签给不了的：见 failover-before-replication。',
  ),
  params: { lockKey: 'order:42:lock', fencingKey: 'order:42:fence', ttlMs: '5000' },
  lockKey: 'order:42:lock',
  redisCluster: true,
  scripts: { acquireWithFencingToken: ACQUIRE_WITH_FENCING_TOKEN, compareAndDelete: COMPARE_AND_DELETE },
  resources: [{ id: 'db', fencing: true }],
  defaultSchedule: 'A B +5000',
  narration: [
    {
      step: 0,
      text: text(
        'A runs the acquire script with KEYS order:42:lock (slot 11498) and order:42:fence (slot 3932): the cluster answers CROSSSLOT. The script never ran; A stops and reports it.',
        'A 以 KEYS order:42:lock（槽 11498）和 order:42:fence（槽 3932）运行加锁脚本：集群返回 CROSSSLOT。脚本根本没有运行；A 停下来报告错误。',
      ),
    },
    { step: 1, text: text('B gets the same error. Nobody holds the lock, and no work is done.', 'B 得到同样的错误。没有人持有锁，也没有任何工作完成。') },
  ],
  variants: [
    {
      id: 'unsafe',
      title: text('Keys in different slots', '键落在不同的槽'),
      summary: text('The acquire script fails with CROSSSLOT: no lock, no token, no work.', '加锁脚本因 CROSSSLOT 失败：没有锁，没有令牌，没有完成任何工作。'),
      clients: clients(),
      expect: { violations: [], absent: ['mutual-exclusion', 'stale-write', 'foreign-release'] },
    },
    {
      id: 'hash-tags',
      title: text('Hash tags: {order:42}', '哈希标签：{order:42}'),
      summary: text('Both keys hash to slot 8691: A gets token 1, B waits and gets token 2.', '两个键都落在槽 8691：A 拿到令牌 1，B 等待后拿到令牌 2。'),
      clients: clients(),
      params: { lockKey: '{order:42}:lock', fencingKey: '{order:42}:fence' },
      lockKey: '{order:42}:lock',
      narration: [
        { step: 0, text: text('A runs the acquire script with {order:42}:lock and {order:42}:fence, both in slot 8691: the lock and fencing token 1.', 'A 以 {order:42}:lock 和 {order:42}:fence（同在槽 8691）运行加锁脚本：拿到锁和防护令牌 1。') },
        { step: 1, text: text('B finds the lock taken (nil) and waits 1 s to try again.', 'B 发现锁已被占用（nil），等待 1 秒后再试。') },
        { step: 2, text: text('A writes with token 1 and releases; B\'s retry takes the lock and token 2, writes and releases.', 'A 携带令牌 1 写入并释放；B 重试时拿到锁和令牌 2，写入并释放。') },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'stale-write', 'foreign-release'] },
    },
  ],
  defaultVariant: 'unsafe',
};
