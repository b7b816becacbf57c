import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as ExploreApi from '../src/engine/explore';
import type { Scenario } from '../src/engine/scenario';
import type { BenchOptions, BenchPart, Figure, TextTable } from './types';

/**
 * The explorer's modes on deep bugs (issue 25): time and walks to the first violation for
 * breadth-first search, uniform random walks, PCT and swarm, on get-then-del's foreign release,
 * redlock-restart-without-fsync's two holders and watchdog/zombie's lock held too long, each at
 * its declared bounds. A random mode runs once per walk seed (SEEDS), up to WALK_COUNT_MAX walks;
 * the figures are the median over seeds ("none" when a seed found nothing: counted as not found).
 */

const TARGETS = [
  { scenarioId: 'get-then-del', variantId: 'get-then-del', invariant: 'foreign-release' },
  { scenarioId: 'redlock-restart-without-fsync', variantId: 'no-fsync', invariant: 'mutual-exclusion' },
  { scenarioId: 'watchdog', variantId: 'zombie', invariant: 'lock-held-too-long' },
] as const;
const MODES = ['random', 'pct', 'swarm'] as const;
const SEEDS = Array.from({ length: 20 }, (_, i) => 1 + i * 7919);
const WALK_COUNT_MAX = 2000;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function run(options: BenchOptions): Promise<BenchPart> {
  const api = (await import(pathToFileURL(path.join(options.srcRoot, 'src/engine/explore/index.ts')).href)) as typeof ExploreApi;
  const registry = (await import(pathToFileURL(path.join(options.srcRoot, 'src/scenarios/index.ts')).href)) as { SCENARIOS: readonly Scenario[] };
  const rows: { name: string; cells: string[] }[] = [];
  const figures: Figure[] = [];
  for (const target of TARGETS) {
    const scenario = registry.SCENARIOS.find((s) => s.id === target.scenarioId) as Scenario;
    const name = `${target.scenarioId}/${target.variantId}`;
    const t0 = performance.now();
    const bfs = api.explore({ scenario, variantId: target.variantId, invariants: [target.invariant], stopAt: 'first' });
    const bfsMs = performance.now() - t0;
    rows.push({ name: `${name} bfs`, cells: [bfs.violations.length > 0 ? `${bfs.statesExplored} states` : 'none', '1/1', `${Math.round(bfsMs)} ms`, bfs.violations[0]?.schedule ?? ''] });
    figures.push({ id: `exploreModes.${target.scenarioId}.bfs.ms`, value: Math.round(bfsMs), unit: 'ms', better: 'lower' });
    for (const mode of MODES) {
      const walks: number[] = [];
      const times: number[] = [];
      let found = 0;
      for (const walkSeed of SEEDS) {
        const start = performance.now();
        const r = api.explore({ scenario, variantId: target.variantId, mode, walkSeed, walkCountMax: WALK_COUNT_MAX, invariants: [target.invariant], stopAt: 'first' });
        times.push(performance.now() - start);
        const walk = r.violations[0]?.walk;
        if (walk !== undefined) found += 1;
        walks.push(walk === undefined ? Number.POSITIVE_INFINITY : walk.index + 1);
      }
      const m = median(walks);
      rows.push({
        name: `${name} ${mode}`,
        cells: [Number.isFinite(m) ? `median ${m} walks (${Math.min(...walks)}-${Math.max(...walks.filter(Number.isFinite), 0)})` : `none in ${WALK_COUNT_MAX}`, `${found}/${SEEDS.length}`, `median ${Math.round(median(times))} ms`, ''],
      });
      figures.push({ id: `exploreModes.${target.scenarioId}.${mode}.medianWalks`, value: Number.isFinite(m) ? m : null, unit: 'walks', better: 'lower', note: `${found}/${SEEDS.length} seeds found it within ${WALK_COUNT_MAX} walks` });
    }
  }
  const table: TextTable = {
    title: 'Explorer modes: walks and time to the first violation (declared bounds)',
    columns: ['to the first violation', 'seeds found', 'time', 'schedule (bfs)'],
    rows,
    notes: [`Random modes: ${SEEDS.length} walk seeds, up to ${WALK_COUNT_MAX} walks each; medians over seeds (a seed that found nothing counts as infinite). PCT at bug depth 2.`],
  };
  return { tables: [table], figures };
}
