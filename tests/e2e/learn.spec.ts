import { seriousViolations } from './axe';
import { allowPageLoad, expect, test, type LockstepPage } from './fixtures';
import { applyLook, LARGE, SMALL } from './looks';

// Goal: learning by doing, as a newcomer and a teacher meet it: the landing points at the headline
// lesson, its first challenge is met through the controls (and says with how many choices), the
// fix then holds; predict mode from a share link asks before a step and reveals after it; the
// embed's variant toggle; the page reloads offline, and a part opened on demand works offline once opened online; keyboard shortcuts; no control's name is a
// prefix of another's, in either language. "Show me the shortest way" loads the explorer's way and
// it meets the challenge. The landing and the challenge panel (with predict mode) are axe clean in
// both themes and languages, presentation mode included, and add no row: the page does not scroll
// at 1280x720 and the timeline's Redis row stays on screen.

async function raceAToDeleteB(app: LockstepPage): Promise<void> {
  await app.stepClient('A');
  await app.stepClient('A');
  await app.pauseClient('A', 5000);
  await app.advanceClock(4000);
  await app.stepClient('B');
  await app.advanceClock(1000);
}

test('a newcomer: landing → headline lesson → challenge met → the fix holds', async ({ app, page }) => {
  test.slow();
  // A first visit: no saved run (the fixture sets only the language).
  await app.open();
  const landing = page.getByTestId('landing');
  await expect(landing).toBeVisible();

  await test.step('the landing leads to the headline lesson', async () => {
    await landing.getByRole('button', { name: 'Start here: lesson 5' }).click();
    await expect(landing).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/GET then DEL/);
    await expect(page.getByTestId('lesson-number')).toHaveText(/^Lesson 5 of \d+$/);
    await expect(page.getByTestId('variant-toggle').locator('legend')).toHaveText('Release method');
  });

  await test.step('challenge 1: make A delete B’s lock, through the controls', async () => {
    await app.button("Challenge 1: Make A delete B's lock").click();
    await expect(app.position).toHaveText('Step 0 / 0');
    await expect(page.getByTestId('challenge-state')).toHaveText('0 choices so far');
    await raceAToDeleteB(app);
    await expect(app.banner).toContainText("A deleted B's lock");
    await expect(page.getByTestId('challenge-state')).toHaveAttribute('data-state', 'met');
    await expect(page.getByTestId('challenge-state')).toHaveText('Challenge met in 6 choices!');
    expect((await app.state()).challenge).toEqual({ id: 'delete-b-lock', state: 'met', choices: 6 });
  });

  await test.step('challenge 2: the Lua release, same moves and more, within 8 choices: it holds', async () => {
    await app.button('Next challenge').click();
    await expect(page.getByRole('radio', { name: 'Lua compare-and-delete', exact: true })).toBeChecked();
    await expect(page.getByTestId('challenge-state')).toHaveText('8 choices left');
    // The race's moves, as far as they fit: A releases atomically at its second step, so A's pause
    // comes after its first; then the clock runs on past every lease.
    await app.stepClient('A');
    await app.pauseClient('A', 5000);
    await app.advanceClock(4000);
    await app.stepClient('B');
    await expect(page.getByTestId('challenge-state')).toHaveText('4 choices left');
    for (let i = 0; i < 4; i++) await app.advanceClock(1000);
    await expect(page.getByTestId('challenge-state')).toHaveAttribute('data-state', 'met');
    await expect(page.getByTestId('challenge-state')).toHaveText('Challenge met: the fix held through your 8 choices.');
    await expect(app.noViolations).toBeVisible();
  });

  await test.step('progress is remembered in this browser and shown on the path', async () => {
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('lockstep.progress.v1') ?? 'null'));
    // A met challenge keeps its fewest choices (the Lua one was met when every client had finished).
    expect(Object.keys(saved.lessons['get-then-del'].met).sort()).toEqual(['delete-b-lock', 'lua-holds']);
    expect(saved.lessons['get-then-del'].met['delete-b-lock']).toBe(6);
    await app.open();
    await expect(page.getByTestId('landing')).toBeHidden();
    await expect(page.getByTestId('challenge.delete-b-lock')).toContainText('1');
    await expect(page.getByRole('button', { name: "Challenge 1: Make A delete B's lock" })).toHaveAccessibleDescription('met in 6 choices');
    await app.button('Scenarios').click();
    await expect(page.getByTestId('scenario.get-then-del')).toContainText('Start here');
    await expect(page.getByTestId('scenario.get-then-del')).toContainText('met');
  });
});

test('unreadable saved progress is kept aside and reported, not dropped', async ({ app, page }) => {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('lockstep.progress.v1', '{"version":1,"lessons":{"get-then-del":{"visited":"yes","met":{}}}}');
    }
  });
  await app.open();
  await expect(page.getByTestId('notice')).toContainText('Your saved progress could not be read');
  expect(await page.evaluate(() => localStorage.getItem('lockstep.progress.v1.unreadable'))).toContain('"visited":"yes"');
});

test('predict mode from a teacher’s link: ask before the step, reveal after it', async ({ app, page }) => {
  await app.open('#/v1/get-then-del/get-then-del?seed=1&at=0&predict=1');
  await expect(page.getByTestId('predict-toggle')).toHaveAttribute('aria-pressed', 'true');
  // How each variant's run ends would answer the questions: hidden while predicting.
  await expect(page.getByTestId('variant.get-then-del.outcome')).toHaveText('outcome hidden while you predict');
  await expect(page.getByTestId('variant.lua.outcome')).toHaveText('outcome hidden while you predict');
  // The future would give answers away: the timeline shows no step after the cursor.
  await expect(page.getByTestId('timeline')).toBeVisible();
  await expect(page.locator('[data-testid^="timeline.mark."]')).toHaveCount(0);

  await expect(page.getByTestId('predict.question')).toHaveText(/Who holds the lock after this step\?/);
  await page.getByTestId('predict').getByRole('radio', { name: 'A', exact: true }).check();
  await app.button('Forward one step').click();
  await expect(page.getByTestId('predict.yours')).toHaveText('You said: A');
  await expect(page.getByTestId('predict.truth')).toHaveText('It was: A');
  await expect(page.getByTestId('predict.verdict')).toHaveText('Right.');

  await page.getByRole('slider').fill('4');
  await expect(page.getByTestId('predict.question')).toHaveText(/Does B get in\?/);
  await page.getByTestId('predict').getByRole('radio', { name: 'no', exact: true }).check();
  await app.button('Forward one step').click();
  await expect(page.getByTestId('predict.yours')).toHaveText('You said: no');
  await expect(page.getByTestId('predict.truth')).toHaveText('It was: yes');
  await expect(page.getByTestId('predict.verdict')).toHaveText('Not this time.');
  expect(page.url()).toContain('predict=1');
});

test('the embed shows the variant toggle, unless variants=0', async ({ app, page }) => {
  await app.open('#/v1/get-then-del/get-then-del?seed=1', '?embed=1');
  const lua = page.getByRole('radio', { name: 'Lua compare-and-delete', exact: true });
  await expect(lua).toBeVisible();
  await lua.check();
  await expect(app.noViolations).toBeVisible();
  expect((await app.state()).variant).toBe('lua');
  await app.open('#/v1/get-then-del/get-then-del?seed=1', '?embed=1&variants=0');
  await expect(page.getByTestId('scenario-title')).toHaveCount(0);
  await expect(page.getByRole('radio')).toHaveCount(0);
});

test('Copy embed code copies an iframe of the current run', async ({ app, page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await app.open('#/v1/get-then-del/lua?seed=1&s=A.A&at=1');
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await app.button('Copy embed code').click();
  // The confirmation is transient (2.5 s): the clipboard is what the test reads.
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('<iframe');
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  expect(snippet).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=1#\/v1\/get-then-del\/lua\?seed=1&amp;s=A\.A&amp;at=1" /);
  expect(snippet).toContain('title="Lockstep: GET then DEL: releasing someone else\'s lock"');
});

test('the built page works offline after the first visit', async ({ app, page, context }) => {
  await app.open('#/v1/get-then-del/get-then-del?seed=1');
  // The service worker precaches the build and takes control (clientsClaim).
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null);
  await context.setOffline(true);
  await page.reload();
  await page.waitForFunction(() => window.lockstep?.isReady === true);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/GET then DEL/);
  // The worker's script came from the cache too: every variant's outcome arrives.
  await expect(page.getByTestId('variant.lua.outcome')).toContainText('no violations');
  await context.setOffline(false);
});

test('a part opened on demand: offline before its first use it says so; once opened online it works offline', async ({ page, context }) => {
  const dialog = page.getByTestId('shortcuts-dialog');
  const unavailable = page.getByTestId('part-unavailable');

  await test.step('opened before the service worker controls the page, the shortcuts dialog is kept for offline use', async () => {
    allowPageLoad();
    await page.goto('/#/v1/get-then-del/get-then-del?seed=1');
    // The first screen, before ready: the service worker registers only once the page is ready.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/GET then DEL/);
    await page.keyboard.press('?');
    await expect(dialog).toBeVisible();
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null);
    // The precache leaves dialogs out; the page hands what it loaded early to the service worker.
    await expect
      .poll(() => page.evaluate(async () => (await caches.open('lockstep-on-demand').then((cache) => cache.keys())).some((request) => request.url.includes('/assets/ShortcutsDialog-'))))
      .toBe(true);
  });

  await test.step('offline, after a reload, it opens from the cache', async () => {
    await context.setOffline(true);
    await page.reload();
    await page.waitForFunction(() => window.lockstep?.isReady === true);
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
  });

  await test.step('offline, the workbench (never opened) says it cannot load; its notice closes it', async () => {
    await page.getByTestId('workbench-open').click();
    await expect(unavailable).toContainText('This part could not be loaded');
    await unavailable.getByRole('button', { name: 'Try again' }).click();
    await expect(unavailable).toContainText('This part could not be loaded');
    await unavailable.getByRole('button', { name: 'Close' }).click();
    await expect(unavailable).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/GET then DEL/);
  });

  await test.step('online again, it opens', async () => {
    await context.setOffline(false);
    await page.getByTestId('workbench-open').click();
    await expect(page.getByTestId('workbench')).toBeVisible();
    await expect(unavailable).toBeHidden();
  });
});

test('keyboard: Advance, Next expiry, pause and crash the focused client, variants', async ({ app, page }) => {
  await app.open('#/v1/get-then-del/get-then-del?seed=1&s=');
  await page.keyboard.press('1');
  await expect(app.key('lock')).toContainText("A's token");
  await page.keyboard.press('a');
  await expect(app.clock).toHaveText('t = 1000 ms');
  await page.keyboard.press('e');
  await expect(app.clock).toHaveText('t = 5001 ms');
  // B's lane holds the focus: p pauses B by its field (6000 ms), x crashes it.
  await app.lane('B').getByTestId('lane.B.program').focus();
  await page.keyboard.press('p');
  await expect(app.laneStatus('B')).toHaveText(/process paused until t=11,001/);
  await page.keyboard.press('x');
  await expect(app.laneStatus('B')).toHaveText('crashed');
  expect((await app.state()).schedule).toBe('A +1000 +4001 B~6000 !B');
  await page.locator('body').click();
  await page.keyboard.press('v');
  await expect(page.getByRole('radio', { name: 'Lua compare-and-delete', exact: true })).toBeChecked();
  await page.keyboard.press('Shift+V');
  await expect(page.getByRole('radio', { name: 'GET, compare, DEL', exact: true })).toBeChecked();
  await page.keyboard.press('?');
  const dialog = page.getByTestId('shortcuts-dialog');
  for (const line of ['Advance the clock', 'Jump past the next expiry', 'Pause the focused client', 'Crash the focused client', 'Next / previous variant']) {
    await expect(dialog).toContainText(line);
  }
});

/** Every named control in the page's accessibility tree (role and name), from Playwright's aria snapshot. */
async function controlNames(app: LockstepPage): Promise<string[]> {
  const snapshot = await app.page.locator('body').ariaSnapshot();
  const names: string[] = [];
  for (const match of snapshot.matchAll(/^\s*- (button|radio|checkbox|spinbutton|combobox|slider|tab|link|textbox) "((?:[^"\\]|\\.)*)"/gm)) {
    names.push(match[2].replace(/\\"/g, '"'));
  }
  return names;
}

for (const lang of ['English', '中文'] as const) {
  test(`no control's name is a prefix of another's (${lang})`, async ({ app, page }) => {
    test.slow();
    await app.open('#/v1/get-then-del/get-then-del?seed=1&at=3&ch=delete-b-lock&predict=1');
    await page.getByRole('button', { name: lang, exact: true }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', lang === 'English' ? 'en' : 'zh-CN');
    // The challenge panel (loaded on first use) is in: its controls count too.
    await expect(page.getByTestId('predict')).toBeVisible();
    const names = [...new Set(await controlNames(app))];
    expect(names.length).toBeGreaterThan(30);
    const clashes: string[] = [];
    for (const a of names) {
      for (const b of names) {
        if (a !== b && b.toLowerCase().startsWith(a.toLowerCase())) clashes.push(`"${a}" is a prefix of "${b}"`);
      }
    }
    expect(clashes).toEqual([]);
    // Variants are named by their titles alone; the outcome is their description.
    const title = lang === 'English' ? 'Lua compare-and-delete' : 'Lua 比较并删除';
    await expect(page.getByRole('radio', { name: title, exact: true })).toHaveAccessibleDescription(/./);
  });
}

test('after three tries, "Show me the shortest way" loads the explorer\'s way, and it meets the challenge', async ({ app, page }) => {
  test.slow();
  await app.open('#/v1/get-then-del/get-then-del?seed=1');
  await app.button("Challenge 1: Make A delete B's lock").click();
  const panel = page.getByTestId('learn-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Show me the shortest way' })).toHaveCount(0);
  await panel.getByRole('button', { name: 'Restart challenge' }).click();
  await panel.getByRole('button', { name: 'Restart challenge' }).click();
  await panel.getByRole('button', { name: 'Show me the shortest way' }).click();
  // The explorer's worker answers; the way is loaded at step 0, ready to step through.
  await expect(app.position).toHaveText(/^Step 0 \/ [1-9]\d*$/);
  const { length } = await app.state();
  await page.getByRole('slider').fill(String(length));
  await expect(page.getByTestId('challenge-state')).toHaveAttribute('data-state', 'met');
  await expect(app.banner).toContainText("A deleted B's lock");
});

const PANEL_LOOKS = [
  { name: 'light', viewport: SMALL, dark: false, presentation: false, zh: false },
  { name: 'dark zh presentation', viewport: SMALL, dark: true, presentation: true, zh: true },
  { name: 'light presentation 1920', viewport: LARGE, dark: false, presentation: true, zh: false },
] as const;

for (const look of PANEL_LOOKS) {
  test(`the landing and the challenge panel: axe clean, no scrolling, the Redis row on screen (${look.name})`, async ({ app, page }) => {
    test.slow();
    const expectFits = async (what: string) => {
      expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight), `${what}: page scrolls`).toBeLessThanOrEqual(0);
      const redis = await page.getByTestId('timeline').getByText('Redis', { exact: true }).boundingBox();
      expect(redis && redis.y + redis.height, `${what}: Redis row bottom`).toBeLessThanOrEqual(look.viewport.height);
    };
    await app.open();
    await applyLook(app, look);
    await expect(page.getByTestId('landing')).toBeVisible();
    await expectFits('landing');
    expect(await seriousViolations(page), 'landing').toEqual([]);
    await app.screenshot(`learn-landing-${look.name.replace(/ /g, '-')}`);

    await page.getByTestId('landing').getByRole('button', { name: look.zh ? '从这里开始：第 5 课' : 'Start here: lesson 5' }).click();
    await page.getByTestId('challenge.delete-b-lock').click();
    await page.getByTestId('predict-toggle').click();
    const panel = page.getByTestId('learn-panel');
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId('predict.question')).toBeVisible();
    await expectFits('challenge panel');
    expect(await seriousViolations(page), 'challenge panel').toEqual([]);
    await app.screenshot(`learn-panel-${look.name.replace(/ /g, '-')}`);

    // Hidden, the inspector is back in its place.
    await page.getByTestId('learn-panel-toggle').click();
    await expect(panel).toBeHidden();
    await expect(page.getByTestId('inspector')).toBeVisible();
  });
}
