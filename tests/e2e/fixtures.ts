/**
 * The page object for Lockstep's e2e tests. It speaks only the automation contract of
 * docs/AUTOMATION.md: roles and accessible names for controls, dotted test ids for regions, and
 * `window.lockstep` for loading runs and reading results. No CSS selectors, no sleeps.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import type { LoadSpec, StateSummary, ViolationSummary } from '../../src/ui/test-api';
import type { OutcomeReport } from '../../src/ui/worker/protocol';
import type { Trace } from '../../src/engine/trace';

export const SCREENSHOT_DIR = '.screenshots';

/**
 * What one page load adds to a test's hang bound. Loading the page parses about 1 MiB of
 * JavaScript and starts a worker: about a second on an idle machine, 10 s and more on a loaded
 * 2-core one. A test's bound is the config's plus this for each page it opens, so a test that
 * opens four pages gets four times the room for loading (docs/TESTING.md).
 */
const pageLoadAllowanceMs = 30_000;

/** Gives the running test room for one more page load. */
export function allowPageLoad(): void {
  base.info().setTimeout(base.info().timeout + pageLoadAllowanceMs);
}

export class LockstepPage {
  constructor(readonly page: Page) {}

  /** Opens the app (optionally at a share-link hash or with a query) and waits for `lockstep.ready`. */
  async open(hash = '', query = ''): Promise<void> {
    allowPageLoad();
    await this.page.goto(`/${query}${hash}`);
    await this.page.waitForFunction(() => window.lockstep?.isReady === true);
  }

  async load(spec: LoadSpec): Promise<void> {
    const result = await this.page.evaluate((s) => window.lockstep!.load(s), spec);
    expect(result.ok, JSON.stringify(result)).toBe(true);
  }

  state(): Promise<StateSummary> {
    return this.page.evaluate(() => window.lockstep!.state());
  }

  trace(): Promise<Trace> {
    return this.page.evaluate(() => window.lockstep!.trace());
  }

  violations(): Promise<ViolationSummary[]> {
    return this.page.evaluate(() => window.lockstep!.violations());
  }

  outcomes(): Promise<OutcomeReport> {
    return this.page.evaluate(() => window.lockstep!.outcomes());
  }

  // Regions (test ids)
  lane(clientId: string): Locator {
    return this.page.getByTestId(`lane.${clientId}`);
  }
  laneStatus(clientId: string): Locator {
    return this.page.getByTestId(`lane.${clientId}.status`);
  }
  key(name: string): Locator {
    return this.page.getByTestId(`key.${name}`);
  }
  get banner(): Locator {
    return this.page.getByTestId('violation-banner');
  }
  get noViolations(): Locator {
    return this.page.getByTestId('violation-none');
  }
  get linkError(): Locator {
    return this.page.getByTestId('link-error');
  }
  get position(): Locator {
    return this.page.getByTestId('position');
  }
  get clock(): Locator {
    return this.page.getByTestId('clock.value');
  }

  // Controls (roles and names)
  button(name: string | RegExp): Locator {
    return this.page.getByRole('button', { name, exact: typeof name === 'string' });
  }

  async chooseScenario(title: string | RegExp): Promise<void> {
    await this.button('Scenarios').click();
    await this.page.getByRole('button', { name: title }).click();
  }

  async chooseVariant(title: string | RegExp): Promise<void> {
    await this.page.getByRole('radio', { name: title }).check();
  }

  async stepClient(clientId: string): Promise<void> {
    await this.lane(clientId).getByRole('button', { name: `Step ${clientId}`, exact: true }).click();
  }

  async pauseClient(clientId: string, ms: number): Promise<void> {
    await this.lane(clientId).getByRole('spinbutton', { name: `Pause (ms) for ${clientId}` }).fill(String(ms));
    await this.lane(clientId).getByRole('button', { name: `Pause ${clientId}`, exact: true }).click();
  }

  async advanceClock(ms: number): Promise<void> {
    await this.page.getByRole('spinbutton', { name: 'Clock advance (ms)' }).fill(String(ms));
    await this.button('Advance').click();
  }

  /** Saves a 1280x720 screenshot of the current state to .screenshots/<name>.png. */
  async screenshot(name: string): Promise<void> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await this.page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  }
}

export const test = base.extend<{ app: LockstepPage }>({
  app: async ({ page }, use) => {
    // Every test starts from a known language and no saved run, whatever the machine's locale.
    await page.addInitScript(() => {
      if (!localStorage.getItem('lockstep.prefs.v1')) {
        localStorage.setItem('lockstep.prefs.v1', JSON.stringify({ lang: 'en', theme: 'light', presentation: false }));
      }
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await use(new LockstepPage(page));
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});

export { expect };
