/**
 * Goal: a breadth-first search stopped at a checkpoint and resumed (any number of times, in a new
 * search as a new process would) ends with the result of one uninterrupted run; a checkpoint of
 * another search, another version, or cut short is refused with what is wrong, never resumed.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointError, createCheckpointedSearch, explore, type ExploreOptions } from '../../src/engine/explore';
import { findScenario } from '../../src/scenarios';

/** Runs `options` stopping every `slice` transitions, each time through a JSON checkpoint into a new search. */
function resumedRun(options: ExploreOptions, slice: number) {
  let file: unknown;
  let stops = 0;
  for (let round = 0; round < 10_000; round++) {
    const { search, write } = createCheckpointedSearch(options, file === undefined ? undefined : { name: 'cp.json', data: file });
    search.run(slice);
    if (search.done) return { result: search.result(), stops };
    search.pause();
    search.run();
    if (search.done) return { result: search.result(), stops };
    file = JSON.parse(JSON.stringify(write()));
    stops += 1;
  }
  throw new Error('too many rounds');
}

describe('checkpoint and resume', () => {
  it.each([
    ['get-then-del', 'get-then-del', { stopAt: 'never' }, 97],
    ['get-then-del', 'get-then-del', {}, 13],
    ['cache-breakdown', 'mutex-expires', { bounds: { depthMax: 6 }, stopAt: 'never' }, 500],
    ['failover-before-replication', 'async', { stopAt: 'never' }, 150],
    ['lease-expires-mid-work', 'watchdog', { stopAt: 'never', reduce: false }, 400],
  ] as const)('%s/%s %j, stopped every %i transitions, ends as one run', (scenarioId, variantId, extra, slice) => {
    const options: ExploreOptions = { scenario: findScenario(scenarioId), variantId, ...extra };
    const one = explore(options);
    const { result, stops } = resumedRun(options, slice);
    expect(stops).toBeGreaterThan(2);
    expect(result).toEqual(one);
  });
});

describe('bad checkpoints', () => {
  const options: ExploreOptions = { scenario: findScenario('get-then-del'), stopAt: 'never' };
  const { search, write } = createCheckpointedSearch(options);
  search.run(200);
  search.pause();
  search.run();
  const file = JSON.parse(JSON.stringify(write())) as Record<string, unknown>;
  const resume = (data: unknown, o: ExploreOptions = options) => createCheckpointedSearch(o, { name: 'cp.json', data });

  it('resumes a good one', () => {
    expect(() => resume(file)).not.toThrow();
  });

  it.each([
    ['another scenario', { ...options, scenario: findScenario('plain-del') }, /cp.json: a checkpoint of another search \(scenario "get-then-del" there, "plain-del" here/],
    ['another variant', { ...options, variantId: 'lua' }, /variant "get-then-del" there, "lua" here/],
    ['other bounds', { ...options, bounds: { depthMax: 9 } }, /bounds/],
    ['another seed', { ...options, seed: 2 }, /seed 1 there, 2 here/],
    ['another stop rule', { ...options, stopAt: 'all' as const }, /stopAt "never" there, "all" here/],
  ])('refuses one of %s', (_what, other, message) => {
    expect(() => resume(file, other)).toThrow(message);
  });

  it('refuses another version, a non-checkpoint, a cut one, and one whose paths do not replay', () => {
    expect(() => resume({ ...file, version: 3 })).toThrow(/cp.json: checkpoint version 3, this explorer reads version 2/);
    expect(() => resume({ hello: 1 })).toThrow(/cp.json: not a checkpoint/);
    const s = file.search as Record<string, unknown>;
    expect(() => resume({ ...file, search: { ...s, visited: undefined } })).toThrow(/visited states are missing/);
    expect(() => resume({ ...file, search: { ...s, level: (s.level as unknown[]).map(() => ({ choices: [] })) } })).toThrow(/search.level\[0\] is malformed/);
    const level = s.level as { choices: unknown[]; positions: number[]; depth: number }[];
    const broken = level.map((e) => ({ ...e, choices: e.choices.map(() => ({ kind: 'step', clientId: 'Z' })) }));
    expect(level.some((e) => e.depth > 0)).toBe(true);
    expect(() => resume({ ...file, search: { ...s, level: broken } })).toThrow(CheckpointError);
    expect(() => resume({ ...file, search: { ...s, level: broken } })).toThrow(/does not replay on this scenario/);
    expect(() => resume({ ...file, identity: { ...(file.identity as object), scenarioHash: '0' } })).toThrow(/the scenario definition changed/);
  });
});
