import type { ClientSpec, Scenario } from '../engine/scenario';
import type { Step } from '../engine/program';
import { CHECK_AND_DECREMENT, COMPARE_AND_DELETE } from './scripts';
import { releaseWithLua, text } from './common';

/*
 * The read-modify-write race behind every oversold flash sale: GET stock, check it, SET stock-1.
 * Two buyers read the same last item and both sell it. Four fixes, each with its trade-off: a
 * distributed lock around the check and the write, one Lua script that checks and decrements,
 * DECR first and give the item back (INCR) when the count went negative, or optimistic locking:
 * WATCH the stock, read it, and decrement in MULTI/EXEC, retrying when EXEC answers nil.
 */

type Variant = 'no-lock' | 'lock' | 'lua-decr' | 'decr-check' | 'watch';

const confirm: Step = {
  op: 'command',
  label: 'confirm',
  argv: ['GET', '${stockKey}'],
  saveAs: 'left',
  note: text('show the buyer how many are left', '向买家展示剩余库存'),
};

function buyer(variant: Variant): Step[] {
  switch (variant) {
    case 'no-lock':
      return [
        { op: 'command', argv: ['GET', '${stockKey}'], saveAs: 'stock', note: text('read the stock', '读取库存') },
        { op: 'if', when: { test: 'le', left: '${stock}', right: '0' }, goto: 'confirm' },
        { op: 'set', var: 'newStock', value: '${stock}', add: -1 },
        { op: 'command', argv: ['SET', '${stockKey}', '${newStock}'], note: text('write back stock - 1: by now the read may be stale', '写回库存 - 1：此时读到的值可能已经过时') },
        { op: 'mark', counter: 'sales', note: text('one sold', '卖出一件') },
        confirm,
        { op: 'end' },
      ];
    case 'lock':
      return [
        { op: 'command', label: 'acquire', argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'acquired', note: text('lock the stock', '锁住库存') },
        { op: 'if', when: { test: 'notNil', reply: 'acquired' }, goto: 'locked' },
        { op: 'retry', goto: 'acquire', afterMs: 100, jitterMs: 50, attemptCountMax: 20, note: text('taken: retry soon', '锁被占用：稍后重试') },
        { op: 'end', note: text('give up', '放弃') },
        { op: 'enter', label: 'locked' },
        { op: 'command', argv: ['GET', '${stockKey}'], saveAs: 'stock', note: text('read the stock, under the lock', '在锁的保护下读取库存') },
        { op: 'if', when: { test: 'le', left: '${stock}', right: '0' }, goto: 'release' },
        { op: 'set', var: 'newStock', value: '${stock}', add: -1 },
        { op: 'command', argv: ['SET', '${stockKey}', '${newStock}'], note: text('write back stock - 1: nobody else can be in between', '写回库存 - 1：其间不可能有别人插进来') },
        { op: 'mark', counter: 'sales', note: text('one sold', '卖出一件') },
        { op: 'leave', label: 'release' },
        releaseWithLua(),
        { op: 'end' },
      ];
    case 'lua-decr':
      return [
        { op: 'command', argv: ['GET', '${stockKey}'], saveAs: 'shown', note: text('show the product page with the stock', '展示带库存的商品页') },
        { op: 'eval', script: 'checkAndDecrement', keys: ['${stockKey}'], args: [], saveAs: 'sold', note: text('check and decrement in one atomic script', '在一个原子脚本里检查并扣减') },
        { op: 'if', when: { test: 'ne', left: '${sold}', right: '1' }, goto: 'confirm' },
        { op: 'mark', counter: 'sales', note: text('one sold', '卖出一件') },
        confirm,
        { op: 'end' },
      ];
    case 'watch':
      return [
        { op: 'command', label: 'watch', argv: ['WATCH', '${stockKey}'], note: text('watch the stock: EXEC will fail if anyone changes it', '监视库存：如果有人修改了它，EXEC 就会失败') },
        { op: 'command', argv: ['GET', '${stockKey}'], saveAs: 'stock', note: text('read the stock', '读取库存') },
        { op: 'if', when: { test: 'le', left: '${stock}', right: '0' }, goto: 'soldOut' },
        {
          op: 'transaction',
          commands: [['DECRBY', '${stockKey}', '1']],
          saveAs: 'committed',
          note: text('MULTI, DECRBY, EXEC: nil if the stock changed since WATCH', 'MULTI、DECRBY、EXEC：如果库存在 WATCH 之后被改过，返回 nil'),
        },
        { op: 'if', when: { test: 'nil', reply: 'committed' }, goto: 'conflict' },
        { op: 'mark', counter: 'sales', note: text('one sold', '卖出一件') },
        confirm,
        { op: 'end' },
        {
          op: 'retry',
          label: 'conflict',
          goto: 'watch',
          afterMs: 0,
          attemptCountMax: 5,
          note: text('EXEC answered nil: nothing was written; start over at once (at most 5 times)', 'EXEC 返回 nil：什么都没写入；立即从头再来（最多 5 次）'),
        },
        { op: 'end', note: text('give up', '放弃') },
        { op: 'command', label: 'soldOut', argv: ['UNWATCH'], note: text('sold out: stop watching', '已售罄：取消监视') },
        { ...confirm, label: 'soldOutConfirm' },
        { op: 'end' },
      ];
    case 'decr-check':
      return [
        { op: 'command', argv: ['GET', '${stockKey}'], saveAs: 'shown', note: text('show the product page with the stock', '展示带库存的商品页') },
        { op: 'command', argv: ['DECR', '${stockKey}'], saveAs: 'left', note: text('take one first (atomic)', '先扣一件（原子操作）') },
        { op: 'if', when: { test: 'lt', left: '${left}', right: '0' }, goto: 'giveBack' },
        { op: 'mark', counter: 'sales', note: text('one sold', '卖出一件') },
        confirm,
        { op: 'end' },
        { op: 'command', label: 'giveBack', argv: ['INCR', '${stockKey}'], note: text('went below 0: sold out, give the item back', '减到了 0 以下：已售罄，把这一件加回去') },
        { op: 'end' },
      ];
  }
}

function clients(variant: Variant): ClientSpec[] {
  return [
    { id: 'A', program: buyer(variant) },
    { id: 'B', program: buyer(variant) },
  ];
}

export const stockOversell: Scenario = {
  id: 'stock-oversell',
  title: text('Overselling the last item: read, check, write', '超卖最后一件商品：读、判断、写'),
  summary: text(
    'Two buyers both read "1 left" and both write 0: two sales of one item.',
    '两个买家都读到"还剩 1 件"，又都写回 0：一件商品卖了两次。',
  ),
  lesson: text(
    'GET stock, check that it is above 0, SET stock to one less: three steps, and another buyer can run between them. A and B both ' +
      'read 1, both decide to sell, and both write 0; the second write loses the first one\'s update, and one item is sold twice. ' +
      'Each fix makes sure no sale is written on a stale read, at a different price. A distributed lock around them (with the safe ' +
      'release) serializes every buyer: correct, but each sale now costs two more round trips and buyers queue behind one lock, ' +
      'with all the lease problems of the earlier scenarios. A Lua script that checks and decrements runs atomically in Redis: ' +
      'one round trip and no lock, the usual answer for flash sales, though the logic now lives in Redis. DECR first and INCR back ' +
      'when the result went below 0 needs neither lock nor script; but for a moment the stock reads -1, and if the client dies ' +
      'before its INCR the item is lost from sale (fine for stock, not for money). Optimistic locking takes no lock at all: WATCH ' +
      'stock, GET it, then MULTI, DECRBY stock 1, EXEC. If anyone changed the stock after the WATCH, EXEC answers nil and runs ' +
      'nothing, and the buyer starts over with a fresh read. No buyer waits, but under heavy contention most EXECs fail and retry, ' +
      'so it suits keys that are rarely contended; the retries must be bounded.',
    'GET 库存、判断大于 0、SET 库存减一：这是三个步骤，另一个买家可以插在它们之间执行。A 和 B 都读到 1，都决定卖出，都写回 0；' +
      '后一次写入覆盖了前一次的更新，同一件商品卖了两次。每种修复都确保不会基于过时的读取写下一笔销售，但代价各不相同。' +
      '用分布式锁把它们包起来（配合安全的释放方式）会让所有买家串行执行：正确，但每笔交易多了两次网络往返，买家都排在同一把锁后面，' +
      '还要面对前面场景里所有的租约问题。用 Lua 脚本检查并扣减，在 Redis 里原子执行：一次往返、不需要锁，是秒杀场景的常用做法，' +
      '只是业务逻辑搬进了 Redis。先 DECR、结果小于 0 再 INCR 加回去，既不需要锁也不需要脚本；但库存会短暂显示为 -1，' +
      '而且如果客户端在 INCR 之前挂掉，这件商品就再也卖不出去了（对库存可以接受，对金额则不行）。' +
      '乐观锁完全不加锁：WATCH stock，GET 读取，然后 MULTI、DECRBY stock 1、EXEC。如果在 WATCH 之后有人改了库存，EXEC 返回 nil，' +
      '什么也不执行，买家重新读取后再来一遍。没有买家需要等待，但在激烈竞争下大多数 EXEC 都会失败重试，' +
      '所以它适合很少发生争用的键；重试次数必须有上限。',
  ),
  params: { lockKey: 'lock:stock', ttlMs: '5000', stockKey: 'stock' },
  lockKey: 'lock:stock',
  setup: [['SET', 'stock', '1']],
  counters: [{ id: 'sales', key: 'stock', initial: 1 }],
  scripts: { compareAndDelete: COMPARE_AND_DELETE, checkAndDecrement: CHECK_AND_DECREMENT },
  defaultSchedule: 'A B A B +1000',
  narration: [
    { step: 0, text: text('One item left. A reads the stock: 1.', '只剩一件。A 读取库存：1。') },
    { step: 1, text: text('B reads the stock too, before A has written anything: also 1.', 'B 也读取库存，此时 A 还没有写入：同样是 1。') },
    { step: 2, text: text('A sells and writes 0.', 'A 卖出，写回 0。') },
    { step: 3, text: text('B sells too and writes 0 over A\'s 0: two sales, one item.', 'B 也卖出，用 0 覆盖了 A 写的 0：一件商品，两笔交易。') },
  ],
  variants: [
    {
      id: 'no-lock',
      title: text('GET, check, SET: no lock', 'GET、判断、SET：不加锁'),
      summary: text('Both buyers sell the last item.', '两个买家都卖出了最后一件。'),
      clients: clients('no-lock'),
      expect: { violations: ['oversell'], absent: ['mutual-exclusion', 'foreign-release'] },
    },
    {
      id: 'lock',
      title: text('Distributed lock around check and write', '用分布式锁包住判断和写入'),
      summary: text('B waits while A reads and writes; only one sale.', 'A 读写期间 B 只能等待；只卖出一件。'),
      clients: clients('lock'),
      narration: [
        { step: 0, text: text('A takes the stock lock.', 'A 拿到库存锁。') },
        { step: 1, text: text('B is refused and retries shortly.', 'B 加锁失败，稍后重试。') },
        { step: 2, text: text('A reads the stock under the lock: 1.', 'A 在锁的保护下读取库存：1。') },
        { step: 3, text: text('Stepping B waits for its retry (about 0.1 s): meanwhile A sells, writes 0 and releases. B\'s retry then takes the lock.', '单步执行 B 要等到它的重试时刻（约 0.1 秒后）：在此期间 A 卖出、写回 0 并释放锁。B 的重试随后拿到了锁。') },
        { step: 4, text: text('B reads 0 under the lock: sold out. While A held the lock, B could not read the stale 1 (as long as the lease outlasts A\'s work).', 'B 在锁的保护下读到 0：已售罄。A 持锁期间，B 读不到过时的 1（前提是租期比 A 的处理时间长）。') },
      ],
      expect: { violations: [], absent: ['oversell', 'mutual-exclusion', 'foreign-release'] },
    },
    {
      id: 'lua-decr',
      title: text('Check and decrement in one Lua script', '在一个 Lua 脚本里检查并扣减'),
      summary: text('The script sells to A and answers "sold out" to B.', '脚本把商品卖给 A，对 B 回答"已售罄"。'),
      clients: clients('lua-decr'),
      narration: [
        { step: 2, text: text('A\'s script sees 1, decrements and answers 1: sold.', 'A 的脚本看到 1，扣减后返回 1：成交。') },
        { step: 3, text: text('B\'s script sees 0 and answers 0: sold out, even though B\'s page showed 1.', 'B 的脚本看到 0，返回 0：已售罄，尽管 B 的页面显示还有 1 件。') },
      ],
      expect: { violations: [], absent: ['oversell', 'mutual-exclusion'] },
    },
    {
      id: 'decr-check',
      title: text('DECR, then INCR back if negative', '先 DECR，为负再 INCR 加回'),
      summary: text('B\'s DECR answers -1; B gives the item back and sells nothing.', 'B 的 DECR 返回 -1；B 把这一件加回去，没有卖出。'),
      clients: clients('decr-check'),
      narration: [
        { step: 2, text: text('A\'s DECR answers 0: A got the last item.', 'A 的 DECR 返回 0：A 拿到了最后一件。') },
        { step: 3, text: text('B\'s DECR answers -1: too late. For a moment the stock reads -1.', 'B 的 DECR 返回 -1：晚了一步。库存此刻短暂显示为 -1。') },
        { step: 4, text: text('A\'s confirmation page reads the stock in that moment: -1, the price of this fix. Then B gives the item back with INCR: the stock is 0 again.', 'A 的确认页恰好在这一刻读取库存：-1，这就是这种修复的代价。随后 B 用 INCR 把这一件加回去：库存回到 0。') },
      ],
      expect: { violations: [], absent: ['oversell', 'mutual-exclusion'] },
    },
    {
      id: 'watch',
      title: text('Optimistic locking: WATCH, GET, MULTI/EXEC, retry', '乐观锁：WATCH、GET、MULTI/EXEC、重试'),
      summary: text('B\'s EXEC answers nil because A changed the stock; B starts over, reads 0 and sells nothing.', 'A 改动了库存，B 的 EXEC 因此返回 nil；B 从头再来，读到 0，没有卖出。'),
      clients: clients('watch'),
      narration: [
        { step: 0, text: text('A WATCHes the stock.', 'A 监视（WATCH）库存。') },
        { step: 1, text: text('B WATCHes it too.', 'B 也监视了它。') },
        { step: 2, text: text('A reads 1.', 'A 读到 1。') },
        { step: 3, text: text('B reads 1 as well: the same stale-read race as without a lock, so far.', 'B 也读到 1：到这里为止，和不加锁时一样的过时读取竞态。') },
        {
          step: 4,
          text: text(
            'A sends MULTI, DECRBY stock 1 (QUEUED) and EXEC: the stock is untouched since A\'s WATCH, so EXEC runs the DECRBY and answers [0]. One sold. B\'s EXEC then answers nil: A changed the watched key, so Redis ran nothing. B starts over: WATCH, GET reads 0, sold out, UNWATCH.',
            'A 发送 MULTI、DECRBY stock 1（QUEUED）和 EXEC：自 A 执行 WATCH 以来库存没有被改动，所以 EXEC 执行了 DECRBY，返回 [0]。卖出一件。随后 B 的 EXEC 返回 nil：A 改动了被监视的键，Redis 什么也没有执行。B 从头再来：WATCH，GET 读到 0，已售罄，UNWATCH。',
          ),
        },
      ],
      expect: { violations: [], absent: ['oversell', 'mutual-exclusion'] },
    },
  ],
  defaultVariant: 'no-lock',
};
