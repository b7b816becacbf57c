import type { Locator } from '@playwright/test';
import { expect, test, type LockstepPage } from './fixtures';

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
