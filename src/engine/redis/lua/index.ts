export { createLuaScriptEngine, LuaScriptEngine, scriptInstructionBudget, type LuaScriptEngineOptions } from './engine';
export { sha1Hex } from './sha1';
