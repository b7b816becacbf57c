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
import { createSimStore } from './ui/store/createSimStore';
import { SimStoreProvider } from './ui/store/context';
import { embedShowsVariants, isEmbed } from './ui/store/run-link';
import { installTestApi } from './ui/test-api';
import { deferredOutcomeService, startOnFirstRequest } from './ui/worker/deferred';
import { deferredExploreService } from './ui/worker/explore-deferred';
import type { DraftCheckService } from './ui/worker/draft-check-protocol';
import { explorerShortestWay } from './ui/store/shortest-way';
import { SCENARIOS } from './scenarios';
import './ui/styles/index.css';

const storage = browserStorage();
const prefs = loadPrefs(storage);
const embed = isEmbed(window.location.search, window.location.hash);
const loadOutcomes = async () => {
  const { createInlineOutcomeService, createWorkerOutcomeService } = await import('./ui/worker/outcomes-client');
  return typeof Worker === 'function' ? createWorkerOutcomeService() : createInlineOutcomeService();
};
// The variant report starts after the first paint: its worker is not first-screen code.
const outcomes = deferredOutcomeService(loadOutcomes);
// A found schedule compared across the variants: the same worker code in a worker of its own,
// started by the first comparison, so the variant cards' report keeps its incremental runs.
const comparer = startOnFirstRequest(deferredOutcomeService(loadOutcomes));
// The explorer's code (and its worker) loads on the first search.
const loadExplorer = async () => {
  const { createInlineExploreService, createWorkerExploreService } = await import('./ui/worker/explore-client');
  return typeof Worker === 'function' ? createWorkerExploreService() : createInlineExploreService();
};
const explorer = deferredExploreService(loadExplorer);
// "Show me the shortest way" searches in an explorer of its own (a worker started on first use).
const shortestWay = explorerShortestWay(deferredExploreService(loadExplorer), (id) => SCENARIOS.find((s) => s.id === id));
// The workbench's draft check (and its worker) loads with the first edit.
let draftCheckService: Promise<DraftCheckService> | null = null;
const draftChecker: DraftCheckService = {
  check: async (request) => {
    draftCheckService ??= import('./ui/worker/draft-check-client').then((m) => m.createWorkerDraftCheckService());
    return (await draftCheckService).check(request);
  },
  dispose: () => void draftCheckService?.then((service) => service.dispose()),
};
const savedRun = embed ? ({ kind: 'none' } as const) : loadSavedRun(storage);
const progress = embed ? null : loadProgress(storage);
const prefersDark = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;

const store = createSimStore({
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
  myScenarioStorage: embed ? null : localMyScenarioStorage(window),
  shortestWay,
  embedVariants: embedShowsVariants(window.location.search, window.location.hash),
});
// A saved run that could not be restored moves aside before the current run is saved over it.
const unrestored = store.getState().linkError?.savedText;
if (unrestored !== undefined) keepUnrestoredRun(storage, unrestored);
connectBrowser(store, window, storage);
const { markReady } = installTestApi(store, window);

function Ready() {
  useEffect(() => {
    markReady();
    // After the frame that shows the page: then the worker's code loads and the report starts.
    requestAnimationFrame(() => setTimeout(() => void outcomes.start(), 0));
  }, []);
  return null;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SimStoreProvider store={store}>
      <App />
      <Ready />
    </SimStoreProvider>
  </StrictMode>,
);
