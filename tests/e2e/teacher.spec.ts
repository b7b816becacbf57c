import { expect, test } from './fixtures';

// Goal: the headline lesson exactly as the README's "The headline demonstration, on the page"
// tells a teacher to run it: pick "GET then DEL", Step A, Step A, Pause A 5000 ms, Advance 4000 ms,
// Step B, Advance 1000 ms: A deletes B's lock. Then the Lua release, in place, on the same
// schedule: no violation.

test('GET then DEL: A deletes B’s lock; with Lua, the same schedule is safe', { tag: '@smoke' }, async ({ app }) => {
  // A whole lesson, about thirty clicks and checks in one story: room for a busy machine.
  test.slow();
  await app.open();

  await test.step('1. pick the scenario', async () => {
    await app.chooseScenario(/GET then DEL/);
    await expect(app.page.getByRole('heading', { level: 1 })).toHaveText(/GET then DEL/);
    await expect(app.position).toHaveText('Step 0 / 6');
    await expect(app.noViolations).toBeVisible();
  });

  await test.step('2. Step A: A takes the lock and starts 2 s of work', async () => {
    await app.stepClient('A');
    await expect(app.key('lock')).toContainText("A's token");
    await expect(app.laneStatus('A')).toHaveText(/working until t=2000/);
    await expect(app.lane('A').getByTestId('lane.A.belief')).toHaveText('thinks it holds the lock');
  });

  await test.step('3. Step A: at t=2000 A reads its own token and stands before its DEL', async () => {
    await app.stepClient('A');
    await expect(app.clock).toHaveText('t = 2000 ms');
    await expect(app.laneStatus('A')).toHaveText('ready');
    await expect(app.lane('A').getByTestId('lane.A.current')).toContainText('DEL lock');
  });

  await test.step('4. Pause A for 5000 ms: its process freezes until t=7000', async () => {
    await app.pauseClient('A', 5000);
    await expect(app.laneStatus('A')).toHaveText(/process paused until t=7000/);
    const [a, b] = (await app.state()).clients;
    expect([a.stalledUntilMs, b.stalledUntilMs]).toEqual([7000, null]);
  });

  await test.step('5. Advance 4000 ms: Redis drops A’s lock after t=5000', async () => {
    await app.advanceClock(4000);
    await expect(app.clock).toHaveText('t = 6000 ms');
    await expect(app.key('lock')).toContainText('expired');
    await expect(app.page.getByTestId('lock-truth.redis')).toContainText('free');
    await expect(app.page.getByTestId('lock-truth.clients')).toContainText('A believes it holds it');
  });

  await test.step('6. Step B: B takes the free lock', async () => {
    await app.stepClient('B');
    await expect(app.key('lock')).toContainText("B's token");
  });

  await test.step('7. Advance 1000 ms: at t=7000 A wakes and deletes B’s lock', async () => {
    await app.advanceClock(1000);
    await expect(app.banner).toContainText("A deleted B's lock");
    await expect(app.clock).toHaveText('t = 7000 ms');
    await expect(app.page.getByTestId('lock-truth.clients')).toContainText('B believes it holds it');
    await app.screenshot('light-violation');
  });

  await test.step('the banner links to the step', async () => {
    await app.page.getByRole('button', { name: 'Back one step' }).click();
    await expect(app.banner).toBeHidden();
    await app.button('Forward one step').click();
    await expect(app.banner).toBeVisible();
    const violations = await app.violations();
    expect(violations.map((v) => v.kind)).toEqual(['foreign-release']);
    await app.page.getByRole('button', { name: `Go to step ${violations[0].step + 1}` }).click();
    await expect(app.position).toHaveText(`Step ${violations[0].step + 1} / 6`);
  });

  await test.step('8. the Lua release, same schedule: no violation', async () => {
    const before = await app.state();
    expect(before.schedule).toBe('A A A~5000 +4000 B +1000');
    await app.chooseVariant(/Lua compare-and-delete/);
    await expect(app.noViolations).toBeVisible();
    const after = await app.state();
    expect(after.variant).toBe('lua');
    expect(after.schedule).toBe(before.schedule);
    expect(after.cursor).toBe(before.cursor);
    const releases = (await app.trace()).events.filter((e) => e.kind === 'command' && e.clientId === 'A' && e.releases);
    expect(releases.map((e) => e.atMs)).toEqual([2000]);
    await expect(app.page.getByTestId('variant.get-then-del.outcome')).toContainText('foreign release at step');
    await app.screenshot('light-lua');
  });
});
