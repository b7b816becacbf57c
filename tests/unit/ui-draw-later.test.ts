/**
 * Goal: a newly loaded run reaches the parts drawn later only after the first part's frame
 * (issue 26: no one task draws a whole new run), every other change reaches them at once, and
 * `drawn()` (what `lockstep.load` waits on) resolves only once they show the new run.
 */
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { afterNextFrame, createDrawLater } from '../../src/ui/components/draw-later';
import type { SimState, SimStore } from '../../src/ui/store/store-types';

interface Fake {
  runLog: { generation: number };
  cursor: number;
}

function setup() {
  const live = createStore<Fake>(() => ({ runLog: { generation: 1 }, cursor: 0 })) as unknown as SimStore;
  const frames: (() => void)[] = [];
  const later = createDrawLater(live, (then) => frames.push(then));
  const seen: [number, number][] = [];
  later.store.subscribe((state, previous) => seen.push([state.cursor, previous.cursor]));
  const set = (patch: Partial<Fake>) => live.setState(patch as Partial<SimState>);
  return { live, later, frames, seen, set };
}

describe('draw later: a new run in two frames', () => {
  it('passes a step through at once, with nothing to wait for', async () => {
    const { later, frames, seen, set } = setup();
    set({ cursor: 1 });
    expect(later.store.getState().cursor).toBe(1);
    expect(seen).toEqual([[1, 0]]);
    expect(frames).toHaveLength(0);
    await expect(later.drawn()).resolves.toBeUndefined();
  });

  it('holds a new generation until the next frame, then shows the latest state', async () => {
    const { later, frames, seen, set } = setup();
    set({ runLog: { generation: 2 }, cursor: 5 });
    expect(later.store.getState().cursor).toBe(0);
    set({ cursor: 6 });
    expect(later.store.getState().cursor).toBe(0);
    expect(seen).toEqual([]);
    let drawn = false;
    const waiting = later.drawn().then(() => (drawn = true));
    await Promise.resolve();
    expect(drawn).toBe(false);
    expect(frames).toHaveLength(1);
    frames[0]();
    expect(later.store.getState().cursor).toBe(6);
    expect(seen).toEqual([[6, 0]]);
    await waiting;
    expect(drawn).toBe(true);
    // The next step after the release passes through again.
    set({ cursor: 7 });
    expect(seen).toEqual([[6, 0], [7, 6]]);
  });

  it('delegates actions and setState to the live store', () => {
    const { live, later } = setup();
    later.store.setState({ cursor: 3 } as Partial<SimState>);
    expect((live.getState() as unknown as Fake).cursor).toBe(3);
  });

  it('chained, draws a new run a frame later still, and drawn() waits for both', async () => {
    const { live, later, frames, set } = setup();
    const last = createDrawLater(later.store, (then) => frames.push(then));
    set({ runLog: { generation: 2 }, cursor: 4 });
    frames.shift()!();
    expect(later.store.getState().cursor).toBe(4);
    expect(last.store.getState().cursor).toBe(0);
    let drawn = false;
    const waiting = last.drawn().then(() => (drawn = true));
    await Promise.resolve();
    expect(drawn).toBe(false);
    frames.shift()!();
    expect(last.store.getState()).toBe(live.getState());
    await waiting;
    expect(drawn).toBe(true);
  });

  it('afterNextFrame: after the frame when shown; at once when the tab is or becomes hidden', () => {
    const frameCallbacks: (() => void)[] = [];
    const tasks: (() => void)[] = [];
    const hiddenListeners = new Set<() => void>();
    const doc = {
      hidden: false,
      addEventListener: (_: string, l: () => void) => hiddenListeners.add(l),
      removeEventListener: (_: string, l: () => void) => hiddenListeners.delete(l),
    };
    const win = { document: doc, requestAnimationFrame: (f: () => void) => frameCallbacks.push(f), setTimeout: (f: () => void) => tasks.push(f) } as unknown as Window;
    const next = afterNextFrame(win);
    let calls = 0;
    next(() => (calls += 1));
    expect(tasks).toHaveLength(0);
    frameCallbacks.shift()!();
    tasks.shift()!();
    expect(calls).toBe(1);
    expect(hiddenListeners.size).toBe(0);
    // Hidden while the frame is awaited: no frame comes, the part is drawn anyway, once.
    next(() => (calls += 1));
    doc.hidden = true;
    for (const listener of [...hiddenListeners]) listener();
    tasks.shift()!();
    frameCallbacks.shift()!();
    expect(tasks).toHaveLength(0);
    expect(calls).toBe(2);
    // Already hidden: at once.
    next(() => (calls += 1));
    tasks.shift()!();
    expect(calls).toBe(3);
  });
});
