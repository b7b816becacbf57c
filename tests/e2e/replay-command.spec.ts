import { expect, test } from './fixtures';

// Goal: the page shows the exact CLI command that replays the run shown on a real Redis (the
// schedule up to the step shown), copies it, and says so in the reader's language.

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000';

test('the replay command follows the run shown and copies exactly', async ({ app, context, page }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await app.open(HEADLINE);
  const command = page.getByTestId('replay.command.text');
  await expect(command).toHaveText(
    'npm run sim -- replay get-then-del --variant get-then-del --seed 1 --schedule "A A A~5000 +4000 B +1000" --redis redis://127.0.0.1:6379',
  );
  await app.chooseVariant(/Lua compare-and-delete/);
  await app.button('Step back').click();
  await app.button('Step back').click();
  await expect(command).toHaveText('npm run sim -- replay get-then-del --variant lua --seed 1 --schedule "A A A~5000 +4000" --redis redis://127.0.0.1:6379');

  await page.getByTestId('replay.command').getByRole('button', { name: 'Copy command' }).click();
  await expect(page.getByTestId('replay.command.status')).toHaveText('Command copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await command.textContent());

  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.getByRole('heading', { name: '在真实 Redis 上重放' })).toBeVisible();
  await expect(page.getByTestId('replay.command').getByRole('button', { name: '复制命令' })).toBeVisible();
});
