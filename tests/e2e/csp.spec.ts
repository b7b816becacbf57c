import { expect, test, type LockstepPage } from './fixtures';

// Goal: the built page runs under its strict Content Security Policy (vite.config.ts, `directives`:
// no 'unsafe-inline', no 'unsafe-eval', workers and the service worker from the page's origin) with
// nothing refused. The policy arrives both as the preview server's header (with
// `frame-ancestors *`, so the embed stays open to any course page) and as a <meta> in the page
// (for hosts that cannot set headers). A person's tour touches every part that loads or injects
// something: the Lua engine, the outcomes and explorer workers, the workbench's code editor, the
// console, a file download, the service worker and the embed. Any violation report fails the test.

/** Collects the page's CSP violation reports (a listener installed before any script runs). */
async function watchViolations(app: LockstepPage): Promise<() => Promise<string[]>> {
  await app.page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`));
  });
  return () => app.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test('the page answers under its strict CSP, header and meta, and refuses nothing a person uses', async ({ app }) => {
  test.slow();
  const violations = await watchViolations(app);

  await test.step('the policy comes as a header and as a meta, without unsafe-inline or unsafe-eval', async () => {
    const response = await app.page.request.get('/');
    const header = response.headers()['content-security-policy'] ?? '';
    expect(header).toContain("script-src 'self'");
    expect(header).toContain("style-src 'self'");
    expect(header).toContain('frame-ancestors *');
    expect(header).not.toMatch(/unsafe-(inline|eval)/);
    await app.open();
    const meta = await app.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(meta).toContain("script-src 'self'");
    expect(meta).not.toMatch(/unsafe-(inline|eval)|frame-ancestors/);
  });

  await test.step('a Lua run, every variant in the outcomes worker, a search in the explorer worker', async () => {
    await app.load({ scenario: 'get-then-del', variant: 'lua' });
    const report = await app.outcomes();
    expect(report.ranIn).toBe('worker');
    const found = await app.page.evaluate(async () => (await window.lockstep!.explore()).result?.violations.length ?? -1);
    expect(found).toBeGreaterThan(0);
    await app.page.keyboard.press('Escape');
  });

  await test.step('the code editor, the console and a download', async () => {
    await app.page.getByTestId('workbench-open').click();
    const drawer = app.page.getByTestId('workbench');
    await drawer.getByTestId('workbench.tab.scripts').click();
    const editor = drawer.getByTestId('workbench.script-editor').getByRole('textbox');
    await editor.fill('return redis.call("GET", KEYS[1])');
    await expect(editor).toContainText('return redis.call');
    await drawer.getByTestId('workbench.tab.console').click();
    await drawer.getByTestId('console.input').fill('SET k v');
    await drawer.getByTestId('console.input').press('Enter');
    await expect(drawer.getByTestId('console.transcript')).toContainText('OK');
    await drawer.getByTestId('workbench.tab.io').click();
    const downloading = app.page.waitForEvent('download');
    await drawer.getByTestId('io.export-file').click();
    expect((await downloading).suggestedFilename()).toMatch(/\.json$/);
  });

  await test.step('the service worker takes control', async () => {
    await app.page.waitForFunction(async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated');
  });

  expect(await violations()).toEqual([]);

  await test.step('the embed, in a page of its own', async () => {
    await app.open('#/v1/get-then-del/lua?seed=1', '?embed=1');
    await expect(app.page.getByRole('button', { name: 'Forward one step' })).toBeVisible();
    expect(await violations()).toEqual([]);
  });
});
