import { Mutex } from 'redis-semaphore';
import { expect, test } from './fixtures';
import { runFileOf, simulate, type AsyncClientCode, type LockstepRedis } from '../../src/api';
import { formatScenarioFile } from '../../src/definition/file';

// Goal: a run the Node API found in an unmodified npm library opens on the page (issue 24, item 5).
// The file is generated here, with the Node API (redis-semaphore's Mutex, its refresh frozen by a
// stall of A's process), and imported as a person does it: it lands in My scenarios, the timeline
// shows the recorded run, the banner the violation the run had, and the lanes the refresh helper.

type MutexClient = ConstructorParameters<typeof Mutex>[0];

const job: AsyncClientCode = async (redis: LockstepRedis, ctx) => {
  const mutex = new Mutex(redis as unknown as MutexClient, 'lock', { lockTimeout: 1000, refreshInterval: 400, acquireTimeout: 10_000, retryInterval: 100, onLockLost: () => undefined });
  await mutex.acquire();
  ctx.enter();
  await ctx.work(1200);
  ctx.leave();
  await mutex.release();
};

test('a redis-semaphore run found by the Node API opens on the timeline, its violation in the banner', async ({ app }) => {
  test.slow();
  const result = await simulate({ clients: { A: job, B: job }, lockKey: 'mutex:lock', schedule: 'A B A~1500 +4000' });
  expect(result.violations.map((v) => v.kind)).toContain('mutual-exclusion');
  const file = runFileOf(result);

  await app.open();
  await app.page.getByTestId('workbench-open').click();
  const drawer = app.page.getByTestId('workbench');
  await drawer.getByTestId('workbench.tab.io').click();
  await drawer.getByTestId('io.import-input').setInputFiles({ name: 'mutex-run.json', mimeType: 'application/json', buffer: Buffer.from(formatScenarioFile(file)) });
  await expect(drawer.getByTestId('io.import-result')).toHaveAttribute('data-status', 'imported');
  await expect(app.page.getByRole('heading', { level: 1 })).toHaveText(file.name);
  await app.page.getByTestId('workbench-close').click();

  // To the end of the recorded run: the violation the library's run had is the banner's.
  const choices = file.run.schedule.split(' ').length;
  await app.page.getByRole('slider', { name: 'Position in the run' }).fill(String(choices));
  await expect(app.position).toHaveText(`Step ${choices} / ${choices}`);
  await expect(app.banner).toBeVisible();
  await expect(app.banner).toContainText('entered the critical section while');
  await expect(app.lane('A')).toBeVisible();
  await expect(app.lane('B')).toBeVisible();
  const refresh = file.definition.variants[0].clients.find((c) => c.startedBy === 'A');
  expect(refresh).toBeDefined();
  await expect(app.lane(refresh?.id ?? '')).toBeVisible();
});
