import { defineConfig } from '@playwright/test';

// The fixture serves Lockstep's packaged page itself; set `lockstepUrl` in `use` to test a running
// Lockstep instead. CHROMIUM_PATH: a system Chromium when Playwright's own is not installed.
const chromium = process.env.CHROMIUM_PATH || undefined;

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  forbidOnly: true,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  use: {
    locale: 'en-US',
    launchOptions: chromium ? { executablePath: chromium, args: ['--headless', '--no-sandbox', '--disable-gpu'] } : {},
  },
});
