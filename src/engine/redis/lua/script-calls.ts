/**
 * What a script sees of Redis beyond the VM: redis.call/pcall's checks and failures, the reply
 * helpers, EVAL's numkeys, the KEYS and ARGV globals, and Redis's global error handler.
 */
import type { ScriptCommandInfo } from '../script-engine';
import { pushErrorTable, redisErrorText } from './convert';
import { jsText, lauxlib, lua, luaBytes, lualib, type LuaState } from './fengari-api';
import { setTableReadonly } from './lua51';

/** Commands whose work grows with the number of keys rather than with their arguments or reply. */
export const KEYSPACE_WALKS = new Set(['keys', 'flushall', 'flushdb', 'dbsize', 'randomkey', 'scan']);

/** EVAL's numkeys as string2ll reads it (no sign '+', no spaces, no leading zeros), or null. */
export function parseNumkeys(text: string): number | null {
  if (text.length === 1) {
    const digit = text.charCodeAt(0) - 48;
    return digit >= 0 && digit <= 9 ? digit : null;
  }
  if (!/^-?[1-9][0-9]*$/.test(text)) return null;
  const value = BigInt(text);
  // Beyond 2^53 the count is only compared with the argument count: precision does not matter.
  return value >= -(2n ** 63n) && value < 2n ** 63n ? Number(value) : null;
}

/** A failed redis.call/pcall: {err = message}, raised for call, returned for pcall. */
export function callFailure(L: LuaState, raise: boolean, message: string): number {
  pushErrorTable(L, message);
  if (raise) lua.lua_error(L);
  return 1;
}

/** luaPushError + luaError: raises {err = "ERR <message>"}, with no position prefix. */
export function raiseRedisError(L: LuaState, message: string): never {
  pushErrorTable(L, `ERR ${message}`);
  return lua.lua_error(L);
}

/** scriptCall's checks in Redis 7.0 (script.c), in its order, before the command runs. */
export function checkScriptCall(info: ScriptCommandInfo | null, argc: number, readOnly: boolean): string | null {
  if (info === null) return 'ERR Unknown Redis command called from script';
  if ((info.arity > 0 && info.arity !== argc) || argc < -info.arity) return 'ERR Wrong number of args calling Redis command from script';
  if (info.noScript) return 'ERR This Redis command is not allowed from script';
  if (readOnly && info.write) return 'ERR Write commands are not allowed from read-only scripts.';
  return null;
}

/** redis.error_reply / redis.status_reply: one string argument, else an error table (not raised). */
export function replyHelper(L: LuaState, field: 'err' | 'ok'): number {
  if (lua.lua_gettop(L) !== 1 || lua.lua_type(L, 1) !== lua.LUA_TSTRING) {
    pushErrorTable(L, 'ERR wrong number or type of arguments');
    return 1;
  }
  const text = jsText(lua.lua_tostring(L, 1) as Uint8Array);
  if (field === 'err') {
    pushErrorTable(L, redisErrorText(text.startsWith('-') ? text : `-${text}`));
  } else {
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushvalue(L, 1);
    lua.lua_setfield(L, -2, 'ok');
  }
  return 1;
}

const NAME_KEYS = luaBytes('KEYS');
const NAME_ARGV = luaBytes('ARGV');

/** KEYS and ARGV: Redis lifts the globals' protection just to set these two. */
export function setGlobalArrays(L: LuaState, keys: readonly string[], args: readonly string[]): void {
  lua.lua_pushglobaltable(L);
  setTableReadonly(L, -1, false);
  lua.lua_pushstring(L, NAME_KEYS);
  pushStringArray(L, keys);
  lua.lua_rawset(L, -3);
  lua.lua_pushstring(L, NAME_ARGV);
  pushStringArray(L, args);
  lua.lua_rawset(L, -3);
  setTableReadonly(L, -1, true);
  lua.lua_pop(L, 1);
}

function pushStringArray(L: LuaState, values: readonly string[]): void {
  lua.lua_createtable(L, values.length, 0);
  for (let i = 0; i < values.length; i++) {
    lua.lua_pushstring(L, luaBytes(values[i]));
    lua.lua_rawseti(L, -2, i + 1);
  }
}

/**
 * Redis 7.0 defines its message handler as a global Lua function, visible to scripts. The engine
 * runs its own (JS) handler; this copy exists so the globals look the same, and it works if
 * called. It keeps `debug` in an upvalue, as Redis does, while `debug` itself stays hidden.
 */
const ERROR_HANDLER_SOURCE = `local dbg = ...
function __redis__err__handler(err)
  local i = dbg.getinfo(2,'nSl')
  if i and i.what == 'C' then
    i = dbg.getinfo(3,'nSl')
  end
  if type(err) ~= 'table' then
    err = {err='ERR ' .. tostring(err)}
  end
  if i then
    err['source'] = i.source
    err['line'] = i.currentline
  end
  return err
end`;

export function defineErrorHandlerGlobal(L: LuaState): void {
  const source = luaBytes(ERROR_HANDLER_SOURCE);
  if (lauxlib.luaL_loadbufferx(L, source, source.length, '@err_handler_def', 't') !== lua.LUA_OK) {
    throw new Error(`error handler does not compile: ${jsText(lua.lua_tostring(L, -1) ?? new Uint8Array())}`);
  }
  lauxlib.luaL_requiref(L, 'debug', lualib.luaopen_debug, 0);
  lua.lua_call(L, 1, 0);
}
