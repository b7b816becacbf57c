import { jsText, lauxlib, lua, luaBytes, type LuaState } from './fengari-api';

/** lua-cjson's configuration and its option setters (json_enum_option, json_integer_option). */

/** The `cjson.null` sentinel: a light userdata, equal to itself only. */
export const JSON_NULL = Object.freeze({ cjsonNull: true });

/** lua-cjson's configuration, one per Lua state (Redis rebuilds the state on SCRIPT FLUSH). */
export interface CjsonConfig {
  sparseConvert: number;
  sparseRatio: number;
  sparseSafe: number;
  encodeMaxDepth: number;
  decodeMaxDepth: number;
  precision: number;
  /** 0 off (NaN/Inf refused), 1 on (written as nan, inf), 2 null. */
  encodeInvalidNumbers: number;
  decodeInvalidNumbers: number;
  encodeKeepBuffer: number;
}

export const DEFAULT_CONFIG: Readonly<CjsonConfig> = {
  sparseConvert: 0,
  sparseRatio: 2,
  sparseSafe: 10,
  encodeMaxDepth: 1000,
  decodeMaxDepth: 1000,
  precision: 14,
  encodeInvalidNumbers: 0,
  decodeInvalidNumbers: 1,
  encodeKeepBuffer: 1,
};

/**
 * Lua 5.1's LUAI_MAXCSTACK: a C function may use this many stack slots. lua-cjson asks for free
 * slots at every nesting level (lua_checkstack), so past its depth setting this is what stops a
 * deep or cyclic table, at a depth that depends on how many slots each level holds.
 */
export const LUA_C_STACK_SLOTS = 8000;
export const INT_MAX = 2147483647;

export const BOOLEAN_OPTIONS = ['off', 'on'] as const;

/** json_arg_init: at most `count` arguments ("found too many arguments" on the first extra one). */
export function argumentsAtMost(L: LuaState, count: number): void {
  lauxlib.luaL_argcheck(L, lua.lua_gettop(L) <= count, count + 1, 'found too many arguments');
}

/**
 * json_enum_option: a boolean (true is 1) or one of `options` by name; answers the setting as a
 * boolean while it is off or on, else by name.
 */
export function enumOption<K extends keyof CjsonConfig>(L: LuaState, index: number, config: CjsonConfig, key: K, options: readonly string[]): number {
  if (!lua.lua_isnoneornil(L, index)) {
    if (lua.lua_type(L, index) === lua.LUA_TBOOLEAN) config[key] = lua.lua_toboolean(L, index) ? 1 : 0;
    else {
      const name = jsText(lauxlib.luaL_checklstring(L, index));
      const found = options.indexOf(name);
      if (found < 0) lauxlib.luaL_argerror(L, index, luaBytes(`invalid option '${name}'`));
      config[key] = found;
    }
  }
  if (config[key] <= 1) lua.lua_pushboolean(L, config[key] === 1);
  else lua.lua_pushstring(L, luaBytes(options[config[key]]));
  return 1;
}

/** json_integer_option: an integer within min..max (lua-cjson reports it as argument #1 whatever its place). */
export function integerOption<K extends keyof CjsonConfig>(L: LuaState, index: number, config: CjsonConfig, key: K, min: number, max: number): number {
  if (lua.lua_type(L, index) > lua.LUA_TNIL) {
    const value = Math.trunc(lauxlib.luaL_checknumber(L, index));
    lauxlib.luaL_argcheck(L, min <= value && value <= max, 1, `expected integer between ${min} and ${max}`);
    config[key] = value;
  }
  lua.lua_pushnumber(L, config[key]);
  return 1;
}
