import type { LocalizedText, Step } from '../engine/program';
import type { NodeSpec } from '../engine/scenario';

/*
 * Program fragments several scenarios share. Each returns fresh step objects; labels are given by
 * the caller where a client uses a fragment twice.
 */

export const text = (en: string, zh: string): LocalizedText => ({ en, zh });

/** `SET lock token NX PX ttl`, then enter on OK; on nil wait and try again, at most `attemptCountMax` times, then give up. */
export function acquireWithSetNxPx(options: RetryOptions): Step[] {
  return [
    {
      op: 'command',
      label: 'acquire',
      argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'],
      saveAs: 'acquired',
      note: text('take the lock only if it is free, with a lease of ttlMs', '仅当锁空闲时加锁，租期 ttlMs'),
    },
    { op: 'if', when: { test: 'notNil', reply: 'acquired' }, goto: 'locked' },
    {
      op: 'retry',
      goto: 'acquire',
      afterMs: options.retryAfterMs,
      attemptCountMax: options.attemptCountMax,
      ...(options.jitterMs === undefined ? {} : { jitterMs: options.jitterMs }),
      ...(options.backoffFactor === undefined ? {} : { backoffFactor: options.backoffFactor }),
      ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
      note: options.retryNote ?? text('the lock is taken: wait, then try again', '锁被占用：等一会儿再试'),
    },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
  ];
}

export type RetryOptions = { retryAfterMs: number; attemptCountMax: number; jitterMs?: number; backoffFactor?: number; deadlineMs?: number; retryNote?: LocalizedText };

/**
 * A whole locked job, the shape most clients share: acquire (with bounded retries), do `workMs` of
 * business logic inside the critical section, leave it, release with `release`, end.
 */
export function lockedJob(options: RetryOptions & { workMs: number; release: Step }): Step[] {
  const { workMs, release, ...retry } = options;
  return [
    ...acquireWithSetNxPx(retry),
    { op: 'work', durationMs: workMs, note: text('business logic', '业务逻辑') },
    { op: 'leave' },
    release,
    { op: 'end' },
  ];
}

/**
 * The acquire command, labelled `acquire`: `SET lock token NX PX ttl` (reply saved as `acquired`),
 * or with fencing the ACQUIRE_WITH_FENCING_TOKEN script (the scenario must list it as
 * `acquireWithFencingToken` and have a `fencingKey` param; reply saved as `fencingToken`).
 */
export function acquireCommand(fencing: boolean): Step {
  return fencing
    ? {
        op: 'eval',
        label: 'acquire',
        script: 'acquireWithFencingToken',
        keys: ['${lockKey}', '${fencingKey}'],
        args: ['${token}', '${ttlMs}'],
        saveAs: 'fencingToken',
        note: text('take the lock and the next fencing token in one atomic step', '在一个原子步骤里加锁并领取下一个防护令牌'),
      }
    : {
        op: 'command',
        label: 'acquire',
        argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'],
        saveAs: 'acquired',
        note: text('take the lock with a lease of ttlMs', '加锁，租期 ttlMs'),
      };
}

/** The variable `acquireCommand` saves its reply in: not nil means the lock was taken. */
export const acquiredVar = (fencing: boolean): string => (fencing ? 'fencingToken' : 'acquired');

/** A write to the protected resource `db`, showing the fencing token when the lock hands one out. */
export function writeToDb(fencing: boolean, value: string): Step {
  return fencing
    ? { op: 'write', resource: 'db', value, fencingToken: '${fencingToken}', note: text('write, showing the fencing token', '写入，并出示防护令牌') }
    : { op: 'write', resource: 'db', value, note: text('write to the protected storage', '写入受保护的存储') };
}

/** The safe release: the compare-and-delete script (the scenario must list COMPARE_AND_DELETE as `compareAndDelete`). */
export function releaseWithLua(note?: LocalizedText): Step {
  return {
    op: 'eval',
    script: 'compareAndDelete',
    keys: ['${lockKey}'],
    args: ['${token}'],
    saveAs: 'released',
    releases: true,
    note: note ?? text('delete the lock only if it still holds my token (atomic)', '仅当锁里仍是我的 token 时才删除（原子操作）'),
  };
}

/** The naive release: DEL whatever is there. */
export function releaseWithDel(note?: LocalizedText): Step {
  return {
    op: 'command',
    argv: ['DEL', '${lockKey}'],
    saveAs: 'released',
    releases: true,
    note: note ?? text('release: delete the key, whoever it belongs to now', '释放：直接删除键，不管它现在属于谁'),
  };
}

/**
 * A helper thread's timer loop: wait `everyMs`, run `action`, and go round again while `keepGoing`
 * holds, at most `roundCountMax` times (the loop's bound; past it the helper stops).
 */
export function timerLoop(options: {
  everyMs: number;
  roundCountMax: number;
  action: Step;
  keepGoing?: Step;
  /** Runs once when the bound is reached, before the helper stops. */
  afterCap?: Step;
  timerNote: LocalizedText;
  stopNote: LocalizedText;
}): Step[] {
  return [
    {
      op: 'retry',
      label: 'timer',
      goto: 'tick',
      afterMs: options.everyMs,
      attemptCountMax: options.roundCountMax,
      note: options.timerNote,
    },
    ...(options.afterCap ? [options.afterCap] : []),
    { op: 'end', note: options.stopNote },
    { ...options.action, label: 'tick' },
    options.keepGoing ?? { op: 'goto', goto: 'timer' },
    { op: 'end', label: 'stop' },
  ];
}

/** The nodes of a Redlock deployment: `count` independent primaries r1..rN (no replication). */
export function redlockNodes(count: number, overrides: Partial<Record<string, Partial<NodeSpec>>> = {}): NodeSpec[] {
  return Array.from({ length: count }, (_, i) => ({ id: `r${i + 1}`, role: 'primary' as const, ...(overrides[`r${i + 1}`] ?? {}) }));
}

/**
 * Redlock's acquire (redis.io's "Distributed Locks with Redis"), line by line. Needs the params
 * lockKey, ttlMs, nodeCount, quorum (nodeCount/2 + 1) and driftMs (the clock drift allowance),
 * and the script compareAndDelete. Ends at the step labelled `locked` with `validityMs` set.
 */
export function redlockAcquire(options: { nodeTimeoutMs: number; retryAfterMs: number; jitterMs: number; attemptCountMax: number; rotate?: boolean }): Step[] {
  // rotate: start at node ${firstNode} and go round, so that clients racing at once meet on different nodes first.
  const next: Step[] = options.rotate
    ? [
        { op: 'set', label: 'nextNode', var: 'i', value: '${i}', add: 1 },
        { op: 'if', when: { test: 'le', left: '${i}', right: '${nodeCount}' }, goto: 'counted' },
        { op: 'set', var: 'i', value: '1', note: text('after the last node, the first', '最后一个节点之后回到第一个') },
        { op: 'set', label: 'counted', var: 'tried', value: '${tried}', add: 1 },
        { op: 'if', when: { test: 'lt', left: '${tried}', right: '${nodeCount}' }, goto: 'acquireNode' },
      ]
    : [
        { op: 'set', label: 'nextNode', var: 'i', value: '${i}', add: 1 },
        { op: 'if', when: { test: 'le', left: '${i}', right: '${nodeCount}' }, goto: 'acquireNode' },
      ];
  return [
    { op: 'clock', label: 'redlock', saveAs: 'startMs', note: text('1. read my clock (ms)', '1. 读取我自己的时钟（毫秒）') },
    { op: 'set', var: 'votes', value: '0' },
    ...(options.rotate ? [{ op: 'set', var: 'tried', value: '0' } satisfies Step, { op: 'set', var: 'i', value: '${firstNode}' } satisfies Step] : [{ op: 'set', var: 'i', value: '1' } satisfies Step]),
    {
      op: 'command',
      label: 'acquireNode',
      argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'],
      node: 'r${i}',
      timeoutMs: options.nodeTimeoutMs,
      saveAs: 'got',
      note: text('2. try each node in turn, with a timeout much shorter than the lease', '2. 依次尝试每个节点，超时远短于租期'),
    },
    { op: 'if', when: { test: 'nil', reply: 'got' }, goto: 'nextNode' },
    { op: 'if', when: { test: 'error', reply: 'got' }, goto: 'nextNode', note: text('a timeout or an error is not a vote', '超时或出错都不算一票') },
    { op: 'set', var: 'votes', value: '${votes}', add: 1 },
    ...next,
    { op: 'clock', saveAs: 'nowMs', note: text('3. read my clock again', '3. 再次读取我的时钟') },
    { op: 'set', var: 'elapsedMs', value: '${nowMs}', subtract: ['${startMs}'], note: text('time spent acquiring, by my clock', '按我的时钟，加锁花掉的时间') },
    {
      op: 'set',
      var: 'validityMs',
      value: '${ttlMs}',
      subtract: ['${elapsedMs}', '${driftMs}'],
      note: text('validity = lease - time spent acquiring - clock drift allowance', '有效期 = 租期 - 加锁花掉的时间 - 时钟漂移余量'),
    },
    { op: 'if', when: { test: 'lt', left: '${votes}', right: '${quorum}' }, goto: 'redlockFailed', note: text('4. a majority of nodes?', '4. 拿到多数节点了吗？') },
    { op: 'if', when: { test: 'gt', left: '${validityMs}', right: '0' }, goto: 'locked', note: text('and time left on the lease: the lock is mine', '且租期还有剩余：锁归我了') },
    ...redlockRelease('redlockFailed', 'retryUnlock', options.nodeTimeoutMs, false),
    {
      op: 'retry',
      goto: 'redlock',
      afterMs: options.retryAfterMs,
      jitterMs: options.jitterMs,
      attemptCountMax: options.attemptCountMax,
      note: text('5. failed: unlock every node, wait a random delay, try again', '5. 失败：解开所有节点，随机等待后重试'),
    },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
  ];
}

/** Redlock's release: the compare-and-delete script on every node, reachable or not. */
export function redlockRelease(label: string, nodeLabel: string, nodeTimeoutMs: number, releases: boolean): Step[] {
  return [
    { op: 'set', label, var: 'i', value: '1' },
    {
      op: 'eval',
      label: nodeLabel,
      script: 'compareAndDelete',
      keys: ['${lockKey}'],
      args: ['${token}'],
      node: 'r${i}',
      timeoutMs: nodeTimeoutMs,
      saveAs: 'released',
      ...(releases ? { releases: true } : {}),
      note: text('unlock on every node: delete the key only if it holds my token', '在每个节点上解锁：仅当键里是我的 token 时才删除'),
    },
    { op: 'set', var: 'i', value: '${i}', add: 1 },
    { op: 'if', when: { test: 'le', left: '${i}', right: '${nodeCount}' }, goto: nodeLabel },
  ];
}

/** The params a Redlock over `nodeCount` nodes needs, with the drift allowance redis.io suggests (1% of the TTL + 2 ms). */
export function redlockParams(ttlMs: number, nodeCount = 5): Record<string, string> {
  return {
    lockKey: 'lock',
    ttlMs: String(ttlMs),
    nodeCount: String(nodeCount),
    quorum: String(Math.floor(nodeCount / 2) + 1),
    driftMs: String(Math.floor(ttlMs * 0.01) + 2),
  };
}
