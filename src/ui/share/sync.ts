/**
 * Keeps the address bar and localStorage in step with the store: the URL always holds the run
 * (replaceState, so stepping does not fill the history), preferences are remembered, and a hash
 * typed or pasted into the address bar loads like a fresh link.
 */
import { SCENARIOS } from '../../scenarios';
import type { SimState, SimStore } from '../store/createSimStore';
import { formatRunHash, parseRunLink } from './link';
import { saveSessionHash, savePrefs, type KeyValueStorage } from './persist';

/** The share hash of the store's current run. */
export function runHashOf(state: Pick<SimState, 'scenarioId' | 'variantId' | 'seed' | 'schedule' | 'cursor'>): string {
  return formatRunHash(state.scenarioId, state.variantId, state.seed, state.schedule, state.cursor);
}

export function connectBrowser(store: SimStore, win: Window, storage: KeyValueStorage | null): () => void {
  const embed = store.getState().embed;
  let lastHash = '';
  const syncRun = (state: SimState) => {
    const hash = runHashOf(state);
    if (hash === lastHash) return;
    lastHash = hash;
    if (win.location.hash !== hash) {
      const url = `${win.location.pathname}${win.location.search}${hash}`;
      win.history.replaceState(win.history.state, '', url);
    }
    // Embeds never write: an iframe must not replace the reader's own saved run.
    if (state.persistRun && !embed) saveSessionHash(storage, hash);
  };
  const syncPrefs = (state: SimState, previous: SimState | null) => {
    if (embed) return;
    if (previous && state.lang === previous.lang && state.theme === previous.theme && state.presentation === previous.presentation) return;
    if (previous === null) return;
    savePrefs(storage, { lang: state.lang, theme: state.theme, presentation: state.presentation });
  };

  syncRun(store.getState());
  const unsubscribe = store.subscribe((state, previous) => {
    if (
      state.scenarioId !== previous.scenarioId ||
      state.variantId !== previous.variantId ||
      state.seed !== previous.seed ||
      state.schedule !== previous.schedule ||
      state.cursor !== previous.cursor ||
      state.persistRun !== previous.persistRun
    ) {
      syncRun(state);
    }
    syncPrefs(state, previous);
  });

  // A hash edited by hand or a link pasted into this tab: load it like a fresh page would.
  const onHashChange = () => {
    if (win.location.hash === lastHash) return;
    const parsed = parseRunLink(win.location.hash, SCENARIOS);
    const state = store.getState();
    if (parsed.kind === 'none') return;
    if (parsed.kind === 'ok') {
      const { link } = parsed;
      const result = state.loadRun({ scenarioId: link.scenarioId, variantId: link.variantId, seed: link.seed, schedule: link.choices, cursor: link.cursor });
      if (result.ok) {
        store.setState({ linkError: null, persistRun: true });
        return;
      }
      refuse(result.error);
      return;
    }
    refuse(parsed.error);
  };
  const refuse = (error: NonNullable<SimState['linkError']>) => {
    store.setState({ persistRun: false });
    store.getState().loadRun({ scenarioId: SCENARIOS[0].id });
    store.setState({ linkError: error });
  };
  win.addEventListener('hashchange', onHashChange);
  return () => {
    unsubscribe();
    win.removeEventListener('hashchange', onHashChange);
  };
}
