import { useEffect } from 'react';
import type { SimState, SimStore } from '../store/store-types';
import { stallDraftOf } from '../store/slices/drafts';
import { isValidDurationMs } from './DurationInput';

/** Elements that use these keys themselves: typing, choosing, sliding, activating. */
const OWNS_TEXT_KEYS = 'input, textarea, select, [contenteditable="true"]';
const OWNS_ARROWS = `${OWNS_TEXT_KEYS}, [role="tab"], [role="slider"], [role="radio"]`;
const OWNS_SPACE = `${OWNS_TEXT_KEYS}, button, a[href], summary, [role="tab"], [role="radio"], [role="checkbox"]`;

/**
 * Page-wide shortcuts: Space play/pause, ←/→ step back/forward, 1..9 step client N, a advance the
 * clock, e next expiry, p pause and x crash the focused client, v / Shift+V next / previous
 * variant, q predict mode, ? shortcuts. A key is left alone when the focused control uses it
 * (typing a number, pressing a button).
 */
export function useKeyboardShortcuts(store: SimStore, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    // The client last stepped by its number key: the focused client when no lane holds the focus.
    let lastStepped: string | null = null;
    const focusedClient = (state: SimState, target: Element | null): string | null => {
      const lane = target?.closest<HTMLElement>('[data-client]')?.dataset.client;
      const id = lane ?? lastStepped ?? state.clients.find((c) => c.live)?.id ?? null;
      return id !== null && state.clients.some((c) => c.id === id && c.live) ? id : null;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const state = store.getState();
      if (state.shortcutsOpen || state.replayOpen) return;
      const target = event.target instanceof Element ? event.target : null;
      const owns = (selector: string) => target?.closest(selector) != null;
      if (event.key === '?') {
        if (owns(OWNS_TEXT_KEYS)) return;
        event.preventDefault();
        state.setShortcutsOpen(true);
        return;
      }
      if (owns(OWNS_TEXT_KEYS)) return;
      if (event.key === 'v' || event.key === 'V') {
        const variants = state.runInfo.variants;
        const at = variants.findIndex((v) => v.id === state.variantId);
        const next = variants[(at + (event.key === 'V' ? variants.length - 1 : 1)) % variants.length];
        event.preventDefault();
        if (next) state.selectVariant(next.id);
        return;
      }
      if (event.shiftKey) return;
      switch (event.key) {
        case 'a':
          event.preventDefault();
          if (isValidDurationMs(state.advanceDraftMs)) state.advanceClock(state.advanceDraftMs);
          return;
        case 'e':
          event.preventDefault();
          state.jumpToNextExpiry();
          return;
        case 'p':
        case 'x': {
          event.preventDefault();
          const id = focusedClient(state, target);
          if (id === null) return;
          if (event.key === 'x') state.crashClient(id);
          else if (isValidDurationMs(stallDraftOf(state, id))) state.stallClient(id, stallDraftOf(state, id));
          return;
        }
        case 'q':
          event.preventDefault();
          state.togglePredict();
          return;
      }
      if (event.key === ' ') {
        if (owns(OWNS_SPACE)) return;
        event.preventDefault();
        state.togglePlay();
        return;
      }
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        if (owns(OWNS_ARROWS)) return;
        event.preventDefault();
        if (event.key === 'ArrowLeft') state.stepBack();
        else state.stepForward();
        return;
      }
      if (/^[1-9]$/.test(event.key)) {
        if (owns(OWNS_TEXT_KEYS)) return;
        const client = state.clients[Number(event.key) - 1];
        if (!client) return;
        event.preventDefault();
        lastStepped = client.id;
        if (client.live) state.stepClient(client.id);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [store, enabled]);
}
