import { expect, test } from './fixtures';

// Goal: the README's first command works: under `npm run dev` (Vite's dev server, whose
// pre-bundled dependencies differ from the production build) the page boots, runs Lua in the
// engine, and the worker answers too.

test('the dev server runs the headline lesson, Lua included', async ({ app }) => {
  // The dev server transforms every module, the worker's too, on its first request.
  test.slow();
  const errors: string[] = [];
  app.page.on('pageerror', (error) => errors.push(error.message));
  await app.open();
  // A is paused inside its critical section past its lease; B takes the lock; A's script then
  // finds B's token and answers 0 (Lua ran in the page).
  await app.load({ scenario: 'get-then-del', variant: 'lua', schedule: 'A A~6000 +5500 B +1000' });
  const trace = await app.trace();
  const release = trace.events.find((e) => e.kind === 'command' && e.clientId === 'A' && e.argv[0] === 'EVAL');
  expect(release && release.kind === 'command' ? release.reply : null).toEqual({ type: 'integer', value: '0' });
  await expect(app.key('lock')).toContainText("B's token");
  const report = await app.outcomes();
  expect(report.ranIn).toBe('worker');
  expect(report.outcomes.find((o) => o.variantId === 'get-then-del')?.violations.length).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});
