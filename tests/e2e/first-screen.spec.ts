/**
 * The first screen (issue 10): its JavaScript stays under the budget, the Lua engine and the other
 * lessons load on demand, a link to a lesson that is not loaded yet opens after a visible loading
 * state (keys pressed meanwhile get a reason, not a crash), and a reload restores the latest run
 * even though the link and the saved run are written in idle time.
 */
import { gzipSync } from 'node:zlib';
import type { APIRequestContext, Route } from '@playwright/test';
import { expect, test } from './fixtures';

// page.route must see every script request: a service worker would serve them from its cache.
test.use({ serviceWorkers: 'block' });

/** The first screen's JavaScript budget, gzip level 6 (docs/BENCH.md; TEAM rule: < 250 kB). */
const firstScreenGzipBytesMax = 250_000;
/** Text only the Lua VM (fengari) carries: none of the first screen's scripts may contain it. */
const luaVmMarker = 'attempt to compare';

/** The scripts the page's HTML loads before anything else: the entry chunk and what it preloads. */
async function firstScreenScripts(request: APIRequestContext): Promise<{ path: string; text: string }[]> {
  const html = await (await request.get('/')).text();
  const paths = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"|<link rel="modulepreload"[^>]*\shref="([^"]+)"/g)].map((m) => (m[1] ?? m[2]).replace(/^\.\//, ''));
  expect(paths.some((p) => /assets\/index-[^/]+\.js$/.test(p)), `entry chunk in ${paths.join(', ')}`).toBe(true);
  return Promise.all(paths.map(async (path) => ({ path, text: await (await request.get(`/${path}`)).text() })));
}

test('the first screen\'s JavaScript is under budget and carries no Lua VM', async ({ request }) => {
  const scripts = await firstScreenScripts(request);
  const sizes = scripts.map((s) => ({ path: s.path, gzipBytes: gzipSync(s.text, { level: 6 }).length }));
  const total = sizes.reduce((sum, s) => sum + s.gzipBytes, 0);
  expect(total, `first screen ${JSON.stringify(sizes)}`).toBeLessThan(firstScreenGzipBytesMax);
  for (const s of scripts) expect(s.text.includes(luaVmMarker), `${s.path} carries the Lua VM`).toBe(false);
});

/** Text only the engine's core carries (Simulation's setup error). */
const engineMarker = ': setup ';

test('the engine ships once: the engine worker runs on the very files the page loaded', async ({ page }) => {
  // Every script fetched, by the page and by its workers, until the session runs in the worker.
  const scripts = new Map<string, Promise<string>>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (/\.js$/.test(path) && !scripts.has(path)) scripts.set(path, response.text());
  });
  const workerUrls: string[] = [];
  page.on('worker', (worker) => workerUrls.push(new URL(worker.url()).pathname));
  await page.goto('/#/v1/get-then-del/lua?seed=1&s=A.A.A~5000.%2B4000.B&at=4');
  await page.waitForFunction(() => window.lockstep?.isReady === true);
  // A step now runs in the worker, with scripts (the Lua variant): the worker has its engine and its Lua.
  await page.getByRole('button', { name: 'Step B', exact: true }).click();
  await expect.poll(async () => (await page.evaluate(() => window.lockstep!.state())).cursor).toBe(5);
  expect(workerUrls.some((url) => /\/assets\/engine\.worker-[^/]+\.js$/.test(url)), `workers: ${workerUrls.join(', ')}`).toBe(true);
  const texts = await Promise.all([...scripts].map(async ([path, text]) => ({ path, text: await text })));
  const carrying = (marker: string) => texts.filter((s) => s.text.includes(marker)).map((s) => s.path);
  expect(carrying(engineMarker), 'files carrying the engine').toHaveLength(1);
  expect(carrying(luaVmMarker), 'files carrying the Lua VM').toHaveLength(1);
});

test('a link to a lesson not loaded yet shows a loading state, refuses keys with a reason, then opens the run', async ({ app, page, request }) => {
  const firstScreen = new Set((await firstScreenScripts(request)).map((s) => s.path));
  // Hold every other script (other lessons, the Lua engine, workers) until the test lets them through.
  const held: Route[] = [];
  let holding = true;
  await page.route(/\/assets\/[^/]+\.js$/, (route) => {
    const path = new URL(route.request().url()).pathname.replace(/^\//, '');
    if (!holding || firstScreen.has(path)) return route.continue();
    held.push(route);
  });
  const link = '#/v1/get-then-del/lua?seed=1&s=A.A.A~5000.%2B4000.B&at=4';
  await page.goto(`/${link}`);
  const loading = page.getByTestId('run-loading');
  await expect(loading).toHaveRole('status');
  await expect(loading).toHaveText(/^Loading “GET then DEL/);
  // No lane of the stand-in run is drawn, and a key pressed now says why nothing happens.
  await expect(page.getByRole('button', { name: 'Step A', exact: true })).toHaveCount(0);
  await page.keyboard.press('1');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('notice')).toContainText('is still loading');
  expect(page.url()).toContain(link);
  // Nothing of the stand-in run can be copied or replayed.
  await expect(page.getByTestId('copy-link')).toBeDisabled();
  await expect(page.getByTestId('replay.open')).toBeDisabled();

  holding = false;
  for (const route of held.splice(0)) await route.continue();
  await page.waitForFunction(() => window.lockstep?.isReady === true);
  await expect(loading).toHaveCount(0);
  await expect(page.getByTestId('copy-link')).toBeEnabled();
  const state = await app.state();
  expect([state.scenario, state.variant, state.schedule, state.cursor]).toEqual(['get-then-del', 'lua', 'A A A~5000 +4000 B', 4]);
  await expect(app.lane('A')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Step B', exact: true })).toBeEnabled();
});

test('a reload restores the latest run, written in idle time after the steps', async ({ app, page }) => {
  await app.open();
  await app.load({ scenario: 'get-then-del', variant: 'get-then-del', schedule: '' });
  await app.stepClient('A');
  await app.stepClient('B');
  await app.stepClient('A');
  const before = await app.state();
  // The run is written in idle time after a burst of steps (src/ui/share/sync.ts): the address bar
  // shows it once written, and a reload before that would load the link it still shows.
  await expect(page).toHaveURL(/[?&]s=A\.B\.A(&|$)/);
  await page.reload();
  await page.waitForFunction(() => window.lockstep?.isReady === true);
  const after = await app.state();
  expect([after.scenario, after.variant, after.schedule, after.cursor]).toEqual([before.scenario, before.variant, before.schedule, before.cursor]);
  expect(after.schedule).toBe('A B A');
});
