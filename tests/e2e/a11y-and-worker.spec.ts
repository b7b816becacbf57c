import { seriousViolations } from './axe';
import { expect, test } from './fixtures';

// Goal: axe finds no serious or critical violations in any theme or language; and the engine runs
// in two places, the page (the run you see) and a Web Worker (every variant under your schedule).

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000';

/** Each look in its own test: one page load and one axe run each, so none waits on the others. */
const LOOKS = [
  { name: 'light', dark: false, presentation: false, zh: false },
  { name: 'dark', dark: true, presentation: false, zh: false },
  { name: 'dark presentation', dark: true, presentation: true, zh: false },
  { name: 'zh dark presentation, events tab', dark: true, presentation: true, zh: true },
] as const;

for (const look of LOOKS) {
  test(`axe: no serious or critical violations (${look.name})`, async ({ app, page }) => {
    // axe walks the whole page's DOM and styles: seconds on an idle machine, many more on a busy one.
    test.slow();
    await app.open(HEADLINE);
    await expect(app.banner).toBeVisible();
    if (look.dark) await app.button('Dark theme').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', look.dark ? 'dark' : 'light');
    if (look.presentation) await app.button('Presentation mode').click();
    await expect(page.locator('html')).toHaveAttribute('data-presentation', look.presentation ? 'on' : 'off');
    if (look.zh) {
      await page.getByRole('button', { name: '中文' }).click();
      await page.getByRole('tab', { name: '事件' }).click();
      await expect(page.getByTestId('event-log')).toBeVisible();
    }
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('Redis commands run in the page and in the worker', async ({ app, page }) => {
  await app.open(HEADLINE);
  // The page: the run on screen, executed by the page's own engine (Redis and Lua in the page).
  const trace = await app.trace();
  const commands = trace.events.filter((e) => e.kind === 'command');
  expect(commands.map((e) => (e.kind === 'command' ? e.argv[0] : ''))).toEqual(['SET', 'GET', 'SET', 'DEL']);
  expect((await app.state()).commandsInPage).toBe(4);
  expect(await page.evaluate(() => typeof window.document)).toBe('object');

  // The worker: every variant replayed under the same schedule, in a dedicated Web Worker.
  const report = await app.outcomes();
  expect(report.ranIn).toBe('worker');
  expect(report.schedule).toBe('A A A~5000 +4000 B +1000');
  expect(report.commandCount).toBeGreaterThan(4);
  const lua = report.outcomes.find((o) => o.variantId === 'lua');
  expect(lua?.violations).toEqual([]);
  expect(lua?.commandCount).toBeGreaterThan(0);
  const broken = report.outcomes.find((o) => o.variantId === 'get-then-del');
  expect(broken?.violations.map((v) => v.kind)).toEqual(['foreign-release']);
  // What the worker said is what the toggle shows.
  await expect(page.getByTestId('variant.lua.outcome')).toContainText('no violations');
  await expect(page.getByTestId('variant.get-then-del.outcome')).toContainText('foreign release at step 6');
});
