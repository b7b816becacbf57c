import { join } from 'node:path';
import { expect, SCREENSHOT_DIR, test } from './fixtures';

// Goal: the workbench's Properties tab through the automation contract (docs/AUTOMATION.md): on
// get-then-del, whose release deletes a lock it no longer holds, a learner adds the invariant
// "only the holder deletes", checks it in the engine worker, reads "violated" with the shortest
// schedule, and loads that schedule into the run, where the property breaks at its last choice.

test('add a property, check it: violated, with a shortest schedule that loads into the run', async ({ app }) => {
  test.slow();
  await app.open();
  await app.load({ scenario: 'get-then-del' });
  await app.page.getByTestId('workbench-open').click();
  const drawer = app.page.getByTestId('workbench');
  await expect(drawer).toBeVisible();
  await drawer.getByTestId('workbench.tab.properties').click();
  const tab = drawer.getByTestId('properties');

  await test.step('the empty state says how to add one', async () => {
    await expect(tab.getByTestId('properties.empty')).toContainText('not (clients.A.inside and clients.B.inside)');
    await expect(tab.getByTestId('properties.check')).toBeDisabled();
  });

  await test.step('a bad expression is marked at its column; a good one is added as an edit', async () => {
    await tab.getByTestId('properties.name').fill('only-holder-deletes');
    await tab.getByTestId('properties.kind').selectOption('always');
    const expression = tab.getByTestId('properties.expression');
    await expression.fill('not (event.command == "DEL"');
    await expect(tab.getByTestId('properties.expression-problem')).toHaveAttribute('data-ok', 'false');
    await expect(tab.getByTestId('properties.submit')).toBeDisabled();
    await expression.fill('not (event.command == "DEL") or lock.holder == null or lock.holder == event.client');
    await expect(tab.getByTestId('properties.expression-problem')).toHaveAttribute('data-ok', 'true');
    await tab.getByTestId('properties.submit').click();
    await expect(drawer.getByTestId('workbench-status')).toHaveAttribute('data-revision', '1', { timeout: 60_000 });
    await expect(drawer.getByTestId('workbench-status')).toHaveAttribute('data-status', 'idle');
    await expect(tab.getByTestId('properties.row.only-holder-deletes')).toContainText('always');
  });

  await test.step('check: violated, with its shortest schedule', async () => {
    await tab.getByTestId('properties.check').click();
    const verdict = tab.getByTestId('properties.verdict.only-holder-deletes');
    await expect(verdict).toHaveAttribute('data-status', 'violated', { timeout: 60_000 });
    await expect(verdict.getByTestId('properties.status.only-holder-deletes')).toHaveText('violated');
    await expect(verdict).toContainText('Property only-holder-deletes is violated in 5 choices: A A B A~5000 A');
    await expect(verdict).toContainText('at most 1 stall of 5 s or 7 s');
  });

  await test.step('a look at the tab, wide and narrow', async () => {
    await app.page.setViewportSize({ width: 1280, height: 800 });
    await app.page.screenshot({ path: join(SCREENSHOT_DIR, 'properties-tab.png') });
    await app.page.setViewportSize({ width: 390, height: 844 });
    await tab.getByTestId('properties.load.only-holder-deletes').scrollIntoViewIfNeeded();
    await expect(tab.getByTestId('properties.load.only-holder-deletes')).toBeInViewport();
    await app.page.screenshot({ path: join(SCREENSHOT_DIR, 'properties-tab-390.png') });
    await app.page.setViewportSize({ width: 1280, height: 720 });
  });

  await test.step('load: the run is that schedule at step 0, and breaks the property at its end', async () => {
    await tab.getByTestId('properties.load.only-holder-deletes').click();
    await expect.poll(async () => (await app.state()).schedule).toBe('A A B A~5000 A');
    const state = await app.state();
    expect(state.cursor).toBe(0);
    expect(state.scenario).toBe('get-then-del-edited');
    // The whole timeline (the cursor is at 0): the property breaks at the last choice.
    const trace = await app.trace();
    expect(trace.violations.at(-1)).toMatchObject({ violation: 'property', property: 'only-holder-deletes', step: 4 });
    // The verdict speaks of the same scenario, variant and seed: it stays.
    await expect(tab.getByTestId('properties.verdict.only-holder-deletes')).toHaveAttribute('data-status', 'violated');
  });
});
