/**
 * Prints the rows of docs/EXPLORER.md's "Every lesson, checked" table from one run of the explorer
 * on each scenario variant at its declared bounds, as tests/unit/explore-lessons.test.ts searches
 * them (`npx tsx scripts/explore-lessons-table.ts [--nodes] [scenario...]`). --nodes: only the
 * scenarios with several Redis nodes. Counts are the search's; times are this machine's, now.
 */
import { explore } from '../src/engine/explore';
import { SCENARIOS } from '../src/scenarios';

const args = process.argv.slice(2);
const nodesOnly = args.includes('--nodes');
const ids = args.filter((a) => !a.startsWith('--'));
const hasNodes = (s: (typeof SCENARIOS)[number]) => s.nodes !== undefined || s.variants.some((v) => v.nodes !== undefined);
const chosen = SCENARIOS.filter((s) => (ids.length === 0 || ids.includes(s.id)) && (!nodesOnly || hasNodes(s)));
if (chosen.length === 0) {
  console.error(`no scenario matches ${args.join(' ')}`);
  process.exit(2);
}

const count = (n: number) => n.toLocaleString('en-US').replace(/,/g, '');
for (const scenario of chosen) {
  for (const variant of scenario.variants) {
    const start = performance.now();
    const result = explore({ scenario, variantId: variant.id });
    const ms = Math.round(performance.now() - start);
    const found = result.violations.length === 0 ? 'none' : result.violations.map((v) => `${v.kind} (${v.steps})`).join(', ');
    console.log(`| ${scenario.id} / ${variant.id} | ${found} | ${count(result.statesExplored)} | ${count(result.transitionsExplored)} | ${result.exhaustive ? 'yes' : 'no'} | ${ms} ms |`);
  }
}
