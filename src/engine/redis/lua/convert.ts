import { reply, type Reply } from '../reply';
import { jsText, lauxlib, lua as luaApi, luaBytes, type LuaState } from './fengari-api';

// A module-local reference: calls through it skip the import binding on hot paths.
const lua = luaApi;

/**
 * Conversions between Lua values and RESP replies, as Redis 7.0 does them (script_lua.c,
 * RESP2): the rules a learner sees when a script returns a value or reads a redis.call result.
 */

const INT64_MIN_TEXT = '-9223372036854775808';
const TWO_POW_63 = 2 ** 63;
/** Nested tables deeper than this are cut off, like Redis's LUA_CMD_OBJCACHE-free recursion guard. */
export const replyDepthMax = 1000;

const KEY_ERR = luaBytes('err');
const KEY_OK = luaBytes('ok');

/**
 * Lua number -> integer reply: C's `(long long)` cast, so truncation toward zero. Values a
 * 64-bit integer cannot hold (NaN, +-inf, |n| >= 2^63) become INT64_MIN, as x86's cvttsd2si
 * yields (what a real redis-server on x86-64 answers).
 */
export function luaNumberToInteger(n: number): number | string {
  const truncated = Math.trunc(n);
  if (Number.isSafeInteger(truncated)) return truncated === 0 ? 0 : truncated;
  if (!(n > -TWO_POW_63 - 1) || n >= TWO_POW_63) return INT64_MIN_TEXT;
  return BigInt(truncated).toString();
}

/**
 * Reads the Lua value at the top of the stack as a Redis reply, leaving the stack as it was.
 * number -> integer (truncated), string -> bulk, true -> 1, false/nil -> nil, {err=s} -> error,
 * {ok=s} -> status, other table -> array of t[1], t[2], ... up to the first nil.
 */
export function luaToReply(L: LuaState, depth = 0): Reply {
  switch (lua.lua_type(L, -1)) {
    case lua.LUA_TSTRING:
      return reply.bulk(jsText(lua.lua_tostring(L, -1) as Uint8Array));
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, -1) ? reply.integer(1) : reply.nil();
    case lua.LUA_TNUMBER:
      return reply.integer(luaNumberToInteger(lua.lua_tonumber(L, -1)));
    case lua.LUA_TTABLE:
      return tableToReply(L, depth);
    default:
      // nil, functions, userdata, threads: Redis answers a nil bulk.
      return reply.nil();
  }
}

function tableToReply(L: LuaState, depth: number): Reply {
  if (depth >= replyDepthMax) return reply.error('ERR reached lua stack limit');
  lauxlib.luaL_checkstack(L, 4, null);
  lua.lua_pushstring(L, KEY_ERR);
  lua.lua_rawget(L, -2);
  if (lua.lua_type(L, -1) === lua.LUA_TSTRING) {
    const message = jsText(lua.lua_tostring(L, -1) as Uint8Array);
    lua.lua_pop(L, 1);
    return reply.error(errorReplyText(message));
  }
  lua.lua_pop(L, 1);
  lua.lua_pushstring(L, KEY_OK);
  lua.lua_rawget(L, -2);
  if (lua.lua_type(L, -1) === lua.LUA_TSTRING) {
    // A status line cannot hold CR/LF: Redis replaces each with a space.
    const status = jsText(lua.lua_tostring(L, -1) as Uint8Array).replace(/[\r\n]/g, ' ');
    lua.lua_pop(L, 1);
    return reply.status(status);
  }
  lua.lua_pop(L, 1);
  const items: Reply[] = [];
  // Bounded by the table itself: the first nil ends the array.
  for (let index = 1; ; index++) {
    if (lua.lua_rawgeti(L, -1, index) === lua.LUA_TNIL) {
      lua.lua_pop(L, 1);
      break;
    }
    items.push(luaToReply(L, depth + 1));
    lua.lua_pop(L, 1);
  }
  return reply.array(items);
}

/** `{err = "..."}` as the client sees it: sent as is (Redis prefixes the '-' of RESP itself), CR/LF as spaces. */
export function errorReplyText(message: string): string {
  return message.replace(/[\r\n]/g, ' ');
}

/**
 * Pushes a command reply as Lua sees it from redis.call/pcall: integer -> number, bulk -> string,
 * nil -> false, status -> {ok=s}, error -> {err=s}, array -> table.
 */
export function pushReply(L: LuaState, r: Reply, depth = 0): void {
  switch (r.type) {
    case 'bulk':
      lua.lua_pushstring(L, luaBytes(r.value));
      return;
    case 'integer':
      lua.lua_pushnumber(L, Number(r.value));
      return;
    case 'nil':
      lua.lua_pushboolean(L, false);
      return;
    case 'status':
      lua.lua_createtable(L, 0, 1);
      lua.lua_pushstring(L, luaBytes(r.value));
      lua.lua_setfield(L, -2, KEY_OK);
      return;
    case 'error':
      pushErrorTable(L, r.value);
      return;
    case 'array':
      lauxlib.luaL_checkstack(L, 2, null);
      lua.lua_createtable(L, r.value.length, 0);
      for (let i = 0; i < r.value.length; i++) {
        pushReply(L, r.value[i], depth + 1);
        lua.lua_rawseti(L, -2, i + 1);
      }
      return;
  }
}

/** Pushes `{err = message}`. */
export function pushErrorTable(L: LuaState, message: string): void {
  lua.lua_createtable(L, 0, 1);
  lua.lua_pushstring(L, luaBytes(message));
  lua.lua_setfield(L, -2, KEY_ERR);
}

/**
 * luaPushErrorBuff in Redis 7.0: "-CODE msg" keeps CODE; "msg" gets the generic "ERR" code.
 * Used by redis.error_reply and the engine's own errors.
 */
export function redisErrorText(text: string): string {
  let code = 'ERR';
  let message = text;
  if (text.startsWith('-')) {
    const space = text.indexOf(' ');
    if (space < 0) message = text.slice(1);
    else {
      code = text.slice(1, space);
      message = text.slice(space + 1);
    }
  }
  return `${code} ${message.replace(/[\r\n]+$/, '')}`;
}
