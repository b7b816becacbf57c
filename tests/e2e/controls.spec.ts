import { allowPageLoad, expect, test } from './fixtures';

// Goal: a learner can move through a run every way the page offers (buttons, scrubber, keyboard),
// and switch the whole page to Chinese.

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000&at=0';

test('step back and forward, and scrub', { tag: '@smoke' }, async ({ app, page }) => {
  await app.open(HEADLINE);
  await expect(app.position).toHaveText('Step 0 / 6');
  await expect(app.button('Back one step')).toBeDisabled();
  for (let i = 1; i <= 6; i++) {
    await app.button('Forward one step').click();
    await expect(app.position).toHaveText(`Step ${i} / 6`);
  }
  await expect(app.button('Forward one step')).toBeDisabled();
  await expect(app.banner).toBeVisible();
  await expect(app.clock).toHaveText('t = 7000 ms');
  await app.button('Back one step').click();
  await expect(app.clock).toHaveText('t = 6000 ms');
  await expect(app.banner).toBeHidden();

  const scrubber = page.getByRole('slider', { name: 'Position in the run' });
  await scrubber.fill('2');
  await expect(app.position).toHaveText('Step 2 / 6');
  await expect(scrubber).toHaveAttribute('aria-valuetext', 'step 2 of 6, t=2000 ms');
  // Stepping in the past forks: the future is replaced by the new choice.
  await app.stepClient('B');
  await expect(app.position).toHaveText('Step 3 / 3');
});

test('keyboard: arrows, number keys, space, and ? for the shortcuts', async ({ app, page }) => {
  await app.open(HEADLINE);
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(app.position).toHaveText('Step 2 / 6');
  await page.keyboard.press('ArrowLeft');
  await expect(app.position).toHaveText('Step 1 / 6');
  await page.keyboard.press('2');
  await expect(app.position).toHaveText('Step 2 / 2');
  expect((await app.state()).schedule).toBe('A B');

  await page.keyboard.press('Space');
  await expect(app.button('Stop')).toBeVisible();
  await expect.poll(async () => (await app.state()).cursor).toBeGreaterThan(2);
  await page.keyboard.press('Space');
  await expect(app.button('Play')).toBeVisible();
  expect((await app.state()).playing).toBe(false);

  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Play or pause');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('every control is reachable with Tab and shows focus', async ({ app, page }) => {
  await app.open(HEADLINE);
  // Record each focused element's name and whether its focus ring shows, then walk with Tab.
  await page.evaluate(() => {
    const log: string[] = [];
    (window as unknown as { focusLog: string[] }).focusLog = log;
    document.addEventListener('focusin', (event) => {
      const el = event.target as HTMLElement;
      const style = getComputedStyle(el);
      const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      log.push(`${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}|${ring}`);
    });
  });
  for (let i = 0; i < 45; i++) await page.keyboard.press('Tab');
  const names = await page.evaluate(() => (window as unknown as { focusLog: string[] }).focusLog);
  for (const wanted of ['Scenarios', 'Step A', 'Crash A', 'Step B', 'Forward one step', 'Copy link', 'Advance']) {
    expect(names.some((n) => n.startsWith(wanted)), `${wanted} in ${names.join(', ')}`).toBe(true);
  }
  expect(names.filter((n) => n.endsWith('|false')), 'focused without a visible outline').toEqual([]);
});

test('language switch to 中文', async ({ app, page }) => {
  await app.open(`${HEADLINE.replace('&at=0', '')}`);
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('GET 后 DEL：误删他人的锁');
  await expect(app.banner).toContainText('A 删除了 B 的锁');
  await expect(app.button('前进一步')).toBeVisible();
  await expect(app.laneStatus('A')).toHaveText('已结束');
  await app.screenshot('zh-violation');
  // The choice is remembered.
  allowPageLoad();
  await page.reload();
  await page.waitForFunction(() => window.lockstep?.isReady === true);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
});
