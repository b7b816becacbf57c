/**
 * The page's scenario library: the first lesson is bundled with the page, every other scenario's
 * body is a chunk of its own, and the Lua engine (fengari and Lockstep's Lua libraries) is one
 * more, imported before the first run that evaluates scripts. Each chunk is fetched once; a failed
 * fetch can be retried.
 */
import { luaRuntimeInstalled } from '../../engine/redis/lua-runtime';
import type { Scenario } from '../../engine/scenario';
import { firstScenario, SCENARIO_CATALOG } from '../../scenarios/catalog';
import type { ScenarioLibrary } from './library';

export function pageLibrary(): ScenarioLibrary {
  const bodies = new Map<string, Scenario>([[firstScenario.id, firstScenario]]);
  const loading = new Map<string, Promise<void>>();
  let luaLoading: Promise<void> | null = null;
  let runsHere = true;
  /** The Lua engine is needed in this thread for a scenario's runs only while they are replayed here. */
  const needsLua = (id: string) => runsHere && entryOf(id)?.usesScripts === true;
  const entryOf = (id: string) => SCENARIO_CATALOG.find((e) => e.id === id);

  const loadLua = (): Promise<void> => {
    if (luaRuntimeInstalled()) return Promise.resolve();
    luaLoading ??= import('../../engine/redis/lua/install').then(
      () => undefined,
      (error: unknown) => {
        luaLoading = null;
        throw error;
      },
    );
    return luaLoading;
  };
  const loadBody = (id: string): Promise<void> => {
    const entry = entryOf(id);
    if (entry === undefined) return Promise.reject(new Error(`unknown scenario "${id}"`));
    if (bodies.has(id)) return Promise.resolve();
    let pending = loading.get(id);
    if (pending === undefined) {
      pending = entry.load().then(
        (scenario) => void bodies.set(id, scenario),
        (error: unknown) => {
          loading.delete(id);
          throw error;
        },
      );
      loading.set(id, pending);
    }
    return pending;
  };
  const ready = (id: string): Scenario | undefined => {
    const body = bodies.get(id);
    if (body === undefined) return undefined;
    return needsLua(id) && !luaRuntimeInstalled() ? undefined : body;
  };
  return {
    catalog: SCENARIO_CATALOG.map((e) => ({ id: e.id, title: e.title, summary: e.summary, variants: e.variants })),
    loaded: (id) => bodies.get(id),
    ready,
    prepare: async (id) => {
      // The body and the engine are fetched side by side: the catalog says whether it uses scripts.
      await Promise.all([loadBody(id), needsLua(id) ? loadLua() : undefined]);
    },
    prepareAll: async () => {
      await Promise.all([runsHere ? loadLua() : undefined, ...SCENARIO_CATALOG.map((e) => loadBody(e.id))]);
    },
    luaReady: luaRuntimeInstalled,
    loadLua,
    runsHere: () => runsHere,
    runElsewhere: () => {
      runsHere = false;
    },
  };
}
