import type { Browser } from '@playwright/test';
import { newInstrumentedPage, type StepSample } from './browser';
import { PageDriver, type RunSpec } from './driver';
import { measureFloor } from './floor';
import { LONG_RUN_APPEND_CLIENT } from '../engine/long-run';
import type { EngineSource } from '../engine/source';
import { progress } from '../progress';
import { AppendPlan } from './append-plan';
import { measureAppends, measureSeries, type Series, type SeriesLimits } from './step-series';

/**
 * One round of the step series, in a fresh context: the noise floor, then the fresh run and the
 * long run side by side in the same page (their order alternates between rounds, so neither
 * always runs on a colder or a fuller page).
 */

export type RunKind = 'fresh' | 'long';
export const RUN_KINDS: readonly RunKind[] = ['fresh', 'long'];

export interface RoundResult {
  /** The default scenario's default run, as a new visitor's page opens it. */
  readonly freshSpec: RunSpec;
  readonly freshLength: number;
  readonly floor: StepSample[];
  readonly series: Record<RunKind, Series>;
  /** `lockstep.load` of the long run until its position is on screen. */
  readonly longLoadMs: number;
  /** Events of the long run, as the page's own trace counts them. */
  readonly longEventCount: number;
  /**
   * Appends to a short run of the long run's kind (its scenario and variant without the lead-in
   * of clock advances), pressing the long run's control: the same press with and without the
   * history, where the fresh run's append may have to press another control (Advance).
   */
  readonly short: { readonly spec: RunSpec; readonly length: number; readonly append: StepSample[] };
}

export async function measureRound(
  browser: Browser,
  engine: EngineSource,
  url: string,
  longSpec: RunSpec,
  shortSpec: RunSpec,
  longEventCountMin: number,
  limits: SeriesLimits,
  longFirst: boolean,
): Promise<RoundResult> {
  const { context, page } = await newInstrumentedPage(browser);
  try {
    const floor = await measureFloor(context, url, limits.pressCount);
    const driver = new PageDriver(page);
    await driver.open(url);
    const freshSpec = await driver.currentRun();
    const series: Partial<Record<RunKind, Series>> = {};
    let longLoadMs = 0;
    let longEventCount = 0;
    let freshLength = 0;
    for (const kind of longFirst ? (['long', 'fresh'] as const) : (['fresh', 'long'] as const)) {
      const spec = kind === 'fresh' ? freshSpec : longSpec;
      const { loadMs, position } = await driver.load(spec);
      if (kind === 'fresh') {
        freshLength = position.length;
      } else {
        longLoadMs = loadMs;
        longEventCount = await driver.eventCount();
        if (longEventCount < longEventCountMin) throw new Error(`the long run has ${longEventCount} events in the page, fewer than ${longEventCountMin}`);
      }
      const plan = new AppendPlan(engine, spec, kind === 'long' ? LONG_RUN_APPEND_CLIENT : undefined);
      progress(`page:   ${kind} run, ${position.length} steps: back, forward, append (${plan.control})`);
      series[kind] = await measureSeries(driver, spec, plan, limits);
    }
    const { position } = await driver.load(shortSpec);
    const shortPlan = new AppendPlan(engine, shortSpec, LONG_RUN_APPEND_CLIENT);
    progress(`page:   short run of the long run's kind, ${position.length} steps: append (${shortPlan.control})`);
    const short = { spec: shortSpec, length: position.length, append: await measureAppends(driver, shortSpec, shortPlan, limits) };
    return { freshSpec, freshLength, floor, series: series as Record<RunKind, Series>, longLoadMs, longEventCount, short };
  } finally {
    await context.close();
  }
}
