import type { Locator } from '@playwright/test';
import { expect, test, type LockstepPage } from './fixtures';
import { applyLook, LARGE, SMALL, type Look } from './looks';

// Goal: the workbench's Redis console and program editor as a person uses them, through the
// automation contract (docs/AUTOMATION.md): type commands and read redis-cli replies, find them in
// the run's timeline and its share link (a reload brings them back), walk the history with the up
// key, read an error reply and a refusal; add a third client and step it; insert a step.

async function openTab(app: LockstepPage, tab: 'console' | 'program'): Promise<Locator> {
  await app.page.getByTestId('workbench-open').click();
  const drawer = app.page.getByTestId('workbench');
  await expect(drawer).toBeVisible();
  await drawer.getByTestId(`workbench.tab.${tab}`).click();
  return drawer;
}

/** Types a line into the console and presses Enter. */
async function run(drawer: Locator, line: string): Promise<void> {
  const input = drawer.getByRole('textbox', { name: 'Redis command' });
  await input.fill(line);
  await input.press('Enter');
}

function lastEntry(drawer: Locator): Locator {
  return drawer.getByTestId('console.entry').last();
}

test('console: replies as redis-cli prints them, in the timeline and the link, history with the up key', async ({ app }) => {
  test.slow();
  await app.open();
  await app.load({ scenario: 'get-then-del' });
  const drawer = await openTab(app, 'console');
  const transcript = drawer.getByRole('log', { name: 'Console' });

  await test.step('SET and GET, typed replies', async () => {
    await run(drawer, 'SET k "a b"');
    await expect(lastEntry(drawer)).toContainText('SET k "a b"');
    await expect(lastEntry(drawer).getByTestId('console.reply')).toHaveText('OK');
    await run(drawer, 'GET k');
    await expect(lastEntry(drawer).getByTestId('console.reply')).toHaveText('"a b"');
    await run(drawer, 'EXISTS k nothing');
    await expect(lastEntry(drawer).getByTestId('console.reply')).toHaveText('(integer) 1');
    await expect(transcript.getByTestId('console.entry')).toHaveCount(3);
  });

  await test.step('an error reply and a refused command', async () => {
    await run(drawer, 'INCR k');
    await expect(lastEntry(drawer)).toHaveAttribute('data-kind', 'error');
    await expect(lastEntry(drawer).getByTestId('console.reply')).toHaveText('(error) ERR value is not an integer or out of range');
    await run(drawer, 'SHUTDOWN');
    await expect(lastEntry(drawer)).toHaveAttribute('data-kind', 'refused');
    await expect(lastEntry(drawer).getByTestId('console.reply')).toContainText('the console does not run SHUTDOWN');
  });

  await test.step('history with the up and down keys', async () => {
    const input = drawer.getByRole('textbox', { name: 'Redis command' });
    await input.press('ArrowUp');
    await expect(input).toHaveValue('SHUTDOWN');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('INCR k');
    await input.press('ArrowDown');
    await expect(input).toHaveValue('SHUTDOWN');
    await input.press('ArrowDown');
    await expect(input).toHaveValue('');
  });

  await test.step('the commands are the console client\'s choices: schedule, timeline lane, link', async () => {
    const state = await app.state();
    expect(state.schedule).toBe('A A A~5000 +4000 B +1000 $SET|k|a%20b $GET|k $EXISTS|k|nothing $INCR|k');
    await expect(app.page.getByTestId('timeline.row.console').getByRole('button', { name: /console: SET k/ })).toHaveCount(1);
    await expect(app.page).toHaveURL(/%24SET%7Ck%7Ca%2520b/);
  });

  await test.step('a reload of the link replays them', async () => {
    await app.page.reload();
    await app.page.waitForFunction(() => window.lockstep?.isReady === true);
    expect((await app.state()).schedule).toContain('$SET|k|a%20b $GET|k');
    const again = await openTab(app, 'console');
    await expect(again.getByTestId('console.entry')).toHaveCount(4);
    await expect(again.getByTestId('console.entry').nth(1).getByTestId('console.reply')).toHaveText('"a b"');
    await expect(app.page.getByTestId('timeline.row.console')).toBeVisible();
  });
});

test('console: values are shown as text, never as HTML', async ({ app }) => {
  await app.open();
  await app.load({ scenario: 'get-then-del' });
  const drawer = await openTab(app, 'console');
  await run(drawer, 'SET x "<img src=x onerror=alert(1)>"');
  await run(drawer, 'GET x');
  await expect(lastEntry(drawer).getByTestId('console.reply')).toHaveText('"<img src=x onerror=alert(1)>"');
  await expect(drawer.locator('img')).toHaveCount(0);
});

/** Waits for the edit number `revision` to have been applied (the status region's own signal). */
async function applied(drawer: Locator, revision: number): Promise<void> {
  await expect(drawer.getByTestId('workbench-status')).toHaveAttribute('data-revision', String(revision), { timeout: 60_000 });
  await expect(drawer.getByTestId('workbench-status')).toHaveAttribute('data-status', 'idle');
}

test('program editor: add a third client and step it; insert a step at a position', async ({ app }) => {
  test.slow();
  await app.open();
  await app.load({ scenario: 'get-then-del' });
  const drawer = await openTab(app, 'program');

  await test.step('a third client running A\'s program', async () => {
    await drawer.getByTestId('workbench.client-add-from').selectOption('A');
    await drawer.getByTestId('workbench.client-add').click();
    await applied(drawer, 1);
    await expect(drawer.getByTestId('workbench.client.C')).toBeVisible();
    await app.stepClient('C');
    await expect(app.page.getByTestId('timeline.row.C').getByRole('button', { name: /C: SET lock/ })).toHaveCount(1);
    expect((await app.state()).schedule).toBe('A A A~5000 +4000 B +1000 C');
  });

  await test.step('a GET inserted before A\'s first step', async () => {
    await drawer.getByTestId('workbench.same-for-all').uncheck();
    await drawer.getByTestId('workbench.insert-kind').selectOption({ label: 'Redis command: GET ${lockKey}' });
    await drawer.getByTestId('workbench.insert-at').selectOption('0');
    await drawer.getByTestId('workbench.insert-do').click();
    await applied(drawer, 2);
    await expect(drawer.getByTestId('workbench.step.A.0')).toContainText('GET lock');
    await expect(app.page.getByTestId('timeline.row.A').getByRole('button', { name: /A: GET lock/ }).first()).toBeVisible();
  });

  await test.step('removing client B takes its choices out of the schedule', async () => {
    await drawer.getByRole('button', { name: 'Remove client B' }).click();
    await applied(drawer, 3);
    await expect(app.lane('B')).toHaveCount(0);
    expect((await app.state()).schedule).not.toMatch(/\bB\b/);
  });
});

// The console in every look that matters on a projector: the page must not scroll, the prompt
// and the transcript stay on screen, and the screenshots (.screenshots/console-*.png) are for a
// human to open after visual changes.
const CONSOLE_LOOKS: Look[] = [
  { name: 'console-light', viewport: SMALL, dark: false, presentation: false, zh: false },
  { name: 'console-dark', viewport: SMALL, dark: true, presentation: false, zh: false },
  { name: 'console-presentation-dark', viewport: SMALL, dark: true, presentation: true, zh: false },
  { name: 'console-presentation-1920', viewport: LARGE, dark: false, presentation: true, zh: false },
  { name: 'console-zh', viewport: SMALL, dark: false, presentation: false, zh: true },
];

for (const look of CONSOLE_LOOKS) {
  test(`console look: ${look.name}`, async ({ app, page }) => {
    test.slow();
    await app.open('#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%24GET%7Clock.%24PTTL%7Clock.%24KEYS%7C*');
    await applyLook(app, look);
    await app.page.getByTestId('workbench-open').click();
    const drawer = app.page.getByTestId('workbench');
    await drawer.getByTestId('workbench.tab.console').click();
    await expect(drawer.getByTestId('console.entry')).toHaveCount(3);
    await drawer.getByTestId('console.input').fill('HSET h f "v 1"');
    await drawer.getByTestId('console.input').press('Enter');
    await expect(drawer.getByTestId('console.entry')).toHaveCount(4);
    await expect(drawer.getByTestId('console.input')).toBeFocused();
    for (const id of ['console.input', 'console.transcript', 'timeline.row.console']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box, id).not.toBeNull();
      expect(box!.y + box!.height, `${id} bottom`).toBeLessThanOrEqual(look.viewport.height + 0.5);
    }
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight), 'page scrolls vertically').toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'page scrolls sideways').toBeLessThanOrEqual(0);
    await app.screenshot(look.name);
    await drawer.getByTestId('workbench.tab.program').click();
    await app.screenshot(`${look.name}-program`);
  });
}

test('console in a node lesson: aimed at the node chosen, in the schedule as $@node|…, on the timeline', async ({ app, page }) => {
  await app.open('#/v1/failover-before-replication/async?seed=1&s=A&at=1');
  await page.getByTestId('workbench-open').click();
  const drawer = page.getByTestId('workbench');
  await drawer.getByTestId('workbench.tab.console').click();
  await expect(drawer.getByTestId('console.node')).toHaveValue('r1');
  await drawer.getByTestId('console.input').fill('GET lock');
  await drawer.getByTestId('console.input').press('Enter');
  await expect(drawer.getByTestId('console.entry')).toHaveCount(1);
  await expect(drawer.getByTestId('console.entry').last()).toContainText('@r1');
  // A's token, as redis-cli prints it.
  await expect(drawer.getByTestId('console.reply').last()).toHaveText(/^"[0-9a-f-]{36}"$/);
  // The replica has not applied A's write yet (1 s behind): nil; a write there is refused by Redis.
  await drawer.getByTestId('console.node').selectOption('r2');
  await drawer.getByTestId('console.input').fill('GET lock');
  await drawer.getByTestId('console.input').press('Enter');
  await expect(drawer.getByTestId('console.reply').last()).toHaveText('(nil)');
  await drawer.getByTestId('console.input').fill('SET lock x');
  await drawer.getByTestId('console.input').press('Enter');
  await expect(drawer.getByTestId('console.reply').last()).toContainText('READONLY');
  expect((await app.state()).schedule).toBe('A $@r1|GET|lock $@r2|GET|lock $@r2|SET|lock|x');
  await expect(page.getByTestId('timeline.row.console')).toBeVisible();
});
