import type { StepSample } from './browser';
import type { AppendPlan } from './append-plan';
import type { PageDriver, RunSpec } from './driver';

/**
 * The step series of one run on screen: step back, step forward and append, up to `pressCount`
 * measured presses each (after WARMUP_PRESSES unmeasured ones). Every press is a real mouse click
 * on the control through Playwright (checked enabled first, then clicked without Playwright's
 * actionability waits, which on a slow page wait for several frames before clicking).
 * - back / forward: sweeps from the end of the run, K presses back then K forward
 *   (K = min(pressCount, length)), repeated until each action has its samples;
 * - append: at the end of the run, the control AppendPlan chose ("Step X" of the first client
 *   that can step there, else "Advance", the clock by the field's amount): either way one new
 *   choice at the end of the timeline; when the client cannot step any more, the run is loaded
 *   again (not measured). Each sample records its control.
 * Bounded: an action stops early once its presses took `budgetMs` and it has at least
 * PRESS_COUNT_MIN samples (a slow build would otherwise take many minutes); the sample count of
 * each series is reported.
 */

const WARMUP_PRESSES = 3;
const PRESS_COUNT_MIN = 20;

export type Action = 'back' | 'forward' | 'append';
export const ACTIONS: readonly Action[] = ['back', 'forward', 'append'];

export type Series = Record<Action, StepSample[]>;

export interface SeriesLimits {
  readonly pressCount: number;
  readonly budgetMs: number;
}

/** Collects one action's samples: warm-up presses first, then until full or out of budget. */
class Collector {
  readonly samples: StepSample[] = [];
  private warmupLeft = WARMUP_PRESSES;
  private spentMs = 0;

  constructor(private readonly limits: SeriesLimits) {}

  get wantsMore(): boolean {
    if (this.samples.length >= this.limits.pressCount) return false;
    return this.spentMs < this.limits.budgetMs || this.samples.length < Math.min(PRESS_COUNT_MIN, this.limits.pressCount);
  }

  /** Presses once; the sample is kept unless it is a warm-up or the collector is full (a sweep may press on to make room for the other direction). */
  async press(measure: () => Promise<StepSample>): Promise<void> {
    const start = performance.now();
    const keep = this.warmupLeft === 0 && this.wantsMore;
    const sample = await measure();
    if (this.warmupLeft > 0) this.warmupLeft -= 1;
    if (!keep) return;
    this.spentMs += performance.now() - start;
    this.samples.push(sample);
  }
}

async function pressClock(driver: PageDriver, name: 'Back one step' | 'Forward one step'): Promise<StepSample> {
  const { cursor } = await driver.shown();
  const expect = name === 'Back one step' ? cursor - 1 : cursor + 1;
  const button = driver.clockButton(name);
  if (!(await button.isEnabled())) throw new Error(`"${name}" is disabled at ${cursor}`);
  return driver.measure(expect, () => button.click({ force: true }));
}

async function sweeps(driver: PageDriver, spec: RunSpec, limits: SeriesLimits): Promise<{ back: StepSample[]; forward: StepSample[] }> {
  const { cursor, length } = await driver.shown();
  if (cursor !== length) throw new Error(`sweeps start at the end of the run, not at ${cursor} / ${length}`);
  if (length === 0) throw new Error('the run has no steps to step back over');
  const sweep = Math.min(limits.pressCount + WARMUP_PRESSES, length);
  const back = new Collector(limits);
  const forward = new Collector(limits);
  sweeping: while (back.wantsMore || forward.wantsMore) {
    for (let i = 0; i < sweep; i++) {
      if (!back.wantsMore && !forward.wantsMore) break sweeping;
      await back.press(() => pressClock(driver, 'Back one step'));
    }
    for (let i = 0; i < sweep; i++) {
      if (!back.wantsMore && !forward.wantsMore) break sweeping;
      await forward.press(() => pressClock(driver, 'Forward one step'));
    }
  }
  // Stopped inside a sweep: back to the end of the run for the appends (not measured).
  const shown = await driver.shown();
  if (shown.cursor !== shown.length) await driver.load(spec);
  return { back: back.samples, forward: forward.samples };
}

async function appends(driver: PageDriver, spec: RunSpec, plan: AppendPlan, limits: SeriesLimits): Promise<StepSample[]> {
  const append = new Collector(limits);
  const button = plan.control === 'Advance' ? driver.clockButton('Advance') : driver.clientStepButton(plan.control.slice('Step '.length));
  while (append.wantsMore) {
    if (!plan.next()) {
      await driver.load(spec);
      plan.restart();
      if (!plan.next()) throw new Error(`${spec.scenario}/${spec.variant}: "${plan.control}" cannot append at the end of the run`);
    }
    if (!(await button.isEnabled())) throw new Error(`"${plan.control}" is disabled at the end of the run`);
    const { cursor, length } = await driver.shown();
    if (cursor !== length) throw new Error(`append expects the end of the run, not ${cursor} / ${length}`);
    await append.press(async () => {
      const sample = await driver.measure(cursor + 1, () => button.click({ force: true }));
      sample.control = plan.control;
      return sample;
    });
  }
  return append.samples;
}

/** Runs the append series alone on the run `spec`, which must be on screen at its end. */
export async function measureAppends(driver: PageDriver, spec: RunSpec, plan: AppendPlan, limits: SeriesLimits): Promise<StepSample[]> {
  const append = await appends(driver, spec, plan, limits);
  await driver.attachNextPaints(append);
  return append;
}

/** Runs the three series on the run `spec`, which must be on screen at its end. */
export async function measureSeries(driver: PageDriver, spec: RunSpec, plan: AppendPlan, limits: SeriesLimits): Promise<Series> {
  const { back, forward } = await sweeps(driver, spec, limits);
  const append = await appends(driver, spec, plan, limits);
  await driver.attachNextPaints([...back, ...forward, ...append]);
  return { back, forward, append };
}
