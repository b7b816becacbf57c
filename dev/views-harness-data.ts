/**
 * Writes the runs the dev harness shows, as JSON under .screenshots/runs/ (gitignored):
 * `npx tsx dev/views-harness-data.ts [stress steps]`. Runs are computed in Node so the harness needs
 * no engine in the page.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Simulation } from '../src/engine/simulation';
import { findScenario } from '../src/scenarios';
import { stressSimulation } from './stress';
import type { HarnessRun } from './views-harness-types';

function dump(name: string, sim: Simulation): void {
  const tokenOwners: Record<string, string> = {};
  for (const c of sim.clients) if (c.vars.token) tokenOwners[c.vars.token] = c.id;
  const nowMsByStep: number[] = [];
  for (let step = 0; step <= sim.length; step++) {
    sim.seek(step);
    nowMsByStep.push(sim.nowMs);
  }
  const run: HarnessRun = {
    name,
    clientIds: sim.clients.map((c) => c.id),
    tokenOwners,
    events: sim.allEvents(),
    nowMsByStep,
  };
  writeFileSync(`.screenshots/runs/${name}.json`, JSON.stringify(run));
  console.log(`${name}: ${run.events.length} events, ${sim.length} steps`);
}

mkdirSync('.screenshots/runs', { recursive: true });
const scenario = findScenario('get-then-del');
for (const variantId of ['get-then-del', 'lua']) {
  const sim = new Simulation(scenario, { variantId });
  sim.applySchedule(scenario.defaultSchedule);
  dump(variantId, sim);
}
dump('stress', stressSimulation(Number(process.argv[2] ?? 3300), 7));
