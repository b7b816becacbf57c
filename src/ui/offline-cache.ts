/**
 * Offline use (docs/DEPLOY.md, "Offline"). The service worker precaches what a first visit loads;
 * a part opened on demand (the workbench, the explorer, a dialog) is cached by it the first time it
 * loads through it (vite.config.ts, `runtimeCaching`), so it too works offline from then on.
 *
 * What this visit loaded before the service worker took control never passed through it: once it
 * controls the page, each such file the caches lack is fetched again through it (an HTTP cache hit
 * on most hosts), so a link's scenario file or a dialog opened early works offline too.
 */
export async function keepWhatLoaded(): Promise<void> {
  if (typeof caches === 'undefined') return;
  await navigator.serviceWorker.ready;
  if (navigator.serviceWorker.controller === null) {
    // It claims the page on activation; after a hard reload it never does, and this waits in vain.
    await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  }
  const assets = new URL('./assets/', document.baseURI).href;
  const urls = new Set(
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((url) => url.startsWith(assets)),
  );
  for (const url of urls) {
    // The precache keys some files with a revision query: any query counts as held.
    if ((await caches.match(url, { ignoreSearch: true })) !== undefined) continue;
    await fetch(url);
  }
}
