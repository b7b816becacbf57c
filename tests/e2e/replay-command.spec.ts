import { startRealRedis, type RealRedis } from '../support/real-redis';
import { runSim } from '../support/run-sim';
import { expect, test } from './fixtures';

// Goal: the header's "Replay on a real Redis" dialog shows the exact CLI command for the run shown
// (the schedule up to the step shown), copies it, speaks the reader's language, and adds no row
// to the page; and that command, run by the CLI against a real redis-server, replays the same run
// (same scenario, variant, seed and schedule, every reply matched, the page's violations).

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000';

/** Splits the shown command as a POSIX shell would (its only quoting is double quotes around the schedule). */
function shellWords(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

let redis: RealRedis;
test.beforeAll(async () => {
  redis = await startRealRedis();
});
test.afterAll(async () => {
  await redis?.stop();
});

test('the replay command follows the run shown, copies exactly, and adds no row', async ({ app, context, page }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await app.open(HEADLINE);
  await app.chooseVariant(/Lua compare-and-delete/);
  await app.button('Back one step').click();
  await app.button('Back one step').click();
  await page.getByRole('button', { name: 'Replay on a real Redis' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replay on a real Redis' });
  await expect(dialog).toBeVisible();
  const command = page.getByTestId('replay.command.text');
  await expect(command).toHaveText('npm run sim -- replay get-then-del --variant lua --seed 1 --schedule "A A A~5000 +4000" --redis redis://127.0.0.1:6379');

  await dialog.getByRole('button', { name: 'Copy command' }).click();
  await expect(page.getByTestId('replay.command.status')).toHaveText('Command copied');
  await app.screenshot('replay-dialog');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await command.textContent());

  // The dialog is modal: the page under it keeps its size (no scroll at 1280x720).
  expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('button', { name: '在真实 Redis 上重放' }).click();
  await expect(page.getByRole('dialog', { name: '在真实 Redis 上重放' }).getByRole('button', { name: '复制命令' })).toBeVisible();
});

test('the command shown replays the same run on a real redis-server', async ({ app, page }) => {
  test.slow();
  await app.open(HEADLINE);
  const pageViolations = await app.violations();
  await page.getByRole('button', { name: 'Replay on a real Redis' }).click();
  const shown = (await page.getByTestId('replay.command.text').textContent()) ?? '';
  const words = shellWords(shown);
  expect(words.slice(0, 4)).toEqual(['npm', 'run', 'sim', '--']);
  const args = words.slice(4);
  const at = args.indexOf('--redis');
  expect(at).toBeGreaterThan(0);
  // Only the server changes: the test's private redis-server instead of the example address.
  args[at + 1] = `redis://127.0.0.1:${redis.port}`;
  const { status, stdout, stderr } = await runSim([...args, '--json']);
  expect(stderr).not.toMatch(/lockstep:/);
  expect(status).toBe(0);
  const report = JSON.parse(stdout) as {
    scenario: string;
    variant: string;
    seed: number;
    schedule: string;
    firstDivergence: number | null;
    verdicts: { simulation: { kind: string; step: number }[]; real: { violations: { kind: string; step: number }[]; complete: boolean } };
    cleanup: { left: string[] } | null;
  };
  expect([report.scenario, report.variant, report.seed, report.schedule]).toEqual(['get-then-del', 'get-then-del', 1, 'A A A~5000 +4000 B +1000']);
  expect(report.firstDivergence).toBeNull();
  expect(report.verdicts.real.complete).toBe(true);
  const kinds = pageViolations.map((v) => [v.kind, v.step]);
  expect(kinds.length).toBeGreaterThan(0);
  expect(report.verdicts.simulation.map((v) => [v.kind, v.step])).toEqual(kinds);
  expect(report.verdicts.real.violations.map((v) => [v.kind, v.step])).toEqual(kinds);
  expect(report.cleanup?.left).toEqual([]);
});
