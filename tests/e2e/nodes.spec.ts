import { expect, test } from './fixtures';

// Goal: a teacher walks failover-before-replication by hand on the page: A takes the lock on the
// primary r1, r1 crashes before replicating (the Nodes dialog's buttons), the replica r2 is
// promoted, B takes the lock on it: the violation is shown, and the timeline's node rows show who
// holds the lock on which node, the replica's lag and the node that is down. Then the WAIT variant
// on the same schedule: still a violation (WAIT narrows the window, it does not close it), and
// the fencing variant: the storage refuses A's stale write.

test('failover before replication: crash r1, promote r2, B takes the lock; WAIT narrows, fencing protects', async ({ app }) => {
  test.slow();
  await app.open();
  const page = app.page;
  const nodeRow = (id: string) => page.getByTestId(`timeline.row.node.${id}`);

  await test.step('1. pick the scenario: one row per node in the timeline', async () => {
    await app.chooseScenario(/Failover before replication/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Failover before replication/);
    await expect(app.position).toHaveText('Step 0 / 6');
    await expect(nodeRow('r1')).toBeVisible();
    await expect(nodeRow('r2')).toBeVisible();
    await expect(page.getByTestId('timeline.row.redis')).toHaveCount(0);
  });

  await test.step('2. Step A: A takes the lock on the primary r1; r2 lacks the write', async () => {
    await app.stepClient('A');
    await expect(app.key('lock')).toContainText("A's token");
    await expect(nodeRow('r1').locator('[data-node-state="held"]')).toContainText("A's lock");
    await expect(nodeRow('r2').locator('[data-lag="1"]')).toContainText('missing 1 write');
  });

  await test.step('3. Advance 200 ms, then crash r1 and promote r2 from the Nodes dialog', async () => {
    await app.advanceClock(200);
    await expect(app.clock).toHaveText('t = 200 ms');
    await page.getByTestId('nodes-open').click();
    const dialog = page.getByRole('dialog', { name: 'Redis nodes and the schedule' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Crash r1' }).click();
    await expect(dialog.getByTestId('node.r1')).toHaveAttribute('data-up', 'false');
    await dialog.getByRole('button', { name: 'Promote r2' }).click();
    await expect(dialog.getByTestId('node.r2')).toHaveAttribute('data-role', 'primary');
    await expect(dialog.getByTestId('schedule-text')).toHaveValue('A +200 !@r1 @r2^');
    await expect(dialog.getByTestId('nodes-wait-truth')).toContainText('does not close it');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('nodes-open')).toHaveText(/down 1/);
    await expect(nodeRow('r1').locator('[data-node-state="down"]')).toHaveCount(1);
  });

  await test.step('4. Step B: B takes the lock on the promoted r2 while A still believes it holds it', async () => {
    await app.stepClient('B');
    await expect(app.key('lock')).toContainText("B's token");
    await expect(nodeRow('r2').locator('[data-node-state="held"]')).toContainText("B's lock");
    await expect(app.banner).toContainText('B entered the critical section while A is still in it');
    expect((await app.violations()).map((v) => v.kind)).toContain('mutual-exclusion');
  });

  await test.step('5. the WAIT variant, same faults: r3 acknowledged, r2 did not; B gets in and A writes late', async () => {
    await app.chooseVariant(/WAIT 1 after the SET/);
    await expect(nodeRow('r3')).toBeVisible();
    await expect(nodeRow('r3').locator('[data-node-state="held"]').first()).toContainText("A's lock");
    // B's WAIT is one more step in this variant; then the time A needs to write.
    await app.stepClient('B');
    await app.advanceClock(5000);
    await expect(app.banner).toContainText('B entered the critical section while A is still in it');
    const kinds = (await app.violations()).map((v) => v.kind);
    expect(kinds).toEqual(expect.arrayContaining(['mutual-exclusion', 'stale-write']));
  });

  await test.step('6. the fencing variant, same schedule: both inside, but the storage refuses A’s older token', async () => {
    await app.chooseVariant(/Fencing tokens/);
    await expect(app.banner).toBeVisible();
    const kinds = (await app.violations()).map((v) => v.kind);
    expect(kinds).toContain('mutual-exclusion');
    expect(kinds).not.toContain('stale-write');
    expect((await app.trace()).events.some((e) => e.kind === 'write' && e.clientId === 'A' && !e.accepted)).toBe(true);
  });
});
