/**
 * The user's own scenarios in localStorage (the document of store/my-scenarios.ts), what could
 * not be read kept aside under its own key, and other tabs' writes heard through the `storage`
 * event. Storage can be missing, full or forbidden: every access is guarded and reported.
 */
import type { MyScenarioStorage } from '../store/types';

const LIST_KEY = 'lockstep.myScenarios.v1';
const ASIDE_KEY = 'lockstep.myScenarios.corrupt.v1';
/** Kept-aside texts at most (the oldest go first). */
const asideCountMax = 20;

export function localMyScenarioStorage(win: Window): MyScenarioStorage {
  const storage = (() => {
    try {
      return win.localStorage;
    } catch {
      return null;
    }
  })();
  return {
    read() {
      try {
        return storage?.getItem(LIST_KEY) ?? null;
      } catch {
        return null;
      }
    },
    write(text) {
      if (!storage) return 'this browser does not allow storage here';
      try {
        storage.setItem(LIST_KEY, text);
        return null;
      } catch (error) {
        return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
    },
    keepAside(entries) {
      if (!storage || entries.length === 0) return;
      try {
        const before: unknown = JSON.parse(storage.getItem(ASIDE_KEY) ?? '[]');
        const kept = Array.isArray(before) ? before : [before];
        storage.setItem(ASIDE_KEY, JSON.stringify([...kept, ...entries].slice(-asideCountMax)));
      } catch {
        // Could not keep it aside: the list is then not rewritten over it (see the slice).
      }
    },
    subscribe(onChange) {
      const listener = (event: StorageEvent) => {
        if (event.key === LIST_KEY || event.key === null) onChange();
      };
      win.addEventListener('storage', listener);
      return () => win.removeEventListener('storage', listener);
    },
  };
}

/** A storage in memory, for tests and pages without localStorage. */
export function memoryMyScenarioStorage(initial: string | null = null): MyScenarioStorage & { readonly aside: { text: string; reason: string }[]; text: string | null; changeFromOtherTab(text: string): void } {
  const listeners = new Set<() => void>();
  const self = {
    text: initial,
    aside: [] as { text: string; reason: string }[],
    read: () => self.text,
    write(text: string) {
      self.text = text;
      return null;
    },
    keepAside(entries: readonly { text: string; reason: string }[]) {
      self.aside.push(...entries);
    },
    subscribe(onChange: () => void) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    /** Another tab wrote: for tests. */
    changeFromOtherTab(text: string) {
      self.text = text;
      for (const l of listeners) l();
    },
  };
  return self;
}
