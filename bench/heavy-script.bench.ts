import os from 'node:os';
import path from 'node:path';
import { launchChromium, newInstrumentedPage } from './page/browser';
import { buildApp } from './page/build';
import { startStaticServer } from './page/static-server';
import { progress } from './progress';
import type { BenchOptions, BenchPart, Figure } from './types';

/**
 * Does a heavy script freeze the page? A run whose console command EVALs 150,000 SETs (well inside
 * the script budget) is loaded through `window.lockstep.load` on a production build in Chromium,
 * and the Long Tasks API reports the main thread's tasks over 50 ms meanwhile. The figure is the
 * longest one (goal: none over 100 ms); a task is one stretch in which the page answers no input.
 */

const HEAVY_SCHEDULE = "$EVAL|for%20i=1%2C150000%20do%20redis.call('SET'%2C'k'%2Ci)%20end%20return%201|0";
/** The same run with a light command in place of the script: what loading and drawing any such run costs the page. */
const LIGHT_SCHEDULE = '$GET|k';
const LOAD_COUNT = 3;
const READY_WAIT_MS_MAX = 60_000;
export const LONGEST_TASK_GOAL_MS = 100;

interface Sample {
  readonly longestTaskMs: number;
  readonly longTaskCount: number;
  readonly loadMs: number;
}

async function measureOnce(browser: Awaited<ReturnType<typeof launchChromium>>, url: string, schedule: string): Promise<Sample> {
  const { context, page } = await newInstrumentedPage(browser);
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.lockstep?.isReady === true, null, { timeout: READY_WAIT_MS_MAX, polling: 50 });
    return await page.evaluate(async (schedule) => {
      const tasks: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(entry.duration);
      });
      observer.observe({ type: 'longtask' });
      const startMs = performance.now();
      const result = await window.lockstep!.load({ scenario: 'get-then-del', schedule });
      if (!result.ok) throw new Error(`the heavy run was refused: ${JSON.stringify(result)}`);
      // Until the page has drawn the run: two frames after the load answered.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const loadMs = performance.now() - startMs;
      // Long tasks are reported after they end: let the observer's queue drain.
      await new Promise((resolve) => setTimeout(resolve, 200));
      observer.disconnect();
      return { longestTaskMs: tasks.length === 0 ? 0 : Math.max(...tasks), longTaskCount: tasks.length, loadMs };
    }, schedule);
  } finally {
    await context.close();
  }
}

export async function run(options: BenchOptions): Promise<BenchPart> {
  const dist = options.dist ?? buildApp(options.srcRoot, path.join(os.tmpdir(), 'lockstep-bench-dist'));
  const server = await startStaticServer(dist);
  const browser = await launchChromium();
  const samples: Sample[] = [];
  const lightSamples: Sample[] = [];
  try {
    for (let i = 0; i < LOAD_COUNT; i++) {
      progress(`heavy-script: load ${i + 1} of ${LOAD_COUNT} (a console EVAL of 150,000 SETs, then the same run with a GET)`);
      samples.push(await measureOnce(browser, server.url, HEAVY_SCHEDULE));
      lightSamples.push(await measureOnce(browser, server.url, LIGHT_SCHEDULE));
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const longest = Math.max(...samples.map((s) => s.longestTaskMs));
  const longestLight = Math.max(...lightSamples.map((s) => s.longestTaskMs));
  const loadMs = samples.map((s) => s.loadMs).sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  const figures: Figure[] = [
    { id: 'page.heavyScript.longestTaskMs', value: Math.round(longest), unit: 'ms', better: 'lower', goal: `< ${LONGEST_TASK_GOAL_MS}`, meetsGoal: longest < LONGEST_TASK_GOAL_MS, note: 'the main thread\'s longest task while a run with a 150,000-SET EVAL loads' },
    { id: 'page.heavyScript.lightLongestTaskMs', value: Math.round(longestLight), unit: 'ms', better: 'lower', note: 'the same, for the same run with a GET in place of the script: what loading and drawing a run costs the page' },
    { id: 'page.heavyScript.loadMs', value: Math.round(loadMs), unit: 'ms', better: 'lower', note: 'lockstep.load to the run drawn (median)' },
  ];
  return {
    tables: [
      {
        title: `Page: a heavy script (console EVAL of 150,000 SETs) loaded through lockstep.load, ${LOAD_COUNT} loads`,
        columns: ['longest task, ms', 'tasks over 50 ms', 'load to drawn, ms'],
        rows: [
          ...samples.map((s, i) => ({ name: `heavy load ${i + 1}`, cells: [s.longestTaskMs.toFixed(0), String(s.longTaskCount), s.loadMs.toFixed(0)] })),
          ...lightSamples.map((s, i) => ({ name: `light load ${i + 1}`, cells: [s.longestTaskMs.toFixed(0), String(s.longTaskCount), s.loadMs.toFixed(0)] })),
        ],
        notes: [
          `Long Tasks API on the page's main thread. Goal: no task over ${LONGEST_TASK_GOAL_MS} ms (the page answers input throughout).`,
          'light: the same run with `GET k` in place of the script, side by side in this run: the page\'s own cost of loading and drawing it.',
        ],
      },
    ],
    figures,
  };
}
