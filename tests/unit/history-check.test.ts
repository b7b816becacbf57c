import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkHistoryText } from '../../src/history/checker';
import type { HistoryVerdict } from '../../src/history/verdict';
import { Simulation } from '../../src/engine/simulation';
import { findScenario, SCENARIOS } from '../../src/scenarios';
import { historyOfTrace } from '../support/history-from-trace';
import { applyIntents, faultyIntentArb } from './support/random-schedule';
import { runs } from '../support/size';

/**
 * The history checker (src/history): hand-written histories for each verdict and each kind of bad
 * input, then properties over histories written from simulated runs whose violations are known.
 */
const T = 1_700_000_000_000;
function cmd(client: string, argv: string[], reply: unknown, startMs: number, endMs = startMs + 1): string {
  const outcome = reply instanceof Error ? { error: reply.message } : reply === undefined ? {} : { reply };
  return JSON.stringify({ client, argv, ...outcome, startMs, endMs, startWallMs: T + startMs, endWallMs: T + endMs });
}
function mark(client: string, what: 'enter' | 'leave' | 'write', atMs: number, resource?: string, token?: string): string {
  return JSON.stringify({ client, mark: what, ...(resource === undefined ? {} : { resource, token }), atMs, atWallMs: T + atMs });
}
const CAD = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
const kinds = (v: HistoryVerdict): string[] => v.violations.map((x) => `${x.kind}:${x.certainty}:${x.clients.join(',')}`);

describe('history checker: verdicts', () => {
  it('a clean acquire/release history has no violation and finds the lock key itself', () => {
    const v = checkHistoryText(
      [cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '1000'], 'OK', 0), cmd('A', ['EVAL', CAD, '1', 'lock', 'a1'], 1, 10), cmd('B', ['SET', 'lock', 'b1', 'NX', 'PX', '1000'], 'OK', 20), cmd('B', ['DEL', 'lock'], 1, 30)].join('\n'),
    );
    expect(v.lockKey).toBe('lock');
    expect(v.lockKeyFrom).toBe('detected');
    expect(v.violations).toEqual([]);
    expect(v.clients.map((c) => [c.client, c.acquisitionCount])).toEqual([
      ['A', 1],
      ['B', 1],
    ]);
  });

  it('a DEL of a lock another client wrote is a certain foreign release, with both events as evidence', () => {
    const lines = [
      cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '100'], 'OK', 0),
      cmd('B', ['SET', 'lock', 'b1', 'NX', 'PX', '100'], 'OK', 200),
      cmd('A', ['DEL', 'lock'], 1, 250),
    ];
    const v = checkHistoryText(lines.join('\n'));
    expect(kinds(v)).toContain('foreign-release:certain:A,B');
    const foreign = v.violations.find((x) => x.kind === 'foreign-release');
    expect(foreign?.evidence.map((e) => e.line)).toEqual([2, 3]);
    // A believed it held from line 1 to its DEL; B acquired in between: mutual exclusion too.
    expect(kinds(v)).toContain('mutual-exclusion:certain:B,A');
  });

  it('a DEL that overlaps in time with another client acquiring is only a possible foreign release', () => {
    const v = checkHistoryText(
      [cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '100'], 'OK', 0), cmd('B', ['SET', 'lock', 'b1', 'NX', 'PX', '100'], 'OK', 150, 170), cmd('A', ['DEL', 'lock'], 1, 90, 160)].join('\n'),
    );
    const foreign = v.violations.filter((x) => x.kind === 'foreign-release');
    expect(foreign.map((x) => x.certainty)).toEqual(['possible']);
  });

  it('a compare-and-delete that answers 1 proves the order: no mutual exclusion even when intervals overlap', () => {
    const v = checkHistoryText(
      [cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '1000'], 'OK', 0), cmd('B', ['SET', 'lock', 'b1', 'NX', 'PX', '1000'], 'OK', 50, 70), cmd('A', ['EVAL', CAD, '1', 'lock', 'a1'], 1, 55, 60)].join('\n'),
    );
    expect(v.violations).toEqual([]);
  });

  it('a compare-and-delete that answers 0 means the lease ran out: overlapping beliefs are mutual exclusion', () => {
    const v = checkHistoryText(
      [cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '100'], 'OK', 0), cmd('B', ['SET', 'lock', 'b1', 'NX', 'PX', '100'], 'OK', 150), cmd('A', ['EVAL', CAD, '1', 'lock', 'a1'], 0, 180)].join('\n'),
    );
    expect(kinds(v)).toEqual(['mutual-exclusion:certain:B,A']);
    expect(v.violations[0].evidence.map((e) => e.line)).toEqual([1, 2, 3]);
  });

  it('marks decide mutual exclusion: overlap certain, or possible when the enter and leave overlap in time', () => {
    const certain = checkHistoryText([mark('A', 'enter', 0), mark('B', 'enter', 10), mark('A', 'leave', 20), mark('B', 'leave', 30)].join('\n'));
    expect(kinds(certain)).toEqual(['mutual-exclusion:certain:B,A']);
    const apart = checkHistoryText([mark('A', 'enter', 0), mark('A', 'leave', 5), mark('B', 'enter', 10), mark('B', 'leave', 30)].join('\n'));
    expect(apart.violations).toEqual([]);
    const skewed = checkHistoryText([mark('A', 'enter', 0), mark('A', 'leave', 5), mark('B', 'enter', 10), mark('B', 'leave', 30)].join('\n'), { clockSkewMs: 20 });
    expect(kinds(skewed)).toEqual(['mutual-exclusion:possible:B,A']);
  });

  it('a write with a token whose lease passed to another client is a stale write; fenced tokens out of order too', () => {
    const lease = checkHistoryText(
      [cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '100'], 'OK', 0), cmd('B', ['SET', 'lock', 'b1', 'NX', 'PX', '100'], 'OK', 150), mark('A', 'write', 200, 'db', 'a1')].join('\n'),
    );
    expect(kinds(lease)).toContain('stale-write:certain:A,B');
    const fenced = checkHistoryText([mark('B', 'write', 10, 'db', '34'), mark('A', 'write', 20, 'db', '33')].join('\n'));
    expect(kinds(fenced)).toEqual(['stale-write:certain:A,B']);
    const inOrder = checkHistoryText([mark('A', 'write', 10, 'db', '33'), mark('B', 'write', 20, 'db', '34')].join('\n'));
    expect(inOrder.violations).toEqual([]);
  });

  it('a lock without expiry still there at the end is never released; a long hold is reported against --max-hold-ms', () => {
    const stuck = checkHistoryText([cmd('A', ['SETNX', 'lock', 'a1'], 1, 0), cmd('B', ['SETNX', 'lock', 'b1'], 0, 10)].join('\n'));
    expect(kinds(stuck)).toEqual(['lock-never-released:certain:A']);
    const long = [cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '10000'], 'OK', 0), cmd('A', ['DEL', 'lock'], 1, 5000)].join('\n');
    expect(kinds(checkHistoryText(long, { maxHoldMs: 4000 }))).toEqual(['lock-held-too-long:certain:A']);
    expect(checkHistoryText(long, { maxHoldMs: 6000 }).violations).toEqual([]);
  });

  it('EVALSHA of a script loaded earlier is recognised; one never shown is said to be unknown', () => {
    const sha = 'c2b7f6b4a5b0c6b0b1a3a07e58bd7e2d3d2e1e4b';
    const unknown = checkHistoryText([cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '100'], 'OK', 0), cmd('A', ['EVALSHA', sha, '1', 'lock', 'a1'], 1, 10)].join('\n'));
    expect(unknown.unknowns.some((u) => u.includes('EVALSHA'))).toBe(true);
  });
});

describe('history checker: bad input', () => {
  it('names the line of a truncated line, a bad field, a backwards clock and a contradiction, and still decides the rest', () => {
    const lines = [
      cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '100'], 'OK', 0),
      '{"client":"B","argv":["SET","lo',
      JSON.stringify({ client: 'B', argv: [], startMs: 1, endMs: 2, startWallMs: T, endWallMs: T }),
      cmd('A', ['GET', 'lock'], 'a1', 50, 40),
      cmd('C', ['SET', 'lock', 'c1', 'NX', 'PX', '100'], 'OK', 20),
      cmd('B', ['SET', 'lock', 'b1', 'NX', 'PX', '100'], 'OK', 200),
      cmd('A', ['DEL', 'lock'], 1, 250),
    ];
    const v = checkHistoryText(lines.join('\n'));
    const byLine = new Map(v.problems.map((p) => [p.line, p.message]));
    expect(byLine.get(2)).toMatch(/not JSON/);
    expect(byLine.get(3)).toMatch(/argv/);
    expect(byLine.get(4)).toMatch(/before startMs/);
    expect(byLine.get(5)).toMatch(/should still have been there/);
    expect(kinds(v)).toContain('foreign-release:certain:A,B');
  });

  it('a command on the lock key it cannot read makes the owner unknown, and says so', () => {
    const v = checkHistoryText([cmd('A', ['SET', 'lock', 'a1', 'NX', 'PX', '100'], 'OK', 0), cmd('B', ['RENAME', 'lock', 'x'], 'OK', 10)].join('\n'));
    expect(v.unknowns.join(' ')).toMatch(/RENAME on the lock key/);
  });
});

/** A simulated run of a lesson under random intents, as a history. */
function simulated(id: string, variant: string, seed: number, intents: Parameters<typeof applyIntents>[1]) {
  const scenario = findScenario(id);
  const sim = new Simulation(scenario, { variantId: variant, seed });
  applyIntents(sim, intents);
  return { scenario, trace: sim.trace() };
}

const LESSONS: readonly [string, string][] = [
  ['plain-del', 'plain-del'],
  ['plain-del', 'lua'],
  ['get-then-del', 'get-then-del'],
  ['lease-expires-mid-work', 'lua-release'],
  ['release-result', 'ignored'],
  ['watchdog', 'starved'],
  ['watchdog', 'zombie'],
  ['lease-expires-mid-work', 'watchdog'],
  ['setnx-then-expire', 'setnx-expire'],
  ['get-then-del', 'lua'],
  ['reentrant', 'reentrant'],
  ['redisson-lock', 'polling'],
  ['release-result', 'fenced'],
];
const lessonArb = fc.constantFrom(...LESSONS);
type Found = HistoryVerdict['violations'][number];
const certainOf = (v: HistoryVerdict): Found[] => v.violations.filter((x) => x.certainty === 'certain');
const describeViolation = (v: Found): string => `${v.kind} ${v.clients.join(',')}: ${v.message}`;
/** `found` (from a widened history) is `truth`'s: the same kind, the same actor, and its clients include the true ones. */
const explains = (found: Found, truth: Found): boolean => found.kind === truth.kind && found.clients[0] === truth.clients[0] && truth.clients.every((c) => found.clients.includes(c));
const setOf = (v: HistoryVerdict, certainOnly: boolean): Set<string> =>
  new Set(v.violations.filter((x) => !certainOnly || x.certainty === 'certain').map((x) => `${x.kind}:${[...x.clients].sort().join(',')}`));

describe('history checker: properties over simulated runs', () => {
  // A widened history may name more candidates for a violation than the true order does ("A
  // deleted C or B's lock" where it was C's): a violation matches another of the same kind by the
  // same actor (its first client) whose clients include the true one's. Seed pinned: fast-check's
  // seed 1139623615 found that an exact match of the client sets was too strict.
  it('a history widened around its true order: every certain violation is in the true order, and every true one is at least possible (seed 20261204)', () => {
    fc.assert(
      fc.property(lessonArb, fc.nat(1000), fc.array(faultyIntentArb, { maxLength: 24 }), fc.array(fc.tuple(fc.nat(300), fc.nat(300)), { minLength: 1, maxLength: 8 }), ([id, variant], seed, intents, widths) => {
        const { scenario, trace } = simulated(id, variant, seed, intents);
        const exact = checkHistoryText(historyOfTrace(trace).join('\n'), { lockKey: scenario.lockKey });
        const wide = checkHistoryText(historyOfTrace(trace, { widenMs: (i) => widths[i % widths.length] }).join('\n'), { lockKey: scenario.lockKey });
        for (const found of certainOf(wide)) expect(exact.violations.some((truth) => explains(found, truth)), describeViolation(found)).toBe(true);
        for (const truth of certainOf(exact)) expect(wide.violations.some((found) => explains(found, truth)), describeViolation(truth)).toBe(true);
      }),
      { seed: 20261204, numRuns: runs(60) },
    );
  });

  it('the widened history that names more candidates: "A deleted C or B\'s lock" where the true order says C\'s', () => {
    const { scenario, trace } = simulated('plain-del', 'plain-del', 0, [
      { kind: 'stall', client: 5, ms: 5001 },
      { kind: 'step', client: 0 },
      { kind: 'step', client: 2 },
      { kind: 'advance', ms: 1999 },
      { kind: 'step', client: 0 },
    ]);
    const widths: [number, number][] = [[0, 0], [0, 0], [1, 0], [0, 0]];
    const exact = checkHistoryText(historyOfTrace(trace).join('\n'), { lockKey: scenario.lockKey });
    const wide = checkHistoryText(historyOfTrace(trace, { widenMs: (i) => widths[i % widths.length] }).join('\n'), { lockKey: scenario.lockKey });
    const truth = exact.violations.find((v) => v.kind === 'foreign-release');
    const found = wide.violations.find((v) => v.kind === 'foreign-release');
    expect(truth?.clients).toEqual(['A', 'C']);
    expect(found).toMatchObject({ certainty: 'certain', clients: ['A', 'C', 'B'] });
    expect(explains(found!, truth!)).toBe(true);
  });

  it('shuffling the file within the reorder buffer changes nothing: the checker reads in start order', () => {
    fc.assert(
      fc.property(lessonArb, fc.nat(1000), fc.array(faultyIntentArb, { maxLength: 24 }), fc.nat(300), fc.nat(), ([id, variant], seed, intents, widthMs, shuffleSeed) => {
        const { scenario, trace } = simulated(id, variant, seed, intents);
        const lines = historyOfTrace(trace, { widenMs: () => [widthMs, widthMs] });
        const shuffled = shuffle(lines, shuffleSeed);
        const a = checkHistoryText(lines.join('\n'), { lockKey: scenario.lockKey });
        // Line numbers differ after a shuffle: compare what was found, not where.
        const b = checkHistoryText(shuffled.join('\n'), { lockKey: scenario.lockKey });
        const summary = (v: HistoryVerdict) => v.violations.map((x) => `${x.kind}:${x.certainty}:${x.clients.join(',')}:${x.evidence.map((e) => e.text).sort().join('|')}`).sort();
        expect(summary(b)).toEqual(summary(a));
      }),
      { numRuns: runs(60) },
    );
  });

  it('the evidence of each violation is a sub-history that shows the same violation on its own', () => {
    fc.assert(
      fc.property(lessonArb, fc.nat(1000), fc.array(faultyIntentArb, { maxLength: 24 }), ([id, variant], seed, intents) => {
        const { scenario, trace } = simulated(id, variant, seed, intents);
        const lines = historyOfTrace(trace);
        const verdict = checkHistoryText(lines.join('\n'), { lockKey: scenario.lockKey });
        for (const violation of verdict.violations) {
          const sub = violation.evidence.map((e) => lines[e.line - 1]);
          const again = checkHistoryText(sub.join('\n'), { lockKey: scenario.lockKey });
          expect(again.violations.map((x) => `${x.kind}:${x.clients.join(',')}`)).toContain(`${violation.kind}:${violation.clients.join(',')}`);
        }
      }),
      { numRuns: runs(60) },
    );
  });
});

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('history checker: more uncertainty never makes a verdict more certain', () => {
  it('widening every interval turns certain into possible at most, and loses nothing found', () => {
    fc.assert(
      fc.property(lessonArb, fc.nat(1000), fc.array(faultyIntentArb, { maxLength: 24 }), fc.array(fc.tuple(fc.nat(200), fc.nat(200)), { minLength: 1, maxLength: 8 }), fc.nat(300), ([id, variant], seed, intents, widths, extraMs) => {
        const { scenario, trace } = simulated(id, variant, seed, intents);
        const narrow = checkHistoryText(historyOfTrace(trace, { widenMs: (i) => widths[i % widths.length] }).join('\n'), { lockKey: scenario.lockKey });
        const wide = checkHistoryText(
          historyOfTrace(trace, {
            widenMs: (i) => {
              const [before, after] = widths[i % widths.length];
              return [before + extraMs, after + extraMs];
            },
          }).join('\n'),
          { lockKey: scenario.lockKey },
        );
        for (const found of setOf(wide, true)) expect(setOf(narrow, true)).toContain(found);
        for (const found of setOf(narrow, false)) expect(setOf(wide, false)).toContain(found);
      }),
      { numRuns: runs(100) },
    );
  });
});

describe('history checker: every lesson agrees with the simulation', () => {
  /**
   * The same overlap in another lesson's words: two rebuilders at once is the cache lesson's
   * duplicate-rebuild; read from acquisitions (no marks), it is mutual exclusion.
   */
  const SAME_STORY_OTHER_WORDS = new Set(['cache-breakdown/mutex-expires']);
  const known = new Set<string>(['foreign-release', 'mutual-exclusion', 'stale-write', 'lock-never-released', 'lock-held-too-long']);
  // A lock several hold at once (a semaphore, a read-write lock: Scenario.holderKeys) is outside the
  // checker's model of one owner per lock key (docs/HISTORIES.md, "What it cannot know").
  const singleNode = SCENARIOS.flatMap((s) => (s.holderKeys !== undefined ? [] : s.variants.filter((v) => (v.nodes ?? s.nodes) === undefined).map((v) => ({ s, v }))));

  it.each(singleNode.map(({ s, v }) => [`${s.id}/${v.id}`, s, v] as const))('%s, default schedule', (id, s, v) => {
    const sim = new Simulation(s, { variantId: v.id, seed: 1 });
    sim.applySchedule(s.defaultSchedule);
    const trace = sim.trace();
    const verdict = checkHistoryText(historyOfTrace(trace).join('\n'), { lockKey: v.lockKey ?? s.lockKey, maxHoldMs: s.lockHoldMsMax });
    const simulated = new Set(trace.violations.map((x) => x.violation).filter((k) => known.has(k)));
    const found = new Set(verdict.violations.map((x) => x.kind));
    for (const kind of simulated) expect(found).toContain(kind);
    if (SAME_STORY_OTHER_WORDS.has(id)) return;
    for (const x of verdict.violations.filter((x) => x.certainty === 'certain')) expect(simulated).toContain(x.kind);
  });
});
