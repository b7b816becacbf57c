/**
 * Keeps the address bar and localStorage in step with the store: the URL holds the run
 * (replaceState, so stepping does not fill the history), preferences are remembered, and a hash
 * typed or pasted into the address bar loads like a fresh link.
 *
 * A long run's link is tens of kB: writing it (URL and storage) on every step would cost each step
 * more the longer the run. So the run is written at most once per `runWriteIntervalMs`, after the
 * change, off the step's frame, and at once when the page is hidden or left (pagehide).
 */
import type { SimState, SimStore } from '../store/createSimStore';
import { selectRunHash } from '../store/selectors';
import { saveProgress, saveSessionHash, savePrefs, type KeyValueStorage } from './persist';

/** The longest the URL and the saved run lag behind the run while it changes (wall time, UI only). */
export const runWriteIntervalMs = 200;

export function connectBrowser(store: SimStore, win: Window, storage: KeyValueStorage | null): () => void {
  const embed = store.getState().embed;
  let lastHash = '';
  let pending: number | null = null;
  const writeRun = (state: SimState) => {
    // While a link's scenario loads, the run in the store stands in unseen: the address bar keeps
    // the link, and the saved run is not replaced by the stand-in.
    if (state.runLoading !== null) return;
    const hash = selectRunHash(state);
    // The address bar always shows the run, also after a refused link typed over the same run.
    if (win.location.hash !== hash) {
      const url = `${win.location.pathname}${win.location.search}${hash}`;
      win.history.replaceState(win.history.state, '', url);
    }
    if (hash === lastHash) return;
    lastHash = hash;
    // Embeds never write: an iframe must not replace the reader's own saved run.
    if (state.persistRun && !embed) saveSessionHash(storage, hash);
  };
  const syncPrefs = (state: SimState, previous: SimState | null) => {
    if (embed) return;
    if (previous && state.lang === previous.lang && state.theme === previous.theme && state.presentation === previous.presentation) return;
    if (previous === null) return;
    savePrefs(storage, { lang: state.lang, theme: state.theme, presentation: state.presentation });
  };

  /** Writes the run as it is now (not as it was when the write was scheduled). */
  const flush = () => {
    if (pending !== null) win.clearTimeout(pending);
    pending = null;
    writeRun(store.getState());
  };
  const syncRun = () => {
    if (pending === null) pending = win.setTimeout(flush, runWriteIntervalMs);
  };

  writeRun(store.getState());
  const unsubscribe = store.subscribe((state, previous) => {
    if (
      state.scenarioId !== previous.scenarioId ||
      state.variantId !== previous.variantId ||
      state.seed !== previous.seed ||
      state.schedule !== previous.schedule ||
      state.cursor !== previous.cursor ||
      state.challengeId !== previous.challengeId ||
      state.predict !== previous.predict ||
      state.persistRun !== previous.persistRun ||
      state.linkError !== previous.linkError ||
      state.runLoading !== previous.runLoading
    ) {
      syncRun();
    }
    syncPrefs(state, previous);
    // Progress is this browser's: an embed neither reads nor writes it.
    if (state.progress !== previous.progress && !embed) saveProgress(storage, state.progress);
  });

  // A hash edited by hand or a link pasted into this tab: load it like a fresh page would.
  const onHashChange = () => {
    if (win.location.hash !== lastHash) store.getState().openLink(win.location.hash);
  };
  const onHidden = () => {
    if (win.document.visibilityState === 'hidden') flush();
  };
  win.addEventListener('hashchange', onHashChange);
  win.addEventListener('pagehide', flush);
  win.document.addEventListener('visibilitychange', onHidden);
  return () => {
    unsubscribe();
    flush();
    win.removeEventListener('hashchange', onHashChange);
    win.removeEventListener('pagehide', flush);
    win.document.removeEventListener('visibilitychange', onHidden);
  };
}
