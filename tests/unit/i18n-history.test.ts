// Goal: every sentence the history checker can say (its violations, the input problems it finds,
// what a recording cannot tell) reaches a reader in both languages: each finding carries a catalog
// key and parameters, its English is exactly the `message` the CLI prints (one entry, so the two
// cannot drift), and its Chinese leaves no key missing and no `{param}` unfilled. Every catalog
// key is produced by some history below, so none is dead and none is untested.
import { describe, expect, it } from 'vitest';
import { HistoryChecker, checkHistoryText, type CheckOptions, type HistoryVerdict } from '../../src/history';
import { historyEn, historyText, historyZh, type HistoryMessageKey, type HistoryMessageRef } from '../../src/i18n/history';

const T = 1_700_000_000_000;
function cmd(client: string, argv: string[], reply: unknown, startMs: number, endMs = startMs + 1, extra: object = {}): string {
  const outcome = reply === undefined ? {} : { reply };
  return JSON.stringify({ client, argv, ...outcome, startMs, endMs, startWallMs: T + startMs, endWallMs: T + endMs, ...extra });
}
function mark(client: string, what: 'enter' | 'leave' | 'write', atMs: number, resource?: string, token?: string): string {
  return JSON.stringify({ client, mark: what, ...(resource === undefined ? {} : { resource, token }), atMs, atWallMs: T + atMs });
}
const CAD = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
const EXTEND = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end';
const nx = (client: string, token: string, startMs: number, endMs = startMs + 1, ttl = '1000') => cmd(client, ['SET', 'lock', token, 'NX', 'PX', ttl], 'OK', startMs, endMs);

/** Histories that between them make the checker say every sentence it has. */
const HISTORIES: readonly { readonly name: string; readonly lines: readonly string[]; readonly options?: CheckOptions }[] = [
  { name: 'overwrite', lines: [nx('A', 'a1', 0), cmd('B', ['SET', 'lock', 'b1', 'PX', '100'], 'OK', 20)] },
  { name: 'DEL of another client’s lock, beliefs overlapping', lines: [nx('A', 'a1', 0, 1, '100'), nx('B', 'b1', 200, 201, '100'), cmd('A', ['DEL', 'lock'], 1, 250)] },
  { name: 'DEL of one of two owners', lines: [nx('A', 'a', 0, 100), nx('B', 'b', 50, 150), cmd('C', ['DEL', 'lock'], 1, 120, 130)] },
  { name: 'release with another client’s token', lines: [nx('A', 'a1', 0, 1, '100'), cmd('B', ['EVAL', CAD, '1', 'lock', 'a1'], 1, 20)] },
  { name: 'DEL racing an acquisition', lines: [nx('A', 'a1', 0, 100), cmd('A', ['DEL', 'lock'], 1, 50, 200), nx('B', 'b1', 60, 70)] },
  { name: 'marks overlapping', lines: [mark('A', 'enter', 0), mark('B', 'enter', 10), mark('A', 'leave', 20), mark('B', 'leave', 30)] },
  { name: 'write after the lease passed', lines: [nx('A', 'a1', 0, 1, '100'), nx('B', 'b1', 150, 151, '100'), mark('A', 'write', 200, 'db', 'a1')] },
  { name: 'fencing tokens out of order', lines: [mark('B', 'write', 10, 'db', '34'), mark('A', 'write', 20, 'db', '33')] },
  { name: 'no expiry', lines: [cmd('A', ['SETNX', 'lock', 'a1'], 1, 0), cmd('B', ['SETNX', 'lock', 'b1'], 0, 10)] },
  { name: 'held too long', lines: [nx('A', 'a1', 0, 1, '10000'), cmd('A', ['DEL', 'lock'], 1, 5000)], options: { maxHoldMs: 4000 } },
  { name: 'possibly held too long', lines: [nx('A', 'a1', 0, 1, '10000'), cmd('A', ['DEL', 'lock'], 1, 3990, 4100)], options: { maxHoldMs: 4000 } },
  { name: 'a connection’s replies backwards', lines: [cmd('A', ['GET', 'x'], null, 10, 20, { conn: 'c1' }), cmd('A', ['GET', 'x'], null, 0, 5, { conn: 'c1' })] },
  {
    name: 'wall clocks stepped, named and not',
    lines: [
      JSON.stringify({ client: 'A', argv: ['GET', 'x'], reply: null, startMs: 0, endMs: 1, startWallMs: T, endWallMs: T + 1, clock: 'host-a:1' }),
      JSON.stringify({ client: 'A', argv: ['GET', 'x'], reply: null, startMs: 10, endMs: 11, startWallMs: T + 5010, endWallMs: T + 5011, clock: 'host-a:1' }),
      JSON.stringify({ client: 'B', argv: ['GET', 'x'], reply: null, startMs: 0, endMs: 1, startWallMs: T, endWallMs: T + 1 }),
      JSON.stringify({ client: 'B', argv: ['GET', 'x'], reply: null, startMs: 10, endMs: 11, startWallMs: T + 5010, endWallMs: T + 5011 }),
    ],
  },
  { name: 'out of order past the reorder buffer', lines: [cmd('A', ['GET', 'x'], null, 0), cmd('A', ['GET', 'x'], null, 50), cmd('A', ['GET', 'x'], null, 60), cmd('B', ['GET', 'x'], null, 20)], options: { reorderCapacity: 1 } },
  { name: 'too many versions at once', lines: Array.from({ length: 66 }, (_, i) => nx(`C${i}`, `t${i}`, i, i + 1000, '100000')) },
  { name: 'an acquisition while a lock was certainly there', lines: [nx('A', 'a1', 0), nx('B', 'b1', 100)] },
  { name: 'a release that found no lock', lines: [nx('A', 'a1', 0), cmd('A', ['EVAL', CAD, '1', 'lock', 'a1'], 0, 100)] },
  { name: 'a DEL that found no key', lines: [nx('A', 'a1', 0), cmd('B', ['DEL', 'lock'], 0, 100)] },
  { name: 'replies that contradict', lines: [nx('A', 'a1', 0), nx('B', 'b1', 10), cmd('A', ['EVAL', CAD, '1', 'lock', 'a1'], 1, 20), cmd('B', ['DEL', 'lock'], 1, 30)] },
  { name: 'MONITOR: no replies', lines: [JSON.stringify({ history: 1, recorder: 'monitor', repliesKnown: false }), nx('A', 'a1', 0)] },
  {
    name: 'commands of unknown effect',
    lines: [
      nx('A', 'a1', 0, 1, '100'),
      cmd('B', ['RENAME', 'lock', 'x'], 'OK', 10),
      cmd('B', ['MSET', 'x', '1', 'lock', '2'], 'OK', 12),
      cmd('C', ['SET', 'lock', 'c', 'NX', 'PXAT', '99999999999999'], 'OK', 14),
      cmd('C', ['EVAL', 'return redis.call("hgetall", KEYS[1])', '1', 'lock'], [], 16),
      cmd('A', ['EVALSHA', 'c2b7f6b4a5b0c6b0b1a3a07e58bd7e2d3d2e1e4b', '1', 'lock', 'a1'], 1, 18),
    ],
  },
  { name: 'orphan removal and extension', lines: [cmd('A', ['DEL', 'lock'], 1, 0), cmd('A', ['EVAL', EXTEND, '1', 'lock', 'zz', '500'], 1, 50), nx('B', 'b', 1000)], options: { lockKey: 'lock' } },
  { name: 'a holder that never let go', lines: [nx('A', 'a1', 0, 1, '100'), nx('B', 'b1', 200, 201, '100')] },
  { name: 'too many resources', lines: Array.from({ length: 10_001 }, (_, i) => mark('W', 'write', i, `r${i}`, String(i))) },
  { name: 'replies missing', lines: [cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '100'], undefined, 0)] },
  { name: 'no lock key', lines: [mark('A', 'enter', 0), mark('A', 'leave', 10)] },
];

/** Every sentence of a verdict with the English the checker printed for it. */
function sentences(verdict: HistoryVerdict): { ref: HistoryMessageRef; english: string }[] {
  return [
    ...verdict.violations.map((v) => ({ ref: v.ref, english: v.message })),
    ...verdict.problems.flatMap((p) => (p.ref === undefined ? [] : [{ ref: p.ref, english: p.message }])),
    ...verdict.unknownRefs.map((ref, i) => ({ ref, english: verdict.unknowns[i] })),
  ];
}

/** The keys of a sentence and of the sentences inside it. */
function keysOf(ref: HistoryMessageRef): HistoryMessageKey[] {
  const inner = Object.values((ref.params ?? {}) as Record<string, unknown>).filter((p): p is HistoryMessageRef => typeof p === 'object' && p !== null && 'key' in p);
  return [ref.key, ...inner.flatMap(keysOf)];
}

function allSentences(): { ref: HistoryMessageRef; english: string }[] {
  const found = HISTORIES.flatMap(({ lines, options }) => sentences(checkHistoryText(lines.join('\n'), options)));
  // A line over the reader's bound is said by the reader (the CLI, the page), not read from text.
  const tooLong = new HistoryChecker();
  tooLong.pushTooLong(1, 2_000_000);
  return [...found, ...sentences(tooLong.finish())];
}

const paramsOf = (text: string) => [...new Set([...text.matchAll(/\{([a-zA-Z]+)\}/g)].map((m) => m[1]))].sort();
const CJK = /[\u4e00-\u9fff]/;

describe('the history checker’s catalog', () => {
  it('has every key in both languages, non-empty, with the same parameters', () => {
    expect(Object.keys(historyZh).sort()).toEqual(Object.keys(historyEn).sort());
    for (const key of Object.keys(historyEn) as HistoryMessageKey[]) {
      expect(historyZh[key].trim(), key).not.toBe('');
      expect(CJK.test(historyZh[key]), `${key} is Chinese`).toBe(true);
      expect(paramsOf(historyZh[key]), key).toEqual(paramsOf(historyEn[key]));
    }
  });

  it('every sentence the checker says renders in both languages, its English the message the CLI prints', () => {
    const said = allSentences();
    for (const { ref, english } of said) {
      expect(historyText(ref, 'en').replace(/(\d),(\d)/g, '$1$2'), ref.key).toBe(english.replace(/(\d),(\d)/g, '$1$2'));
      const zh = historyText(ref, 'zh');
      expect(zh, `${ref.key}: a parameter left unfilled`).not.toMatch(/\{[a-zA-Z]+\}/);
      expect(english, `${ref.key}: a parameter left unfilled`).not.toMatch(/\{[a-zA-Z]+\}/);
      expect(CJK.test(zh), `${ref.key} in Chinese: ${zh}`).toBe(true);
    }
    // Each key is reached by some history above: none is dead, none goes untested.
    const reached = new Set(said.flatMap(({ ref }) => keysOf(ref)));
    expect([...reached].sort()).toEqual(Object.keys(historyEn).sort());
  });

  it('words one example fully: a DEL of one of two owners’ locks, and a nested reason', () => {
    const two = checkHistoryText([nx('A', 'a', 0, 100), nx('B', 'b', 50, 150), cmd('C', ['DEL', 'lock'], 1, 120, 130)].join('\n'));
    const deleted = two.violations.find((v) => v.ref.key === 'hForeignDeleted');
    expect(deleted?.message).toBe("C deleted A or B's lock");
    expect(deleted && historyText(deleted.ref, 'zh')).toBe('C 删除了 A或B 的锁');
    const renamed = checkHistoryText([nx('A', 'a1', 0), cmd('B', ['RENAME', 'lock', 'x'], 'OK', 10)].join('\n'));
    const i = renamed.unknowns.findIndex((u) => u.includes('RENAME'));
    expect(renamed.unknowns[i]).toBe('Line 2 (B): RENAME on the lock key: its effect on the lock key is unknown, so who owned the lock after it is uncertain.');
    expect(historyText(renamed.unknownRefs[i], 'zh')).toBe('第 2 行（B）：对锁的键执行了 RENAME：它对锁的键的影响未知，因此之后谁持有锁并不确定。');
  });

  it('formats numbers for the page and keeps tokens as they are: a fencing token is never a number', () => {
    const fenced = checkHistoryText([mark('B', 'write', 10, 'db', '123456789012345678901234567890'), mark('A', 'write', 20, 'db', '12345')].join('\n'));
    const v = fenced.violations[0];
    expect(v.message).toBe('A wrote db with fencing token 12345 after B wrote it with 123456789012345678901234567890');
    expect(historyText(v.ref, 'zh')).toContain('fencing token 123456789012345678901234567890');
    const many = new HistoryChecker();
    many.pushTooLong(7, 2_000_000);
    const problem = many.finish().problems[0];
    expect(problem.message).toBe('a line of 2000000 characters, longer than the checker reads (1048576): skipped');
    expect(problem.ref && historyText(problem.ref, 'en')).toBe('a line of 2,000,000 characters, longer than the checker reads (1,048,576): skipped');
  });
});
