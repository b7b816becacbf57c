import { expect, test } from './fixtures';

// Goal: a teacher clicks "Find a race" and the machine finds the race: the search runs in the
// explorer's Web Worker with progress, can be cancelled, loads the shortest violating run into the
// timeline at step 0 ready to step through, and says what it proved (within what) for a fix.

const HEADLINE = '#/v1/get-then-del/get-then-del?seed=1&s=A.A.A~5000.%2B4000.B.%2B1000&at=0';

test('finds the foreign release and loads it, ready to step through', async ({ app, page }) => {
  // A search in a worker plus page loads: slow on a loaded 2-core machine (docs/TESTING.md).
  test.slow();
  await app.open(HEADLINE);
  await app.button('Find a race').click();
  const dialog = page.getByRole('dialog', { name: 'Find a race' });
  await expect(dialog).toBeVisible();
  // The scenario's declared bounds are in the form: one stall of 5 s or 7 s.
  await expect(dialog.getByRole('spinbutton', { name: 'Stalls' })).toHaveValue('1');
  await expect(dialog.getByRole('textbox', { name: 'Stall lengths (ms)' })).toHaveValue('5000, 7000');
  await dialog.getByRole('button', { name: 'Search' }).click();
  const result = dialog.getByTestId('explore-result');
  await expect(result).toContainText('Found two holders in 4 choices: A A~7000 +5001 B');
  await expect(result).toContainText('Found foreign release in 5 choices: A A B A~5000 A');
  await expect(result).toContainText('exhaustive.');
  // The shortest run is loaded at step 0; load the foreign release's instead and step through it.
  expect((await app.state()).schedule).toBe('A A~7000 +5001 B');
  await dialog.getByRole('button', { name: 'Load the run with foreign release' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(app.position).toHaveText('Step 0 / 5');
  expect((await app.state()).schedule).toBe('A A B A~5000 A');
  for (let i = 1; i <= 5; i++) await app.button('Forward one step').click();
  await expect(app.position).toHaveText('Step 5 / 5');
  await expect(app.banner).toBeVisible();
  expect((await app.violations()).map((v) => v.kind)).toContain('foreign-release');
});

test('several Redis nodes: the failover found with a node fault of the declared budget, loaded at step 0', async ({ app, page }) => {
  // A search in a worker plus page loads: slow on a loaded 2-core machine (docs/TESTING.md).
  test.slow();
  await app.open('#/v1/failover-before-replication/async?seed=1&s=&at=0');
  await app.button('Find a race').click();
  const dialog = page.getByRole('dialog', { name: 'Find a race' });
  await dialog.getByRole('button', { name: 'Search' }).click();
  const result = dialog.getByTestId('explore-result');
  await expect(result).toContainText('Found two holders in 3 choices: A @r2^ B');
  await expect(result).toContainText('at most 1 promotion of a replica');
  await expect(result).toContainText('not exhaustive');
  expect((await app.state()).schedule).toBe('A @r2^ B');
});

test('the Lua release: an exhaustive bounded verdict beside the variant toggle', async ({ app, page }) => {
  // A search in a worker plus page loads: slow on a loaded 2-core machine (docs/TESTING.md).
  test.slow();
  await app.open(HEADLINE);
  await app.chooseVariant(/Lua compare-and-delete/);
  await app.button('Find a race').click();
  const dialog = page.getByRole('dialog', { name: 'Find a race' });
  await dialog.getByRole('button', { name: 'Search' }).click();
  await expect(dialog.getByTestId('explore-result')).toContainText(
    /No violation of foreign release, .* within schedules of at most 24 choices, at most 1 stall of 5 s or 7 s, .*: \d+ states, \d+ transitions, exhaustive\./,
  );
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('explore-verdict')).toContainText('exhaustive.');
});

test('a long search shows progress and can be cancelled; the verdict says so', async ({ app, page }) => {
  // A search in a worker plus page loads: slow on a loaded 2-core machine (docs/TESTING.md).
  test.slow();
  await app.open('#/v1/retry-and-backoff/spin?seed=1&s=&at=0');
  await app.button('Find a race').click();
  const dialog = page.getByRole('dialog', { name: 'Find a race' });
  await dialog.getByRole('spinbutton', { name: 'Depth (choices)' }).fill('40');
  await dialog.getByRole('button', { name: 'Search' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Search progress' })).toBeVisible();
  await expect(dialog.getByTestId('explore-progress')).toContainText(/[1-9][0-9,]* states/);
  await dialog.getByRole('button', { name: 'Cancel search' }).click();
  await expect(dialog.getByTestId('explore-result')).toContainText(/not exhaustive: cancelled\./);
});

test('window.lockstep.explore runs the same search and loads what it found', async ({ app, page }) => {
  // A search in a worker plus page loads: slow on a loaded 2-core machine (docs/TESTING.md).
  test.slow();
  await app.open(HEADLINE);
  const outcome = await page.evaluate(() => window.lockstep!.explore({ stalls: 1, stallLengthsMs: [5000] }));
  expect(outcome.result?.violations.map((v) => v.kind)).toEqual(['foreign-release']);
  expect(outcome.result?.exhaustive).toBe(true);
  expect((await app.state()).schedule).toBe(outcome.result?.violations[0].schedule);
});
