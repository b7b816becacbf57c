/**
 * Where the store gets scenarios from. In Node (tests, harnesses) every scenario and the Lua engine
 * are there from the start (`staticLibrary`); the page starts with the first lesson and a catalog
 * of the others, and loads a scenario's body, and the Lua engine for one that evaluates scripts,
 * when it is shown or in the background after the first paint (`page-library.ts`). Once a
 * scenario is `ready`, its runs are built synchronously, as before.
 */
import { luaRuntimeInstalled } from '../../engine/redis/lua-runtime';
import type { Scenario } from '../../engine/scenario';
import { usesScripts } from '../../engine/uses-scripts';
import type { ScenarioSummary } from './types';

export interface ScenarioLibrary {
  /** Every scenario, in teaching order (fixed for the library's life): the picker's list. */
  readonly catalog: readonly ScenarioSummary[];
  /** The scenario's body, if it is loaded (whether or not its runs can start yet). */
  loaded(id: string): Scenario | undefined;
  /** The scenario, if a run of it can be built now: its body is loaded, and the Lua engine if it uses scripts. */
  ready(id: string): Scenario | undefined;
  /** Loads what `ready(id)` needs; rejects for an id not in the catalog or a failed load. */
  prepare(id: string): Promise<void>;
  /** Loads every scenario and the Lua engine: afterwards `ready` answers for every id. */
  prepareAll(): Promise<void>;
  /** The Lua engine is loaded (a definition or an edited scenario may evaluate scripts). */
  luaReady(): boolean;
  loadLua(): Promise<void>;
  /**
   * Whether runs are replayed in this thread, so that a scenario evaluating scripts needs the Lua
   * engine here to be ready. False once the page's run session moved into the engine worker,
   * which has its own: the page then loads Lua only for the workbench's editors.
   */
  runsHere(): boolean;
  /** The run session moved to a worker (the page, after the first screen): see `runsHere`. */
  runElsewhere(): void;
}

/** A scenario (a built-in one, a definition's, an edited copy) whose runs can start now. */
export function canRun(library: ScenarioLibrary, scenario: Scenario): boolean {
  return !library.runsHere() || library.luaReady() || !usesScripts(scenario);
}

/** Everything loaded already (Node: the engine installs the Lua engine when it is imported). */
export function staticLibrary(scenarios: readonly Scenario[]): ScenarioLibrary {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  const luaReady = () => luaRuntimeInstalled();
  return {
    catalog: scenarios.map((s) => ({ id: s.id, title: s.title, summary: s.summary, variants: s.variants.map((v) => ({ id: v.id, title: v.title })) })),
    loaded: (id) => byId.get(id),
    ready: (id) => byId.get(id),
    prepare: (id) => (byId.has(id) ? Promise.resolve() : Promise.reject(new Error(`unknown scenario "${id}"`))),
    prepareAll: () => Promise.resolve(),
    luaReady,
    loadLua: () => (luaReady() ? Promise.resolve() : Promise.reject(new Error('no Lua engine in this realm'))),
    // Node: every scenario's body is here; a run that moved to a worker needs nothing more of this realm.
    runsHere: () => true,
    runElsewhere: () => {},
  };
}
