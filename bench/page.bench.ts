import os from 'node:os';
import path from 'node:path';
import { buildLongRun, type LongRun } from './engine/long-run';
import { loadEngine } from './engine/source';
import { launchChromium } from './page/browser';
import { buildApp } from './page/build';
import type { RunSpec } from './page/driver';
import { loadFirstScreen, type FirstScreenSample } from './page/first-screen';
import { FLOOR_PAGE, FLOOR_PATH } from './page/floor';
import { measureHeapPhase, type HeapResult } from './page/heap';
import { measureRound, type RoundResult } from './page/rounds';
import { startStaticServer } from './page/static-server';
import { summarize } from './page/summary';
import { progress } from './progress';
import type { BenchOptions, BenchPart } from './types';

/**
 * Lockstep's page in real Chromium (Playwright), served from a production build by a local
 * gzipping server, in three phases: cold loads (first screen), rounds of step series (fresh run
 * and 10,000-event run side by side), and the heap after a 10,000-step run. docs/BENCH.md says
 * how each figure is measured.
 */

const LONG_EVENT_COUNT_MIN = 10_000;
const HEAP_STEP_COUNT = 10_000;
/** The short run of the long run's kind (as the session bench's fresh run): its steps, without the lead-in. */
const SHORT_STEP_COUNT = 256;

function specOf(run: LongRun): RunSpec {
  return { scenario: run.scenarioId, variant: run.variantId, seed: 1, schedule: run.schedule };
}

export async function run(options: BenchOptions): Promise<BenchPart> {
  // The long runs' schedules come from the engine of the checkout whose page is measured.
  const engine = await loadEngine(options.srcRoot);
  const longEvents = buildLongRun(engine, { eventCountMin: LONG_EVENT_COUNT_MIN });
  const longSteps = buildLongRun(engine, { stepCount: HEAP_STEP_COUNT });
  const shortRun = buildLongRun(engine, { stepCount: SHORT_STEP_COUNT, leadInAdvanceCount: 0 });
  const dist = options.dist ?? buildApp(options.srcRoot, path.join(os.tmpdir(), 'lockstep-bench-dist'));
  const limits = { pressCount: options.pressCount, budgetMs: options.seriesBudgetMs };

  const server = await startStaticServer(dist, { [FLOOR_PATH]: FLOOR_PAGE });
  const browser = await launchChromium();
  const chromium = browser.version();
  const loads: FirstScreenSample[] = [];
  const rounds: RoundResult[] = [];
  let heap: HeapResult;
  const phaseMs = { firstScreen: 0, steps: 0, heap: 0 };
  const timed = async <T>(phase: keyof typeof phaseMs, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      phaseMs[phase] += Math.round(performance.now() - start);
    }
  };
  try {
    progress(`page: ${options.loadCount} cold loads of ${dist}`);
    for (let i = 0; i < options.loadCount; i++) loads.push(await timed('firstScreen', () => loadFirstScreen(browser, server)));
    for (let r = 0; r < options.roundCount; r++) {
      progress(`page: step round ${r + 1} of ${options.roundCount}`);
      rounds.push(await timed('steps', () => measureRound(browser, engine, server.url, specOf(longEvents), specOf(shortRun), LONG_EVENT_COUNT_MIN, limits, r % 2 === 1)));
    }
    progress(`page: heap with a ${longSteps.stepCount}-step run`);
    heap = await timed('heap', () => measureHeapPhase(browser, server.url, specOf(longSteps)));
  } finally {
    await browser.close();
    await server.stop();
  }

  const { figures, tables } = summarize({ loads, rounds, heap, longRun: longEvents, pressCount: options.pressCount });
  return {
    tables,
    figures,
    details: {
      dist,
      chromium,
      phaseMs,
      freshRun: rounds[0].freshSpec,
      longRun: { scenario: longEvents.scenarioId, variant: longEvents.variantId, steps: longEvents.stepCount, events: rounds[0].longEventCount },
      heapRun: { steps: heap.longRunSteps, events: heap.longRunEvents },
      firstScreen: loads,
      rounds,
      heap,
    },
  };
}
