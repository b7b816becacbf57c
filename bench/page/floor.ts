import type { BrowserContext } from '@playwright/test';
import type { StepSample } from './browser';
import { PageDriver } from './driver';

/**
 * The noise floor: the same measured press (real click, position readout, frames) on a page
 * that does nothing else, in the same browser as the app. Its p95 is what the machine's load
 * alone adds; read the app's figures against it.
 */

export const FLOOR_PATH = '/__bench/floor.html';

export const FLOOR_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bench floor</title></head>
<body>
<div data-testid="clock-bar"><button type="button">Step forward</button></div>
<p data-testid="position">Step 0 / 0</p>
<script>
  let cursor = 0;
  document.querySelector('button').addEventListener('click', () => {
    cursor += 1;
    document.querySelector('[data-testid="position"]').textContent = 'Step ' + cursor + ' / ' + cursor;
  });
</script>
</body></html>`;

export async function measureFloor(context: BrowserContext, baseUrl: string, pressCount: number): Promise<StepSample[]> {
  const page = await context.newPage();
  try {
    await page.goto(new URL(FLOOR_PATH, baseUrl).href);
    const driver = new PageDriver(page);
    const button = driver.clockButton('Step forward');
    const samples: StepSample[] = [];
    for (let i = 0; i < pressCount; i++) samples.push(await driver.measure(i + 1, () => button.click({ force: true })));
    await driver.attachNextPaints(samples);
    return samples;
  } finally {
    await page.close();
  }
}
