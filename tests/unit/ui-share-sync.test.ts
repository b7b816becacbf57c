// Goal: stepping does not rewrite the share link and the saved run on every step: they are
// written once after a burst of changes (holding the run as it is then), and at once when the
// page is left.
import { describe, expect, it } from 'vitest';
import { connectBrowser, runWriteIntervalMs } from '../../src/ui/share/sync';
import { createSimStore } from '../../src/ui/store/createSimStore';
import { selectRunHash } from '../../src/ui/store/selectors';

/** Just what connectBrowser touches, with timers fired by hand. */
function fakeWindow() {
  const listeners = new Map<string, (() => void)[]>();
  const timers = new Map<number, () => void>();
  let nextTimer = 1;
  const urls: string[] = [];
  const stored: string[] = [];
  const win = {
    location: { pathname: '/', search: '', hash: '' },
    history: {
      state: null,
      replaceState(_state: unknown, _title: string, url: string) {
        urls.push(url);
        win.location.hash = url.slice(url.indexOf('#'));
      },
    },
    setTimeout(callback: () => void, ms: number) {
      expect(ms).toBe(runWriteIntervalMs);
      timers.set(nextTimer, callback);
      return nextTimer++;
    },
    clearTimeout(id: number) {
      timers.delete(id);
    },
    addEventListener(type: string, listener: () => void) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
    removeEventListener() {},
    document: { visibilityState: 'visible', addEventListener() {}, removeEventListener() {} },
  };
  const storage = { getItem: () => null, setItem: (_key: string, value: string) => void stored.push(value), removeItem() {} };
  return {
    win: win as unknown as Window,
    storage,
    urls,
    stored,
    fireTimers() {
      const pending = [...timers.values()];
      timers.clear();
      for (const callback of pending) callback();
    },
    fire(type: string) {
      for (const listener of listeners.get(type) ?? []) listener();
    },
  };
}

describe('browser sync', () => {
  it('writes a burst of steps once, after it, with the run as it is then', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', schedule: '' } });
    const page = fakeWindow();
    connectBrowser(store, page.win, page.storage);
    expect(page.urls).toHaveLength(1); // the run at load
    store.getState().setSeed(1);
    store.getState().stepClient('A');
    store.getState().stepClient('B');
    store.getState().stepClient('A');
    expect(page.urls).toHaveLength(1);
    page.fireTimers();
    expect(page.urls).toHaveLength(2);
    expect(page.urls[1]).toBe(`/${selectRunHash(store.getState())}`);
    expect(page.stored.at(-1)).toBe(selectRunHash(store.getState()));
  });

  it('writes at once when the page is left', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', schedule: '' } });
    const page = fakeWindow();
    connectBrowser(store, page.win, page.storage);
    store.getState().stepClient('A');
    page.fire('pagehide');
    expect(page.urls.at(-1)).toBe(`/${selectRunHash(store.getState())}`);
    page.fireTimers(); // nothing left to write
    expect(page.urls).toHaveLength(2);
  });
});
