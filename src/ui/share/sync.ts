/**
 * Keeps the address bar and localStorage in step with the store: the URL holds the run
 * (replaceState, so stepping does not fill the history), preferences are remembered, and a hash
 * typed or pasted into the address bar loads like a fresh link.
 *
 * A long run's link is tens of kB: writing it (URL and storage) costs tens of ms at 10,000 steps
 * (replaceState of a 40 kB URL alone about 30 ms), and on every step it would cost each step more
 * the longer the run. So changes are coalesced: once the run has been still for `runWriteQuietMs`
 * (or `runWriteWaitMsMax` after the first change of a burst, for a run that never stops, such as
 * autoplay) the write waits for idle time (`requestIdleCallback`, at most `runWriteIdleWaitMsMax`),
 * so it lands neither in a step's frame nor between two presses of someone stepping through the
 * run, and it writes the run as it is then. The saved run (sessionStorage, also tens of ms for a
 * long link) waits for an idle callback of its own, so a press that comes meanwhile waits for one
 * of the two writes at most. Both at once when the page is hidden or left (pagehide).
 */
import type { SimState, SimStore } from '../store/store-types';
import { selectRunHash } from '../store/selectors';
import { saveProgress, saveSessionHash, savePrefs, type KeyValueStorage } from './persist';

/** How long the run must stay still before the write starts waiting for idle time (wall time, UI only). */
export const runWriteQuietMs = 300;
/** ...but no longer than this after the first change of a burst. */
export const runWriteWaitMsMax = 2_000;
/** The longest the write then waits for idle time (a page that is never idle, e.g. autoplay at full speed). */
export const runWriteIdleWaitMsMax = 1_000;

/** The browser's idle callbacks (absent in some browsers: then a task after the current one). */
interface IdleWindow {
  requestIdleCallback?: (callback: () => void, options: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
}

export function connectBrowser(store: SimStore, win: Window, storage: KeyValueStorage | null): () => void {
  const embed = store.getState().embed;
  let lastHash = '';
  const idle = win as unknown as IdleWindow;
  /** A callback waiting for idle time (without requestIdleCallback, for a task of its own). */
  type IdleWait = { readonly kind: 'timer' | 'idle'; readonly handle: number };
  const afterIdle = (callback: () => void): IdleWait =>
    typeof idle.requestIdleCallback === 'function'
      ? { kind: 'idle', handle: idle.requestIdleCallback(callback, { timeout: runWriteIdleWaitMsMax }) }
      : { kind: 'timer', handle: win.setTimeout(callback, 0) };
  const cancelIdleWait = (wait: IdleWait) => (wait.kind === 'timer' ? win.clearTimeout(wait.handle) : idle.cancelIdleCallback?.(wait.handle));
  /** The write waiting: first for the run to be still (or the burst's deadline), then for idle time. */
  let pending: { readonly kind: 'still'; readonly quiet: number; readonly deadline: number } | IdleWait | null = null;
  /** The saved run waiting for its own idle callback (written after the address bar, in a task of its own). */
  let pendingSave: { readonly hash: string; readonly wait: IdleWait } | null = null;
  const cancelSave = () => {
    if (pendingSave) cancelIdleWait(pendingSave.wait);
    pendingSave = null;
  };
  const saveNow = () => {
    const save = pendingSave;
    cancelSave();
    if (save) saveSessionHash(storage, save.hash);
  };
  /** `later`: the saved run is written in an idle callback of its own (each of the two writes of a long link is tens of ms). */
  const writeRun = (state: SimState, later: boolean) => {
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
    if (!state.persistRun || embed) return;
    cancelSave();
    if (!later) return saveSessionHash(storage, hash);
    pendingSave = {
      hash,
      wait: afterIdle(() => {
        pendingSave = null;
        saveSessionHash(storage, hash);
      }),
    };
  };
  const syncPrefs = (state: SimState, previous: SimState | null) => {
    if (embed) return;
    if (previous && state.lang === previous.lang && state.theme === previous.theme && state.presentation === previous.presentation) return;
    if (previous === null) return;
    savePrefs(storage, { lang: state.lang, theme: state.theme, presentation: state.presentation });
  };

  const cancel = () => {
    if (pending?.kind === 'still') {
      win.clearTimeout(pending.quiet);
      win.clearTimeout(pending.deadline);
    } else if (pending) cancelIdleWait(pending);
    pending = null;
  };
  /** Writes the run as it is now (not as it was when the write was scheduled); `later` leaves the saved run to an idle callback. */
  const write = (later: boolean) => {
    cancel();
    writeRun(store.getState(), later);
    if (!later) saveNow();
  };
  const flush = () => write(false);
  const whenIdle = () => {
    if (pending?.kind !== 'still') return;
    cancel();
    pending = afterIdle(() => write(true));
  };
  const syncRun = () => {
    if (pending === null) pending = { kind: 'still', quiet: win.setTimeout(whenIdle, runWriteQuietMs), deadline: win.setTimeout(whenIdle, runWriteWaitMsMax) };
    else if (pending.kind === 'still') {
      // Another change: the run is not still yet (the deadline stays).
      win.clearTimeout(pending.quiet);
      pending = { ...pending, quiet: win.setTimeout(whenIdle, runWriteQuietMs) };
    }
  };

  writeRun(store.getState(), false);
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
      state.ioLink !== previous.ioLink ||
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
