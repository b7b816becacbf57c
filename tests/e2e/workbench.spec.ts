import type { Locator } from '@playwright/test';
import { expect, test, type LockstepPage } from './fixtures';

// Goal: what a learner does in the workbench, through the automation contract (docs/AUTOMATION.md):
// turn get-then-del's GET/compare/DEL release into the Lua compare-and-delete and watch the
// violation disappear; see a syntax error at its line before anything runs; run an endless loop
// and read the budget's BUSY-style error while the page keeps answering; type a schedule and see
// it replay or say where it is wrong; and find hostile text shown as text.

async function openWorkbench(app: LockstepPage, tab: 'scripts' | 'program' | 'schedule' | 'mine'): Promise<Locator> {
  await app.page.getByTestId('workbench-open').click();
  const drawer = app.page.getByTestId('workbench');
  await expect(drawer).toBeVisible();
  await drawer.getByTestId(`workbench.tab.${tab}`).click();
  return drawer;
}

/** Waits for the edit number `revision` to have been applied (the status region's own signal). */
async function applied(drawer: Locator, revision: number): Promise<void> {
  await expect(drawer.getByTestId('workbench-status')).toHaveAttribute('data-revision', String(revision), { timeout: 60_000 });
  await expect(drawer.getByTestId('workbench-status')).toHaveAttribute('data-status', 'idle');
}

/** A program step by its code (`code` anchored at the code's start, after the step's number). */
function step(drawer: Locator, clientId: string, code: RegExp): Locator {
  const text = new RegExp(`^\\d+${code.source.replace(/^\^/, '')}`);
  return drawer.getByTestId(new RegExp(`^workbench\\.step\\.${clientId}\\.\\d+$`)).filter({ hasText: text });
}

async function releaseWithLua(app: LockstepPage): Promise<Locator> {
  await app.open();
  await app.load({ scenario: 'get-then-del' });
  await expect(app.banner).toContainText(/deleted B/);
  const drawer = await openWorkbench(app, 'program');
  // The compare first: it reads the GET's reply, so the GET can go only after it.
  await step(drawer, 'A', /^if \$\{current\}/).getByRole('button', { name: /Remove step/ }).click();
  await applied(drawer, 1);
  await step(drawer, 'A', /^GET lock/).getByRole('button', { name: /Remove step/ }).click();
  await applied(drawer, 2);
  await step(drawer, 'A', /^DEL lock/).getByRole('combobox', { name: /Replace step \d+ with a script call/ }).selectOption('compareAndDelete');
  await applied(drawer, 3);
  return drawer;
}

test('edit get-then-del’s release into the Lua compare-and-delete: the violation disappears', { tag: '@smoke' }, async ({ app }) => {
  test.slow();
  const drawer = await releaseWithLua(app);
  await expect(app.noViolations).toBeVisible();
  await expect(app.page.getByTestId('scenario-edited')).toBeVisible();
  // The same schedule replayed; both clients got the change (they run one program).
  expect((await app.state()).schedule).toBe('A A A~5000 +4000 B +1000');
  await expect(step(drawer, 'B', /^EVAL/)).toHaveCount(0); // B's list is not the one shown
  await drawer.getByTestId('workbench.client-select').selectOption('B');
  await expect(step(drawer, 'B', /^EVAL/)).toHaveCount(1);
  // The script's last call before this step, next to the code.
  await drawer.getByTestId('workbench.tab.scripts').click();
  await expect(drawer.getByTestId('workbench.script-call')).toContainText('KEYS[1] = lock');
  // Back to the lesson: the violation is back.
  await drawer.getByTestId('workbench-discard').click();
  await expect(app.banner).toContainText(/deleted B/);
});

test('a syntax error shows at its line before running; an endless loop is stopped by the budget while the page responds', async ({ app }) => {
  test.slow();
  const drawer = await releaseWithLua(app);
  await drawer.getByTestId('workbench.tab.scripts').click();
  const editor = drawer.getByTestId('workbench.script-editor').getByRole('textbox');
  const problem = drawer.getByTestId('workbench.script-problem');
  const apply = drawer.getByTestId('workbench.script-apply');

  await test.step('a missing end: line 4, before anything runs', async () => {
    const eventsBefore = (await app.trace()).events.length;
    await editor.fill('local v = redis.call("GET", KEYS[1])\nif v == ARGV[1] then\n  return redis.call("DEL", KEYS[1])\n');
    await expect(problem).toHaveAttribute('data-line', '4');
    await expect(problem).toContainText("Line 4: ERR Error compiling script (new function): user_script:4: 'end' expected");
    await expect(apply).toBeDisabled();
    expect((await app.trace()).events.length).toBe(eventsBefore);
  });

  await test.step('an endless loop: checked off the page, stopped by the work budget', async () => {
    await editor.fill('while true do end');
    await expect(problem).toHaveAttribute('data-ok', 'true');
    await apply.click();
    const status = drawer.getByTestId('workbench-status');
    await expect(status).toHaveAttribute('data-status', 'checking');
    // The page answers while the script runs in the worker: the test API, a tab switch, the theme.
    expect((await app.state()).scenario).toBe('get-then-del-edited');
    await drawer.getByTestId('workbench.tab.schedule').click();
    await expect(drawer.getByTestId('workbench.schedule-text')).toBeVisible();
    await expect(status).toHaveAttribute('data-status', 'checking');
    await expect(status).toHaveAttribute('data-status', 'refused', { timeout: 120_000 });
    await expect(drawer.getByTestId('workbench-stops')).toContainText("client A: ERR Script exceeded Lockstep's work budget");
    // The run on the page is the last one that passed: still no violation.
    await expect(app.noViolations).toBeVisible();
  });
});

test('the schedule as text: typing replays; a bad token is marked where it is', async ({ app }) => {
  await app.open();
  await app.load({ scenario: 'get-then-del', schedule: '' });
  const drawer = await openWorkbench(app, 'schedule');
  const text = drawer.getByTestId('workbench.schedule-text');
  const problem = drawer.getByTestId('workbench.schedule-problem');
  await text.fill('A A +6000 C');
  await expect(problem).toHaveAttribute('data-ok', 'false');
  await expect(problem).toHaveAttribute('data-offset', '10');
  await expect(problem.getByTestId('workbench.schedule-bad-token')).toHaveText('C');
  expect((await app.state()).length).toBe(0);
  await text.fill('A A A~5000 +4000 B +1000');
  await expect(problem).toHaveAttribute('data-ok', 'true');
  await expect(app.position).toHaveText('Step 6 / 6');
  await expect(app.banner).toContainText(/deleted B/);
});

test('hostile text in a script, a parameter and a key value is shown as text', async ({ app }) => {
  test.slow();
  const hostile = '<img src=x onerror=alert(1)>';
  app.page.on('dialog', (dialog) => {
    throw new Error(`a dialog opened: ${dialog.message()}`);
  });
  await app.open();
  await app.load({ scenario: 'get-then-del' });
  const drawer = await openWorkbench(app, 'program');
  const field = drawer.getByTestId('workbench.param.lockKey');
  await field.fill(hostile);
  await field.press('Enter');
  await applied(drawer, 1);
  await expect(app.key(hostile)).toContainText(hostile);
  await drawer.getByTestId('workbench.tab.scripts').click();
  const editor = drawer.getByTestId('workbench.script-editor').getByRole('textbox');
  await editor.fill(`-- ${hostile}\nreturn 1`);
  await expect(editor).toContainText(hostile);
  expect(await app.page.evaluate(() => document.querySelectorAll('img[src="x"]').length)).toBe(0);
});

test('save as my scenario, reload, find it beside the lessons; delete and undo', async ({ app }) => {
  test.slow();
  const drawer = await releaseWithLua(app);
  await drawer.getByTestId('workbench.tab.mine').click();
  await drawer.getByTestId('my-scenario-name').fill('My safe release');
  await drawer.getByTestId('my-scenario-save').click();
  await expect(drawer.getByTestId('my-scenario-row.my-1')).toBeVisible();

  await test.step('reload: the scenario is listed beside the built-in ones and opens as saved', async () => {
    await app.open();
    await app.page.getByTestId('scenario-picker').click();
    await expect(app.page.getByTestId('scenario-menu.mine')).toContainText('My safe release');
    await app.page.getByTestId('my-scenario.my-1').click();
    await expect(app.page.getByRole('heading', { level: 1 })).toHaveText('My safe release');
    await expect(app.noViolations).toBeVisible();
    expect((await app.state()).schedule).toBe('A A A~5000 +4000 B +1000');
  });

  await test.step('delete, then undo', async () => {
    const reopened = await openWorkbench(app, 'mine');
    await reopened.getByTestId('my-scenario-row.my-1').getByRole('button', { name: 'Delete' }).click();
    await expect(reopened.getByTestId('my-scenario-row.my-1')).toHaveCount(0);
    await reopened.getByTestId('my-scenario-undo').getByRole('button', { name: 'Undo' }).click();
    await expect(reopened.getByTestId('my-scenario-row.my-1')).toBeVisible();
  });
});
