import { describe, expect, it } from 'vitest';
import { mergeShards, type ExploreProgress } from '../../src/engine/explore';
import { defaultExploreWorkerCount, exploreWorkerCountMax } from '../../src/ui/worker/explore-client';
import type { ExploreDone, ExploreRequest } from '../../src/ui/worker/explore-protocol';
import { runExploration } from '../../src/ui/worker/explore-run';

// Goal: the page's parallel search (one shard per worker, merged) gives one worker's answer. Here
// the workers' job runs on this thread, in slices, exactly as each worker runs it.

function run(request: ExploreRequest): Promise<{ done: ExploreDone; progress: ExploreProgress[] }> {
  return new Promise((resolve, reject) => {
    const progress: ExploreProgress[] = [];
    runExploration(request, { onProgress: (r) => progress.push(r.progress), onDone: (done) => resolve({ done, progress }), onError: (m) => reject(new Error(m)) }, (next) => setTimeout(next, 0));
  });
}

const cases: readonly (Omit<ExploreRequest, 'id'> & { readonly name: string })[] = [
  { name: 'get-then-del with its declared stalls', scenarioId: 'get-then-del', variantId: 'get-then-del', seed: 1, bounds: {} },
  { name: 'the Lua fix, proved', scenarioId: 'get-then-del', variantId: 'lua', seed: 1, bounds: {} },
  { name: 'watchdog/zombie', scenarioId: 'watchdog', variantId: 'zombie', seed: 1, bounds: { depthMax: 10 } },
];

describe("the page's explorer on several workers", () => {
  for (const c of cases) {
    it(`${c.name}: three shards merged equal one search`, async () => {
      const { name: _name, ...request } = c;
      const one = await run({ id: 1, ...request });
      const shards = await Promise.all([0, 1, 2].map((index) => run({ id: 1, ...request, shard: { index, count: 3 } })));
      expect(shards.every((s) => s.done.shardFile !== undefined)).toBe(true);
      const merged = mergeShards(shards.map((s, i) => ({ name: `worker ${i + 1}`, data: s.done.shardFile })));
      expect(merged.violations).toEqual(one.done.result.violations);
      expect(merged.statesExplored).toBe(one.done.result.statesExplored);
      expect(merged.transitionsExplored).toBe(one.done.result.transitionsExplored);
      expect(merged.exhaustive).toBe(one.done.result.exhaustive);
      // Shards past the first count nothing before the split: the levels every shard searches alike.
      for (const s of shards.slice(1)) expect(s.progress[0].statesExplored).toBe(0);
    });
  }

  it('uses every core but the page’s, at least one and at most the cap', () => {
    expect(defaultExploreWorkerCount(undefined)).toBe(1);
    expect(defaultExploreWorkerCount(1)).toBe(1);
    expect(defaultExploreWorkerCount(2)).toBe(1);
    expect(defaultExploreWorkerCount(4)).toBe(3);
    expect(defaultExploreWorkerCount(64)).toBe(exploreWorkerCountMax);
    expect(defaultExploreWorkerCount(Number.NaN)).toBe(1);
  });
});
