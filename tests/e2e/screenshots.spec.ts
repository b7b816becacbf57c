import { expect, test, type LockstepPage } from './fixtures';
import { applyLook, LARGE, SMALL, type Look } from './looks';

// Goal: pictures of the main states (start, B holds the lock, A deleted B's lock, the Lua
// release) in every look (light, dark, zh at 1280x720; presentation at 1280x720 and 1920x1080),
// saved to .screenshots/ for a human to look at after visual changes. Each look checks that the page scrolls neither way, and at the violation that what a
// teacher points at is on screen without scrolling: both lanes' next lines, the narration, the
// violation, the lock key, the clock and step controls, the timeline; and that stepping and
// switching the variant move no region.

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000&at=0';

const LOOKS: Look[] = [
  { name: 'light', viewport: SMALL, dark: false, presentation: false, zh: false },
  { name: 'dark', viewport: SMALL, dark: true, presentation: false, zh: false },
  { name: 'zh', viewport: SMALL, dark: false, presentation: false, zh: true },
  { name: 'presentation', viewport: SMALL, dark: false, presentation: true, zh: false },
  { name: 'presentation-dark', viewport: SMALL, dark: true, presentation: true, zh: false },
  { name: 'presentation-zh', viewport: SMALL, dark: false, presentation: true, zh: true },
  { name: 'presentation-1920', viewport: LARGE, dark: true, presentation: true, zh: false },
  { name: 'presentation-1920-light', viewport: LARGE, dark: false, presentation: true, zh: false },
];

/** Fails when any part of the locator's box is outside the viewport (it would need scrolling). */
async function expectOnScreen(app: LockstepPage, testId: string): Promise<void> {
  const box = await app.page.getByTestId(testId).boundingBox();
  const viewport = app.page.viewportSize()!;
  expect(box, `${testId} is rendered`).not.toBeNull();
  expect(box!.y, `${testId} top`).toBeGreaterThanOrEqual(0);
  expect(box!.x, `${testId} left`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${testId} bottom`).toBeLessThanOrEqual(viewport.height + 0.5);
  expect(box!.x + box!.width, `${testId} right`).toBeLessThanOrEqual(viewport.width + 0.5);
}

/** Regions whose boxes must not move while stepping (test ids of docs/AUTOMATION.md). */
const STABLE_REGIONS = ['scenario-title', 'variant-toggle', 'narration', 'lane.A', 'lane.B', 'lane.A.program', 'lane.B.program', 'inspector', 'clock-bar', 'scrubber', 'clock', 'timeline'];

async function regionBoxes(app: LockstepPage): Promise<Record<string, string>> {
  const boxes: Record<string, string> = {};
  for (const testId of STABLE_REGIONS) {
    const box = await app.page.getByTestId(testId).boundingBox();
    boxes[testId] = box ? [box.x, box.y, box.width, box.height].map((n) => n.toFixed(1)).join(' ') : 'absent';
  }
  return boxes;
}

// Two tests per look, so each stays short and they run in parallel: stepping to the violation,
// then switching the release at the violation. Each saves full-page screenshots and reads a dozen
// boxes several times, which takes seconds on a busy machine: test.slow() gives them room.
for (const look of LOOKS) {
  test(`screenshots of the main states: ${look.name}, stepping to the violation`, async ({ app, page }) => {
    test.slow();
    await app.open(HEADLINE);
    await applyLook(app, look);
    await app.page.getByRole('slider').fill('0');
    await expect(app.noViolations).toBeVisible();
    await app.screenshot(`${look.name}-start`);
    const startBoxes = await regionBoxes(app);
    await app.page.getByRole('slider').fill('5');
    await expect(app.key('lock')).toBeVisible();
    await app.screenshot(`${look.name}-b-acquired`);
    expect(await regionBoxes(app), 'regions moved between step 0 and step 5').toEqual(startBoxes);
    await page.keyboard.press('ArrowRight');
    await expect(app.banner).toBeVisible();
    expect(await regionBoxes(app), 'regions moved at the violation').toEqual(startBoxes);
    for (const testId of ['lane.B.current', 'lane.A.program', 'narration', 'violation-banner', 'key.lock', 'clock', 'position', 'play', 'timeline']) {
      await expectOnScreen(app, testId);
    }
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight), 'page scrolls vertically').toBeLessThanOrEqual(0);
    await app.screenshot(`${look.name}-violation`);
  });

  test(`screenshots of the main states: ${look.name}, the Lua release at the violation`, async ({ app, page }) => {
    test.slow();
    await app.open(HEADLINE.replace('&at=0', '&at=6'));
    await applyLook(app, look);
    await expect(app.banner).toBeVisible();
    const violationBoxes = await regionBoxes(app);
    await page.getByRole('radio', { name: /Lua (compare-and-delete|比较并删除)/ }).check();
    await expect(app.noViolations).toBeVisible();
    await app.screenshot(`${look.name}-lua`);
    expect(await regionBoxes(app), 'regions moved with the Lua variant').toEqual(violationBoxes);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'page scrolls sideways').toBeLessThanOrEqual(0);
  });

  test(`screenshots of the main states: ${look.name}, the found race on every variant`, async ({ app, page }) => {
    test.slow();
    await app.open(HEADLINE);
    await applyLook(app, look);
    // The dialog's search through the API (it opens the dialog; one 5 s stall: the foreign release only), then the comparison.
    await page.evaluate(() => window.lockstep!.explore({ stalls: 1, stallLengthsMs: [5000] }));
    await expect(page.getByTestId('explore-dialog')).toBeVisible();
    const compare = page.getByTestId('compare');
    await expect(compare).toHaveAttribute('data-status', 'done');
    await expect(compare.getByTestId('compare.lua.divergence')).toHaveAttribute('data-step', '1');
    await app.screenshot(`${look.name}-compare`);
    // The table is in the dialog's view (the dialog scrolls, never the page).
    for (const testId of ['compare.get-then-del', 'compare.lua', 'compare.delex']) await expectOnScreen(app, testId);
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight), 'page scrolls vertically').toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'page scrolls sideways').toBeLessThanOrEqual(0);
  });
}
