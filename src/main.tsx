import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { SCENARIOS } from './scenarios';
import { App } from './ui/App';
import { detectLang } from './ui/i18n';
import { isEmbed, parseRunLink, type LinkError } from './ui/share/link';
import { browserStorage, loadPrefs, loadSessionHash } from './ui/share/persist';
import { connectBrowser } from './ui/share/sync';
import { createSimStore, type RunSpec } from './ui/store/createSimStore';
import { SimStoreProvider } from './ui/store/context';
import { installTestApi } from './ui/test-api';
import { createInlineOutcomeService, createWorkerOutcomeService } from './ui/worker/outcomes-client';
import './ui/styles/index.css';

const storage = browserStorage();
const prefs = loadPrefs(storage);
const embed = isEmbed(window.location.search, window.location.hash);
const prefersDark = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;

// The run to show: the link's, else (outside embeds) the last one this browser saved.
let run: RunSpec | undefined;
let linkError: LinkError | null = null;
const fromLink = parseRunLink(window.location.hash, SCENARIOS);
if (fromLink.kind === 'ok') {
  const { link } = fromLink;
  run = { scenarioId: link.scenarioId, variantId: link.variantId, seed: link.seed, schedule: link.choices, cursor: link.cursor };
} else if (fromLink.kind === 'error') {
  linkError = fromLink.error;
} else if (!embed) {
  const saved = parseRunLink(loadSessionHash(storage) ?? '', SCENARIOS);
  if (saved.kind === 'ok') {
    const { link } = saved;
    run = { scenarioId: link.scenarioId, variantId: link.variantId, seed: link.seed, schedule: link.choices, cursor: link.cursor };
  }
}

const store = createSimStore({
  run,
  linkError,
  lang: prefs.lang ?? detectLang(navigator.languages),
  theme: prefs.theme ?? (prefersDark ? 'dark' : 'light'),
  presentation: prefs.presentation ?? false,
  embed,
  outcomes: typeof Worker === 'function' ? createWorkerOutcomeService() : createInlineOutcomeService(),
});
connectBrowser(store, window, storage);
const { markReady } = installTestApi(store, window);

function Ready() {
  useEffect(() => markReady(), []);
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
