import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE } from './scripts';
import { releaseWithLua, text } from './common';

/*
 * How long should the lease be? A holds the lock for a series of jobs whose times come from a
 * latency distribution: mostly about 100 ms, now and then 2 s (the slow tail: a GC, a slow
 * query). A lease sized from the average lapses on the slow job and B walks in; a lease sized
 * from the tail (with a margin) does not. Job times are drawn from the run's seeded RNG.
 */

type Variant = 'average' | 'tail';

const ttlMsOf: Record<Variant, string> = { average: '150', tail: '4000' };
/** Job times in ms: seven fast ones and one from the slow tail; each job draws one. */
const jobTimesMs = [90, 100, 100, 110, 120, 130, 150, 2000];
const jobCount = '8';

function holder(): Step[] {
  return [
    { op: 'set', var: 'jobs', value: '0' },
    {
      op: 'command',
      label: 'acquire',
      argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'],
      saveAs: 'acquired',
      note: text('take the lock with a lease of ttlMs', '加锁，租期 ttlMs'),
    },
    { op: 'if', when: { test: 'notNil', reply: 'acquired' }, goto: 'locked' },
    { op: 'retry', goto: 'acquire', afterMs: 50, attemptCountMax: 100, note: text('taken: try again in 50 ms', '锁被占用：50 毫秒后再试') },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
    {
      op: 'work',
      durationMs: 100,
      samplesMs: jobTimesMs,
      note: text('one job: usually about 100 ms, one time in eight 2 s (the slow tail)', '一个任务：通常约 100 毫秒，八次里有一次要 2 秒（慢尾）'),
    },
    { op: 'leave' },
    releaseWithLua(text('release; 0 means the lease ran out during the job', '释放；返回 0 表示任务期间租期已经到期')),
    { op: 'set', var: 'jobs', value: '${jobs}', add: 1 },
    { op: 'if', when: { test: 'lt', left: '${jobs}', right: '${jobCount}' }, goto: 'acquire' },
    { op: 'end' },
  ];
}

/** B runs the same kind of service: a stream of fast jobs under the same lock. */
function other(): Step[] {
  return [
    { op: 'set', var: 'jobs', value: '0' },
    { op: 'command', label: 'acquire', argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'acquired', note: text('B wants the lock too', 'B 也想拿到锁') },
    { op: 'if', when: { test: 'notNil', reply: 'acquired' }, goto: 'locked' },
    { op: 'retry', goto: 'acquire', afterMs: 50, attemptCountMax: 200, note: text('taken: try again in 50 ms', '锁被占用：50 毫秒后再试') },
    { op: 'end', note: text('give up', '放弃') },
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 100, note: text('one of B\'s jobs: 100 ms', 'B 的一个任务：100 毫秒') },
    { op: 'leave' },
    releaseWithLua(),
    { op: 'set', var: 'jobs', value: '${jobs}', add: 1 },
    { op: 'if', when: { test: 'lt', left: '${jobs}', right: '${jobCount}' }, goto: 'acquire' },
    { op: 'end' },
  ];
}

function clients(): ClientSpec[] {
  return [
    { id: 'A', program: holder() },
    { id: 'B', program: other() },
  ];
}

export const leaseSizing: Scenario = {
  id: 'lease-sizing',
  title: text('Sizing the lease: the average job, or the slow tail', '租期该设多长：按平均耗时，还是按慢尾'),
  summary: text(
    'Jobs take about 100 ms, sometimes 2 s. A 150 ms lease lapses on the slow job and B walks in; a 4 s lease does not.',
    '任务通常约 100 毫秒，偶尔要 2 秒。150 毫秒的租期在慢任务上到期，B 闯了进来；4 秒的租期则不会。',
  ),
  lesson: text(
    'A lease must outlast the critical section, and the critical section\'s time is a distribution, not a number. Here A runs ' +
      'eight jobs under the lock; most take about 100 ms, but one in eight takes 2 s (a GC, a slow query: the tail every real ' +
      'service has). Sized from the average (150 ms, half again as long as a typical job), the lease holds for the fast jobs and ' +
      'lapses on the slow one: B, which has been retrying every 50 ms, takes the lock while A is still inside, and A\'s release ' +
      'answers 0. Sized from the tail with a margin (4 s), it never lapses here, at the price of a longer wait for everyone when ' +
      'a holder dies. Measure the job time\'s high percentiles (p99, the maximum), size the lease above them, put a deadline on ' +
      'the work itself, and use a watchdog (see watchdog) when no fixed lease fits. The job times here are drawn from the run\'s ' +
      'seed: change the seed and the slow job moves.',
    '租期必须比临界区更长，而临界区的耗时是一个分布，不是一个数。这里 A 在锁的保护下连续执行八个任务；大多数约 100 毫秒，' +
      '但八次里有一次要 2 秒（GC、慢查询：每个真实服务都有的长尾）。按平均耗时设定（150 毫秒，比典型任务长一半），' +
      '租期对快任务够用，却在慢任务上到期：一直每 50 毫秒重试的 B 在 A 仍在临界区时拿到了锁，A 的释放返回 0。' +
      '按长尾再留余量设定（4 秒），这里就从不会到期，代价是持有者死掉时所有人要多等。要测量任务耗时的高百分位（p99、最大值），' +
      '让租期高于它们，给业务本身设截止时间，在没有合适的固定租期时使用看门狗（见 watchdog）。这里的任务耗时取自本次运行的种子：换一个种子，慢任务的位置就会变。',
  ),
  params: { lockKey: 'lock', ttlMs: '150', jobCount },
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  defaultSchedule: 'A B +5000',
  narration: [
    { step: 0, text: text('A takes the lock for its first job; its lease is 150 ms.', 'A 为第一个任务加锁；租期 150 毫秒。') },
    { step: 1, text: text('B arrives, is refused, and retries every 50 ms.', 'B 到来，加锁失败，每 50 毫秒重试一次。') },
    {
      step: 2,
      text: text(
        'A and B take turns, each job inside the lease. On A\'s 2 s job (from t=600) the 150 ms lease lapses after t=750; B\'s retry at t=800 takes the lock and B runs job after job while A is still inside. A\'s release at t=2600 answers 0.',
        'A 和 B 轮流执行，每个任务都在租期内完成。在 A 的 2 秒任务上（从 t=600 开始），150 毫秒的租期在 t=750 之后到期；B 在 t=800 的重试拿到了锁，在 A 仍在临界区时一个接一个地执行任务。A 在 t=2600 的释放返回 0。',
      ),
    },
  ],
  variants: [
    {
      id: 'average',
      title: text('Lease from the average: 150 ms', '按平均耗时设租期：150 毫秒'),
      summary: text('Fine for the typical job; the slow one outlives it.', '对典型任务够用；慢任务却比它活得久。'),
      clients: clients(),
      params: { ttlMs: ttlMsOf.average },
      expect: { violations: ['mutual-exclusion'], absent: ['foreign-release'] },
    },
    {
      id: 'tail',
      title: text('Lease from the slow tail: 4 s', '按慢尾设租期：4 秒'),
      summary: text('Every job, the slow one included, finishes inside the lease.', '每个任务，包括慢任务，都在租期内完成。'),
      clients: clients(),
      params: { ttlMs: ttlMsOf.tail },
      narration: [
        {
          step: 2,
          text: text(
            'A and B take turns; even A\'s 2 s job finishes inside the 4 s lease, so B waits for it and gets the lock when A releases.',
            'A 和 B 轮流执行；即使是 A 的 2 秒任务也在 4 秒租期内完成，所以 B 一直等待，直到 A 释放后才拿到锁。',
          ),
        },
      ],
      expect: { violations: [], absent: ['mutual-exclusion', 'foreign-release'] },
    },
  ],
  defaultVariant: 'average',
  explore: {
    depthMax: 12,
    note: { en: 'Searched up to 12 choices.', zh: '搜索最多 12 个选择。' },
  },
};
