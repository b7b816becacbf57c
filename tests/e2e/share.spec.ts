import { allowPageLoad, expect, test } from './fixtures';

// Goal: the URL always holds the run; a copied link reopens the same run in a new tab; a broken or
// hostile link shows a clear message, loads the default scenario and nothing else, and does not
// overwrite the run this browser saved.

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000';

test('share link round trip: the URL carries scenario, variant, seed, schedule and position', { tag: '@smoke' }, async ({ app, context, page }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await app.open(HEADLINE);
  await expect(app.banner).toContainText("A deleted B's lock");
  const historyLength = await page.evaluate(() => history.length);
  await app.chooseVariant(/Lua compare-and-delete/);
  await app.button('Back one step').click();
  await app.button('Back one step').click();
  await expect(app.position).toHaveText('Step 4 / 6');
  await expect(page).toHaveURL(/#\/v1\/get-then-del\/lua\?seed=1&s=A\.A\.A~5000\.%2B4000\.B\.%2B1000&at=4$/);
  // replaceState: stepping does not fill the history.
  expect(await page.evaluate(() => history.length)).toBe(historyLength);

  await app.button('Copy link').click();
  await expect(page.getByTestId('copy-link-status')).toHaveText('Link copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(page.url());

  const second = await context.newPage();
  const other = new (app.constructor as typeof import('./fixtures').LockstepPage)(second);
  allowPageLoad();
  await second.goto(copied);
  await second.waitForFunction(() => window.lockstep?.isReady === true);
  const [a, b] = [await app.state(), await other.state()];
  expect(b).toEqual(a);
  await expect(other.position).toHaveText('Step 4 / 6');
  await expect(second.getByRole('radio', { name: /Lua compare-and-delete/ })).toBeChecked();

  // A link pasted into the address bar of an open tab loads like a fresh page.
  await second.evaluate(() => {
    window.location.hash = '#/v1/get-then-del/get-then-del?seed=2&s=A.A';
  });
  await expect(other.position).toHaveText('Step 2 / 2');
  expect((await other.state()).seed).toBe(2);
});

test('broken and hostile links are refused with a message; the default loads; saved work is kept', async ({ app, page }) => {
  // A saved run first: the headline story at step 4, then one more step of A.
  await app.open(`${HEADLINE}&at=4`);
  await app.stepClient('A');
  // The run is saved shortly after it changes (not on every step's frame): wait for the step.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lockstep.session.v1'))).toMatch(/get-then-del\?seed=1&s=A\.A\.A~5000\.%2B4000\.A$/);
  const saved = await page.evaluate(() => localStorage.getItem('lockstep.session.v1'));

  await test.step('a schedule that does not fit', async () => {
    await app.open('#/v1/get-then-del/get-then-del?seed=1&s=A.A.A.A.A.A.A.A');
    await expect(app.linkError).toContainText('This link could not be loaded');
    await expect(app.linkError).toContainText('does not fit');
    const state = await app.state();
    expect(state.scenario).not.toBe('get-then-del');
    expect(state.cursor).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('lockstep.session.v1'))).toBe(saved);
    await app.screenshot('light-broken-link');
    await app.linkError.getByRole('button', { name: 'Dismiss' }).click();
    await expect(app.linkError).toBeHidden();
  });

  await test.step('markup in the link is shown as text, never run', async () => {
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await app.open('#/v1/get-then-del/lua?seed=1&s=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E');
    await expect(app.linkError).toContainText('The schedule is not valid');
    await expect(app.linkError).toContainText('<img src=x onerror=alert(1)>');
    await expect(page.getByRole('img', { name: 'x' })).toHaveCount(0);
    expect(dialogs).toBe(0);
  });

  await test.step('an over-long link', async () => {
    await app.open(`#/v1/${'x'.repeat(200_000)}/lua`);
    await expect(app.linkError).toContainText('too long');
    expect(await page.evaluate(() => localStorage.getItem('lockstep.session.v1'))).toBe(saved);
  });
});

test('a refused link never stays in the address bar, also the second one typed over the first', async ({ app, page }) => {
  await app.open('#/v1/get-then-del/get-then-del?seed=1&s=A.A.A.A.A.A.A.A');
  await expect(app.linkError).toContainText('does not fit');
  const shown = await app.state();
  const runHash = new URL(page.url()).hash;
  expect(runHash).toContain(shown.scenario);

  // A second broken link typed into the address bar: refused, and the bar goes back to the run.
  await page.evaluate(() => {
    window.location.hash = '#/v1/no-such-lesson/x?seed=1&s=A';
  });
  await expect(app.linkError).toContainText('no-such-lesson');
  await expect.poll(() => new URL(page.url()).hash).toBe(runHash);
});

test('a saved run that cannot be restored is reported in words and its text is kept', async ({ app, page }) => {
  const garbage = '{"scenario":"get-then-del", cut short';
  await page.addInitScript((text) => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('lockstep.session.v1', text);
    }
  }, garbage);
  await app.open();
  await expect(app.linkError).toContainText('Your last run could not be restored');
  await expect(app.linkError).toContainText('not a Lockstep run');
  expect(await page.evaluate(() => localStorage.getItem('lockstep.session.unrestored.v1'))).toBe(garbage);

  // Working on: the new run is saved, and the unrestorable text is still there to copy.
  await app.stepClient('A');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lockstep.session.v1'))).toMatch(/^#\/v1\//);
  expect(await page.evaluate(() => localStorage.getItem('lockstep.session.unrestored.v1'))).toBe(garbage);
});

test('embed mode is chrome-less and fits an iframe', async ({ app, page }) => {
  await page.setViewportSize({ width: 800, height: 560 });
  await app.open(HEADLINE, '?embed=1');
  await expect(app.button('Copy link')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Open in Lockstep' })).toHaveAttribute('href', /#\/v1\/get-then-del\/get-then-del/);
  await expect(app.banner).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await app.screenshot('embed-800x560');
});
