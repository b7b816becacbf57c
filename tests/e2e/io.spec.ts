import { readFile } from 'node:fs/promises';
import type { Locator } from '@playwright/test';
import { expect, test, type LockstepPage } from './fixtures';

// Goal: a scenario in and out of the page as a person does it, through the automation contract
// (docs/AUTOMATION.md): export a saved scenario, delete it, import the file and find it again; read
// why a broken file was refused (every problem with its path); open an edited scenario from its
// link in a fresh page; download a run as regression tests; and a huge import (a 1 MB value,
// 10,000 keys, a 5,000-step schedule) leaves the page answering.

async function ioPanel(app: LockstepPage): Promise<Locator> {
  await app.page.getByTestId('workbench-open').click();
  const drawer = app.page.getByTestId('workbench');
  await drawer.getByTestId('workbench.tab.io').click();
  await expect(drawer.getByTestId('io')).toBeVisible();
  return drawer;
}

async function importText(drawer: Locator, name: string, text: string): Promise<void> {
  await drawer.getByTestId('io.import-input').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

test('export a saved scenario, delete it, import the file, find it again; a broken file says why', async ({ app }) => {
  test.slow();
  await app.open();
  await app.load({ scenario: 'get-then-del', variant: 'lua' });
  const drawer = await ioPanel(app);
  await drawer.getByTestId('workbench.tab.mine').click();
  await drawer.getByTestId('my-scenario-name').fill('Lua release');
  await drawer.getByTestId('my-scenario-save').click();
  await drawer.getByTestId('my-scenario-row.my-1').getByRole('button', { name: 'Open' }).click();

  await drawer.getByTestId('workbench.tab.io').click();
  const downloading = app.page.waitForEvent('download');
  await drawer.getByTestId('io.export-file').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('lockstep-my-1.json');
  const text = await readFile((await download.path()) ?? '', 'utf8');
  expect(JSON.parse(text)).toMatchObject({ format: 'lockstep-scenario', version: 1, name: 'Lua release', run: { variant: 'lua', seed: 1 } });

  await drawer.getByTestId('workbench.tab.mine').click();
  await drawer.getByTestId('my-scenario-row.my-1').getByRole('button', { name: 'Delete' }).click();
  await expect(drawer.getByTestId('my-scenario-row.my-1')).toHaveCount(0);

  await drawer.getByTestId('workbench.tab.io').click();
  await importText(drawer, 'lockstep-my-1.json', text);
  await expect(drawer.getByTestId('io.import-result')).toHaveAttribute('data-status', 'imported');
  await expect(app.page.getByRole('heading', { level: 1 })).toHaveText('Lua release');
  await app.page.getByTestId('workbench-close').click();
  await app.page.getByTestId('scenario-picker').click();
  await expect(app.page.getByTestId('scenario-menu.mine')).toContainText('Lua release');
  await app.page.keyboard.press('Escape');

  await test.step('the same file again: asked, and Cancel changes nothing', async () => {
    const again = await ioPanel(app);
    await importText(again, 'lockstep-my-1.json', text);
    await expect(again.getByTestId('io.import-result')).toHaveAttribute('data-status', 'clash');
    await again.getByTestId('io.clash-cancel').click();
    await again.getByTestId('workbench.tab.mine').click();
    await expect(again.getByTestId('my-scenarios').getByRole('listitem')).toHaveCount(1);
  });

  await test.step('a broken file: every problem with its path, shown as text', async () => {
    const drawer2 = app.page.getByTestId('workbench');
    await drawer2.getByTestId('workbench.tab.io').click();
    const broken = JSON.parse(text) as { definition: { variants: { clients: { program: unknown[] }[] }[] } };
    broken.definition.variants[0].clients[0].program[0] = { op: 'goto', goto: '<img src=x onerror=alert(1)>' };
    await importText(drawer2, '<b>broken</b>.json', JSON.stringify({ ...broken, seed: 3 }));
    const result = drawer2.getByTestId('io.import-result');
    await expect(result).toHaveAttribute('data-status', 'invalid');
    await expect(result).toContainText('<b>broken</b>.json was not imported');
    await expect(drawer2.getByTestId('io.import-problems')).toContainText('seed unknown field "seed"');
    await expect(drawer2.getByTestId('io.import-problems')).toContainText('definition.variants[0].clients[0].program[0].goto');
    await expect(result.locator('img, b')).toHaveCount(0);
  });
});

test('an edited scenario\'s link opens the edited scenario in a fresh page; a broken one explains and keeps the run', async ({ app }) => {
  await app.open();
  // A scenario only this page knows (as an edited or saved one): one client takes the lock.
  const mine = {
    version: 1,
    id: 'orders-lock',
    title: 'Orders lock',
    variants: [{ id: 'v', clients: [{ id: 'A', program: [{ op: 'command', argv: ['SET', 'orders', '${token}', 'NX', 'PX', '5000'] }] }] }],
  };
  await app.load({ definition: mine, schedule: 'A' });
  const drawer = await ioPanel(app);
  await expect(drawer.getByTestId('io.link')).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => app.page.evaluate(() => window.location.hash)).toContain('&def=');
  const hash = await app.page.evaluate(() => window.location.hash);
  const edited = await app.state();

  await app.open(hash);
  await expect.poll(async () => (await app.state()).scenario).toBe('orders-lock');
  await expect(app.page.getByRole('heading', { level: 1 })).toHaveText('Orders lock');
  expect((await app.state()).schedule).toBe(edited.schedule);
  await expect(app.page.getByTestId('link-error')).toHaveCount(0);

  const cut = hash.slice(0, -20);
  await app.page.evaluate((h) => {
    window.location.hash = h;
  }, cut);
  await expect(app.page.getByTestId('link-error')).toContainText('The scenario this link carries is not valid');
  await expect(app.page.getByTestId('link-error')).toContainText('Your run stays on screen');
  expect((await app.state()).scenario).toBe('orders-lock');
});

test('a run downloads as a Vitest test and a Playwright spec', async ({ app }) => {
  await app.open();
  await app.load({ scenario: 'get-then-del', variant: 'get-then-del' });
  const drawer = await ioPanel(app);
  for (const [id, name, needle] of [
    ['io.export-vitest', 'get-then-del.test.ts', "import { simulate } from 'lockstep';"],
    ['io.export-playwright', 'get-then-del.spec.ts', "import { test, expect } from 'lockstep/playwright';"],
  ] as const) {
    const downloading = app.page.waitForEvent('download');
    await drawer.getByTestId(id).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(name);
    const text = await readFile((await download.path()) ?? '', 'utf8');
    expect(text).toContain(needle);
    expect(text).toContain('["foreign-release", 5]');
  }
});

test('a huge import (1 MB value, 10,000 keys, 5,000-step schedule) loads and the page keeps answering', async ({ app }) => {
  test.slow();
  await app.open();
  const file = {
    format: 'lockstep-scenario',
    version: 1,
    name: 'Huge',
    run: { variant: 'v', seed: 1, schedule: ['A', ...Array.from({ length: 4_999 }, () => '+1')].join(' ') },
    definition: {
      version: 1,
      id: 'huge',
      scripts: { fill: { source: "for i = 1, 10000 do redis.call('SET', 'k:' .. i, i) end\nredis.call('SET', 'big', string.rep('x', 1048576))\nreturn 1" } },
      variants: [{ id: 'v', clients: [{ id: 'A', program: [{ op: 'eval', script: 'fill', keys: [], args: [] }, { op: 'sleep', durationMs: 86_400_000 }] }] }],
    },
  };
  const drawer = await ioPanel(app);
  await importText(drawer, 'huge.json', JSON.stringify(file));
  await expect(drawer.getByTestId('io.import-result')).toHaveAttribute('data-status', 'imported', { timeout: 120_000 });
  await app.page.getByTestId('workbench-close').click();
  await expect(app.page.getByTestId('inspector.more')).toContainText(/and 9,?801 more keys/);
  const state = await app.state();
  expect([state.length, state.keys.length]).toEqual([5_000, 10_001]);
  // The page still answers: a step back is taken and shown.
  await app.page.getByRole('button', { name: 'Back one step', exact: true }).click();
  await expect.poll(async () => (await app.state()).cursor).toBe(4_999);
});
