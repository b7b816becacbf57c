import type { Locator, Page } from '@playwright/test';
import type { StepSample } from './browser';

/**
 * Drives Lockstep's page through its automation contract only (docs/AUTOMATION.md): roles and
 * names of controls, test ids of regions, and `window.lockstep` to load runs. Timing itself is
 * done in the page by the instrument (instrument.browser.js).
 */

export interface RunSpec {
  readonly scenario: string;
  readonly variant: string;
  readonly seed: number;
  readonly schedule: string;
}

export interface Position {
  readonly cursor: number;
  readonly length: number;
}

/** After a step's frame, wait until React has not committed for this long (async work such as the worker's report). */
export const QUIET_MS = 50;
/** ...but no longer than this. */
export const SETTLE_MS_MAX = 2_000;
/** A step whose new position is not shown within this is an error, not a sample. */
const FRAME_WAIT_MS_MAX = 60_000;
const LOAD_WAIT_MS_MAX = 120_000;

interface PageApi {
  load(spec: RunSpec): { ok: true } | { ok: false; error: { reason: string; detail?: string } };
  state(): { scenario: string; variant: string; seed: number; schedule: string; cursor: number; length: number };
  trace(): { events: readonly unknown[] };
}

interface Bench {
  shownCursor(): Position | null;
  arm(expectCursor: number): void;
  finish(quietMs: number, settleMsMax: number, frameWaitMsMax: number): Promise<StepSample>;
  waitQuiet(quietMs: number, waitMsMax: number): Promise<boolean>;
  takeNextPaints(): { inputAtMs: number; durationMs: number }[];
}

type Win = Window & { lockstep: PageApi; __lockstepBench: Bench };

export class PageDriver {
  constructor(readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.waitForFunction(() => (window as unknown as { __lockstepBench: { firstUsableAtMs: number | null } }).__lockstepBench.firstUsableAtMs !== null, null, {
      timeout: LOAD_WAIT_MS_MAX,
      polling: 50,
    });
    await this.quiet();
  }

  /** The run on screen, as `lockstep.load` takes it. */
  async currentRun(): Promise<RunSpec> {
    return this.page.evaluate(async () => {
      const state = await (window as unknown as Win).lockstep.state();
      return { scenario: state.scenario, variant: state.variant, seed: state.seed, schedule: state.schedule };
    });
  }

  eventCount(): Promise<number> {
    return this.page.evaluate(async () => (await (window as unknown as Win).lockstep.trace()).events.length);
  }

  async shown(): Promise<Position> {
    const shown = await this.page.evaluate(() => (window as unknown as Win).__lockstepBench.shownCursor());
    if (shown === null) throw new Error('the page shows no position (test id "position")');
    return shown;
  }

  /** Loads a run, waits until the position shows it and React is quiet; returns the load's wall time. */
  async load(spec: RunSpec): Promise<{ position: Position; loadMs: number }> {
    const start = performance.now();
    const result = await this.page.evaluate((s) => (window as unknown as Win).lockstep.load(s), spec);
    if (!result.ok) throw new Error(`lockstep.load(${spec.scenario}/${spec.variant}) refused: ${JSON.stringify(result.error)}`);
    const expected = await this.page.evaluate(async () => {
      const state = await (window as unknown as Win).lockstep.state();
      return { cursor: state.cursor, length: state.length };
    });
    await this.page.waitForFunction(
      (e) => {
        const shown = (window as unknown as Win).__lockstepBench.shownCursor();
        return shown !== null && shown.cursor === e.cursor && shown.length === e.length;
      },
      expected,
      { timeout: LOAD_WAIT_MS_MAX, polling: 'raf' },
    );
    const loadMs = performance.now() - start;
    await this.quiet();
    return { position: expected, loadMs };
  }

  quiet(): Promise<boolean> {
    return this.page.evaluate(([q, max]) => (window as unknown as Win).__lockstepBench.waitQuiet(q, max), [QUIET_MS, SETTLE_MS_MAX] as const);
  }

  /** One measured input: arms the instrument, performs the input, waits for the new cursor on screen, a frame and quiet. */
  async measure(expectCursor: number, input: () => Promise<void>): Promise<StepSample> {
    await this.page.evaluate((cursor) => (window as unknown as Win).__lockstepBench.arm(cursor), expectCursor);
    await input();
    return this.page.evaluate(
      ([q, max, frameMax]) => (window as unknown as Win).__lockstepBench.finish(q, max, frameMax),
      [QUIET_MS, SETTLE_MS_MAX, FRAME_WAIT_MS_MAX] as const,
    );
  }

  /**
   * Gives each sample the Event Timing duration the page reported for its input, if any, and
   * makes its latency the later of that presentation and the next frame's start. (When the page
   * updates the DOM while handling the input, the next paint presents the step; when it updates
   * later, the next frame after the update does.)
   */
  async attachNextPaints(samples: readonly StepSample[]): Promise<void> {
    await this.quiet();
    const entries = await this.page.evaluate(() => (window as unknown as Win).__lockstepBench.takeNextPaints());
    for (const sample of samples) {
      const entry = entries.find((e) => Math.abs(e.inputAtMs - sample.inputAtMs) < 1);
      sample.nextPaintMs = entry === undefined ? null : entry.durationMs;
      sample.latencyMs = Math.max(sample.nextFrameMs, sample.nextPaintMs ?? 0);
    }
  }

  clockButton(name: 'Back one step' | 'Forward one step' | 'Advance'): Locator {
    return this.page.getByTestId('clock-bar').getByRole('button', { name, exact: true });
  }

  clientStepButton(clientId: string): Locator {
    return this.page.getByTestId(`lane.${clientId}`).getByRole('button', { name: `Step ${clientId}`, exact: true });
  }

  scrubber(): Locator {
    return this.page.getByRole('slider', { name: 'Position in the run', exact: true });
  }
}
