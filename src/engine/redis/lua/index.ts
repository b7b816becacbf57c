/**
 * Lockstep's Lua scripting layer: Redis 7.0 EVAL semantics on fengari. `SimRedisServer` uses
 * `createLuaScriptEngine` by default; `ScriptBusyTracker` (busy.ts) maps slow scripts to virtual
 * time (BUSY, SCRIPT KILL, UNKILLABLE).
 */
export { createLuaScriptEngine, LuaScriptEngine, type LuaScriptEngineOptions } from './engine';
export { defaultScriptTiming, ScriptBusyTracker, scriptDurationMs, type RunningScript, type ScriptTiming } from './busy';
export { sha1Hex } from './sha1';
