/**
 * Writes tests/unit/fixtures/engine-traces.json: for every scenario and variant, seeded random
 * schedules (steps, advances, stalls, crashes), each with the hash of
 * the trace it gives. tests/unit/engine-traces.test.ts replays them and compares: an engine
 * optimization must not change one byte of any trace. Regenerate only when a change to traces is
 * intended (a scenario's programs changed, the time model changed), and say so in the commit.
 *
 *   npx tsx scripts/gen-engine-traces.ts [--src <checkout>]   (default: this checkout)
 *
 * With `--append <id>[,<id>...]` it adds entries for those (new) scenarios only, drawn from a
 * generator seeded by the scenario's id, and keeps every existing entry as it is: the fixture keeps
 * testing the other scenarios against the engine it was written from.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { src: { type: 'string' }, append: { type: 'string' } } });
const src = path.resolve(values.src ?? repo);
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(src, file)).href)) as T;

type Sim = import('../src/engine/simulation').Simulation;
const { Simulation } = await load<typeof import('../src/engine/simulation')>('src/engine/simulation.ts');
const { SCENARIOS } = await load<typeof import('../src/scenarios/index')>('src/scenarios/index.ts');
const { hash53 } = await load<typeof import('../src/engine/hash')>('src/engine/hash.ts');
const { SeededRandom } = await load<typeof import('../src/engine/rng')>('src/engine/rng.ts');
const { formatSchedule } = await load<typeof import('../src/engine/schedule')>('src/engine/schedule.ts');
type Choice = import('../src/engine/schedule').Choice;

const RANDOM_SCHEDULES_PER_VARIANT = 12;
const ADVANCES_MS = [1, 50, 100, 250, 499, 500, 501, 999, 1000, 1001, 2000, 3500, 5000, 5001, 6000, 7000];
const STALLS_MS = [100, 500, 2000, 3500, 5000, 6000, 7000];

/** A random schedule that fits: each choice is drawn among those the simulation accepts then. */
function randomSchedule(sim: Sim, random: InstanceType<typeof SeededRandom>, length: number): Choice[] {
  const applied: Choice[] = [];
  for (let attempt = 0; applied.length < length && attempt < length * 4; attempt++) {
    const ids = sim.ctx.clientIds;
    const roll = random.below(20);
    const id = ids[random.below(ids.length)];
    const choice: Choice =
      roll < 12
        ? { kind: 'step', clientId: id }
        : roll < 16
          ? { kind: 'advance', ms: ADVANCES_MS[random.below(ADVANCES_MS.length)] }
          : roll < 19
            ? { kind: 'stall', clientId: id, ms: STALLS_MS[random.below(STALLS_MS.length)] }
            : { kind: 'crash', clientId: id };
    if (sim.refusal(choice) !== null) continue;
    try {
      sim.apply(choice);
      applied.push(choice);
    } catch {
      // Refused half-way (too many steps): the simulation restored itself; draw again.
    }
  }
  return applied;
}

type Entry = { scenario: string; variant: string; seed: number; schedule: string; traceHash: number; eventCount: number };
const target = path.join(repo, 'tests/unit/fixtures/engine-traces.json');
const appended = values.append?.split(',') ?? null;
const kept = appended === null ? null : (JSON.parse(readFileSync(target, 'utf8')) as { generatedFrom: string; entries: Entry[] });
const entries: Entry[] = kept === null ? [] : kept.entries.filter((e) => !appended?.includes(e.scenario));
let random = SeededRandom.fromSeed(2026);
for (const scenario of SCENARIOS) {
  if (appended !== null && !appended.includes(scenario.id)) continue;
  // Appended scenarios draw from a generator of their own, so adding one changes no other's schedules.
  if (appended !== null) random = SeededRandom.fromSeed(hash53(scenario.id) % 2 ** 31);
  for (const variant of scenario.variants) {
    // Default schedules are tests/golden's (golden-traces.test.ts); these are the seeded random ones with faults.
    const runs: { seed: number; schedule: string }[] = [];
    for (let i = 0; i < RANDOM_SCHEDULES_PER_VARIANT; i++) {
      const seed = 1 + (i % 3);
      const sim = new Simulation(scenario, { variantId: variant.id, seed });
      runs.push({ seed, schedule: formatSchedule(randomSchedule(sim, random, 4 + random.below(22))) });
    }
    for (const run of runs) {
      const sim = new Simulation(scenario, { variantId: variant.id, seed: run.seed });
      sim.applySchedule(run.schedule);
      const trace = sim.trace();
      entries.push({ scenario: scenario.id, variant: variant.id, seed: run.seed, schedule: run.schedule, traceHash: hash53(JSON.stringify(trace)), eventCount: trace.events.length });
    }
  }
}
const commit = execFileSync('git', ['-C', src, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const generatedFrom = kept === null ? commit : `${kept.generatedFrom}${kept.generatedFrom.includes(` + ${appended?.join(', ')} at `) ? '' : ` + ${appended?.join(', ')} at ${commit}`}`;
writeFileSync(target, `${JSON.stringify({ generatedFrom, entries }, null, 1)}\n`);
process.stdout.write(`wrote ${entries.length} traces to ${target}\n`);
