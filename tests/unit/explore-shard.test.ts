/**
 * Goal: a breadth-first search split into shards (`--shard i/n`) and merged (`explore merge`)
 * says what one unsharded run says: the same violations with the same shortest schedules, the
 * same state, transition and cut counts, the same verdict; shard files that do not belong
 * together, or are cut short or from another version, are refused with a message naming why.
 */
import { describe, expect, it } from 'vitest';
import { explore, exploreShard, mergeShards, parseShardSpec, ShardError, verdictLines, type ExploreOptions, type ExploreResult, type ShardFile } from '../../src/engine/explore';
import { findScenario } from '../../src/scenarios';

function shards(options: ExploreOptions, count: number): { name: string; data: ShardFile }[] {
  // Through JSON, as the files go.
  return Array.from({ length: count }, (_, index) => ({ name: `shard-${index + 1}.json`, data: JSON.parse(JSON.stringify(exploreShard({ ...options, shard: { index, count } }))) as ShardFile }));
}

function verdictOf(r: ExploreResult) {
  return {
    violations: r.violations.map((v) => ({ kind: v.kind, schedule: v.schedule, steps: v.steps, atMs: v.atMs })),
    statesExplored: r.statesExplored,
    transitionsExplored: r.transitionsExplored,
    transitionsSkipped: r.transitionsSkipped,
    exhaustive: r.exhaustive,
    cut: r.cut,
    depthReached: r.depthReached,
    verdict: verdictLines(r),
  };
}

const cases: [string, string, Partial<ExploreOptions>, number][] = [
  ['get-then-del', 'get-then-del', {}, 3],
  ['get-then-del', 'lua', { reduce: false }, 2],
  ['cache-breakdown', 'mutex-expires', { bounds: { depthMax: 7 } }, 3],
  ['failover-before-replication', 'async', {}, 2],
  ['watchdog', 'zombie', { bounds: { depthMax: 10 } }, 4],
  // The reduction skips different moves at a state reached along two paths: the counts are those of its least path.
  ['cache-breakdown', 'mutex', {}, 2],
];

describe('shard and merge', () => {
  it.each(cases)('%s/%s %j in %i shards equals one run', (scenarioId, variantId, extra, count) => {
    const options: ExploreOptions = { scenario: findScenario(scenarioId), variantId, stopAt: 'never', ...extra };
    const one = explore(options);
    const files = shards(options, count);
    // Each shard did only part of the work past the split.
    expect(files.every((f) => f.data.splitDepth !== null)).toBe(true);
    expect(verdictOf(mergeShards(files))).toEqual(verdictOf(one));
    // Any order of the files.
    expect(verdictOf(mergeShards([...files].reverse()))).toEqual(verdictOf(one));
  });

  it('with the default stop (once every kind is found) gives the same violations as one run', () => {
    const options: ExploreOptions = { scenario: findScenario('get-then-del'), invariants: ['foreign-release', 'mutual-exclusion'] };
    const one = explore(options);
    const merged = mergeShards(shards(options, 3));
    expect(merged.violations.map((v) => v.schedule)).toEqual(one.violations.map((v) => v.schedule));
    expect(merged.cut.stoppedAtViolation).toBe(one.cut.stoppedAtViolation);
  });

  it('more shards than states where it splits: most shards get none, and the merge still says the same', () => {
    const options: ExploreOptions = { scenario: findScenario('stock-oversell'), variantId: 'lock', stopAt: 'never', bounds: { depthMax: 3 } };
    const files = shards(options, 50);
    expect(verdictOf(mergeShards(files))).toEqual(verdictOf(explore(options)));
  });
});

describe('bad shard input', () => {
  const options: ExploreOptions = { scenario: findScenario('get-then-del'), stopAt: 'never', bounds: { depthMax: 6 } };
  const files = shards(options, 3);

  it.each(['0/3', '4/3', '1/0', 'a/b', '1-3', '', '1/2000'])('refuses the shard spec %j', (text) => {
    expect(() => parseShardSpec(text)).toThrow(ShardError);
  });

  it('reads 1-based specs as Playwright does', () => {
    expect(parseShardSpec('1/4')).toEqual({ index: 0, count: 4 });
    expect(parseShardSpec('4/4')).toEqual({ index: 3, count: 4 });
  });

  it('names a missing shard, one given twice, one of another search, version or shape', () => {
    expect(() => mergeShards(files.slice(0, 2))).toThrow(/shard 3\/3 missing/);
    expect(() => mergeShards([files[0], files[1], files[1]])).toThrow(/shard 2\/3 given twice: shard-2.json and shard-2.json/);
    const other = shards({ ...options, scenario: findScenario('plain-del') }, 3);
    expect(() => mergeShards([files[0], files[1], other[2]])).toThrow(/shard-3.json is a shard of another search than shard-1.json: scenario "get-then-del" vs "plain-del"/);
    const deeper = shards({ ...options, bounds: { depthMax: 7 } }, 3);
    expect(() => mergeShards([files[0], files[1], deeper[2]])).toThrow(/bounds/);
    expect(() => mergeShards([files[0], files[1], { name: 'old.json', data: { ...files[2].data, version: 0 } }])).toThrow(/old.json: shard file version 0, this explorer reads version 1/);
    expect(() => mergeShards([files[0], files[1], { name: 'x.json', data: { hello: 1 } }])).toThrow(/x.json: not a shard file/);
    const { states: _states, ...noStates } = files[2].data;
    expect(() => mergeShards([files[0], files[1], { name: 'cut.json', data: noStates }])).toThrow(/cut.json: its "states" list is missing/);
    const badRow = { ...files[2].data, states: [['abc', 1]] };
    expect(() => mergeShards([files[0], files[1], { name: 'row.json', data: badRow }])).toThrow(/row.json: states\[0\] is malformed/);
    expect(() => mergeShards([])).toThrow(/no shard files/);
  });
});
