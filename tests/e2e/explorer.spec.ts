import { expect, LockstepPage, test } from './fixtures';

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

test('the found foreign release on every variant: get-then-del breaks, Lua does not and parts at the release; a click loads Lua there', async ({ app, page }) => {
  // A search and two workers' replays plus page loads: slow on a loaded 2-core machine (docs/TESTING.md).
  test.slow();
  await app.open(HEADLINE);
  await app.button('Find a race').click();
  const dialog = page.getByRole('dialog', { name: 'Find a race' });
  await dialog.getByRole('button', { name: 'Search' }).click();
  await dialog.getByRole('button', { name: 'Load the run with foreign release' }).click();
  const compare = dialog.getByTestId('compare');
  await expect(compare).toHaveAttribute('data-schedule', 'A A B A~5000 A');
  await expect(compare).toHaveAttribute('data-status', 'done');
  // The variant it was found on breaks: a foreign release at step 5.
  const del = compare.getByTestId('compare.get-then-del.verdict');
  await expect(del).toHaveAttribute('data-kinds', 'foreign-release');
  await expect(del).toContainText('foreign release at step 5');
  await expect(compare.getByTestId('compare.get-then-del.divergence')).toHaveText('found on this variant');
  // Lua: no violation; its run differs at A's release (step 2: GET against the script), and it refuses step 5.
  await expect(compare.getByTestId('compare.lua.verdict')).toHaveAttribute('data-broken', 'false');
  await expect(compare.getByTestId('compare.lua.verdict')).toHaveText('✓ no violations');
  const parting = compare.getByTestId('compare.lua.divergence');
  await expect(parting).toHaveAttribute('data-step', '1');
  await expect(parting).toHaveText('step 2: A: GET lock -> "<A\'s token>" | A: EVAL compareAndDelete 1 lock <A\'s token> -> 1');
  await expect(compare.getByTestId('compare.lua.refused')).toHaveText('refuses step 5: cannot step A: it has finished');
  // DELEX the same way: no violation, parts at A's release, refuses step 5.
  await expect(compare.getByTestId('compare.delex.verdict')).toHaveAttribute('data-broken', 'false');
  await expect(compare.getByTestId('compare.delex.divergence')).toHaveAttribute('data-step', '1');
  await expect(compare.getByTestId('compare.delex.refused')).toHaveAttribute('data-step', '4');
  // One click: Lua with the same schedule (as far as it fits), at the step where the runs part.
  await compare.getByRole('button', { name: 'Show Lua compare-and-delete at step 2' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('radio', { name: 'Lua compare-and-delete' })).toBeChecked();
  await expect(app.position).toHaveText('Step 2 / 4');
  const state = await app.state();
  expect(state.schedule).toBe('A A B A~5000');
  // At that step A's script has released its own lock and A has finished.
  expect(state.clients.find((c) => c.id === 'A')?.status).toBe('done');
  expect(state.lock.value).toBeNull();
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

test('window.lockstep.explore runs the same search and loads what it found', { tag: '@smoke' }, async ({ app, page }) => {
  // A search in a worker plus page loads: slow on a loaded 2-core machine (docs/TESTING.md).
  test.slow();
  await app.open(HEADLINE);
  const outcome = await page.evaluate(() => window.lockstep!.explore({ stalls: 1, stallLengthsMs: [5000] }));
  expect(outcome.result?.violations.map((v) => v.kind)).toEqual(['foreign-release']);
  expect(outcome.result?.exhaustive).toBe(true);
  expect((await app.state()).schedule).toBe(outcome.result?.violations[0].schedule);
});

test('on three workers the page finds what one worker finds: same violations, schedules, counts and verdict', async ({ app, page, browser }) => {
  // Two pages, each with a search in workers: slow on a loaded 2-core machine (docs/TESTING.md).
  test.slow();
  type Found = { kinds: string[]; schedules: string[]; states: number; transitions: number; exhaustive: boolean; verdict: readonly string[] };
  const search = async (target: LockstepPage, cores: number): Promise<Found> => {
    // The page searches on every core but its own (navigator.hardwareConcurrency − 1).
    await target.page.addInitScript((n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }), cores);
    await target.open(HEADLINE);
    const outcome = await target.page.evaluate(() => window.lockstep!.explore({ stalls: 1, stallLengthsMs: [5000, 7000] }));
    const r = outcome.result!;
    return { kinds: r.violations.map((v) => v.kind), schedules: r.violations.map((v) => v.schedule), states: r.statesExplored, transitions: r.transitionsExplored, exhaustive: r.exhaustive, verdict: outcome.verdict };
  };
  const parallel = await search(app, 4);
  // The three explorer workers are instances of the one engine worker (plus the variants' outcomes).
  expect(page.workers().length).toBeGreaterThanOrEqual(4);
  const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const single = new LockstepPage(await context.newPage());
    await single.page.addInitScript(() => localStorage.setItem('lockstep.prefs.v1', JSON.stringify({ lang: 'en', theme: 'light', presentation: false })));
    const one = await search(single, 2);
    expect(single.page.workers().length).toBeLessThan(page.workers().length);
    expect(parallel).toEqual(one);
    expect(one.kinds.length).toBeGreaterThan(0);
  } finally {
    await context.close();
  }
});
