import type { Browser } from '@playwright/test';
import { measureHeap, newInstrumentedPage, type HeapUsage, type StepSample } from './browser';
import { PageDriver, type RunSpec } from './driver';

/**
 * JS heap (after a forced GC) of the page and of its workers, in a fresh context: at the first
 * screen; after loading the 10,000-step run (the page holds all 10,000 steps); and after going
 * back to the start of that run and forward to its end again with the scrubber's Home and End
 * keys (seeks through the whole run, each timed like a step).
 */

export interface HeapResult {
  readonly firstScreen: HeapUsage;
  readonly afterLongRun: HeapUsage;
  readonly afterWalk: HeapUsage;
  readonly longRunSteps: number;
  readonly longRunEvents: number;
  readonly loadMs: number;
  readonly seekToStart: StepSample;
  readonly seekToEnd: StepSample;
}

export async function measureHeapPhase(browser: Browser, url: string, longRun: RunSpec): Promise<HeapResult> {
  const { context, page } = await newInstrumentedPage(browser);
  const origin = new URL(url).origin;
  try {
    const driver = new PageDriver(page);
    await driver.open(url);
    const firstScreen = await measureHeap(browser, page, origin);
    const { position, loadMs } = await driver.load(longRun);
    const longRunEvents = await driver.eventCount();
    const afterLongRun = await measureHeap(browser, page, origin);
    const scrubber = driver.scrubber();
    await scrubber.focus();
    const seekToStart = await driver.measure(0, () => page.keyboard.press('Home'));
    const seekToEnd = await driver.measure(position.length, () => page.keyboard.press('End'));
    await driver.attachNextPaints([seekToStart, seekToEnd]);
    const afterWalk = await measureHeap(browser, page, origin);
    return { firstScreen, afterLongRun, afterWalk, longRunSteps: position.length, longRunEvents, loadMs, seekToStart, seekToEnd };
  } finally {
    await context.close();
  }
}
