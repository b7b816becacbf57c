import { reply, type Reply } from '../reply';
import { memoryPrices, workPrices, type ScriptBudget } from './budget';
import { jsText, lauxlib, lua as luaApi, luaBytes, type LuaState } from './fengari-api';
import { pushOwnedString, rawStringField, stringTableKey } from './metering';

// A module-local reference: calls through it skip the import binding on hot paths.
const lua = luaApi;

/**
 * Conversions between Lua values and RESP replies, as Redis 7.0 does them (script_lua.c,
 * RESP2): the rules a learner sees when a script returns a value or reads a redis.call result.
 */

const INT64_MIN_TEXT = '-9223372036854775808';
const TWO_POW_63 = 2 ** 63;
/**
 * How deep a returned table may nest before the value in place becomes the error "ERR reached
 * lua stack limit" (the rest of the reply goes on). Redis converts recursively and runs out of
 * Lua C stack (8000 slots, 4 asked for per level, 2 taken) at depth 7995, so a table that
 * contains itself answers 7995 nested one-element arrays around that error. Lockstep stops at
 * 1000, with the same error: a reply nested 7995 levels deep overflows the JS stack of
 * everything that reads it (JSON.stringify, structuredClone, the page). A documented difference
 * (tests/differential/by-design.ts).
 */
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

/** An array being filled while converting (the explicit stack of `luaToReply`). */
interface OpenArray {
  readonly items: Reply[];
  /** Next index to read from the Lua table at the top of the stack. */
  next: number;
}

/**
 * Reads the Lua value at the top of the stack as a Redis reply, leaving the stack as it was.
 * number -> integer (truncated), string -> bulk, true -> 1, false/nil -> nil, {err=s} -> error,
 * {ok=s} -> status, other table -> array of t[1], t[2], ... up to the first nil.
 *
 * Iterative (an explicit stack of open arrays, the open tables on the Lua stack), so a deep
 * table cannot overflow the JS stack; each value is charged to `budget`, so a table that shares
 * sub-tables (t = {t, t} forty times: 2^40 values) ends with the budget error, not after hours.
 */
export function luaToReply(L: LuaState, budget: ScriptBudget | null = null): Reply {
  const open: OpenArray[] = [];
  // The converter owns the value at the top of the stack: a copy here, a rawgeti result below.
  lua.lua_pushvalue(L, -1);
  let value = scalarOrOpen(L, 0, open, budget);
  if (value !== null) lua.lua_pop(L, 1);
  // Bounded by the budget (each step converts one value) or, without one, by the values reachable.
  while (open.length > 0) {
    const top = open[open.length - 1];
    if (value !== null) top.items.push(value);
    if (lua.lua_rawgeti(L, -1, top.next++) === lua.LUA_TNIL) {
      // The nil, then the table itself.
      lua.lua_pop(L, 2);
      open.pop();
      value = reply.array(top.items);
      continue;
    }
    value = scalarOrOpen(L, open.length, open, budget);
    // An opened table stays on the Lua stack until its array is complete; anything else is done.
    if (value !== null) lua.lua_pop(L, 1);
  }
  return value as Reply;
}

/**
 * Converts the value at the top of the stack when it is not an array; for an array, pushes an
 * open array (the table stays on the Lua stack) and returns null.
 */
function scalarOrOpen(L: LuaState, depth: number, open: OpenArray[], budget: ScriptBudget | null): Reply | null {
  budget?.charge(L, workPrices.valueConverted);
  budget?.hold(L, memoryPrices.replyValue);
  if (depth >= replyDepthMax) return reply.error('ERR reached lua stack limit');
  switch (lua.lua_type(L, -1)) {
    case lua.LUA_TSTRING: {
      const bytes = lua.lua_tostring(L, -1) as Uint8Array;
      budget?.charge(L, bytes.length / workPrices.bytesPerUnitCopied);
      budget?.hold(L, 2 * bytes.length);
      return reply.bulk(jsText(bytes));
    }
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, -1) ? reply.integer(1) : reply.nil();
    case lua.LUA_TNUMBER:
      return reply.integer(luaNumberToInteger(lua.lua_tonumber(L, -1)));
    case lua.LUA_TTABLE: {
      budget?.charge(L, workPrices.tableConverted);
      const special = errorOrStatus(L);
      if (special !== null) return special;
      // The table stays on the stack while its items are read (one slot, plus one per item read).
      lauxlib.luaL_checkstack(L, 2, null);
      open.push({ items: [], next: 1 });
      return null;
    }
    default:
      // nil, functions, userdata, threads: Redis answers a nil bulk.
      return reply.nil();
  }
}

const TABLE_KEY_ERR = stringTableKey(KEY_ERR);
const TABLE_KEY_OK = stringTableKey(KEY_OK);

/** {err = s} -> error reply, {ok = s} -> status reply (raw fields, as Redis reads them), else null. */
function errorOrStatus(L: LuaState): Reply | null {
  const err = rawStringField(L, -1, TABLE_KEY_ERR);
  if (err !== null) return reply.error(errorReplyText(jsText(err)));
  const ok = rawStringField(L, -1, TABLE_KEY_OK);
  // A status line cannot hold CR/LF: Redis replaces each with a space.
  if (ok !== null) return reply.status(jsText(ok).replace(/[\r\n]/g, ' '));
  return null;
}

/** `{err = "..."}` as the client sees it: sent as is (Redis prefixes the '-' of RESP itself), CR/LF as spaces. */
export function errorReplyText(message: string): string {
  return message.replace(/[\r\n]/g, ' ');
}

/**
 * Pushes a command reply as Lua sees it from redis.call/pcall: integer -> number, bulk -> string,
 * nil -> false, status -> {ok=s}, error -> {err=s}, array -> table. Each value is charged to
 * `budget` (the strings' bytes are charged where fengari creates them, metering.ts).
 */
export function pushReply(L: LuaState, r: Reply, budget: ScriptBudget | null = null): void {
  budget?.charge(L, workPrices.valueConverted);
  switch (r.type) {
    case 'bulk':
      // Encoding the JS string to bytes; copying them into Lua is charged where the string is made.
      budget?.charge(L, r.value.length / workPrices.bytesPerUnitCopied);
      pushOwnedString(L, luaBytes(r.value));
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
        pushReply(L, r.value[i], budget);
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
