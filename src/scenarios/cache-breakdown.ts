import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { COMPARE_AND_DELETE } from './scripts';
import { text } from './common';

/*
 * Cache breakdown (缓存击穿): one hot key expires and every request that misses rebuilds it from
 * the database at the same moment. Fix: a mutex (SET NX PX) so one request rebuilds while the
 * others wait briefly and read the cache again; the mutex's lease must outlast the rebuild, or a
 * second rebuild starts anyway.
 */

type Variant = 'no-mutex' | 'mutex' | 'mutex-expires';

const rebuildMs = 1000;
/** The mutex's lease: longer than the rebuild, or (mutex-expires) shorter. */
const mutexTtlMsOf: Record<Variant, string> = { 'no-mutex': '3000', mutex: '3000', 'mutex-expires': '500' };

/** One request handler serving `requestCountMax` requests for the hot key, one after another. */
function server(variant: Variant): Step[] {
  const serve: Step[] = [
    { op: 'command', label: 'request', argv: ['GET', '${cacheKey}'], saveAs: 'cached', note: text('a request: read the cache', '一个请求：读缓存') },
    { op: 'if', when: { test: 'nil', reply: 'cached' }, goto: 'miss' },
    { op: 'set', label: 'served', var: 'served', value: '${served}', add: 1 },
    { op: 'if', when: { test: 'lt', left: '${served}', right: '${requestCountMax}' }, goto: 'request' },
    { op: 'end' },
  ];
  const rebuild: Step[] = [
    { op: 'work', durationMs: rebuildMs, note: text('cache miss: run the slow database query', '缓存未命中：执行耗时的数据库查询') },
    { op: 'mark', counter: 'rebuilds', note: text('one database read to rebuild the cache', '为重建缓存读了一次数据库') },
    { op: 'command', argv: ['SET', '${cacheKey}', 'product-42-from-db', 'EX', '60'], note: text('put the fresh value back in the cache', '把新值写回缓存') },
  ];
  if (variant === 'no-mutex') return [...serve, { ...rebuild[0], label: 'miss' }, ...rebuild.slice(1), { op: 'goto', goto: 'served' }];
  return [
    ...serve,
    {
      op: 'command',
      label: 'miss',
      argv: ['SET', '${mutexKey}', '${token}', 'NX', 'PX', mutexTtlMsOf[variant]],
      saveAs: 'mutex',
      note: text('cache miss: only the request that gets the mutex rebuilds', '缓存未命中：只有拿到互斥锁的请求才去重建'),
    },
    { op: 'if', when: { test: 'notNil', reply: 'mutex' }, goto: 'locked' },
    { op: 'retry', goto: 'request', afterMs: 250, attemptCountMax: 10, note: text('someone is rebuilding: wait a little, then read the cache again', '有人正在重建：稍等片刻，再读一次缓存') },
    { op: 'end', note: text('give up (the caller sees an error)', '放弃（调用方收到错误）') },
    {
      op: 'command',
      label: 'locked',
      argv: ['GET', '${cacheKey}'],
      saveAs: 'cached',
      note: text('double-check: someone may have rebuilt it between my miss and my mutex', '二次检查：在我未命中与拿到互斥锁之间，可能已有人重建了它'),
    },
    { op: 'if', when: { test: 'notNil', reply: 'cached' }, goto: 'unlock' },
    ...rebuild,
    {
      op: 'eval',
      label: 'unlock',
      script: 'compareAndDelete',
      keys: ['${mutexKey}'],
      args: ['${token}'],
      saveAs: 'released',
      note: text('release the mutex, only if it is still mine', '释放互斥锁，仅当它仍属于我'),
    },
    { op: 'goto', goto: 'served' },
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return ['A', 'B', 'C'].map((id) => ({ id, program: server(variant), vars: { served: '0' } }));
}


export const cacheBreakdown: Scenario = {
  id: 'cache-breakdown',
  title: text('Cache breakdown: everyone rebuilds the hot key at once', '缓存击穿：所有人同时重建热点键'),
  summary: text(
    'A hot cache key expires and every request that misses queries the database; a mutex lets one rebuild.',
    '热点缓存键过期，每个未命中的请求都去查数据库；互斥锁让只有一个请求去重建。',
  ),
  lesson: text(
    'The product page is served from the cache key product:42, which has just expired. Three requests arrive together, all miss, ' +
      'and all run the same slow database query to rebuild it: three database reads for one value, and on a real hot key thousands, ' +
      'enough to take the database down (cache breakdown). The usual fix is a mutex: on a miss, SET mutex token NX PX 3000; the one ' +
      'request that gets it reads the cache once more (another request may have rebuilt it meanwhile: the double-check), rebuilds, ' +
      'writes the cache and releases the mutex with the compare-and-delete script; the others sleep briefly and read the cache ' +
      'again. One database read. The mutex is a lease like any lock here: if the rebuild takes longer ' +
      'than its TTL (500 ms against a 1 s query), it expires mid-rebuild and the next request starts a second rebuild. Give the ' +
      'mutex a lease longer than the slowest rebuild, or avoid expiry for hot keys altogether (a logical expiry field rebuilt in the ' +
      'background, or no TTL on keys that must stay hot).',
    '商品页从缓存键 product:42 读取数据，而这个键刚刚过期。三个请求同时到达，全部未命中，全部执行同一条耗时的数据库查询来重建缓存：' +
      '同一个值读了三次数据库；在真正的热点键上会是成千上万次，足以压垮数据库，这就是缓存击穿。常见的修复是互斥锁：' +
      '未命中时执行 SET mutex token NX PX 3000，拿到锁的那个请求先再读一次缓存（在此期间可能已有别的请求重建了它：这就是二次检查），再负责重建、写回缓存，然后用比较并删除脚本释放互斥锁；' +
      '其他请求稍睡片刻后重新读缓存。只读一次数据库。互斥锁和这里所有的锁一样也是一份租约：如果重建时间比它的 TTL 还长' +
      '（1 秒的查询配 500 毫秒的锁），锁会在重建中途过期，下一个请求就会开始第二次重建。要么让互斥锁的租期长于最慢的一次重建，' +
      '要么干脆不让热点键过期（用逻辑过期字段在后台重建，或者对必须常驻的热点键不设 TTL）。',
  ),
  params: { cacheKey: 'product:42', mutexKey: 'mutex:product:42', lockKey: 'mutex:product:42', requestCountMax: '4' },
  lockKey: 'mutex:product:42',
  counters: [{ id: 'rebuilds', key: 'product:42', initial: 1, kind: 'rebuild' }],
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  defaultSchedule: 'A B C +999 C A A +1000',
  narration: [
    { step: 0, text: text('product:42 has just expired. A\'s request misses and starts the 1 s database query.', 'product:42 刚刚过期。A 的请求未命中，开始执行 1 秒的数据库查询。') },
    { step: 1, text: text('B misses too, and starts the very same query.', 'B 也未命中，开始执行同一条查询。') },
    { step: 2, text: text('And so does C: three identical queries are running.', 'C 也一样：三条相同的查询同时在跑。') },
    { step: 4, text: text('At t=1000 C\'s query returns and C writes the cache: one database read.', 't=1000 时 C 的查询返回，C 写回缓存：读了一次数据库。') },
    { step: 5, text: text('A\'s query returns too: a second database read for the same value.', 'A 的查询也返回了：为同一个值第二次读数据库。') },
    { step: 7, text: text('And B\'s: a third. On a real hot key this is thousands of queries at once. From here on every request hits the cache.', 'B 的也返回了：第三次。真实的热点键上，这会是同时成千上万次查询。此后每个请求都命中缓存。') },
  ],
  variants: [
    {
      id: 'no-mutex',
      title: text('Every miss rebuilds', '每次未命中都重建'),
      summary: text('Three requests, three database reads for one value.', '三个请求，同一个值读了三次数据库。'),
      clients: clients('no-mutex'),
      expect: { violations: ['duplicate-rebuild'], absent: ['mutual-exclusion', 'foreign-release'] },
    },
    {
      id: 'mutex',
      title: text('Mutex: one rebuilds, the others wait and re-read', '互斥锁：一个重建，其余等待后重读'),
      summary: text('One database read; B and C read the rebuilt cache.', '只读一次数据库；B 和 C 读到重建后的缓存。'),
      clients: clients('mutex'),
      narration: [
        { step: 0, text: text('product:42 has just expired. A\'s request misses.', 'product:42 刚刚过期。A 的请求未命中。') },
        { step: 1, text: text('B\'s request misses too.', 'B 的请求也未命中。') },
        { step: 2, text: text('And C\'s.', 'C 的也是。') },
        { step: 3, text: text('A gets the mutex, reads the cache once more (still a miss) and starts the 1 s query. B and C are refused the mutex; every 250 ms they read the cache again: still a miss.', 'A 拿到互斥锁，再读一次缓存（仍未命中），开始 1 秒的查询。B 和 C 没拿到互斥锁；它们每 250 毫秒再读一次缓存：仍未命中。') },
        { step: 4, text: text('At t=1000 C\'s retry reads the cache a moment before A writes it: a miss.', 't=1000 时 C 的重试恰好在 A 写回之前读缓存：未命中。') },
        { step: 5, text: text('A\'s query returns: A writes the cache. One database read.', 'A 的查询返回：A 写回缓存。读了一次数据库。') },
        { step: 6, text: text('A releases the mutex with the compare-and-delete script.', 'A 用比较并删除脚本释放互斥锁。') },
        { step: 7, text: text('C now gets the free mutex. Querying at once would rebuild the cache a second time; C reads the cache first (the double-check), finds A\'s value and releases the mutex. One database read in all.', 'C 此时拿到了空闲的互斥锁。如果立刻查询，就会第二次重建缓存；C 先读一次缓存（二次检查），发现了 A 写回的值，于是释放互斥锁。总共只读了一次数据库。') },
      ],
      expect: { violations: [], absent: ['duplicate-rebuild', 'foreign-release'] },
    },
    {
      id: 'mutex-expires',
      title: text('Mutex lease shorter than the rebuild', '互斥锁租期短于重建耗时'),
      summary: text('The mutex expires mid-rebuild and a second rebuild starts.', '互斥锁在重建中途过期，第二次重建开始了。'),
      clients: clients('mutex-expires'),
      narration: [
        { step: 3, text: text('A gets the mutex with a 500 ms lease for a 1 s query. The lease runs out after t=500 while A still queries; at t=750 B takes the free mutex, reads the cache (still a miss) and starts a second query.', 'A 拿到互斥锁，租期 500 毫秒，而查询要 1 秒。租期在 t=500 之后到期，A 还在查询；t=750 时 B 拿到空闲的互斥锁，读缓存（仍未命中），开始第二次查询。') },
        { step: 4, text: text('At t=1000 C\'s retry reads the cache: still a miss.', 't=1000 时 C 的重试读缓存：仍未命中。') },
        { step: 5, text: text('A\'s query returns: A writes the cache.', 'A 的查询返回：A 写回缓存。') },
        { step: 6, text: text('A\'s release answers 0: the mutex is B\'s now.', 'A 释放时返回 0：互斥锁现在属于 B。') },
        { step: 7, text: text('C is refused the mutex (B\'s) and then hits the cache. At t=1750 B\'s query returns: a second database read for the same value.', 'C 没拿到互斥锁（属于 B），随后命中缓存。t=1750 时 B 的查询返回：为同一个值第二次读了数据库。') },
      ],
      expect: { violations: ['duplicate-rebuild'], absent: ['foreign-release'] },
    },
  ],
  defaultVariant: 'no-mutex',
  explore: {
    depthMax: 10,
    horizonMs: 60_000,
    note: {
      en: 'Searched up to t=60 s, while the rebuilt value is cached: once it expires a new rebuild is expected, and the checker would count it.',
      zh: '搜索到 t=60 秒为止，即重建的值仍在缓存中的时间：过期后本来就会再次重建，而检查器会把它算进去。',
    },
  },
};
