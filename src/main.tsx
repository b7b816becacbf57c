/**
 * The page's composition root: the only module that wires the browser (address bar, storage,
 * the worker, `window.lockstep`) to the store and renders the app.
 */
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { detectLang } from './i18n';
import { App } from './ui/App';
import { browserStorage, keepUnrestoredRun, loadPrefs, loadSavedRun } from './ui/share/persist';
import { connectBrowser } from './ui/share/sync';
import { createSimStore } from './ui/store/createSimStore';
import { SimStoreProvider } from './ui/store/context';
import { isEmbed } from './ui/store/run-link';
import { installTestApi } from './ui/test-api';
import { deferredOutcomeService } from './ui/worker/deferred';
import { deferredExploreService } from './ui/worker/explore-deferred';
import './ui/styles/index.css';

const storage = browserStorage();
const prefs = loadPrefs(storage);
const embed = isEmbed(window.location.search, window.location.hash);
// The variant report starts after the first paint: its worker is not first-screen code.
const outcomes = deferredOutcomeService(async () => {
  const { createInlineOutcomeService, createWorkerOutcomeService } = await import('./ui/worker/outcomes-client');
  return typeof Worker === 'function' ? createWorkerOutcomeService() : createInlineOutcomeService();
});
// The explorer's code (and its worker) loads on the first search.
const explorer = deferredExploreService(async () => {
  const { createInlineExploreService, createWorkerExploreService } = await import('./ui/worker/explore-client');
  return typeof Worker === 'function' ? createWorkerExploreService() : createInlineExploreService();
});
const prefersDark = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;

const store = createSimStore({
  // The run to show: the link's, else (outside embeds) the last one this browser saved.
  link: window.location.hash,
  savedRun: embed ? { kind: 'none' } : loadSavedRun(storage),
  lang: prefs.lang ?? detectLang(navigator.languages),
  theme: prefs.theme ?? (prefersDark ? 'dark' : 'light'),
  presentation: prefs.presentation ?? false,
  embed,
  outcomes,
  explorer,
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
