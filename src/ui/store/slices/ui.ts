/** The ui slice: language, theme, presentation and embed modes, the open view and dialogs (shortcuts, replay command). */
import type { StateCreator } from 'zustand/vanilla';
import type { SimState, SimStoreInit, UiSlice } from '../createSimStore';

export function createUiSlice(init: SimStoreInit): StateCreator<SimState, [], [], UiSlice> {
  return (set, get) => ({
    lang: init.lang ?? 'en',
    theme: init.theme ?? 'light',
    presentation: init.presentation ?? false,
    embed: init.embed ?? false,
    embedVariants: init.embedVariants ?? true,
    view: 'timeline',
    shortcutsOpen: false,
    replayOpen: false,
    nodesOpen: false,
    debateOpen: false,
    linkError: init.linkError ?? null,
    setLang(lang) {
      set({ lang });
    },
    setTheme(theme) {
      set({ theme });
    },
    togglePresentation() {
      set({ presentation: !get().presentation });
    },
    setView(view) {
      set({ view });
    },
    setShortcutsOpen(open) {
      set({ shortcutsOpen: open });
    },
    setReplayOpen(open) {
      set({ replayOpen: open });
    },
    setNodesOpen(open) {
      set({ nodesOpen: open });
    },
    setDebateOpen(open) {
      set({ debateOpen: open });
    },
    dismissLinkError() {
      set({ linkError: null });
    },
  });
}
