import { fmt, fmtRatio } from '../format';
import { median, p95, ratio } from '../stats';
import type { Figure, TextTable } from '../types';
import type { StepSample } from './browser';
import { QUIET_MS } from './driver';
import type { FirstScreenSample } from './first-screen';
import type { HeapResult } from './heap';
import { RUN_KINDS, type RoundResult, type RunKind } from './rounds';
import { ACTIONS, type Action } from './step-series';

/** The page bench's figures (for the JSON file) and tables (for the terminal), from its raw samples. */

/** Issue 10's goals. */
export const GOALS = { jsGzipKB: 250, firstVisitJsGzipKB: 450, stepP95Ms: 16, longVsFresh: 1.2, heapMB: 100 } as const;

export interface PageMeasurements {
  readonly loads: readonly FirstScreenSample[];
  readonly rounds: readonly RoundResult[];
  readonly heap: HeapResult;
  readonly longRun: { readonly scenarioId: string; readonly variantId: string; readonly stepCount: number };
  readonly pressCount: number;
}

interface Stat {
  readonly median: number;
  readonly p95: number;
  /** Presses measured, over all rounds. */
  readonly count: number;
}

interface ReactStat {
  readonly commits: number;
  readonly components: number;
}

const kB = (bytes: number) => bytes / 1000;
const MB = (bytes: number) => bytes / 1e6;

/** Median over rounds of each round's median and p95: one noisy round cannot move a figure. */
function overRounds(perRound: readonly (readonly number[])[]): Stat {
  const filled = perRound.filter((samples) => samples.length > 0);
  return { median: median(filled.map(median)), p95: median(filled.map(p95)), count: filled.flat().length };
}

function latencyStats(rounds: readonly RoundResult[]): Record<RunKind, Record<Action, Stat>> {
  const result = {} as Record<RunKind, Record<Action, Stat>>;
  for (const kind of RUN_KINDS) {
    result[kind] = {} as Record<Action, Stat>;
    for (const action of ACTIONS) result[kind][action] = overRounds(rounds.map((round) => round.series[kind][action].map((sample) => sample.latencyMs)));
  }
  return result;
}

/** Median over every press: commits and components are counts, nearly the same press after press. */
function reactStats(rounds: readonly RoundResult[]): Record<RunKind, Record<Action, ReactStat>> {
  const result = {} as Record<RunKind, Record<Action, ReactStat>>;
  for (const kind of RUN_KINDS) {
    result[kind] = {} as Record<Action, ReactStat>;
    for (const action of ACTIONS) {
      const samples: StepSample[] = rounds.flatMap((round) => round.series[kind][action]);
      result[kind][action] = { commits: median(samples.map((s) => s.commitsToQuiet)), components: median(samples.map((s) => s.componentsToQuiet)) };
    }
  }
  return result;
}

/** A figure's goal: `below` means value < limit, `atMost` value <= limit. */
function goal(value: number | null, kind: 'below' | 'atMost', limit: number): Pick<Figure, 'goal' | 'meetsGoal'> {
  const text = `${kind === 'below' ? '<' : '<='} ${limit}`;
  if (value === null) return { goal: text };
  return { goal: text, meetsGoal: kind === 'below' ? value < limit : value <= limit };
}

function actionName(action: Action): string {
  return action === 'append' ? 'append (Step <client> at the end)' : `step ${action}`;
}

export function summarize(m: PageMeasurements): { figures: Figure[]; tables: TextTable[] } {
  const { loads, rounds, heap } = m;
  const jsBefore = median(loads.map((load) => load.jsGzipBytesBeforeReady));
  const jsFirstScreen = median(loads.map((load) => load.jsGzipBytesFirstScreen));
  const jsAll = median(loads.map((load) => load.jsGzipBytesAll));
  const jsAllOnce = median(loads.map((load) => load.jsGzipBytesAllOnce));
  const jsPageOnce = median(loads.map((load) => load.jsGzipBytesPageOnce));
  const fcps = loads.map((load) => load.fcpMs).filter((ms): ms is number => ms !== null);
  const readyMs = loads.map((load) => load.readyMs);
  const usableMs = loads.map((load) => load.firstUsableStepMs);

  const latency = latencyStats(rounds);
  const floor = overRounds(rounds.map((round) => round.floor.map((sample) => sample.latencyMs)));
  const react = reactStats(rounds);
  const longLoadMs = median(rounds.map((round) => round.longLoadMs));
  const longEventCount = rounds[0].longEventCount;
  const fresh = rounds[0].freshSpec;
  const heapPage = { afterLong: MB(heap.afterLongRun.pageUsedBytes), afterWalk: MB(heap.afterWalk.pageUsedBytes) };

  const figures: Figure[] = [
    { id: 'page.firstScreen.jsGzipKB.firstScreen', value: kB(jsFirstScreen), unit: 'kB', better: 'lower', note: 'JS requested before the first usable "Step A"', ...goal(kB(jsFirstScreen), 'below', GOALS.jsGzipKB) },
    { id: 'page.firstScreen.jsGzipKB.beforeReady', value: kB(jsBefore), unit: 'kB', better: 'lower', note: 'JS requested before lockstep.isReady (the rest of the scenarios and the Lua engine load after the first paint)' },
    { id: 'page.firstScreen.jsGzipKB.all', value: kB(jsAll), unit: 'kB', better: 'lower', note: 'all JS by 1 s of network quiet after ready (a file each time it was sent: the server sends no-store)' },
    { id: 'page.firstScreen.jsGzipKB.allOnce', value: kB(jsAllOnce), unit: 'kB', better: 'lower', note: 'the whole first visit, each file once, the service worker\'s offline precache included', ...goal(kB(jsAllOnce), 'below', GOALS.firstVisitJsGzipKB) },
    { id: 'page.firstScreen.jsGzipKB.pageOnce', value: kB(jsPageOnce), unit: 'kB', better: 'lower', note: 'the first visit without the precache: what the page and its workers loaded, each file once' },
    { id: 'page.firstScreen.fcpMs', value: fcps.length > 0 ? median(fcps) : null, unit: 'ms', better: 'lower' },
    { id: 'page.firstScreen.readyMs', value: median(readyMs), unit: 'ms', better: 'lower' },
    { id: 'page.firstScreen.firstStepMs', value: median(usableMs), unit: 'ms', better: 'lower', note: 'navigation start to "Step A" enabled' },
  ];
  for (const kind of RUN_KINDS) {
    for (const action of ACTIONS) {
      const stat = latency[kind][action];
      figures.push({ id: `page.step.${kind}.${action}.medianMs`, value: stat.median, unit: 'ms', better: 'lower' });
      figures.push({ id: `page.step.${kind}.${action}.p95Ms`, value: stat.p95, unit: 'ms', better: 'lower', ...(kind === 'long' ? goal(stat.p95, 'below', GOALS.stepP95Ms) : {}) });
    }
  }
  // The same press (the long run's control) on a short run of the long run's kind: history alone.
  const shortAppend = overRounds(rounds.map((round) => round.short.append.map((sample) => sample.latencyMs)));
  figures.push(
    { id: 'page.step.short.append.medianMs', value: shortAppend.median, unit: 'ms', better: 'lower' },
    { id: 'page.step.short.append.p95Ms', value: shortAppend.p95, unit: 'ms', better: 'lower' },
    // The append goal: what history alone costs a press. (The fresh run appends with another control.)
    { id: 'page.step.longVsShort.append.p95', value: ratio(latency.long.append.p95, shortAppend.p95), unit: 'x', better: 'lower', note: 'the same control at 10k and on a short run of the same scenario and variant', ...goal(ratio(latency.long.append.p95, shortAppend.p95), 'atMost', GOALS.longVsFresh) },
    { id: 'page.step.longVsShort.append.median', value: ratio(latency.long.append.median, shortAppend.median), unit: 'x', better: 'lower' },
  );
  for (const action of ACTIONS) {
    const p95Ratio = ratio(latency.long[action].p95, latency.fresh[action].p95);
    // Back and forward press the same controls on both runs; append does not (see longVsShort above).
    const sameControl = action !== 'append';
    figures.push({ id: `page.step.longVsFresh.${action}.p95`, value: p95Ratio, unit: 'x', better: 'lower', ...(sameControl ? goal(p95Ratio, 'atMost', GOALS.longVsFresh) : { note: 'another control on the fresh run: the goal is page.step.longVsShort.append.p95' }) });
    figures.push({ id: `page.step.longVsFresh.${action}.median`, value: ratio(latency.long[action].median, latency.fresh[action].median), unit: 'x', better: 'lower' });
  }
  figures.push(
    { id: 'page.step.floor.medianMs', value: floor.median, unit: 'ms', better: 'lower', note: 'the same press on a blank page: the machine\'s noise' },
    { id: 'page.step.floor.p95Ms', value: floor.p95, unit: 'ms', better: 'lower' },
  );
  for (const kind of RUN_KINDS) {
    for (const action of ACTIONS) {
      figures.push({ id: `page.react.${kind}.${action}.commits`, value: react[kind][action].commits, unit: 'commits', better: 'lower' });
      figures.push({ id: `page.react.${kind}.${action}.components`, value: react[kind][action].components, unit: 'components', better: 'lower' });
    }
  }
  figures.push(
    { id: 'page.long.loadMs', value: longLoadMs, unit: 'ms', better: 'lower', note: `lockstep.load of ${m.longRun.stepCount} steps / ${longEventCount} events until shown` },
    { id: 'page.heap.firstScreenMB', value: MB(heap.firstScreen.pageUsedBytes), unit: 'MB', better: 'lower' },
    { id: 'page.heap.after10kStepsMB', value: heapPage.afterLong, unit: 'MB', better: 'lower', ...goal(heapPage.afterLong, 'below', GOALS.heapMB) },
    { id: 'page.heap.afterWalkMB', value: heapPage.afterWalk, unit: 'MB', better: 'lower', ...goal(heapPage.afterWalk, 'below', GOALS.heapMB) },
    { id: 'page.heap.worker.firstScreenMB', value: MB(heap.firstScreen.workerUsedBytes), unit: 'MB', better: 'lower' },
    { id: 'page.heap.worker.after10kStepsMB', value: MB(heap.afterLongRun.workerUsedBytes), unit: 'MB', better: 'lower' },
    { id: 'page.heap.worker.afterWalkMB', value: MB(heap.afterWalk.workerUsedBytes), unit: 'MB', better: 'lower' },
    { id: 'page.heap.load10kStepsMs', value: heap.loadMs, unit: 'ms', better: 'lower' },
    { id: 'page.seek.toStartMs', value: heap.seekToStart.latencyMs, unit: 'ms', better: 'lower', note: `scrubber Home on ${heap.longRunSteps} steps` },
    { id: 'page.seek.toEndMs', value: heap.seekToEnd.latencyMs, unit: 'ms', better: 'lower', note: `scrubber End on ${heap.longRunSteps} steps` },
  );

  const appendControls = (kind: RunKind) => [...new Set(rounds.flatMap((round) => round.series[kind].append.map((sample) => sample.control ?? '?')))].join(', ');
  const minOf = (values: readonly number[]) => (values.length === 0 ? null : Math.min(...values));
  const firstScreenTable: TextTable = {
    title: `Page: first screen (${loads.length} cold loads; median, best)`,
    columns: ['median', 'best', 'goal'],
    rows: [
      { name: 'JavaScript before the first usable "Step A", gzip kB', cells: [fmt(kB(jsFirstScreen)), fmt(kB(Math.min(...loads.map((l) => l.jsGzipBytesFirstScreen)))), `< ${GOALS.jsGzipKB}`] },
      ...loads[0].scripts.map((script) => ({ name: `  ${script.path}${script.firstScreen ? '' : script.beforeReady ? ' (after "Step A", before ready)' : ' (after ready)'}`, cells: [fmt(kB(script.gzipBytes)), '', ''] })),
      { name: 'JavaScript before ready (lockstep.isReady), gzip kB', cells: [fmt(kB(jsBefore)), fmt(kB(Math.min(...loads.map((l) => l.jsGzipBytesBeforeReady)))), ''] },
      { name: 'JavaScript by 1 s of network quiet, gzip kB', cells: [fmt(kB(jsAll)), fmt(kB(Math.min(...loads.map((l) => l.jsGzipBytesAll)))), ''] },
      { name: 'first contentful paint, ms', cells: [fcps.length > 0 ? fmt(median(fcps), 0) : 'n/a', fmt(minOf(fcps), 0), ''] },
      { name: 'ready (lockstep.isReady), ms', cells: [fmt(median(readyMs), 0), fmt(minOf(readyMs), 0), ''] },
      { name: 'first usable "Step A", ms', cells: [fmt(median(usableMs), 0), fmt(minOf(usableMs), 0), ''] },
    ],
    notes: ['kB = 1000 bytes of gzip (level 6) as sent; times from navigation start.'],
  };
  const latencyTable: TextTable = {
    title: `Page: step latency, input to the step on screen, ms (up to ${m.pressCount} presses x ${rounds.length} rounds; median over rounds)`,
    columns: ['fresh med', 'fresh p95', '10k med', '10k p95', '10k/fresh p95', '10k/fresh med', 'presses'],
    rows: [
      ...ACTIONS.map((action) => ({
        name: actionName(action),
        cells: [
          fmt(latency.fresh[action].median),
          fmt(latency.fresh[action].p95),
          fmt(latency.long[action].median),
          fmt(latency.long[action].p95),
          fmtRatio(ratio(latency.long[action].p95, latency.fresh[action].p95)),
          fmtRatio(ratio(latency.long[action].median, latency.fresh[action].median)),
          `${latency.fresh[action].count}/${latency.long[action].count}`,
        ],
      })),
      {
        name: "append, the 10k run's control on a short run of its kind (in the fresh columns)",
        cells: [
          fmt(shortAppend.median),
          fmt(shortAppend.p95),
          fmt(latency.long.append.median),
          fmt(latency.long.append.p95),
          fmtRatio(ratio(latency.long.append.p95, shortAppend.p95)),
          fmtRatio(ratio(latency.long.append.median, shortAppend.median)),
          `${shortAppend.count}/${latency.long.append.count}`,
        ],
      },
      { name: 'noise floor: the same press on a blank page', cells: [fmt(floor.median), fmt(floor.p95), '', '', '', '', `${floor.count}`] },
    ],
    notes: [
      `fresh: the default scenario's default run (${fresh.scenario}/${fresh.variant}, ${rounds[0].freshLength} steps); ` +
        `10k: ${m.longRun.scenarioId}/${m.longRun.variantId}, ${m.longRun.stepCount} steps, ${longEventCount} events (loaded in ${fmt(longLoadMs, 0)} ms).`,
      `append pressed: fresh ${appendControls('fresh')}; 10k ${appendControls('long')}; ` +
        `short run of the 10k run's kind (${rounds[0].short.spec.scenario}/${rounds[0].short.spec.variant}, ${rounds[0].short.length} steps): ` +
        `${[...new Set(rounds.flatMap((round) => round.short.append.map((sample) => sample.control ?? '?')))].join(', ')}.`,
      `Goals: 10k p95 < ${GOALS.stepP95Ms} ms; back and forward <= ${GOALS.longVsFresh}x the fresh run's, append <= ${GOALS.longVsFresh}x the same control's on the short run.`,
    ],
  };
  const reactTable: TextTable = {
    title: `Page: React work per step, until ${QUIET_MS} ms without a commit (median over presses)`,
    columns: ['fresh commits', 'fresh components', '10k commits', '10k components', '10k/fresh comp.'],
    rows: ACTIONS.map((action) => ({
      name: actionName(action),
      cells: [
        fmt(react.fresh[action].commits, 0),
        fmt(react.fresh[action].components, 0),
        fmt(react.long[action].commits, 0),
        fmt(react.long[action].components, 0),
        fmtRatio(ratio(react.long[action].components, react.fresh[action].components)),
      ],
    })),
    notes: ['Through the React DevTools global hook: commits, and components whose render ran in each commit.'],
  };
  const heapTable: TextTable = {
    title: 'Page: JS heap after a forced GC, MB',
    columns: ['page', 'worker(s)', 'goal'],
    rows: [
      { name: 'first screen', cells: [fmt(MB(heap.firstScreen.pageUsedBytes)), fmt(MB(heap.firstScreen.workerUsedBytes)), ''] },
      { name: `after loading ${heap.longRunSteps} steps (${heap.longRunEvents} events)`, cells: [fmt(heapPage.afterLong), fmt(MB(heap.afterLongRun.workerUsedBytes)), `< ${GOALS.heapMB}`] },
      { name: 'after back to the start and to the end again', cells: [fmt(heapPage.afterWalk), fmt(MB(heap.afterWalk.workerUsedBytes)), `< ${GOALS.heapMB}`] },
    ],
    notes: [
      `Loading the ${heap.longRunSteps}-step run took ${fmt(heap.loadMs, 0)} ms; scrubber Home took ${fmt(heap.seekToStart.latencyMs, 0)} ms, ` +
        `End ${fmt(heap.seekToEnd.latencyMs, 0)} ms (input to the step on screen).`,
    ],
  };
  return { figures, tables: [firstScreenTable, latencyTable, reactTable, heapTable] };
}
