/**
 * A scenario library that loads like the page's (src/ui/store/page-library.ts): only the first
 * lesson at first; other bodies and the Lua engine arrive when `release()` is called (or, without
 * `manual`, on the next task). What the page does in the browser, with loads under the test's control.
 */
import type { Scenario } from '../../../src/engine/scenario';
import { usesScripts } from '../../../src/engine/uses-scripts';
import { SCENARIOS } from '../../../src/scenarios';
import { staticLibrary, type ScenarioLibrary } from '../../../src/ui/store/library';

export interface DeferredLibrary extends ScenarioLibrary {
  /** Completes every load asked for so far. */
  release(): void;
  /** Makes every load asked for so far fail (a chunk that could not be fetched). */
  fail(message: string): void;
  /** Loads asked for and not completed yet. */
  pendingCount(): number;
}

export function deferredLibrary({ manual = false } = {}): DeferredLibrary {
  const loaded = new Set<string>([SCENARIOS[0].id]);
  let lua = false;
  let waiting: { id: string | null; resolve: () => void; reject: (error: Error) => void }[] = [];
  const byId = (id: string): Scenario | undefined => SCENARIOS.find((s) => s.id === id);
  const complete = (id: string | null) => {
    if (id === null) {
      for (const s of SCENARIOS) loaded.add(s.id);
      lua = true;
      return;
    }
    loaded.add(id);
    if (usesScripts(byId(id) as Scenario)) lua = true;
  };
  const library: DeferredLibrary = {
    catalog: staticLibrary(SCENARIOS).catalog,
    runsHere: () => true,
    runElsewhere: () => {},
    loaded: (id) => (loaded.has(id) ? byId(id) : undefined),
    ready: (id) => {
      const s = loaded.has(id) ? byId(id) : undefined;
      return s !== undefined && (lua || !usesScripts(s)) ? s : undefined;
    },
    prepare: (id) => {
      if (byId(id) === undefined) return Promise.reject(new Error(`unknown scenario "${id}"`));
      return new Promise<void>((resolve, reject) => {
        waiting.push({ id, resolve, reject });
        if (!manual) setTimeout(() => library.release(), 0);
      });
    },
    prepareAll: () =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ id: null, resolve, reject });
        if (!manual) setTimeout(() => library.release(), 0);
      }),
    luaReady: () => lua,
    loadLua: () => library.prepareAll(),
    release() {
      const now = waiting;
      waiting = [];
      for (const job of now) {
        complete(job.id);
        job.resolve();
      }
    },
    fail(message) {
      const now = waiting;
      waiting = [];
      for (const job of now) job.reject(new Error(message));
    },
    pendingCount: () => waiting.length,
  };
  return library;
}
