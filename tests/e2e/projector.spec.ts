import { expect, test, type LockstepPage } from './fixtures';
import { applyLook, LARGE, SMALL, type Look } from './looks';

// Goal: the timeline a teacher projects. Presentation mode at 1920x1080 draws every word of the
// timeline at 18 px or more, and marks after the cursor stay readable (text 4.5:1, outlines
// 2.5:1) in both themes. With 2, 3 and 4 clients at 1280x720 and 1920x1080 every client's row and
// the Redis row are on screen and named, and no control on the page lacks a name. Screenshots of
// each layout go to .screenshots/timeline-*.png for a person to look at. Zooming keeps the current
// step in view.

const RUNS = [
  { scenario: 'get-then-del', clients: ['A', 'B'] },
  { scenario: 'plain-del', clients: ['A', 'B', 'C'] },
  { scenario: 'retry-and-backoff', clients: ['A', 'B', 'C', 'D'] },
] as const;

/** The part of the locator's box that must be on screen: inside the viewport and the timeline. */
async function expectShown(app: LockstepPage, what: string, box: { x: number; y: number; width: number; height: number } | null): Promise<void> {
  const viewport = app.page.viewportSize()!;
  const region = await app.page.getByTestId('timeline').boundingBox();
  expect(box, `${what} is drawn`).not.toBeNull();
  expect(region).not.toBeNull();
  for (const bounds of [{ x: 0, y: 0, width: viewport.width, height: viewport.height }, region!]) {
    expect(box!.y, `${what} top`).toBeGreaterThanOrEqual(bounds.y - 0.5);
    expect(box!.y + box!.height, `${what} bottom`).toBeLessThanOrEqual(bounds.y + bounds.height + 0.5);
    expect(box!.x, `${what} left`).toBeGreaterThanOrEqual(bounds.x - 0.5);
    expect(box!.x + box!.width, `${what} right`).toBeLessThanOrEqual(bounds.x + bounds.width + 0.5);
  }
}

/** Every row of the timeline: its name on screen (the row names at the left), the group named. */
async function expectRowsShown(app: LockstepPage, clients: readonly string[]): Promise<void> {
  const timeline = app.page.getByTestId('timeline');
  for (const id of clients) {
    await expect(timeline.getByRole('group', { name: `Client ${id}`, exact: true })).toHaveCount(1);
    await expectShown(app, `row name of ${id}`, await timeline.getByText(`Client ${id}`, { exact: true }).boundingBox());
  }
  await expect(timeline.getByRole('group', { name: 'Redis', exact: true })).toHaveCount(1);
  await expectShown(app, 'Redis row name', await timeline.getByText('Redis', { exact: true }).boundingBox());
  await expectShown(app, 'Redis row subtitle', await timeline.getByText('lock & lease', { exact: true }).boundingBox());
}

/** No button or link on the page without an accessible name (an icon alone names nothing). */
async function expectEveryControlNamed(app: LockstepPage): Promise<void> {
  const snapshot = await app.page.locator('body').ariaSnapshot();
  const unnamed = snapshot.split('\n').filter((line) => /^\s*- (button|link|radio|checkbox|spinbutton|combobox|slider)(\s*\[[^\]]*\])*:?\s*$/.test(line));
  expect(unnamed, 'controls without a name').toEqual([]);
}

for (const viewport of [SMALL, LARGE]) {
  for (const presentation of [false, true]) {
    const look: Look = { name: `${viewport.width}x${viewport.height}${presentation ? '-presentation' : ''}`, viewport, dark: false, presentation, zh: false };
    test(`with 2, 3 and 4 clients at ${look.name}, every row and the Redis row are on screen and named`, async ({ app }) => {
      test.slow();
      await app.open();
      await applyLook(app, look);
      for (const run of RUNS) {
        await app.load({ scenario: run.scenario });
        await expect(app.page.getByTestId('timeline').getByRole('group', { name: `Client ${run.clients[run.clients.length - 1]}`, exact: true })).toHaveCount(1);
        await expectRowsShown(app, run.clients);
        await expectEveryControlNamed(app);
        await app.screenshot(`timeline-${look.name}-${run.clients.length}-clients`);
      }
    });
  }
}

/** What measureTimeline reads: px are screen pixels, contrasts WCAG ratios. */
interface Measured {
  readonly fontPxMin: number;
  readonly smallest: string;
  readonly textContrastMin: number;
  readonly outlineContrastMin: number;
  readonly futureChipCount: number;
}

/**
 * Measures the timeline in the page: the smallest text on screen (font size times the drawing's
 * scale), and for each command chip after the cursor the contrast of its words against the chip
 * and of its outline against the drawing's background.
 */
function measureTimeline(): Measured {
  const parse = (value: string): [number, number, number, number] => {
    const rgb = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(value);
    if (rgb) return [Number(rgb[1]) / 255, Number(rgb[2]) / 255, Number(rgb[3]) / 255, rgb[4] === undefined ? 1 : Number(rgb[4])];
    const srgb = /color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)/.exec(value);
    if (srgb) return [Number(srgb[1]), Number(srgb[2]), Number(srgb[3]), srgb[4] === undefined ? 1 : Number(srgb[4])];
    throw new Error(`unparsed colour ${value}`);
  };
  const over = (top: [number, number, number, number], under: [number, number, number, number]): [number, number, number, number] => {
    const a = top[3];
    return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1];
  };
  const luminance = ([r, g, b]: [number, number, number, number]) => {
    const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const contrast = (a: [number, number, number, number], b: [number, number, number, number]) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  // Colours as painted: a group's opacity (how marks used to be dimmed) fades what is inside it.
  const painted = (element: Element, property: 'fill' | 'stroke'): [number, number, number, number] => {
    const [r, g, b, a] = parse(getComputedStyle(element)[property]);
    let alpha = a;
    for (let e: Element | null = element; e && e.tagName !== 'svg'; e = e.parentElement) alpha *= Number(getComputedStyle(e).opacity);
    return [r, g, b, alpha];
  };
  const timeline = document.querySelector('[data-testid="timeline"]')!;
  const svg = timeline.querySelector('svg')!;
  // The drawing's background: the first rect that is the svg's own child (the others are in patterns and rows).
  const background = parse(getComputedStyle(svg.querySelector(':scope > rect')!).fill);
  let fontPxMin = Number.POSITIVE_INFINITY;
  let smallest = '';
  for (const text of svg.querySelectorAll('text')) {
    if (!text.textContent?.trim()) continue;
    const box = text.getBoundingClientRect();
    if (box.width === 0 || box.right < 0 || box.left > window.innerWidth) continue;
    const px = parseFloat(getComputedStyle(text).fontSize) * (text.getScreenCTM()?.a ?? 1);
    if (px < fontPxMin) {
      fontPxMin = px;
      smallest = text.textContent;
    }
  }
  let textContrastMin = Number.POSITIVE_INFINITY;
  let outlineContrastMin = Number.POSITIVE_INFINITY;
  const chips = [...svg.querySelectorAll('[data-testid^="timeline.mark."][data-state="future"]')];
  for (const chip of chips) {
    const box = chip.querySelector('rect')!;
    const chipFill = over(painted(box, 'fill'), background);
    outlineContrastMin = Math.min(outlineContrastMin, contrast(over(painted(box, 'stroke'), background), background));
    for (const part of chip.querySelectorAll('text, tspan')) {
      if (!part.textContent?.trim()) continue;
      textContrastMin = Math.min(textContrastMin, contrast(over(painted(part, 'fill'), chipFill), chipFill));
    }
  }
  return { fontPxMin, smallest, textContrastMin, outlineContrastMin, futureChipCount: chips.length };
}

for (const dark of [false, true]) {
  for (const zh of [false, true]) {
    const look: Look = { name: `1920x1080-presentation-${dark ? 'dark' : 'light'}${zh ? '-zh' : ''}`, viewport: LARGE, dark, presentation: true, zh };
    test(`presentation mode at 1920x1080 (${look.name}): timeline text 18 px or more, future marks readable`, async ({ app }) => {
      test.slow();
      await app.open();
      await applyLook(app, look);
      // Cursor before B's SET: B's SET and A's DEL are still to come.
      await app.load({ scenario: 'get-then-del', cursor: 4 });
      await expect(app.page.getByTestId('timeline').locator('[data-state="future"]').first()).toBeVisible();
      const measured = await app.page.evaluate(measureTimeline);
      expect(measured.futureChipCount).toBeGreaterThan(0);
      expect(measured.fontPxMin, `smallest text: "${measured.smallest}"`).toBeGreaterThanOrEqual(18);
      expect(measured.textContrastMin).toBeGreaterThanOrEqual(4.5);
      expect(measured.outlineContrastMin).toBeGreaterThanOrEqual(2.5);
      await app.screenshot(`timeline-${look.name}`);
    });
  }
}

test('zooming in, out and to fit keeps the current step in view; + and - zoom with focus in the timeline', async ({ app }) => {
  await app.open('#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000&at=5');
  const timeline = app.page.getByTestId('timeline');
  const current = timeline.locator('[data-state="current"]');
  await expect(current).toHaveCount(1);
  const zoom = async () => Number(await timeline.getAttribute('data-zoom'));
  for (const name of ['Zoom in', 'Zoom in', 'Zoom out', 'Zoom out', 'Zoom out', 'Zoom out', 'Zoom to fit the run']) {
    const before = await zoom();
    await timeline.getByRole('button', { name, exact: true }).click();
    if (name !== 'Zoom to fit the run') await expect.poll(zoom).not.toBe(before);
    const box = await current.boundingBox();
    await expectShown(app, `the current step after ${name}`, box);
    // Not under the row names at the left.
    const names = await timeline.getByText('Client A', { exact: true }).boundingBox();
    expect(box!.x + box!.width / 2, `the current step after ${name}`).toBeGreaterThan(names!.x + names!.width);
  }
  const fitted = await zoom();
  await timeline.getByRole('button', { name: 'Zoom in', exact: true }).focus();
  await app.page.keyboard.press('+');
  await expect.poll(zoom).toBeCloseTo(Math.min(4, fitted * 1.5), 2);
  await app.page.keyboard.press('-');
  await expect.poll(zoom).toBeCloseTo(fitted, 2);
});
