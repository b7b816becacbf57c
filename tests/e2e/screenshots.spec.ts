import { expect, test } from './fixtures';

// Goal: pictures of the main states at 1280x720 in every look (light, dark, presentation, zh), saved
// to .screenshots/ for a human to look at after visual changes. Each also checks that the page
// does not scroll sideways.

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.%2B4000.B.A';

const LOOKS = [
  { name: 'light', setup: async () => {} },
  { name: 'dark', setup: async (app: import('./fixtures').LockstepPage) => app.button('Dark theme').click() },
  { name: 'presentation', setup: async (app: import('./fixtures').LockstepPage) => app.button('Presentation mode').click() },
  { name: 'zh', setup: async (app: import('./fixtures').LockstepPage) => app.page.getByRole('button', { name: '中文' }).click() },
];

for (const look of LOOKS) {
  test(`screenshots: ${look.name}`, async ({ app, page }) => {
    await app.open(`${HEADLINE}&at=0`);
    await look.setup(app);
    await app.screenshot(`${look.name}-start`);
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await expect(app.position).toContainText('4');
    await app.screenshot(`${look.name}-b-acquired`);
    await page.keyboard.press('ArrowRight');
    await expect(app.banner).toBeVisible();
    await app.screenshot(`${look.name}-violation`);
    await app.chooseVariant(look.name === 'zh' ? /Lua 比较并删除/ : /Lua compare-and-delete/);
    await expect(app.noViolations).toBeVisible();
    await app.screenshot(`${look.name}-lua`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
}
