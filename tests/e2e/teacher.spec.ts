import { expect, test } from './fixtures';

// Goal: the headline lesson as a teacher runs it on a projector. Pick "GET then DEL", take the
// lock with A, let A read the lock and freeze, pause A a little longer with the lane's stall
// control, let the lease run out, let B acquire, resume A: A deletes B's lock. Then the Lua
// release, in place, on the same schedule: B keeps its lock.

test('GET then DEL: A deletes B’s lock; with Lua, B keeps it', async ({ app }) => {
  // A whole lesson, about thirty clicks and checks in one story: room for a busy machine.
  test.slow();
  await app.open();

  await test.step('pick the scenario', async () => {
    await app.chooseScenario(/GET then DEL/);
    await expect(app.page.getByRole('heading', { level: 1 })).toHaveText(/GET then DEL/);
    await expect(app.position).toHaveText('Step 0 / 5');
    await expect(app.noViolations).toBeVisible();
  });

  await test.step('A takes the lock', async () => {
    await app.stepClient('A');
    await expect(app.key('lock')).toContainText("A's token");
    await expect(app.laneStatus('A')).toHaveText(/working until t=2000/);
    await expect(app.lane('A').getByTestId('lane.A.belief')).toHaveText('thinks it holds the lock');
  });

  await test.step('A reads the lock, freezes before DEL, and is paused a little longer', async () => {
    await app.stepClient('A');
    await expect(app.laneStatus('A')).toHaveText(/GC pause until t=8000/);
    await expect(app.lane('A').getByTestId('lane.A.current')).toContainText('DEL lock');
    await app.pauseClient('A', 1000);
    await expect(app.laneStatus('A')).toHaveText(/paused until t=9000/);
  });

  await test.step('the lease runs out', async () => {
    await app.button(/^Next expiry/).click();
    await expect(app.clock).toHaveText('t = 5001 ms');
    await expect(app.key('lock')).toContainText('expired');
    await expect(app.page.getByTestId('lock-truth.redis')).toContainText('free');
    await expect(app.page.getByTestId('lock-truth.clients')).toContainText('A believes it holds it');
  });

  await test.step('B acquires, A resumes and deletes B’s lock', async () => {
    await app.stepClient('B');
    await expect(app.key('lock')).toContainText("B's token");
    await app.stepClient('A');
    await expect(app.banner).toContainText("A deleted B's lock");
    await expect(app.key('lock')).toContainText('deleted');
    await expect(app.page.getByTestId('lock-truth.clients')).toContainText('B believes it holds it');
    await app.screenshot('light-violation');
  });

  await test.step('the banner links to the step', async () => {
    await app.page.getByRole('button', { name: 'Step back' }).click();
    await expect(app.banner).toBeHidden();
    await app.button('Step forward').click();
    await expect(app.banner).toBeVisible();
    const violations = await app.violations();
    expect(violations.map((v) => v.kind)).toEqual(['foreign-release']);
    await app.page.getByRole('button', { name: `Go to step ${violations[0].step + 1}` }).click();
    await expect(app.position).toHaveText(`Step ${violations[0].step + 1} / 6`);
  });

  await test.step('the Lua release, same schedule: B keeps its lock', async () => {
    const before = await app.state();
    await app.chooseVariant(/Lua compare-and-delete/);
    await expect(app.noViolations).toBeVisible();
    await expect(app.key('lock')).toContainText("B's token");
    await expect(app.page.getByTestId('lock-truth.redis')).toContainText('B holds it');
    const after = await app.state();
    expect(after.variant).toBe('lua');
    expect(after.schedule).toBe(before.schedule);
    expect(after.cursor).toBe(before.cursor);
    await expect(app.page.getByTestId('variant.get-then-del.outcome')).toContainText('foreign release at step');
    await app.screenshot('light-lua');
  });
});
