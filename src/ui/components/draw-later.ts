import type { SimState, SimStore } from '../store/store-types';

/**
 * Draws a newly loaded run in parts, so no one task of the page lays out a whole new run
 * (issue 26: a run loaded with a heavy script froze the page for 150-300 ms on a busy 2-core
 * machine, all of it React's render of the new run and the browser's layout of it).
 *
 * `store` is a view of the simulator's store for a part drawn later: when a new run arrives (the
 * log's generation changed: a load, a fork), it keeps showing that part the state before it until
 * `nextFrame` calls back, after the frame that drew the parts before it; every other change (a
 * step, a setting) passes through at once, as before. Chained (a view of a view), a part is drawn
 * a frame later still. `drawn()` resolves once the part shows the current run, so `lockstep.load`
 * still resolves with the whole run on screen.
 */
export interface DrawLater {
  readonly store: SimStore;
  /** Resolves once the parts drawn later show the store's current state. */
  readonly drawn: () => Promise<void>;
  readonly dispose: () => void;
}

type Listener = (state: SimState, previous: SimState) => void;

export function createDrawLater(live: SimStore, nextFrame: (then: () => void) => void): DrawLater {
  const listeners = new Set<Listener>();
  /** The state the later parts still show while a new run waits for its second frame; null when they show `live`. */
  let held: SimState | null = null;
  let waiters: (() => void)[] = [];
  let disposed = false;

  const release = () => {
    if (held === null || disposed) return;
    const previous = held;
    held = null;
    const state = live.getState();
    for (const listener of listeners) listener(state, previous);
    // React renders what the listeners scheduled in a microtask queued before this one.
    const resolveAll = waiters;
    waiters = [];
    queueMicrotask(() => {
      for (const resolve of resolveAll) resolve();
    });
  };

  const unsubscribe = live.subscribe((state, previous) => {
    if (held !== null) return;
    if (state.runLog.generation !== previous.runLog.generation) {
      held = previous;
      nextFrame(release);
      return;
    }
    for (const listener of listeners) listener(state, previous);
  });

  const store: SimStore = {
    ...live,
    getState: () => held ?? live.getState(),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    store,
    drawn: () => (held === null ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    dispose: () => {
      disposed = true;
      unsubscribe();
      listeners.clear();
      for (const resolve of waiters) resolve();
      waiters = [];
    },
  };
}

/**
 * The page's next part: in a task after the frame that draws the parts before it; at once in a
 * hidden tab, which draws no frames (also when the tab is hidden while the frame is awaited), so
 * `lockstep.load` never waits on a tab nobody sees.
 */
export function afterNextFrame(win: Window): (then: () => void) => void {
  return (then) => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      win.document.removeEventListener('visibilitychange', onHidden);
      win.setTimeout(then, 0);
    };
    const onHidden = () => {
      if (win.document.hidden) once();
    };
    if (win.document.hidden) return once();
    win.document.addEventListener('visibilitychange', onHidden);
    win.requestAnimationFrame(once);
  };
}
