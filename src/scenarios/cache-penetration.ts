import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { text } from './common';

/*
 * Cache penetration (缓存穿透): requests for a key the database does not have. The cache only
 * stores what the database returned, so every such request misses and queries the database
 * again. Fixes: cache the miss itself (a marker value with a short TTL), or check the id against
 * a set of known ids first (a set here, standing in for a Bloom filter) so unknown ids never reach
 * the cache or the database.
 */

type Variant = 'no-cache' | 'cache-null' | 'filter';

/** A database query: it takes time, and the counter records it. */
function query(): Step[] {
  return [
    { op: 'work', durationMs: 100, note: text('cache miss: query the database (SELECT ... WHERE id = 404)', '缓存未命中：查询数据库（SELECT ... WHERE id = 404）') },
    { op: 'mark', counter: 'queries', note: text('one database query for product:404: no such row', '为 product:404 查询了一次数据库：没有这一行') },
  ];
}

function afterEmptyQuery(variant: Variant): Step[] {
  return variant === 'cache-null'
    ? [
        {
          op: 'command',
          argv: ['SET', '${cacheKey}', '${nullMarker}', 'EX', '${nullTtlSeconds}'],
          note: text('cache the miss: a marker meaning "no such product", for 60 s', '把未命中也缓存起来：一个表示"没有这个商品"的标记值，保留 60 秒'),
        },
        { op: 'goto', goto: 'notFound' },
      ]
    : [{ op: 'goto', goto: 'notFound', note: text('nothing to cache: the database returned no row', '没有可缓存的东西：数据库没有返回任何行') }];
}

/** One request handler serving `requestCountMax` requests for product 404, one after another. */
function server(variant: Variant): Step[] {
  const filter: Step[] =
    variant === 'filter'
      ? [
          {
            op: 'command',
            label: 'request',
            argv: ['SISMEMBER', '${idsKey}', '${productId}'],
            saveAs: 'known',
            note: text('is this an id we have? (a set standing in for a Bloom filter)', '这个 id 存在吗？（用集合代替布隆过滤器）'),
          },
          { op: 'if', when: { test: 'eq', left: '${known}', right: '0' }, goto: 'notFound' },
        ]
      : [];
  return [
    ...filter,
    {
      op: 'command',
      ...(variant === 'filter' ? {} : { label: 'request' }),
      argv: ['GET', '${cacheKey}'],
      saveAs: 'cached',
      note: text('a request for product 404: read the cache', '一个请求 404 号商品的请求：读缓存'),
    },
    { op: 'if', when: { test: 'notNil', reply: 'cached' }, goto: 'hit' },
    ...query(),
    ...afterEmptyQuery(variant),
    {
      op: 'if',
      label: 'hit',
      when: { test: 'eq', left: '${cached}', right: '${nullMarker}' },
      goto: 'notFound',
      note: text('the marker: we already know there is no such product', '标记值：我们已经知道没有这个商品'),
    },
    { op: 'set', var: 'answer', value: '${cached}', note: text('a real product: serve it from the cache', '真实存在的商品：直接用缓存里的数据响应') },
    { op: 'goto', goto: 'served' },
    { op: 'set', label: 'notFound', var: 'answer', value: '404 not found' },
    { op: 'set', label: 'served', var: 'served', value: '${served}', add: 1 },
    { op: 'if', when: { test: 'lt', left: '${served}', right: '${requestCountMax}' }, goto: 'request' },
    { op: 'end' },
  ];
}

function clients(variant: Variant): ClientSpec[] {
  return ['A', 'B'].map((id) => ({ id, program: server(variant), vars: { served: '0' } }));
}

export const cachePenetration: Scenario = {
  id: 'cache-penetration',
  title: text('Cache penetration: a key the database does not have', '缓存穿透：数据库里根本没有的键'),
  summary: text(
    'Requests for product 404 miss the cache and query the database every time; cache the miss, or filter unknown ids first.',
    '请求 404 号商品时每次都未命中缓存、每次都查数据库；把未命中也缓存起来，或者先过滤掉不存在的 id。',
  ),
  lesson: text(
    'A cache stores what the database returned, so a key the database does not have is never cached: every request for it ' +
      'misses and queries the database again. A broken link on a busy page, or a scraper walking through ids that do not exist, ' +
      'turns the cache into a pass-through and sends all of that load to the database (cache penetration). Here two request ' +
      'handlers ask for product 404, three times each: six queries for a row that is not there. The first fix caches the miss ' +
      'itself: on an empty result, SET product:404 NOT_FOUND EX 60, and treat that marker as "no such product". Repeated requests ' +
      'for that id now hit the cache: one query. Give the marker a short TTL, or delete it when the product is created, or a ' +
      'new product stays hidden behind it; and note that it does not help against ids that change with every request: each ' +
      'new id costs one query and one cached marker. The second fix stops unknown ids before the cache: check the id against ' +
      'the set of ids that exist (SISMEMBER product:ids 404) and answer "not found" at once: no query at all. The set stands in ' +
      'for a Bloom filter, which is what people use at scale (BF.ADD and BF.EXISTS from Redis\'s Bloom module; the Redis 7.0 ' +
      'simulated here does not have it): it takes a few bits per id instead of the whole id, and answers "definitely not there" ' +
      'or "maybe there"; a wrong "maybe" goes on to the cache and database as before, and it never says "not there" for an id ' +
      'that was added. Every new id must be added to it, and a plain Bloom filter cannot remove one.',
    '缓存保存的是数据库返回的结果，所以数据库里没有的键永远不会被缓存：每次请求它都会未命中，再查一次数据库。' +
      '热门页面上的一个失效链接，或者一个按 id 逐个抓取不存在数据的爬虫，都会让缓存形同虚设，把全部压力转给数据库，这就是缓存穿透。' +
      '这里两个请求处理者各请求 3 次 404 号商品：为一行根本不存在的数据查询了六次。第一种修复是把未命中本身也缓存起来：' +
      '查询结果为空时执行 SET product:404 NOT_FOUND EX 60，并把这个标记值当作"没有这个商品"。之后对这个 id 的重复请求都会命中缓存：只查一次。' +
      '标记值要设较短的 TTL，或者在商品被创建时删除它，否则新商品会一直被它挡住；另外，它对每次都换一个 id 的请求无能为力：' +
      '每个新 id 都要花一次查询、留下一个标记值。第二种修复是在缓存之前就拦下未知的 id：先拿 id 去存在的 id 集合里查' +
      '（SISMEMBER product:ids 404），不在其中就立即回答"不存在"：一次查询都没有。这里的集合代替的是布隆过滤器，' +
      '大规模场景下用的是后者（Redis 布隆模块的 BF.ADD 和 BF.EXISTS；这里模拟的 Redis 7.0 没有这个模块）：它每个 id 只占几个比特而不是整个 id，' +
      '回答"一定不存在"或"可能存在"；误判的"可能存在"会像以前一样继续去查缓存和数据库，而对已经加入的 id，它绝不会回答"不存在"。' +
      '每个新 id 都必须加进去，而普通的布隆过滤器无法删除 id。',
  ),
  params: { cacheKey: 'product:404', productId: '404', idsKey: 'product:ids', nullMarker: 'NOT_FOUND', nullTtlSeconds: '60', requestCountMax: '3' },
  lockKey: 'lock',
  setup: [['SADD', 'product:ids', '41', '42', '43']],
  counters: [{ id: 'queries', key: 'product:404', initial: 1, kind: 'rebuild' }],
  defaultSchedule: 'A +100 B +500',
  narration: [
    { step: 0, text: text('A\'s request for product 404 misses the cache and starts a 100 ms database query.', 'A 请求 404 号商品，缓存未命中，开始一次 100 毫秒的数据库查询。') },
    {
      step: 1,
      text: text(
        'At t=100 the query returns no row. There is nothing to cache, so A\'s next request misses again and queries again.',
        't=100 时查询没有返回任何行。没有可缓存的东西，所以 A 的下一个请求再次未命中，再次查询。',
      ),
    },
    { step: 2, text: text('B asks for product 404 too: a miss, and one more query for the same missing row.', 'B 也请求 404 号商品：未命中，为同一行不存在的数据又查询一次。') },
    {
      step: 3,
      text: text(
        'Every request ends at the database: six queries for a row that does not exist. With ids chosen to miss, the cache protects nothing.',
        '每个请求最后都落到了数据库上：为一行不存在的数据查询了六次。只要 id 专挑不存在的，缓存就什么也保护不了。',
      ),
    },
  ],
  variants: [
    {
      id: 'no-cache',
      title: text('Cache only what the database returned', '只缓存数据库返回的结果'),
      summary: text('Six requests for a missing product, six database queries.', '六个请求一个不存在的商品，六次数据库查询。'),
      clients: clients('no-cache'),
      expect: { violations: ['duplicate-rebuild'], absent: [] },
    },
    {
      id: 'cache-null',
      title: text('Cache the miss: a marker with a TTL', '缓存未命中：带 TTL 的标记值'),
      summary: text('The first query\'s empty result is cached as a marker for 60 s; every later request hits it.', '第一次查询的空结果以标记值的形式缓存 60 秒；之后的每个请求都命中它。'),
      clients: clients('cache-null'),
      narration: [
        {
          step: 1,
          text: text(
            'At t=100 the query returns no row. A caches that: SET product:404 NOT_FOUND EX 60. A\'s next two requests hit the marker and answer "not found" without the database.',
            't=100 时查询没有返回任何行。A 把这个结果缓存起来：SET product:404 NOT_FOUND EX 60。A 接下来的两个请求命中这个标记值，不查数据库就回答"不存在"。',
          ),
        },
        { step: 2, text: text('B asks for product 404: a hit on the marker, no query.', 'B 请求 404 号商品：命中标记值，不查询。') },
        {
          step: 3,
          text: text(
            'One query in all. The marker lives 60 s: a product 404 created meanwhile stays hidden unless creating it deletes the marker, and a new id on every request would still cost one query each.',
            '总共只查了一次。标记值存活 60 秒：这期间若创建了 404 号商品，除非创建时删除标记，否则它会一直被挡住；而每次请求都换一个新 id 的话，每个 id 仍要查一次。',
          ),
        },
      ],
      expect: { violations: [], absent: ['duplicate-rebuild'] },
    },
    {
      id: 'filter',
      title: text('Check known ids first (a set standing in for a Bloom filter)', '先查已知 id（用集合代替布隆过滤器）'),
      summary: text('404 is not among the known ids: every request is answered at once, with no cache read and no query.', '404 不在已知 id 中：每个请求都立即得到回答，不读缓存，也不查询。'),
      clients: clients('filter'),
      narration: [
        { step: 0, text: text('A\'s request first asks whether 404 is a known id: SISMEMBER answers 0. A answers "not found" at once.', 'A 的请求先问 404 是不是已知的 id：SISMEMBER 返回 0。A 立即回答"不存在"。') },
        { step: 1, text: text('A\'s other requests are answered the same way: no cache read, no database query.', 'A 的其他请求也同样处理：不读缓存，不查数据库。') },
        { step: 2, text: text('B\'s request is stopped by the same check.', 'B 的请求也被同一道检查拦下。') },
        {
          step: 3,
          text: text(
            'Zero queries. A Bloom filter does this in a few bits per id, with rare false "maybe"s that go on to the cache and database; every new product must be added to it.',
            '一次查询都没有。布隆过滤器每个 id 只用几个比特就能做到这一点，偶尔会误报"可能存在"，这些请求会照常去查缓存和数据库；每个新商品都必须加进去。',
          ),
        },
      ],
      expect: { violations: [], absent: ['duplicate-rebuild'] },
    },
  ],
  defaultVariant: 'no-cache',
  explore: {
    note: {
      en: 'Caching the miss does not stop two requests that miss at the same moment from both querying the database: the explorer finds that in 3 choices. The filter answers unknown ids without the database at all.',
      zh: '缓存未命中标记挡不住同一时刻同时未命中的两个请求都去查询数据库：探索器在 3 个选择内就能找到。过滤器则根本不查数据库就能回答未知 id。',
    },
  },
};
