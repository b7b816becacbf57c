import { expect, test, type LockstepPage } from './fixtures';

// Goal: pictures of the main states (start, B holds the lock, A deleted B's lock, the Lua
// release) at 1280x720 in every look (light, dark, presentation, zh), saved to .screenshots/ for a
// human to look at after visual changes. One page, looks switched in place. Each look also checks
// that the page does not scroll sideways.

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.%2B4000.B.A&at=0';

const LOOKS: { name: string; lua: RegExp; broken: RegExp; setup: (app: LockstepPage) => Promise<void> }[] = [
  { name: 'light', lua: /Lua compare-and-delete/, broken: /GET, compare, DEL/, setup: async () => {} },
  { name: 'dark', lua: /Lua compare-and-delete/, broken: /GET, compare, DEL/, setup: (app) => app.button('Dark theme').click() },
  {
    name: 'presentation',
    lua: /Lua compare-and-delete/,
    broken: /GET, compare, DEL/,
    setup: async (app) => {
      await app.button('Dark theme').click();
      await app.button('Presentation mode').click();
    },
  },
  {
    name: 'zh',
    lua: /Lua 比较并删除/,
    broken: /GET、比较、DEL/,
    setup: async (app) => {
      await app.button('Presentation mode').click();
      await app.page.getByRole('button', { name: '中文' }).click();
    },
  },
];

test('screenshots of the main states in every look', async ({ app, page }) => {
  await app.open(HEADLINE);
  for (const look of LOOKS) {
    await test.step(look.name, async () => {
      await look.setup(app);
      await app.page.getByRole('slider').fill('0');
      await expect(app.noViolations).toBeVisible();
      await app.screenshot(`${look.name}-start`);
      await app.page.getByRole('slider').fill('4');
      await expect(app.key('lock')).toBeVisible();
      await app.screenshot(`${look.name}-b-acquired`);
      await page.keyboard.press('ArrowRight');
      await expect(app.banner).toBeVisible();
      await app.screenshot(`${look.name}-violation`);
      await app.chooseVariant(look.lua);
      await expect(app.noViolations).toBeVisible();
      await app.screenshot(`${look.name}-lua`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await app.chooseVariant(look.broken);
    });
  }
});
