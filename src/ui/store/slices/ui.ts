/** The ui slice: language, theme, presentation and embed modes, the open view and dialogs (shortcuts, replay command). */
import type { Lang } from '../../../i18n';
import type { SliceStore } from '../ports';
import type { LinkError, Theme } from '../types';

export type ViewTab = 'timeline' | 'sequence' | 'events';

export interface UiSlice {
  readonly lang: Lang;
  readonly theme: Theme;
  readonly presentation: boolean;
  readonly embed: boolean;
  /** An embed shows the variant toggle (`variants=0` in its query hides it). */
  readonly embedVariants: boolean;
  readonly view: ViewTab;
  readonly shortcutsOpen: boolean;
  /** The "Replay on a real Redis" dialog (the CLI command for the run shown) is open. */
  readonly replayOpen: boolean;
  /** The nodes dialog (several nodes only). */
  readonly nodesOpen: boolean;
  /** The Redlock debate lesson's dialog (node scenarios' lesson). */
  readonly debateOpen: boolean;
  readonly linkError: LinkError | null;
  setLang(lang: Lang): void;
  setTheme(theme: Theme): void;
  togglePresentation(): void;
  setView(view: ViewTab): void;
  setShortcutsOpen(open: boolean): void;
  setReplayOpen(open: boolean): void;
  setNodesOpen(open: boolean): void;
  setDebateOpen(open: boolean): void;
  dismissLinkError(): void;
}

export interface UiInit {
  readonly lang?: Lang;
  readonly theme?: Theme;
  readonly presentation?: boolean;
  readonly embed?: boolean;
  readonly embedVariants?: boolean;
  /** A link refused before the store existed (shape, scenario...), shown with the default run. */
  readonly linkError?: LinkError | null;
}

export function createUiSlice(init: UiInit): (store: SliceStore<UiSlice>) => UiSlice {
  return ({ set, get }) => ({
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
