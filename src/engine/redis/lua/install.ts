/**
 * Installs Lockstep's fengari engine as this realm's Lua engine (lua-runtime.ts). Imported for its
 * effect: statically by `lua-default.ts` (Node, the workers), dynamically by the page.
 */
import { installLuaRuntime } from '../lua-runtime';
import { createLuaScriptEngine } from './engine';

installLuaRuntime(createLuaScriptEngine);
