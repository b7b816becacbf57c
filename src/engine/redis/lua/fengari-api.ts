import fengari from 'fengari';
import { decodeBytes, encodeString } from '../commands/bytes';

/**
 * The slice of fengari's C-like API the script engine uses, typed. fengari ships no types (the
 * project declares the module as `any`), so this file is the one place that trusts its shapes.
 */

/** An opaque fengari `lua_State`. */
export type LuaState = { readonly __luaState: unique symbol };
/** A function Lua can call: reads its arguments from the stack, pushes results, returns their count. */
export type LuaJsFunction = (L: LuaState) => number;

export interface LuaDebug {
  currentline: number;
  source: Uint8Array | null;
  short_src: Uint8Array | null;
  what: Uint8Array | null;
}

interface LuaApi {
  LUA_OK: number;
  LUA_ERRRUN: number;
  LUA_ERRSYNTAX: number;
  LUA_ERRMEM: number;
  LUA_ERRERR: number;
  LUA_TNIL: number;
  LUA_TBOOLEAN: number;
  LUA_TNUMBER: number;
  LUA_TSTRING: number;
  LUA_TTABLE: number;
  LUA_TFUNCTION: number;
  LUA_TLIGHTUSERDATA: number;
  LUA_REGISTRYINDEX: number;
  LUA_MASKCOUNT: number;
  LUA_MASKLINE: number;
  LUA_MULTRET: number;
  LUA_OPLT: number;
  lua_Debug: new () => LuaDebug;
  lua_absindex(L: LuaState, idx: number): number;
  lua_atnativeerror(L: LuaState, fn: LuaJsFunction): void;
  lua_call(L: LuaState, nargs: number, nresults: number): void;
  lua_createtable(L: LuaState, narr: number, nrec: number): void;
  lua_error(L: LuaState): never;
  lua_compare(L: LuaState, a: number, b: number, op: number): number;
  lua_getfield(L: LuaState, idx: number, k: Uint8Array | string): number;
  lua_gettable(L: LuaState, idx: number): number;
  lua_getglobal(L: LuaState, name: Uint8Array | string): number;
  lua_getinfo(L: LuaState, what: Uint8Array | string, ar: LuaDebug): number;
  lua_getmetatable(L: LuaState, idx: number): number;
  lua_getstack(L: LuaState, level: number, ar: LuaDebug): number;
  lua_gettop(L: LuaState): number;
  lua_insert(L: LuaState, idx: number): void;
  lua_isnumber(L: LuaState, idx: number): boolean;
  lua_isstring(L: LuaState, idx: number): boolean;
  lua_next(L: LuaState, idx: number): number;
  lua_pcall(L: LuaState, nargs: number, nresults: number, msgh: number): number;
  lua_pop(L: LuaState, n: number): void;
  lua_pushboolean(L: LuaState, b: boolean): void;
  lua_pushcclosure(L: LuaState, fn: LuaJsFunction, n: number): void;
  lua_pushglobaltable(L: LuaState): void;
  lua_pushjsfunction(L: LuaState, fn: LuaJsFunction): void;
  lua_pushliteral(L: LuaState, s: string): void;
  lua_pushlightuserdata(L: LuaState, p: unknown): void;
  lua_pushnil(L: LuaState): void;
  lua_pushnumber(L: LuaState, n: number): void;
  lua_pushstring(L: LuaState, s: Uint8Array | string): void;
  lua_pushvalue(L: LuaState, idx: number): void;
  lua_rawget(L: LuaState, idx: number): number;
  lua_rawgeti(L: LuaState, idx: number, n: number): number;
  lua_rawlen(L: LuaState, idx: number): number;
  lua_rawset(L: LuaState, idx: number): void;
  lua_rawseti(L: LuaState, idx: number, n: number): void;
  lua_remove(L: LuaState, idx: number): void;
  lua_replace(L: LuaState, idx: number): void;
  lua_setfield(L: LuaState, idx: number, k: Uint8Array | string): void;
  lua_setglobal(L: LuaState, name: Uint8Array | string): void;
  lua_sethook(L: LuaState, fn: ((L: LuaState, ar: LuaDebug) => void) | null, mask: number, count: number): void;
  lua_setmetatable(L: LuaState, idx: number): void;
  lua_settop(L: LuaState, idx: number): void;
  lua_toboolean(L: LuaState, idx: number): boolean;
  lua_tonumber(L: LuaState, idx: number): number;
  lua_tostring(L: LuaState, idx: number): Uint8Array | null;
  lua_touserdata(L: LuaState, idx: number): unknown;
  lua_topointer(L: LuaState, idx: number): unknown;
  lua_tocfunction(L: LuaState, idx: number): unknown;
  lua_typename(L: LuaState, t: number): Uint8Array;
  lua_upvalueindex(i: number): number;
  lua_isnoneornil(L: LuaState, idx: number): boolean;
  lua_concat(L: LuaState, n: number): void;
  lua_checkstack(L: LuaState, n: number): boolean;
  lua_type(L: LuaState, idx: number): number;
}

interface LauxlibApi {
  luaL_newstate(): LuaState;
  luaL_loadbuffer(L: LuaState, buff: Uint8Array, size: number | null, name: Uint8Array | string): number;
  luaL_loadbufferx(L: LuaState, buff: Uint8Array, size: number | null, name: Uint8Array | string, mode: string | null): number;
  luaL_argcheck(L: LuaState, cond: boolean, arg: number, extramsg: string): void;
  luaL_getmetafield(L: LuaState, obj: number, e: string | Uint8Array): number;
  luaL_requiref(L: LuaState, name: Uint8Array | string, open: LuaJsFunction, global: number): void;
  luaL_checkstack(L: LuaState, n: number, msg: string | null): void;
  luaL_checknumber(L: LuaState, arg: number): number;
  luaL_checkinteger(L: LuaState, arg: number): number;
  luaL_checklstring(L: LuaState, arg: number): Uint8Array;
  luaL_checkstring(L: LuaState, arg: number): Uint8Array;
  luaL_optinteger(L: LuaState, arg: number, def: number): number;
  luaL_checktype(L: LuaState, arg: number, t: number): void;
  luaL_checkany(L: LuaState, arg: number): void;
  luaL_argerror(L: LuaState, arg: number, extramsg: string | Uint8Array): never;
  luaL_error(L: LuaState, fmt: string | Uint8Array, ...args: unknown[]): never;
  luaL_tolstring(L: LuaState, idx: number): Uint8Array;
  luaL_where(L: LuaState, level: number): void;
}

interface LualibApi {
  luaopen_base: LuaJsFunction;
  luaopen_table: LuaJsFunction;
  luaopen_string: LuaJsFunction;
  luaopen_math: LuaJsFunction;
  luaopen_coroutine: LuaJsFunction;
  luaopen_debug: LuaJsFunction;
}

const api = fengari as {
  lua: LuaApi;
  lauxlib: LauxlibApi;
  lualib: LualibApi;
  to_luastring(s: string, cache?: boolean): Uint8Array;
};

export const lua: LuaApi = api.lua;
export const lauxlib: LauxlibApi = api.lauxlib;
export const lualib: LualibApi = api.lualib;

/**
 * JS string -> Lua string bytes, in the simulator's byte convention (commands/bytes.ts): text as
 * UTF-8, escaped bytes back to themselves. ASCII, the common case, takes a fast path.
 */
export function luaBytes(text: string): Uint8Array {
  const length = text.length;
  if (length <= 64) {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x80) return encodeString(text);
      out[i] = unit;
    }
    return out;
  }
  return encodeString(text);
}

/** Lua string bytes -> JS string, in the simulator's byte convention (invalid UTF-8 escaped, not lost). */
export function jsText(bytes: Uint8Array): string {
  const length = bytes.length;
  if (length <= 64) {
    let out = '';
    for (let i = 0; i < length; i++) {
      const byte = bytes[i];
      if (byte >= 0x80) return decodeBytes(bytes);
      out += String.fromCharCode(byte);
    }
    return out;
  }
  return decodeBytes(bytes);
}

/**
 * luaL_error without printf: prefixes the caller's position ("user_script:1: ") and raises
 * `message` verbatim, so a '%' in data cannot be read as a format directive.
 */
export function raiseError(L: LuaState, message: string): never {
  lauxlib.luaL_where(L, 1);
  lua.lua_pushstring(L, luaBytes(message));
  lua.lua_concat(L, 2);
  return lua.lua_error(L);
}
