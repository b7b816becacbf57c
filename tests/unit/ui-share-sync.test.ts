// Goal: stepping does not rewrite the share link and the saved run on every step: they are
// written once after a burst of changes (holding the run as it is then: once the run is still, or
// at the burst's deadline), in idle time (never in a step's frame), and at once when the page is left.
import { describe, expect, it, vi } from 'vitest';
import { deferredLibrary } from './support/deferred-library';
import { connectBrowser, runWriteIdleWaitMsMax, runWriteQuietMs, runWriteWaitMsMax } from '../../src/ui/share/sync';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { selectRunHash } from '../../src/ui/store/selectors';

/** Just what connectBrowser touches, with timers and idle callbacks fired by hand. */
function fakeWindow({ idle = true } = {}) {
  const listeners = new Map<string, (() => void)[]>();
  const timers = new Map<number, () => void>();
  const timerMs = new Map<number, number>();
  const idles = new Map<number, () => void>();
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
      expect([runWriteQuietMs, runWriteWaitMsMax, ...(idle ? [] : [0])]).toContain(ms);
      timers.set(nextTimer, callback);
      timerMs.set(nextTimer, ms);
      return nextTimer++;
    },
    clearTimeout(id: number) {
      timers.delete(id);
    },
    ...(idle
      ? {
          requestIdleCallback(callback: () => void, options: { timeout: number }) {
            expect(options.timeout).toBe(runWriteIdleWaitMsMax);
            idles.set(nextTimer, callback);
            return nextTimer++;
          },
          cancelIdleCallback(id: number) {
            idles.delete(id);
          },
        }
      : {}),
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
    /** Fires the timers of `ms` only (one kind of wait). */
    fireTimersOf(ms: number) {
      const pending = [...timers].filter(([id]) => timerMs.get(id) === ms);
      for (const [id] of pending) timers.delete(id);
      for (const [, callback] of pending) callback();
    },
    pendingTimers: () => timers.size,
    fireIdle() {
      const pending = [...idles.values()];
      idles.clear();
      for (const callback of pending) callback();
    },
    pendingIdle: () => idles.size,
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
    // After the interval the write waits for idle time: not yet written, one idle callback asked.
    expect(page.urls).toHaveLength(1);
    expect(page.pendingIdle()).toBe(1);
    store.getState().stepClient('B');
    expect(page.pendingIdle()).toBe(1);
    page.fireIdle();
    expect(page.urls).toHaveLength(2);
    expect(page.urls[1]).toBe(`/${selectRunHash(store.getState())}`);
    // The saved run in an idle callback of its own (each write of a long link is tens of ms).
    const storedBefore = page.stored.length;
    expect(page.pendingIdle()).toBe(1);
    page.fireIdle();
    expect(page.stored).toHaveLength(storedBefore + 1);
    expect(page.stored.at(-1)).toBe(selectRunHash(store.getState()));
    page.fireTimers();
    page.fireIdle();
    expect(page.urls).toHaveLength(2);
  });

  it('waits while the run keeps changing, until it is still or at the deadline of the burst', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', schedule: '' } });
    const page = fakeWindow();
    connectBrowser(store, page.win, page.storage);
    store.getState().stepClient('A');
    store.getState().stepClient('B');
    // One quiet wait (the latest change's) and one deadline.
    expect(page.pendingTimers()).toBe(2);
    page.fireTimersOf(runWriteWaitMsMax);
    expect(page.pendingIdle()).toBe(1);
    // The quiet wait of the same burst no longer asks again.
    page.fireTimersOf(runWriteQuietMs);
    expect(page.pendingIdle()).toBe(1);
    page.fireIdle();
    expect(page.urls.at(-1)).toBe(`/${selectRunHash(store.getState())}`);
    page.fireIdle(); // the saved run
    store.getState().stepClient('A');
    page.fireTimersOf(runWriteQuietMs);
    expect(page.pendingIdle()).toBe(1);
  });

  it('without idle callbacks, writes in a task after the interval', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', schedule: '' } });
    const page = fakeWindow({ idle: false });
    connectBrowser(store, page.win, page.storage);
    store.getState().stepClient('A');
    page.fireTimers();
    expect(page.urls).toHaveLength(1);
    page.fireTimers();
    expect(page.urls.at(-1)).toBe(`/${selectRunHash(store.getState())}`);
  });

  it('keeps a link whose scenario is loading in the address bar, and writes the run once it is shown', async () => {
    const store = createSimStore({ library: deferredLibrary(), link: '#/v1/get-then-del/lua?seed=1' });
    const page = fakeWindow();
    page.win.location.hash = '#/v1/get-then-del/lua?seed=1';
    connectBrowser(store, page.win, page.storage);
    expect(store.getState().runLoading).not.toBeNull();
    expect(page.urls).toHaveLength(0);
    expect(page.stored).toHaveLength(0);
    await vi.waitFor(() => expect(store.getState().runLoading).toBeNull());
    page.fireTimers();
    page.fireIdle();
    page.fireIdle();
    expect(store.getState().scenarioId).toBe('get-then-del');
    expect(page.stored.at(-1)).toBe(selectRunHash(store.getState()));
  });

  it('writes a saved run still waiting for its idle callback at once when the page is left', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', schedule: '' } });
    const page = fakeWindow();
    connectBrowser(store, page.win, page.storage);
    store.getState().stepClient('A');
    page.fireTimers();
    page.fireIdle();
    expect(page.stored.at(-1)).not.toBe(selectRunHash(store.getState()));
    page.fire('pagehide');
    expect(page.stored.at(-1)).toBe(selectRunHash(store.getState()));
    expect(page.pendingIdle()).toBe(0);
  });

  it('writes at once when the page is left', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', schedule: '' } });
    const page = fakeWindow();
    connectBrowser(store, page.win, page.storage);
    store.getState().stepClient('A');
    page.fire('pagehide');
    expect(page.urls.at(-1)).toBe(`/${selectRunHash(store.getState())}`);
    expect(page.stored.at(-1)).toBe(selectRunHash(store.getState()));
    page.fireTimers(); // nothing left to write
    expect(page.urls).toHaveLength(2);
  });
});
