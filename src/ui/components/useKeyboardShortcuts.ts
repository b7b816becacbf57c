import { useEffect } from 'react';
import type { SimStore } from '../store/createSimStore';

/** Elements that use these keys themselves: typing, choosing, sliding, activating. */
const OWNS_TEXT_KEYS = 'input, textarea, select, [contenteditable="true"]';
const OWNS_ARROWS = `${OWNS_TEXT_KEYS}, [role="tab"], [role="slider"], [role="radio"]`;
const OWNS_SPACE = `${OWNS_TEXT_KEYS}, button, a[href], summary, [role="tab"], [role="radio"], [role="checkbox"]`;

/**
 * Page-wide shortcuts: Space play/pause, ←/→ step back/forward, 1..9 step client N, ? shortcuts.
 * A key is left alone when the focused control uses it (typing a number, pressing a button).
 */
export function useKeyboardShortcuts(store: SimStore, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
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
      if (event.shiftKey) return;
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
        if (client.live) state.stepClient(client.id);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [store, enabled]);
}
