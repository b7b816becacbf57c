import type { Page } from '@playwright/test';
import { definitionOfScenario } from '../../src/definition';
import { SCENARIO_CATALOG } from '../../src/scenarios/catalog';
import { findScenario } from '../../src/scenarios';
import { expect, test, type LockstepPage } from './fixtures';
import { applyLook, type Look } from './looks';

// Goal: every screen from a 360 px phone to a 1920 x 1080 projector shows the whole run. Phones
// never scroll sideways and their controls are at least 24 px; 1280 x 720 shows every lane of
// two to six clients with no page scroll, even under a refused link's alert; the timeline's
// words never overlap; a projector's presentation has no text under 18 px; and the timeline
// zooms by pinch and Ctrl+wheel. Screenshots (.screenshots/layout-*.png) are for a human to open.

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000';
const PHONE = { width: 390, height: 844 } as const;
const SMALL_PHONE = { width: 360, height: 740 } as const;
const TABLET = { width: 820, height: 1180 } as const;
const SMALL = { width: 1280, height: 720 } as const;
const LARGE = { width: 1920, height: 1080 } as const;

function sidewaysPx(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

function downwardPx(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
}

/** Visible controls smaller than 24 x 24 px; a radio or checkbox counts by its label, the target a finger meets. */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('button, a[href], input, select, [role=tab]')]
      .filter((el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }))
      .map((el) => ({ el, box: (el.closest('label') ?? el).getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(({ el, box }) => `${(el.getAttribute('aria-label') ?? el.textContent ?? el.tagName).trim().slice(0, 40)} ${Math.round(box.width)}x${Math.round(box.height)}`),
  );
}

/**
 * Pairs of the timeline's texts that overlap on screen. Content scrolled under the row names is
 * hidden by them (only its visible part counts); the cursor's badge is drawn over the axis on
 * purpose, on a background of its own.
 */
function timelineOverlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.querySelector<HTMLElement>('[data-testid=timeline]');
    const svg = root?.querySelector('svg');
    if (!root || !svg) return ['no timeline'];
    const gutterRight = svg.getBoundingClientRect().left + Number(root.dataset.gutterPx ?? 0);
    const content = svg.querySelector('.lsv-content');
    const boxes = [...svg.querySelectorAll('text')]
      .filter((t) => (t.textContent ?? '').trim() !== '' && t.checkVisibility() && t.closest('.lsv-cursor') === null)
      .map((t) => {
        const r = t.getBoundingClientRect();
        const left = content?.contains(t) ? Math.max(r.left, gutterRight) : r.left;
        return { text: (t.textContent ?? '').trim(), left, right: r.right, top: r.top, bottom: r.bottom };
      })
      .filter((b) => b.right > b.left);
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 1 && y > 1) out.push(`"${a.text}" over "${b.text}" (${Math.round(x)}x${Math.round(y)} px)`);
      }
    }
    return out;
  });
}

/** Visible texts under `minPx` (SVG text at its drawn size). */
function textsUnder(page: Page, minPx: number): Promise<string[]> {
  return page.evaluate((min) => {
    const out = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || (node.textContent ?? '').trim() === '' || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = range.getBoundingClientRect();
      if (box.width < 2 || box.bottom < 0 || box.top > window.innerHeight) continue;
      let px = parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGGraphicsElement) {
        const m = el.getScreenCTM();
        if (m) px *= Math.hypot(m.a, m.b);
      }
      if (px < min - 0.05) out.add(`${Math.round(px * 10) / 10}px "${(node.textContent ?? '').trim().slice(0, 30)}"`);
    }
    return [...out];
  }, minPx);
}

async function expectLanesOnScreen(app: LockstepPage, clientIds: readonly string[]): Promise<void> {
  const lanes = await app.page.getByRole('region', { name: /^(Clients|客户端)$/ }).boundingBox();
  expect(lanes).not.toBeNull();
  for (const id of clientIds) {
    const box = await app.lane(id).boundingBox();
    expect(box, `lane ${id}`).not.toBeNull();
    expect(box!.x, `lane ${id} left`).toBeGreaterThanOrEqual(lanes!.x - 0.5);
    expect(box!.x + box!.width, `lane ${id} right`).toBeLessThanOrEqual(lanes!.x + lanes!.width + 0.5);
  }
}

const PHONE_LOOKS: Look[] = [
  { name: 'layout-phone-390', viewport: PHONE, dark: false, presentation: false, zh: false },
  { name: 'layout-phone-360-zh-dark', viewport: SMALL_PHONE, dark: true, presentation: false, zh: true },
  { name: 'layout-phone-390-presentation', viewport: PHONE, dark: false, presentation: true, zh: false },
  { name: 'layout-tablet-820', viewport: TABLET, dark: false, presentation: false, zh: false },
  { name: 'layout-tablet-820-zh-dark', viewport: TABLET, dark: true, presentation: false, zh: true },
];

for (const look of PHONE_LOOKS) {
  test(`no sideways scrolling, touch-sized controls: ${look.name}`, async ({ app, page }) => {
    test.slow();
    for (const hash of [HEADLINE, '#/v1/retry-and-backoff/fixed-interval?seed=1', '#/v1/failover-before-replication/async?seed=1']) {
      await app.open(hash);
      await applyLook(app, look);
      expect(await sidewaysPx(page), `${hash}: the page scrolls sideways`).toBeLessThanOrEqual(0);
      expect(await smallTargets(page), `${hash}: controls under 24 px`).toEqual([]);
    }
    await app.open(HEADLINE);
    await applyLook(app, look);
    await page.screenshot({ path: `.screenshots/${look.name}.png`, fullPage: true });
  });
}

test('1280 x 720: every lane of every lesson on screen, no page scroll, no overlapping timeline words', async ({ app, page }) => {
  test.slow();
  await app.open(HEADLINE);
  await page.setViewportSize(SMALL);
  for (const entry of SCENARIO_CATALOG) {
    for (const variant of entry.variants) {
      await app.load({ scenario: entry.id, variant: variant.id });
      const clientIds = await page.evaluate(() => [...document.querySelectorAll('article[data-testid^="lane."]')].map((el) => el.getAttribute('data-testid')!.slice('lane.'.length)));
      expect(clientIds.length, `${entry.id}/${variant.id}: lanes`).toBeGreaterThanOrEqual(1);
      await expectLanesOnScreen(app, clientIds);
      expect(await downwardPx(page), `${entry.id}/${variant.id}: the page scrolls`).toBeLessThanOrEqual(0);
      expect(await timelineOverlaps(page), `${entry.id}/${variant.id}: overlapping timeline words`).toEqual([]);
    }
  }
});

test('1280 x 720: six clients share the width, every lane on screen', async ({ app, page }) => {
  const definition = definitionOfScenario(findScenario('get-then-del'));
  const variant = definition.variants[0];
  const a = variant.clients[0];
  const six = { ...definition, variants: [{ ...variant, clients: ['A', 'B', 'C', 'D', 'E', 'F'].map((id) => ({ ...a, id })) }], defaultVariant: variant.id, defaultSchedule: 'A B C D E F' };
  await app.open(HEADLINE);
  await page.setViewportSize(SMALL);
  await app.load({ definition: six, schedule: 'A B C D E F' });
  await expectLanesOnScreen(app, ['A', 'B', 'C', 'D', 'E', 'F']);
  expect(await downwardPx(page), 'the page scrolls').toBeLessThanOrEqual(0);
  await app.screenshot('layout-1280-six-clients');
});

test('1280 x 720: a refused link shows its alert without making the page scroll', async ({ app, page }) => {
  await page.setViewportSize(SMALL);
  await app.open('#/v1/retry-and-backoff/no-such-variant?seed=1');
  await expect(page.getByTestId('link-error')).toBeVisible();
  expect(await downwardPx(page), 'the page scrolls under the alert').toBeLessThanOrEqual(0);
  await app.screenshot('layout-1280-link-error');
});

test('1920 x 1080 presentation: no text under 18 px, in both languages', async ({ app, page }) => {
  test.slow();
  for (const zh of [false, true]) {
    await app.open(HEADLINE);
    await applyLook(app, { name: 'projector', viewport: LARGE, dark: zh, presentation: true, zh });
    expect(await textsUnder(page, 18), 'texts under 18 px').toEqual([]);
    expect(await downwardPx(page), 'the page scrolls').toBeLessThanOrEqual(0);
    await app.screenshot(`layout-1920-presentation${zh ? '-zh-dark' : ''}`);
  }
});

test('the timeline zooms by a two-finger pinch and by Ctrl+wheel', async ({ app, page }) => {
  await app.open(HEADLINE);
  const timeline = page.getByTestId('timeline');
  const zoomOf = async () => Number(await timeline.getAttribute('data-zoom'));
  const before = await zoomOf();
  // Ctrl+wheel (a trackpad's pinch) over the run zooms in.
  const box = (await timeline.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.6);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -300);
  await page.keyboard.up('Control');
  await expect.poll(zoomOf).toBeGreaterThan(before);
  const afterWheel = await zoomOf();
  // Two fingers spreading apart zoom in further (touch events through the DevTools protocol).
  const cdp = await page.context().newCDPSession(page);
  const cx = box.x + box.width * 0.6;
  const cy = box.y + box.height * 0.7;
  const touch = (spreadPx: number) => [
    { x: cx - spreadPx, y: cy, id: 1 },
    { x: cx + spreadPx, y: cy, id: 2 },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: touch(20) });
  for (const spreadPx of [30, 45, 60]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: touch(spreadPx) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect.poll(zoomOf).toBeGreaterThan(afterWheel);
});
