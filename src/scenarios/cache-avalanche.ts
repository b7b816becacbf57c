import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { text } from './common';

/*
 * Cache avalanche (缓存雪崩): many hot keys cached at the same moment with the same TTL expire at
 * the same moment, and every one of them is rebuilt from the database at once: a burst of queries
 * the database cannot take (the load-spike checker). Fix: add a random jitter to each TTL (drawn
 * here from the run's seeded RNG, so a run replays) so the keys expire, and are rebuilt, apart.
 */

type Variant = 'same-ttl' | 'jittered-ttl';

const hotKeys = ['product:1', 'product:2', 'product:3', 'product:4'];
const requestClients = ['A', 'B', 'C', 'D'];

/** The TTL for one key: the same for all, or the same plus a random 0..ttlJitterMs. */
function chooseTtl(variant: Variant): Step {
  return variant === 'same-ttl'
    ? { op: 'set', var: 'ttlMs', value: '${cacheTtlMs}', note: text('every key gets the same TTL', '每个键的 TTL 都一样') }
    : {
        op: 'set',
        var: 'ttlMs',
        value: '${cacheTtlMs}',
        jitterMax: 2000,
        note: text('the TTL plus a random 0-2000 ms, drawn from the run\'s seed', 'TTL 再加上 0 到 2000 毫秒的随机量，取自本次运行的种子'),
      };
}

/** W: the warm-up job at deploy time loads every hot key in one batch query. */
function warmUp(variant: Variant): Step[] {
  return [
    { op: 'work', durationMs: 200, note: text('one batch query loads the hot products', '一次批量查询加载所有热点商品') },
    { op: 'mark', counter: 'dbReads', note: text('one database query (the batch)', '一次数据库查询（批量）') },
    ...hotKeys.flatMap((key, i): Step[] => [
      chooseTtl(variant),
      { op: 'command', argv: ['SET', key, `product ${i + 1} from db`, 'PX', '${ttlMs}'], note: text('cache it with its TTL', '连同 TTL 一起写入缓存') },
    ]),
    { op: 'end' },
  ];
}

/** A request stream for one hot key: read the cache every 200 ms; on a miss, query and cache again. */
function requests(variant: Variant): Step[] {
  return [
    { op: 'command', label: 'request', argv: ['GET', '${key}'], saveAs: 'cached', note: text('a request for this hot product: read the cache', '一个请求这个热点商品的请求：读缓存') },
    { op: 'if', when: { test: 'notNil', reply: 'cached' }, goto: 'served' },
    { op: 'mark', counter: 'dbReads', note: text('cache miss: send the query to the database', '缓存未命中：向数据库发出查询') },
    { op: 'work', durationMs: 100, note: text('the query takes 100 ms', '查询耗时 100 毫秒') },
    chooseTtl(variant),
    { op: 'command', argv: ['SET', '${key}', '${key} from db', 'PX', '${ttlMs}'], note: text('cache it again', '重新写入缓存') },
    { op: 'set', label: 'served', var: 'served', value: '${served}', add: 1 },
    { op: 'if', when: { test: 'ge', left: '${served}', right: '${requestCountMax}' }, goto: 'stop' },
    { op: 'sleep', durationMs: 200, note: text('the next request comes 200 ms later', '下一个请求 200 毫秒后到来') },
    { op: 'goto', goto: 'request' },
    { op: 'end', label: 'stop' },
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'W', program: warmUp(variant) },
    ...requestClients.map((id, i): ClientSpec => ({ id, program: requests(variant), vars: { key: hotKeys[i], served: '0' } })),
  ];
}

export const cacheAvalanche: Scenario = {
  id: 'cache-avalanche',
  title: text('Cache avalanche: many keys expire at once', '缓存雪崩：大量键同时过期'),
  summary: text(
    'Hot keys loaded together with one TTL expire together, and their rebuilds hit the database at the same instant; a jittered TTL spreads them out.',
    '一起加载、TTL 相同的热点键会一起过期，它们的重建在同一时刻打到数据库上；给 TTL 加随机抖动就能把它们错开。',
  ),
  lesson: text(
    'A warm-up job loads the four hot products into the cache at deploy time, each with a TTL of 2 s (hours in real life). ' +
      'Keys written at the same moment with the same TTL expire at the same moment, so the next request for each misses at ' +
      'once and four rebuild queries reach the database in the same instant, more than the 2 per 100 ms it takes here (on a real ' +
      'site: thousands of keys, and a database that falls over: a cache avalanche). And because they are rebuilt together with ' +
      'the same TTL again, they stay in step and do it again at every expiry. The fix is to add a random jitter to each TTL ' +
      '(TTL + random(0..2000 ms) here; minutes on hours in practice): the keys now expire at different times, their rebuilds ' +
      'spread out (in this run, at most two at once), and since every rebuild draws a new jitter, two keys that happen to expire together once are unlikely to do so again. The jitter in this run is drawn from its ' +
      'seed, so the run replays exactly; change the seed and the expiry times move. Other defences work with it: keep the ' +
      'hottest keys from expiring (refresh them in the background before a logical expiry), let one request per key rebuild ' +
      '(the mutex of cache-breakdown), and limit or degrade the traffic that reaches the database. The same word also names ' +
      'the cache itself going down, when every request goes to the database at once: that one is answered with replicas and ' +
      'failover, a local cache in front, and rate limiting, not with TTLs.',
    '部署时，一个预热任务把四个热点商品加载进缓存，每个的 TTL 都是 2 秒（现实中是几小时）。' +
      '同一时刻写入、TTL 相同的键会在同一时刻过期，于是每个键的下一个请求同时未命中，四条重建查询在同一瞬间到达数据库，' +
      '超过了这里数据库能承受的每 100 毫秒 2 次（真实网站上是成千上万个键，外加一个被压垮的数据库：这就是缓存雪崩）。' +
      '而且它们又以相同的 TTL 一起重建，于是始终步调一致，每次过期都会重演一遍。修复方法是给每个 TTL 加上随机抖动' +
      '（这里是 TTL + random(0..2000 毫秒)；实践中是在几小时上加几分钟）：键在不同的时刻过期，重建也随之分散开来（本次运行中最多两个同时发生）；' +
      '而且每次重建都会重新抽取抖动，偶然一起过期过一次的两个键，下一次就不太可能再碰到一起。本次运行的抖动取自种子，因此可以精确重放；换一个种子，过期时刻就会变。' +
      '还有一些防御手段可以配合使用：让最热的键不过期（在逻辑过期之前由后台刷新）、每个键只让一个请求去重建（见 cache-breakdown 的互斥锁）、' +
      '对到达数据库的流量限流或降级。这个词也指缓存本身宕机、所有请求同时涌向数据库的情况：那要靠副本与故障转移、前置的本地缓存和限流来应对，而不是靠 TTL。',
  ),
  params: { cacheTtlMs: '2000', requestCountMax: '40' },
  lockKey: 'lock',
  counters: [{ id: 'dbReads', key: 'db', initial: 0, kind: 'db-read', burstMax: 2, burstWindowMs: 100 }],
  defaultSchedule: 'W +300 A B C D +2000 +4000',
  narration: [
    { step: 0, text: text('W, the warm-up job at deploy time, loads the four hot products in one batch query (200 ms).', '部署时的预热任务 W 用一次批量查询（200 毫秒）加载四个热点商品。') },
    {
      step: 1,
      text: text(
        'At t=200 W caches them, each with a TTL of 2000 ms: written together, they will all expire after t=2200.',
        't=200 时 W 把它们写入缓存，TTL 都是 2000 毫秒：一起写入，也将在 t=2200 之后一起过期。',
      ),
    },
    { step: 2, text: text('A serves the requests for product:1, one every 200 ms: cache hits.', 'A 处理 product:1 的请求，每 200 毫秒一个：全部命中缓存。') },
    { step: 5, text: text('B, C and D serve product:2, product:3 and product:4 the same way.', 'B、C、D 以同样的方式处理 product:2、product:3 和 product:4。') },
    {
      step: 6,
      text: text(
        'The four keys expired together after t=2200. At t=2300 the next request for each one misses: four queries reach the database in the same instant, more than the 2 per 100 ms it takes.',
        '四个键在 t=2200 之后一起过期。t=2300 时，每个键的下一个请求都未命中：四条查询在同一瞬间到达数据库，超过了它每 100 毫秒能承受的 2 条。',
      ),
    },
    {
      step: 7,
      text: text(
        'Rebuilt together at t=2400 with the same TTL, the keys expire together again after t=4400, and at t=4600 the spike repeats: keys that expire together stay together.',
        't=2400 时它们以相同的 TTL 一起重建，于是在 t=4400 之后又一起过期，t=4600 时尖峰重演：一起过期的键会一直一起过期。',
      ),
    },
  ],
  variants: [
    {
      id: 'same-ttl',
      title: text('Every key with the same TTL', '每个键的 TTL 都相同'),
      summary: text('The four keys expire together and four rebuild queries arrive at once.', '四个键一起过期，四条重建查询同时到达。'),
      clients: clients('same-ttl'),
      expect: { violations: ['load-spike'], absent: [] },
    },
    {
      id: 'jittered-ttl',
      title: text('TTL plus a random jitter', 'TTL 加随机抖动'),
      summary: text('Each key expires at its own time; the rebuilds come one or two at a time.', '每个键在各自的时刻过期；重建一次只来一两个。'),
      clients: clients('jittered-ttl'),
      narration: [
        {
          step: 1,
          text: text(
            'At t=200 W caches them with a TTL of 2000 ms plus a random 0-2000 ms from the seed: 2494, 3050, 2580 and 2450 ms, so product:4 expires after t=2650, product:1 after t=2694, product:3 after t=2780 and product:2 after t=3250.',
            't=200 时 W 把它们写入缓存，TTL 为 2000 毫秒再加 0 到 2000 毫秒的随机量（取自种子）：2494、3050、2580 和 2450 毫秒，于是 product:4 在 t=2650 之后过期，product:1 在 t=2694 之后，product:3 在 t=2780 之后，product:2 在 t=3250 之后。',
          ),
        },
        { step: 6, text: text('At t=2300 every key is still cached: every request hits.', 't=2300 时每个键都还在缓存里：每个请求都命中。') },
        {
          step: 7,
          text: text(
            'A and D miss at t=2700 (two queries at once: what the database takes; jitter makes coincidences rarer, not impossible), C at t=2900, B at t=3300. Each rebuild draws a new jitter, so the next misses come one at a time, at t=5600, 6000 and 6200.',
            'A 和 D 在 t=2700 未命中（同时两条查询：数据库承受得住；抖动让巧合变少，但不会让它不可能），C 在 t=2900，B 在 t=3300。每次重建都重新抽取抖动，所以之后的未命中一次只来一个，分别在 t=5600、6000 和 6200。',
          ),
        },
      ],
      expect: { violations: [], absent: ['load-spike'] },
    },
  ],
  defaultVariant: 'same-ttl',
  explore: {
    depthMax: 4,
    note: {
      en: 'Searched up to 4 choices: with many requests the schedules multiply fast (depth 8 is more than 200,000 states). Three requests at the same moment on a cold cache spike the database under either TTL (found in 3 choices): jitter spreads the later expiries, not a cold start.',
      zh: '搜索最多 4 个选择：请求很多时调度数量增长极快（深度 8 就超过 200,000 个状态）。冷缓存时同一时刻的三个请求在两种 TTL 下都会压垮数据库（3 个选择内即可找到）：抖动分散的是之后的过期，而不是冷启动。',
    },
  },
};
