import { buildLongRun, LONG_RUN } from './engine/long-run';
import { loadEngine, scenarioById, type EngineSource } from './engine/source';
import { fmt } from './format';
import { ratio } from './stats';
import type { BenchOptions, BenchPart, Figure, TextTable } from './types';

/**
 * Engine steps per second, headless (Node, no page), for the checkout `--src` names:
 * - every scenario's default run (default variant, default schedule), a new Simulation each time;
 * - one 10,000-step run (the long run of engine/long-run.ts), with choices 1,000-2,000 and
 *   5,000-6,000 (the same kind: clock advances) timed apart: a flat engine applies both at one rate;
 * - step back and forward at the end of that run (seeking: checkpoint + replay);
 * - seeded random runs of get-then-del, a new Simulation per seed, the engine's own randomPolicy
 *   choosing among live clients until every client is done, as a random explorer would.
 * Each rate is the best of ROUND_COUNT rounds of at least ROUND_MS: on a busy machine other
 * processes only ever slow a round down. Each is also given per second of this process's CPU
 * time, which a machine shared with other work disturbs far less than wall time.
 */

const ROUND_COUNT = 10;
const ROUND_MS = 200;
const WARMUP_MS = 200;
const LONG_STEP_COUNT = 10_000;
/**
 * Two windows of the long run with the same kind of choice (its lead-in clock advances), one
 * early and one late: a flat engine applies both at the same rate.
 */
const EARLY_WINDOW = { from: 1_000, to: 2_000 } as const;
const LATE_WINDOW = { from: 5_000, to: 6_000 } as const;
const SEEK_SWEEP_STEPS = 64;
const RANDOM_SCENARIO = 'get-then-del';
const RANDOM_RUN_STEP_COUNT_MAX = 1_000;

interface Speed {
  /** Work units (steps, seeks) per second of wall time, best round. */
  readonly perSec: number;
  /**
   * Work units per second of this process's CPU time (user + system, all threads), best round:
   * far steadier than wall time when other processes share the cores.
   */
  readonly perCpuSec: number;
}

interface Rate extends Speed {
  /** Runs per second of wall time in the best round, when the work is made of runs. */
  readonly runsPerSec: number;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** `work()` does one run and returns its work units; rounds repeat it for at least ROUND_MS. */
function bestRate(work: () => number): Rate {
  const warmupStart = performance.now();
  while (performance.now() - warmupStart < WARMUP_MS) work();
  let best = { perSec: 0, runsPerSec: 0, perCpuSec: 0 };
  for (let round = 0; round < ROUND_COUNT; round++) {
    let units = 0;
    let runs = 0;
    const start = performance.now();
    const cpuStart = cpuMs();
    let elapsed = 0;
    while (elapsed < ROUND_MS) {
      units += work();
      runs += 1;
      elapsed = performance.now() - start;
    }
    const perSec = (units * 1000) / elapsed;
    const perCpuSec = (units * 1000) / Math.max(cpuMs() - cpuStart, 1e-3);
    if (perSec > best.perSec) best = { ...best, perSec, runsPerSec: (runs * 1000) / elapsed };
    best.perCpuSec = Math.max(best.perCpuSec, perCpuSec);
  }
  return best;
}

function defaultRunRates(engine: EngineSource): { perScenario: { id: string; variant: string; steps: number; rate: Rate }[]; all: Rate } {
  const runs = engine.scenarios.map((scenario) => {
    const sim = new engine.Simulation(scenario);
    sim.applySchedule(scenario.defaultSchedule);
    return { scenario, steps: sim.length, variant: sim.variantId };
  });
  const runDefault = (scenario: (typeof runs)[number]['scenario']) => {
    const sim = new engine.Simulation(scenario);
    sim.applySchedule(scenario.defaultSchedule);
    return sim.length;
  };
  const perScenario = runs.map(({ scenario, steps, variant }) => ({ id: scenario.id, variant, steps, rate: bestRate(() => runDefault(scenario)) }));
  const all = bestRate(() => runs.reduce((sum, { scenario }) => sum + runDefault(scenario), 0));
  return { perScenario, all };
}

interface LongRates {
  readonly whole: Rate;
  readonly early: Speed;
  readonly late: Speed;
  readonly seeks: Rate;
  readonly eventCount: number;
}

function longRunRates(engine: EngineSource): LongRates {
  const long = buildLongRun(engine, { stepCount: LONG_STEP_COUNT });
  const scenario = scenarioById(engine, LONG_RUN.scenarioId);
  const windowBest = [
    { perSec: 0, perCpuSec: 0 },
    { perSec: 0, perCpuSec: 0 },
  ];
  const windows = [EARLY_WINDOW, LATE_WINDOW];
  const whole = bestRate(() => {
    const sim = new engine.Simulation(scenario, { variantId: LONG_RUN.variantId });
    let step = 0;
    windows.forEach((range, i) => {
      while (step < range.from) sim.apply(long.choices[step++]);
      const start = performance.now();
      const cpuStart = cpuMs();
      while (step < range.to) sim.apply(long.choices[step++]);
      const steps = range.to - range.from;
      windowBest[i].perCpuSec = Math.max(windowBest[i].perCpuSec, (steps * 1000) / Math.max(cpuMs() - cpuStart, 1e-3));
      windowBest[i].perSec = Math.max(windowBest[i].perSec, (steps * 1000) / (performance.now() - start));
    });
    while (step < long.choices.length) sim.apply(long.choices[step++]);
    return sim.length;
  });
  const sim = new engine.Simulation(scenario, { variantId: LONG_RUN.variantId });
  for (const choice of long.choices) sim.apply(choice);
  const seeks = bestRate(() => {
    for (let i = 0; i < SEEK_SWEEP_STEPS; i++) sim.stepBack();
    for (let i = 0; i < SEEK_SWEEP_STEPS; i++) sim.stepForward();
    return 2 * SEEK_SWEEP_STEPS;
  });
  if (sim.cursor !== long.stepCount) throw new Error(`seek sweep ended at ${sim.cursor}, not ${long.stepCount}`);
  return { whole, early: windowBest[0], late: windowBest[1], seeks, eventCount: long.eventCount };
}

function randomRunRate(engine: EngineSource): Rate & { meanSteps: number } {
  const scenario = scenarioById(engine, RANDOM_SCENARIO);
  let seed = 0;
  let steps = 0;
  let runs = 0;
  const rate = bestRate(() => {
    seed += 1;
    const sim = new engine.Simulation(scenario);
    const n = engine.runPolicy(sim, engine.randomPolicy(seed), RANDOM_RUN_STEP_COUNT_MAX);
    steps += n;
    runs += 1;
    return n;
  });
  return { ...rate, meanSteps: steps / runs };
}


export async function run(options: BenchOptions): Promise<BenchPart> {
  const engine = await loadEngine(options.srcRoot);
  const defaults = defaultRunRates(engine);
  const long = longRunRates(engine);
  const random = randomRunRate(engine);
  const flatness = ratio(long.late.perCpuSec, long.early.perCpuSec);

  const rateFigures = (id: string, rate: Speed, unit: string): Figure[] => [
    { id: `${id}PerSec`, value: rate.perSec, unit: `${unit}/s`, better: 'higher' },
    { id: `${id}PerCpuSec`, value: rate.perCpuSec, unit: `${unit}/CPU-s`, better: 'higher' },
  ];
  const figures: Figure[] = [
    ...rateFigures('engine.default.all.steps', defaults.all, 'steps'),
    ...defaults.perScenario.flatMap((row) => rateFigures(`engine.default.${row.id}.steps`, row.rate, 'steps')),
    ...rateFigures('engine.long.steps', long.whole, 'steps'),
    ...rateFigures('engine.long.early.steps', long.early, 'steps').map((f) => ({ ...f, note: `steps ${EARLY_WINDOW.from}-${EARLY_WINDOW.to}` })),
    ...rateFigures('engine.long.late.steps', long.late, 'steps').map((f) => ({ ...f, note: `steps ${LATE_WINDOW.from}-${LATE_WINDOW.to}` })),
    { id: 'engine.long.lateVsEarly', value: flatness, unit: 'x', better: 'higher', note: 'per CPU-s; 1.00: a late step costs what an early one does' },
    ...rateFigures('engine.long.seeks', long.seeks, 'seeks'),
    ...rateFigures('engine.random.get-then-del.steps', random, 'steps'),
    { id: 'engine.random.get-then-del.runsPerSec', value: random.runsPerSec, unit: 'runs/s', better: 'higher' },
  ];

  const cells = (steps: string, rate: Rate, runDigits: number | null) => [steps, fmt(rate.perSec, 0), fmt(rate.perCpuSec, 0), runDigits === null ? '' : fmt(rate.runsPerSec, runDigits)];
  const table: TextTable = {
    title: `Engine, headless (${engine.root === process.cwd() ? 'this checkout' : engine.root}): best of ${ROUND_COUNT} rounds of ${ROUND_MS} ms`,
    columns: ['steps', 'per s', 'per CPU-s', 'runs/s'],
    rows: [
      { name: `default runs, all ${defaults.perScenario.length} scenarios`, cells: cells(fmt(defaults.perScenario.reduce((n, row) => n + row.steps, 0), 0), defaults.all, 1) },
      ...defaults.perScenario.map((row) => ({ name: `  ${row.id} / ${row.variant}`, cells: cells(fmt(row.steps, 0), row.rate, 1) })),
      { name: `${LONG_RUN.scenarioId}/${LONG_RUN.variantId}, ${fmt(LONG_STEP_COUNT, 0)} steps (${fmt(long.eventCount, 0)} events)`, cells: cells(fmt(LONG_STEP_COUNT, 0), long.whole, 2) },
      { name: `  its steps ${fmt(EARLY_WINDOW.from, 0)}-${fmt(EARLY_WINDOW.to, 0)}`, cells: [fmt(EARLY_WINDOW.to - EARLY_WINDOW.from, 0), fmt(long.early.perSec, 0), fmt(long.early.perCpuSec, 0), ''] },
      { name: `  its steps ${fmt(LATE_WINDOW.from, 0)}-${fmt(LATE_WINDOW.to, 0)} (x${flatness === null ? '?' : fmt(flatness, 2)} the early rate per CPU-s)`, cells: [fmt(LATE_WINDOW.to - LATE_WINDOW.from, 0), fmt(long.late.perSec, 0), fmt(long.late.perCpuSec, 0), ''] },
      { name: `  step back / forward at step ${fmt(LONG_STEP_COUNT, 0)} (seeks)`, cells: cells('', long.seeks, null) },
      { name: `random runs of ${RANDOM_SCENARIO} (randomPolicy, seeds 1..)`, cells: cells(fmt(random.meanSteps, 1), random, 0) },
    ],
    notes: ['steps: per run (random: mean per run); a run includes creating its Simulation. per s: wall time; per CPU-s: this process\'s CPU time.'],
  };
  return {
    tables: [table],
    figures,
    details: { roundCount: ROUND_COUNT, roundMs: ROUND_MS, longRun: { ...LONG_RUN, stepCount: LONG_STEP_COUNT, eventCount: long.eventCount }, randomMeanSteps: random.meanSteps },
  };
}
