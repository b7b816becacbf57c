/**
 * Which Lua engine this realm (page, worker, Node process) runs scripts on. The engine is large
 * (fengari, the Lua compiler and VM, and the libraries Redis bundles), and most runs never evaluate a
 * script, so the page loads it on demand (docs/ARCHITECTURE.md, "What the first screen loads") and
 * installs it here once loaded; everywhere else `lua-default.ts` installs it when the engine loads.
 * A script command before anything was installed is a programmer error (whoever creates the run
 * must wait for the loader first), never a silent wrong answer.
 */
import type { LuaScriptEngine } from './lua/engine';

/** A script command ran before the realm had a Lua engine (the page's loader was not awaited). */
export class LuaRuntimeMissingError extends Error {
  constructor() {
    super('the Lua engine is not loaded in this realm: wait for the loader before creating a run that evaluates scripts');
    this.name = 'LuaRuntimeMissingError';
  }
}

let makeEngine: (() => LuaScriptEngine) | null = null;

/** Installs the realm's Lua engine maker (the first install wins: a realm has one Lua engine). */
export function installLuaRuntime(make: () => LuaScriptEngine): void {
  makeEngine ??= make;
}

/** The realm can run scripts now. */
export function luaRuntimeInstalled(): boolean {
  return makeEngine !== null;
}

/** A new Lua engine from the installed maker; throws `LuaRuntimeMissingError` before the install. */
export function createInstalledLuaEngine(): LuaScriptEngine {
  if (makeEngine === null) throw new LuaRuntimeMissingError();
  return makeEngine();
}
