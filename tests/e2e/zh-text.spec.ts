import { readFile } from 'node:fs/promises';
import { expect, test, type LockstepPage } from './fixtures';
import { englishOnPage } from './zh-text';

// Goal: a Chinese reader meets no English prose anywhere a lesson takes them: the lesson, the
// timeline, the event log, the inspector, refusals of the engine, the node faults and the console,
// the explorer's verdicts and the variants' replays. Code, keys and values stay as they are.

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000';

async function toChinese(app: LockstepPage): Promise<void> {
  await app.page.getByRole('button', { name: '中文', exact: true }).click();
  await expect(app.page.locator('html')).toHaveAttribute('lang', 'zh-CN');
}

async function expectNoEnglish(app: LockstepPage, where: string): Promise<void> {
  const found = await englishOnPage(app.page);
  expect(found.map((f) => `${f.where}: ${f.text}`), `English on the Chinese page (${where})`).toEqual([]);
}

test('the Chinese page: a lesson at its violation, every run view', async ({ app, page }) => {
  test.slow();
  await app.open(HEADLINE);
  await toChinese(app);
  await expect(app.banner).toContainText('A 删除了 B 的锁');
  await expectNoEnglish(app, 'timeline');
  for (const tab of await page.getByRole('tab').all()) {
    await tab.click();
    await expectNoEnglish(app, `tab ${await tab.textContent()}`);
  }
});

test('the scanner sees English prose: the same view in English fails the check', async ({ app }) => {
  await app.open(HEADLINE);
  await expect(app.banner).toBeVisible();
  const found = await englishOnPage(app.page);
  expect(found.length, 'English prose the scanner found on the English page').toBeGreaterThan(5);
});

test('the Chinese page: the lesson, challenges, predict mode and the shortcuts', async ({ app, page }) => {
  test.slow();
  await app.open('#/v1/get-then-del/get-then-del?seed=1&at=0&predict=1');
  await toChinese(app);
  await expectNoEnglish(app, 'predict mode');
  await page.getByTestId('lesson').click();
  await expect(page.getByTestId('lesson.body')).toBeVisible();
  await expectNoEnglish(app, 'lesson open');
  await page.keyboard.press('Escape');
  await page.getByTestId('lesson').focus();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: '键盘快捷键' });
  await expect(dialog).toBeVisible();
  await expectNoEnglish(app, 'shortcuts');
});

test('the Chinese page: engine refusals in the console and the explorer with its replays', async ({ app, page }) => {
  test.slow();
  await app.open(HEADLINE.replace('.%2B1000', ''));
  await toChinese(app);
  await page.getByTestId('workbench-open').click();
  const drawer = page.getByTestId('workbench');
  await drawer.getByTestId('workbench.tab.console').click();
  await drawer.getByTestId('console.input').fill('BLPOP q 0');
  await drawer.getByTestId('console.input').press('Enter');
  await expect(drawer.getByTestId('console.entry').last()).toHaveAttribute('data-kind', 'refused');
  await expect(drawer.getByTestId('console.entry').last()).toContainText('控制台不运行 BLPOP');
  await expectNoEnglish(app, 'console refusal');
  for (const tab of await drawer.getByRole('tab').all()) {
    await tab.click();
    await expectNoEnglish(app, `workbench tab ${await tab.textContent()}`);
  }
  await page.getByTestId('workbench').getByRole('button', { name: '关闭' }).first().click();
  await page.getByTestId('explore-open').click();
  const explore = page.getByRole('dialog', { name: '找出竞态' });
  await explore.getByRole('button', { name: '搜索' }).click();
  await expect(explore.getByTestId('explore-result')).toContainText('穷尽');
  await expectNoEnglish(app, 'explorer verdict');
  // The foreign release: the Lua variant refuses its step 5 (an engine refusal, worded in Chinese).
  await explore.getByRole('button', { name: '载入出现误删他人的锁的运行' }).click();
  await expect(page.getByTestId('compare')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('compare.lua.refused')).toContainText('无法单步 A');
  await expectNoEnglish(app, 'variants replayed');
});

test('the Chinese page: a node lesson, its nodes dialog and the faults it refuses', async ({ app, page }) => {
  test.slow();
  await app.open('#/v1/failover-before-replication/async?seed=1&s=A.%2B200&at=2');
  await toChinese(app);
  await expectNoEnglish(app, 'node lesson');
  await page.getByTestId('nodes-open').click();
  await expect(page.getByTestId('node-faults.refusals')).toBeVisible();
  await expectNoEnglish(app, 'nodes dialog');
});

test('the Chinese page: a recorded history’s verdict, its problems and what it cannot tell', async ({ app, page }) => {
  test.slow();
  await app.open();
  await toChinese(app);
  await page.getByTestId('workbench-open').click();
  const drawer = page.getByTestId('workbench');
  await drawer.getByTestId('workbench.tab.io').click();
  // The foreign release of history-import.spec.ts, plus a reply out of order on one connection (a
  // problem the checker words) and a RENAME of the lock key (something the recording cannot tell).
  const incident = await readFile(new URL('./fixtures/foreign-release.jsonl', import.meta.url), 'utf8');
  const T = 1_700_000_000_000;
  const extra = [
    { client: 'worker-b', argv: ['GET', 'report'], reply: null, startMs: 262, endMs: 263, startWallMs: T + 262, endWallMs: T + 263 },
    { client: 'worker-b', argv: ['GET', 'report'], reply: null, startMs: 255, endMs: 256, startWallMs: T + 264, endWallMs: T + 265 },
    { client: 'worker-c', argv: ['RENAME', 'lock', 'old-lock'], reply: 'OK', startMs: 300, endMs: 301, startWallMs: T + 300, endWallMs: T + 301 },
  ].map((line) => JSON.stringify(line));
  const text = `${incident.trimEnd()}\n${extra.join('\n')}\n`;
  await drawer.getByTestId('io.import-input').setInputFiles({ name: 'incident.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(text) });
  const history = page.getByTestId('history');
  await expect(history).toHaveAttribute('data-status', 'done');
  await expect(history.getByTestId('history.violation').filter({ hasText: '释放了别人的锁' })).toContainText('worker-a 删除了 worker-b 的锁');
  await expect(history.getByTestId('history.problems')).toContainText('早于同一连接上前一个回复');
  await expect(history.getByTestId('history.unknowns')).toContainText('对锁的键执行了 RENAME');
  await expectNoEnglish(app, 'history dialog');
});
