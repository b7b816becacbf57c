import { defineConfig, devices } from '@playwright/test';

// tests/e2e/run-playwright.mjs decides which Chromium to use. An empty LOCKSTEP_CHROMIUM means
// Playwright's own build; otherwise a system Chromium with flags that keep it offline and quiet.
const systemChromium = process.env.LOCKSTEP_CHROMIUM || undefined;
const PORT = Number(process.env.LOCKSTEP_E2E_PORT ?? 4317);
// The README's first command is `npm run dev`: one smoke test runs against the dev server too.
// It runs on the e2e port + 5 (the team's port plan: parallel runs on neighbouring ports).
const DEV_PORT = PORT + 5;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  reporter: [['list']],
  // Bounds here detect a hang; they are not budgets. Tests wait on the page's own readiness signals
  // (window.lockstep.isReady, web-first assertions), so a loaded machine makes them slower, not
  // red. Each bound is several times the slowest time seen with the machine loaded (docs/TESTING.md
  // has the figures); tests that do a lot (axe, full-page screenshots) call test.slow().
  timeout: 60_000,
  expect: { timeout: 20_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 720 },
    trace: 'retain-on-failure',
    launchOptions: systemChromium
      ? {
          executablePath: systemChromium,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        }
      : {},
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /dev-server\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 720 } },
    },
    {
      name: 'dev-server',
      testMatch: /dev-server\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 720 }, baseURL: `http://127.0.0.1:${DEV_PORT}` },
    },
  ],
  webServer: [
    {
      command: `npx vite build --logLevel warn && npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
      url: `http://127.0.0.1:${PORT}`,
      reuseExistingServer: false,
      // vite build and the dev server's first start on a loaded 2-core machine.
      timeout: 600_000,
    },
    {
      // --bypass-lock: a developer's own `npm run dev` may be running at the same time.
      command: `npx vite --host 127.0.0.1 --port ${DEV_PORT} --strictPort --bypass-lock --logLevel warn`,
      url: `http://127.0.0.1:${DEV_PORT}`,
      reuseExistingServer: false,
      timeout: 600_000,
    },
  ],
});
