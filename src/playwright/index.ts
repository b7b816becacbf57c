/**
 * `lockstep/playwright`: a Playwright fixture that opens Lockstep's page on a scenario (a built-in
 * id or your own definition) and drives it as a person would, through the documented automation
 * contract only (docs/AUTOMATION.md): `window.lockstep` to load and read, roles and accessible
 * names inside the dotted test-id regions to act. It serves the built page itself (shipped in the
 * package) unless `lockstepUrl` points at a running Lockstep.
 *
 *   import { test, expect } from 'lockstep/playwright';
 *   test('my release cannot delete B\'s lock', async ({ lockstep }) => {
 *     await lockstep.open(myDefinition, { schedule: '' });
 *     await lockstep.step('A');
 *     expect(await lockstep.violations()).toEqual([]);
 *   });
 */
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import type { LoadSpec, StateSummary, ViolationSummary } from '../ui/test-api';
import type { OutcomeReport } from '../ui/worker/protocol';
import type { Trace } from '../engine/trace';
import { serveDirectory } from './serve';

export { expect };

/** The automation contract these names are from (docs/AUTOMATION.md; version 2 renamed the clock bar's controls; version 3 made the reads promises). */
export const CONTRACT_VERSION = 3;
export type { StateSummary, ViolationSummary, OutcomeReport, Trace };

export interface OpenOptions {
  /** The variant to show (default: the scenario's default variant). */
  readonly variant?: string;
  /** The seed, 0..4294967295 (default 1). */
  readonly seed?: number;
  /** Schedule text (docs/SCHEDULES.md) to replay first; '' for none; absent: the scenario's default schedule. */
  readonly schedule?: string;
}

/** The page refused what `open` gave it: `reason` as `lockstep.load` names it, `problems` with paths for a definition. */
export class LockstepLoadError extends Error {
  override name = 'LockstepLoadError';
  constructor(
    readonly reason: string,
    readonly detail: string,
    readonly problems: readonly { readonly path: string; readonly message: string }[],
  ) {
    super(`lockstep.load refused the run (${reason}):\n${detail}`);
  }
}

/** A control the page does not offer now (a finished client's Step button is disabled). */
export class LockstepActionError extends Error {
  override name = 'LockstepActionError';
}

export interface Lockstep {
  readonly page: Page;
  /** Opens the page on a built-in scenario id or a scenario definition, after replaying `schedule`. */
  open(scenario: string | object, options?: OpenOptions): Promise<void>;
  /** Clicks "Step A" in A's lane: A runs to its next scheduling point. */
  step(clientId: string): Promise<void>;
  /** Advances the virtual clock by `ms` (every timer due on the way fires at its time). */
  advance(ms: number): Promise<void>;
  /** Pauses A's process for `ms` (a stop-the-world stall, as a GC pause). */
  stall(clientId: string, ms: number): Promise<void>;
  /** Crashes A's process. */
  crash(clientId: string): Promise<void>;
  stepBack(): Promise<void>;
  stepForward(): Promise<void>;
  /** Violations up to the shown step: `{ kind, step, message, clients }[]`. */
  violations(): Promise<ViolationSummary[]>;
  /** The summary at the shown step (clients, lock, keys, clock). */
  state(): Promise<StateSummary>;
  /** The whole timeline: every event and violation (same JSON as the CLI's `run --json`). */
  trace(): Promise<Trace>;
  /** Every variant of the scenario replayed under the current schedule (from the page's worker). */
  outcomes(): Promise<OutcomeReport>;
  /** A client's lane (`lane.A`), for your own assertions. */
  lane(clientId: string): Locator;
  /** The violation banner (`violation-banner`), present while a violation has happened. */
  readonly banner: Locator;
}

interface LockstepOptions {
  /** A running Lockstep page (e.g. `http://localhost:5173/`); absent: the fixture serves the packaged page. */
  readonly lockstepUrl: string | undefined;
}

/** Where the packaged page sits beside this file once built (dist-pkg/lib -> dist-pkg/app). */
function packagedAppDir(): string {
  return fileURLToPath(new URL('../app/', import.meta.url));
}

function createLockstep(page: Page, url: string): Lockstep {
  const lane = (clientId: string) => page.getByTestId(`lane.${clientId}`);
  const press = async (control: Locator, what: string) => {
    if (!(await control.isEnabled())) {
      const state = await page.evaluate(() => window.lockstep!.state());
      throw new LockstepActionError(`${what}: the page offers it disabled now (clients: ${state.clients.map((c) => `${c.id} ${c.status}`).join(', ')}; step ${state.cursor}/${state.length})`);
    }
    await control.click();
  };
  return {
    page,
    async open(scenario, options = {}) {
      await page.goto(url);
      await page.waitForFunction(() => window.lockstep?.isReady === true);
      // A page of another contract names its controls otherwise: say so rather than time out on a name.
      const version = await page.evaluate(() => window.lockstep!.version as number);
      if (version !== CONTRACT_VERSION) throw new Error(`lockstep/playwright drives automation contract version ${CONTRACT_VERSION}; this page speaks version ${version} (docs/AUTOMATION.md)`);
      // The control names below are the English ones; a browser locale may have chosen another language.
      const lang = await page.evaluate(async () => (await window.lockstep!.state()).lang);
      if (lang !== 'en') await page.getByRole('button', { name: 'English', exact: true }).click();
      const spec: LoadSpec = { ...(typeof scenario === 'string' ? { scenario } : { definition: scenario }), ...options };
      const result = await page.evaluate((s) => window.lockstep!.load(s), spec);
      if (!result.ok) {
        const error = result.error as { reason: string; detail: string; problems?: { path: string; message: string }[] };
        throw new LockstepLoadError(error.reason, error.detail, error.problems ?? []);
      }
    },
    step: (clientId) => press(lane(clientId).getByRole('button', { name: `Step ${clientId}`, exact: true }), `step ${clientId}`),
    async advance(ms) {
      await page.getByRole('spinbutton', { name: 'Clock advance (ms)', exact: true }).fill(String(ms));
      await press(page.getByRole('button', { name: 'Advance', exact: true }), `advance ${ms} ms`);
    },
    async stall(clientId, ms) {
      await lane(clientId).getByRole('spinbutton', { name: `Pause (ms) for ${clientId}`, exact: true }).fill(String(ms));
      await press(lane(clientId).getByRole('button', { name: `Pause ${clientId}`, exact: true }), `stall ${clientId} ${ms} ms`);
    },
    crash: (clientId) => press(lane(clientId).getByRole('button', { name: `Crash ${clientId}`, exact: true }), `crash ${clientId}`),
    stepBack: () => press(page.getByRole('button', { name: 'Back one step', exact: true }), 'step back'),
    stepForward: () => press(page.getByRole('button', { name: 'Forward one step', exact: true }), 'step forward'),
    violations: () => page.evaluate(() => window.lockstep!.violations()),
    state: () => page.evaluate(() => window.lockstep!.state()),
    trace: () => page.evaluate(() => window.lockstep!.trace()),
    outcomes: () => page.evaluate(() => window.lockstep!.outcomes()),
    lane,
    banner: page.getByTestId('violation-banner'),
  };
}

/** Playwright's `test` with a `lockstep` fixture (and the `lockstepUrl` option). */
export const test = base.extend<{ lockstep: Lockstep }, LockstepOptions & { lockstepPageUrl: string }>({
  lockstepUrl: [undefined, { option: true, scope: 'worker' }],
  lockstepPageUrl: [
    async ({ lockstepUrl }, use) => {
      if (lockstepUrl !== undefined) return use(lockstepUrl);
      const server = await serveDirectory(packagedAppDir());
      try {
        await use(server.url);
      } finally {
        await server.close();
      }
    },
    { scope: 'worker' },
  ],
  lockstep: async ({ page, lockstepPageUrl }, use) => {
    await use(createLockstep(page, lockstepPageUrl));
  },
});
