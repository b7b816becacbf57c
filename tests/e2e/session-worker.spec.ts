import { expect, test } from './fixtures';

// Goal: the run session runs in the engine worker, so the page answers a click, a key and the
// test API while a heavy run replays, shows that it is busy, and Stop keeps the run it had.

/** One console EVAL of 150,000 SETs, then 100 ms for Redis to finish it (a script takes virtual time). */
const HEAVY_COMMAND = "$EVAL|for%20i=1%2C150000%20do%20redis.call('SET'%2C'k'%2Ci)%20end%20return%201|0 +100";
/** Two hundred of them: minutes of replay on any machine (about 0.7 s each here), ended by Stop long before it finishes. */
const HEAVY_SCHEDULE = Array.from({ length: 200 }, () => HEAVY_COMMAND).join(' ');
const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000&at=2';

test('a heavy run replays in the worker: the page answers a click, a key and the test API meanwhile; Stop keeps the run it had', { tag: '@smoke' }, async ({ app, page }) => {
  await app.open(HEADLINE);
  await expect(app.position).toHaveText('Step 2 / 6');
  // Started, not awaited: the load answers once the worker has replayed it (or Stop ended it).
  await page.evaluate((schedule) => {
    (window as unknown as { heavy: Promise<unknown> }).heavy = window.lockstep!.load({ scenario: 'get-then-del', schedule });
  }, HEAVY_SCHEDULE);
  const busy = page.getByTestId('session-busy');
  await expect(busy).toBeVisible();

  // A key: "?" opens the shortcuts dialog, and Escape closes it.
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('?');
  const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(shortcuts).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(shortcuts).toBeHidden();
  // A click: the theme switch answers.
  const themeBefore = await page.evaluate(() => document.documentElement.dataset.theme);
  await page.getByRole('button', { name: 'Dark theme', exact: true }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(themeBefore);
  // The test API: a synchronous read answers at once.
  expect(await page.evaluate(() => window.lockstep!.version)).toBe(3);
  // All of that happened while the worker was still replaying.
  await expect(busy).toBeVisible();

  await busy.getByRole('button', { name: 'Stop' }).click();
  await expect(busy).toBeHidden();
  expect(await page.evaluate(() => (window as unknown as { heavy: Promise<unknown> }).heavy)).toMatchObject({ ok: false, error: { reason: 'stopped' } });
  // The run is the one before the heavy load, at the same step.
  await expect(app.position).toHaveText('Step 2 / 6');
  const state = await app.state();
  expect(state.schedule).toBe('A A A~5000 +4000 B +1000');
  expect(state.cursor).toBe(2);
  // And the new worker steps it.
  await app.button('Forward one step').click();
  await expect(app.position).toHaveText('Step 3 / 6');
});
