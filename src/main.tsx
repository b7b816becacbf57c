/**
 * The page's composition root: the only module that wires the browser (address bar, storage,
 * the worker, `window.lockstep`) to the store and renders the app.
 */
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { detectLang } from './i18n';
import { App } from './ui/App';
import { browserStorage, keepUnrestoredRun, loadPrefs, loadProgress, loadSavedRun, PROGRESS_UNREADABLE_KEY } from './ui/share/persist';
import { connectBrowser } from './ui/share/sync';
import { localMyScenarioStorage } from './ui/share/my-scenarios-storage';
import { createStoreWith } from './ui/store/create-store';
import { pageLibrary } from './ui/store/page-library';
import { SimStoreProvider } from './ui/store/context';
import { keepWhatLoaded } from './ui/offline-cache';
import { embedShowsVariants, isEmbed } from './ui/store/run-link';
import { installTestApi } from './ui/test-api';
import { afterNextFrame, createDrawLater } from './ui/components/draw-later';
import { DrawLaterContext } from './ui/components/DrawnLater';
import { deferredOutcomeService, startOnFirstRequest } from './ui/worker/deferred';
import { deferredExploreService } from './ui/worker/explore-deferred';
import type { DraftCheckService } from './ui/worker/draft-check-protocol';
import type { PropertyCheckService } from './ui/worker/property-check-protocol';
import { explorerShortestWay } from './ui/store/shortest-way';
import { createWorkerSessionHost, type SessionWorker } from './ui/store/worker-session-host';
import { startEngineWorker } from './ui/worker/engine-worker';
import './ui/styles/index.css';

// The first lesson comes with the page; every other scenario and the Lua engine load on demand
// (docs/ARCHITECTURE.md, "What the first screen loads").
const library = pageLibrary();
const storage = browserStorage();
const prefs = loadPrefs(storage);
const embed = isEmbed(window.location.search, window.location.hash);
const loadOutcomes = async () => {
  if (typeof Worker === 'function') return (await import('./ui/worker/outcomes-client')).createWorkerOutcomeService();
  // Inline, the report's runs evaluate scripts in the page: the Lua engine first.
  await library.loadLua();
  return (await import('./ui/worker/outcomes-inline')).createInlineOutcomeService();
};
// The variant report starts after the first paint: its worker is not first-screen code.
const outcomes = deferredOutcomeService(loadOutcomes);
// A found schedule compared across the variants: the same worker code in a worker of its own,
// started by the first comparison, so the variant cards' report keeps its incremental runs.
const comparer = startOnFirstRequest(deferredOutcomeService(loadOutcomes));
// The explorer's code (and its workers) loads on the first search. "Find a race" searches on every
// core but the page's (each worker a shard, merged: the same verdict whatever the count).
const loadExplorer = (parallel: boolean) => async () => {
  const { createInlineExploreService, createWorkerExploreService, defaultExploreWorkerCount } = await import('./ui/worker/explore-client');
  if (typeof Worker === 'function') return createWorkerExploreService(parallel ? defaultExploreWorkerCount(navigator.hardwareConcurrency) : 1);
  await library.loadLua();
  return createInlineExploreService();
};
const explorer = deferredExploreService(loadExplorer(true));
// "Show me the shortest way" searches in an explorer of its own (one worker, started on first use):
// it stops at the first violation, a short search.
const shortestWay = explorerShortestWay(deferredExploreService(loadExplorer(false)), library.loaded);
// The workbench's draft check (and its worker) loads with the first edit.
let draftCheckService: Promise<DraftCheckService> | null = null;
const draftChecker: DraftCheckService = {
  check: async (request) => {
    draftCheckService ??= import('./ui/worker/draft-check-client').then((m) => m.createWorkerDraftCheckService());
    return (await draftCheckService).check(request);
  },
  dispose: () => void draftCheckService?.then((service) => service.dispose()),
};
// The Properties tab's check (and its worker) loads with the first check.
let propertyCheckService: Promise<PropertyCheckService> | null = null;
const loadPropertyChecker = () => (propertyCheckService ??= import('./ui/worker/property-check-client').then((m) => m.createWorkerPropertyCheckService()));
const propertyChecker: PropertyCheckService = {
  start: (request, handlers) => void loadPropertyChecker().then((service) => service.start(request, handlers), (error: unknown) => handlers.onError(error instanceof Error ? error.message : String(error))),
  cancel: (id) => void loadPropertyChecker().then((service) => service.cancel(id)),
  dispose: () => void propertyCheckService?.then((service) => service.dispose()),
};
const savedRun = embed ? ({ kind: 'none' } as const) : loadSavedRun(storage);
const progress = embed ? null : loadProgress(storage);
const prefersDark = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;

const store = createStoreWith(library, {
  // The run to show: the link's, else (outside embeds) the last one this browser saved.
  link: window.location.hash,
  savedRun,
  // First visit (no link, nothing saved): the page shows where to start.
  landing: !embed && window.location.hash.length <= 2 && savedRun.kind === 'none',
  progress: progress?.progress,
  progressError: progress?.error ? { detail: progress.error, key: PROGRESS_UNREADABLE_KEY } : null,
  lang: prefs.lang ?? detectLang(navigator.languages),
  theme: prefs.theme ?? (prefersDark ? 'dark' : 'light'),
  presentation: prefs.presentation ?? false,
  embed,
  outcomes,
  explorer,
  comparer,
  draftChecker: typeof Worker === 'function' ? draftChecker : null,
  propertyChecker: typeof Worker === 'function' ? propertyChecker : null,
  myScenarioStorage: embed ? null : localMyScenarioStorage(window),
  shortestWay,
  embedVariants: embedShowsVariants(window.location.search, window.location.hash),
});
// A saved run that could not be restored moves aside before the current run is saved over it.
const unrestored = store.getState().linkError?.savedText;
if (unrestored !== undefined) keepUnrestoredRun(storage, unrestored);
connectBrowser(store, window, storage);
// A new run is drawn over three frames: the lanes, then the sidebar, then the clock and run views (issue 26).
const drawSidebarLater = createDrawLater(store, afterNextFrame(window));
const drawViewsLater = createDrawLater(drawSidebarLater.store, afterNextFrame(window));
const drawLaterStores = [drawSidebarLater.store, drawViewsLater.store] as const;
const { markReady } = installTestApi(store, window, async () => {
  await drawSidebarLater.drawn();
  await drawViewsLater.drawn();
});

/** Resolves once no scenario is loading for the run on screen (a link's scenario opened). */
function runShown(): Promise<void> {
  return new Promise((resolve) => {
    if (store.getState().runLoading === null) return resolve();
    const unsubscribe = store.subscribe((state) => {
      if (state.runLoading !== null) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * The run session moves into the engine worker after the first screen: from then on no step,
 * replay or script of the run runs on the page's thread (docs/ARCHITECTURE.md). Without workers
 * it stays here. Resolves once the worker has the run on screen (or the move failed).
 */
function moveSessionToWorker(): Promise<unknown> {
  if (typeof Worker !== 'function') return Promise.resolve();
  const host = createWorkerSessionHost(() => startEngineWorker('session') as unknown as SessionWorker, {
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
  });
  return store.moveSession(host).then((moved) => {
    // Runs replay in the worker, which has its own Lua engine: this thread loads Lua only for the workbench.
    if (moved) library.runElsewhere();
    else console.error('Lockstep: the run session stays on the page (the engine worker could not load the run)');
  });
}

/**
 * The service worker (offline after the first visit; the build's only, so none in the dev server)
 * is registered once the page is ready: its precache then never competes with the first screen, the
 * engine worker or the lessons. Then what this visit loaded on demand is kept for offline use too.
 */
function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker
    .register('./sw.js', { scope: './' })
    .then(keepWhatLoaded)
    .catch((error: unknown) => console.error('Lockstep: the service worker did not register, or did not keep what this visit loaded (offline use is partial)', error));
}

/** Starts what comes after the first screen, once. */
let afterFirstScreenStarted = false;
function afterFirstScreen() {
  if (afterFirstScreenStarted) return;
  afterFirstScreenStarted = true;
  void outcomes.start();
  // The session moves once a link's scenario is on screen (a loading one is this thread's to finish),
  // and the other scenarios' bodies load after: this thread then needs no Lua engine for them.
  void runShown()
    .then(moveSessionToWorker)
    .then(() => library.prepareAll())
    .then(runShown)
    .then(() => store.getState().sessionIdle())
    .then(markReady, (error: unknown) => console.error('Lockstep: loading the scenarios failed', error))
    .then(registerServiceWorker);
}

/** A tab opened in the background paints no frame: the rest loads after this long anyway. */
const afterFirstScreenWaitMsMax = 1_000;

function Ready() {
  useEffect(() => {
    // After the frame that shows the page: the worker's code loads and the report starts, and every
    // other scenario and the Lua engine load in the background. Then `load` answers synchronously
    // for any scenario, and the page is ready for scripts (docs/AUTOMATION.md).
    requestAnimationFrame(() => setTimeout(afterFirstScreen, 0));
    setTimeout(afterFirstScreen, afterFirstScreenWaitMsMax);
  }, []);
  return null;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SimStoreProvider store={store}>
      <DrawLaterContext.Provider value={drawLaterStores}>
        <App />
      </DrawLaterContext.Provider>
      <Ready />
    </SimStoreProvider>
  </StrictMode>,
);
