import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';

// Goal: an engineer imports a recorded history (docs/HISTORIES.md) through the Import panel's file
// input and reads it read-only, as the automation contract (docs/AUTOMATION.md) documents it: the
// history is checked in a worker, the dialog names the file, the foreign release is certain with
// its evidence lines, each client has a lane, the lock key's commands sit on the Redis row, the
// evidence is marked on the lanes, and closing it leaves the run on screen as it was.

test('a history with a foreign release: the verdict, its evidence and the lanes', async ({ app }) => {
  test.slow();
  await app.open();
  await app.load({ scenario: 'get-then-del' });
  const heading = await app.page.getByRole('heading', { level: 1 }).textContent();
  await app.page.getByTestId('workbench-open').click();
  const drawer = app.page.getByTestId('workbench');
  await drawer.getByTestId('workbench.tab.io').click();
  await expect(drawer.getByTestId('io')).toBeVisible();

  const text = await readFile(new URL('./fixtures/foreign-release.jsonl', import.meta.url), 'utf8');
  // The check runs off the page's thread: an instance of the engine worker started for it (the
  // outcomes' instance started long before; the event waits for a new one).
  const worker = app.page.waitForEvent('worker', { predicate: (w) => w.url().includes('engine.worker') });
  await drawer.getByTestId('io.import-input').setInputFiles({ name: 'incident.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(text) });
  await worker;

  const history = app.page.getByTestId('history');
  await expect(history).toHaveAttribute('data-status', 'done');
  await expect(history.getByRole('heading', { name: 'History: incident.jsonl' })).toBeVisible();
  await expect(history.getByTestId('history.summary')).toContainText('lock key: lock');

  const verdict = history.getByTestId('history.verdict');
  const foreign = verdict.getByTestId('history.violation').filter({ hasText: 'Foreign release' });
  await expect(foreign).toHaveAttribute('data-kind', 'foreign-release');
  await expect(foreign).toHaveAttribute('data-certainty', 'certain');
  await expect(foreign.getByTestId('history.evidence')).toHaveText(['4: worker-b: SET lock b1 NX PX 100 -> OK', '5: worker-a: DEL lock -> (integer) 1']);

  await expect(history.getByTestId('history.lane.worker-a')).toHaveAttribute('data-events', '3');
  await expect(history.getByTestId('history.lane.worker-b')).toHaveAttribute('data-events', '2');
  await expect(history.getByTestId('history.redis')).toHaveAttribute('data-events', '3');
  await expect(history.getByTestId('history.lane.worker-a').getByTestId('history.event.5')).toHaveAttribute('data-violation', 'true');
  await expect(history.getByTestId('history.lane.worker-a').getByTestId('history.event.3')).toHaveAttribute('data-violation', 'false');

  await history.getByTestId('history.close').click();
  await expect(history).toBeHidden();
  await expect(app.page.getByRole('heading', { level: 1 })).toHaveText(heading ?? '');
});
