import { chargeWork, reserveString, workPrices } from './budget';
import { jsText, lauxlib, lua as luaApi, raiseError, type LuaJsFunction, type LuaState } from './fengari-api';
import { pushOwnedString } from './metering';

// A module-local reference: calls through it skip the import binding on hot paths.
const lua = luaApi;

/**
 * Lua 5.1's table library (ltablib.c of 5.1.5) and its `unpack`, where fengari's 5.3 versions
 * differ in what a script sees, in what they cost, or in determinism:
 * - sort is 5.1's quicksort (middle pivot, raw access). fengari's 5.3 sort picks a random pivot
 *   (Math.random) on unbalanced partitions, so equal elements and inconsistent comparators came
 *   out in a different order from run to run; here the order is the one Redis gives.
 * - concat builds its result once, after checking the memory budget, instead of growing a buffer.
 * - unpack refuses more results than Lua 5.1 has stack slots for a C function (8000), as Redis
 *   does ("too many results to unpack"); fengari allowed a million.
 * Every comparison and every string joined is charged to the script's budget.
 */

/** Lua 5.1's LUAI_MAXCSTACK: stack slots one C function may use (lua_checkstack fails past it). */
const LUA_C_STACK_SLOTS = 8000;

/** lua_checkstack of Lua 5.1 in a C function: the slots in use (its arguments and pushes) plus `n`. */
export function cStackHasRoom(L: LuaState, n: number): boolean {
  return n <= LUA_C_STACK_SLOTS && lua.lua_gettop(L) + n <= LUA_C_STACK_SLOTS;
}

/** luaL_optint / luaL_checkint: a C int (truncated, then wrapped to 32 bits as the cast does). */
function optInt(L: LuaState, index: number, fallback: number): number {
  return lua.lua_isnoneornil(L, index) ? fallback : Math.trunc(lauxlib.luaL_checknumber(L, index)) | 0;
}

/** unpack(t [, i [, j]]). */
export function unpack51(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  const i = optInt(L, 2, 1);
  const e = lua.lua_isnoneornil(L, 3) ? lua.lua_rawlen(L, 1) : Math.trunc(lauxlib.luaL_checknumber(L, 3)) | 0;
  if (i > e) return 0;
  const n = (e - i + 1) | 0;
  if (n <= 0 || !cStackHasRoom(L, n)) return raiseError(L, 'too many results to unpack');
  lauxlib.luaL_checkstack(L, n, null);
  chargeWork(L, n);
  for (let k = i; k <= e; k++) lua.lua_rawgeti(L, 1, k);
  return n;
}

/** table.concat(t [, sep [, i [, j]]]): 5.1 reads the separator before checking the table. */
function concat51(L: LuaState): number {
  const sep = lua.lua_isnoneornil(L, 2) ? new Uint8Array() : lauxlib.luaL_checklstring(L, 2);
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  let i = optInt(L, 3, 1);
  const last = lua.lua_isnoneornil(L, 4) ? lua.lua_rawlen(L, 1) : Math.trunc(lauxlib.luaL_checknumber(L, 4)) | 0;
  const parts: Uint8Array[] = [];
  let total = 0;
  // Bounded by the table's items (a missing one ends it with an error) and the budget.
  for (; i <= last; i++) {
    lua.lua_rawgeti(L, 1, i);
    if (!lua.lua_isstring(L, -1)) {
      // Redis's Lua names the offending value's type (stock 5.1 does not).
      return raiseError(L, `invalid value (${jsText(lua.lua_typename(L, lua.lua_type(L, -1)))}) at index ${i} in table for 'concat'`);
    }
    const piece = lua.lua_tostring(L, -1) as Uint8Array;
    lua.lua_pop(L, 1);
    parts.push(piece);
    total += piece.length + (i < last ? sep.length : 0);
    chargeWork(L, 1);
  }
  reserveString(L, total);
  const out = new Uint8Array(total);
  let at = 0;
  for (let k = 0; k < parts.length; k++) {
    if (k > 0) {
      out.set(sep, at);
      at += sep.length;
    }
    out.set(parts[k], at);
    at += parts[k].length;
  }
  pushOwnedString(L, out);
  return 1;
}

/** table.sort(t [, comp]): 5.1's auxsort. */
function sort51(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  const n = lua.lua_rawlen(L, 1);
  lauxlib.luaL_checkstack(L, 40, null);
  if (!lua.lua_isnoneornil(L, 2)) lauxlib.luaL_checktype(L, 2, lua.LUA_TFUNCTION);
  lua.lua_settop(L, 2);
  auxsort(L, 1, n);
  return 0;
}

function set2(L: LuaState, i: number, j: number): void {
  lua.lua_rawseti(L, 1, i);
  lua.lua_rawseti(L, 1, j);
}

/** a < b for the stack slots a and b: the comparator when given (slot 2 not nil), else Lua's `<`. */
function sortComp(L: LuaState, a: number, b: number): boolean {
  chargeWork(L, workPrices.sortComparison);
  if (lua.lua_type(L, 2) !== lua.LUA_TNIL) {
    lua.lua_pushvalue(L, 2);
    lua.lua_pushvalue(L, a - 1);
    lua.lua_pushvalue(L, b - 2);
    lua.lua_call(L, 2, 1);
    const res = lua.lua_toboolean(L, -1);
    lua.lua_pop(L, 1);
    return res;
  }
  return Boolean(lua.lua_compare(L, a, b, lua.LUA_OPLT));
}

function auxsort(L: LuaState, l: number, u: number): void {
  // Recursion on the smaller half only: depth at most log2 of the table's length.
  while (l < u) {
    lua.lua_rawgeti(L, 1, l);
    lua.lua_rawgeti(L, 1, u);
    if (sortComp(L, -1, -2)) set2(L, l, u);
    else lua.lua_pop(L, 2);
    if (u - l === 1) break;
    let i = Math.floor((l + u) / 2);
    lua.lua_rawgeti(L, 1, i);
    lua.lua_rawgeti(L, 1, l);
    if (sortComp(L, -2, -1)) set2(L, i, l);
    else {
      lua.lua_pop(L, 1);
      lua.lua_rawgeti(L, 1, u);
      if (sortComp(L, -1, -2)) set2(L, i, u);
      else lua.lua_pop(L, 2);
    }
    if (u - l === 2) break;
    lua.lua_rawgeti(L, 1, i);
    lua.lua_pushvalue(L, -1);
    lua.lua_rawgeti(L, 1, u - 1);
    set2(L, i, u - 1);
    i = l;
    let j = u - 1;
    // Bounded by the interval: i only grows and j only shrinks until they cross.
    for (;;) {
      while ((lua.lua_rawgeti(L, 1, ++i), sortComp(L, -1, -2))) {
        if (i > u) raiseError(L, 'invalid order function for sorting');
        lua.lua_pop(L, 1);
      }
      while ((lua.lua_rawgeti(L, 1, --j), sortComp(L, -3, -1))) {
        if (j < l) raiseError(L, 'invalid order function for sorting');
        lua.lua_pop(L, 1);
      }
      if (j < i) {
        lua.lua_pop(L, 3);
        break;
      }
      set2(L, i, j);
    }
    lua.lua_rawgeti(L, 1, u - 1);
    lua.lua_rawgeti(L, 1, i);
    set2(L, u - 1, i);
    if (i - l < u - i) {
      j = l;
      i = i - 1;
      l = i + 2;
    } else {
      j = i + 1;
      i = u;
      u = j - 2;
    }
    auxsort(L, j, i);
  }
}

/** 5.1's table.insert: raw access, no bounds check (a far position grows the "array"). */
function tableInsert51(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  let e = lua.lua_rawlen(L, 1) + 1;
  let pos: number;
  switch (lua.lua_gettop(L)) {
    case 2:
      pos = e;
      break;
    case 3: {
      pos = Math.trunc(lauxlib.luaL_checknumber(L, 2));
      if (pos > e) e = pos;
      // Bounded by the table's length.
      for (let i = e; i > pos; i--) {
        lua.lua_rawgeti(L, 1, i - 1);
        lua.lua_rawseti(L, 1, i);
      }
      break;
    }
    default:
      return raiseError(L, "wrong number of arguments to 'insert'");
  }
  lua.lua_rawseti(L, 1, pos);
  return 0;
}

/** 5.1's table.remove: nothing (no error) outside 1..#t. */
function tableRemove51(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  const e = lua.lua_rawlen(L, 1);
  let pos = lua.lua_isnoneornil(L, 2) ? e : Math.trunc(lauxlib.luaL_checknumber(L, 2));
  if (!(pos >= 1 && pos <= e)) return 0;
  lua.lua_rawgeti(L, 1, pos);
  // Bounded by the table's length.
  for (; pos < e; pos++) {
    lua.lua_rawgeti(L, 1, pos + 1);
    lua.lua_rawseti(L, 1, pos);
  }
  lua.lua_pushnil(L);
  lua.lua_rawseti(L, 1, e);
  return 1;
}

function tableGetn(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  lua.lua_pushnumber(L, lua.lua_rawlen(L, 1));
  return 1;
}

function tableSetn(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  return raiseError(L, "'setn' is obsolete");
}

function tableMaxn(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  let max = 0;
  lua.lua_pushnil(L);
  // Bounded by the table's size.
  while (lua.lua_next(L, 1) !== 0) {
    lua.lua_pop(L, 1);
    if (lua.lua_type(L, -1) === lua.LUA_TNUMBER) max = Math.max(max, lua.lua_tonumber(L, -1));
  }
  lua.lua_pushnumber(L, max);
  return 1;
}

function tableForeach(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  lauxlib.luaL_checktype(L, 2, lua.LUA_TFUNCTION);
  lua.lua_pushnil(L);
  // Bounded by the table's size.
  while (lua.lua_next(L, 1) !== 0) {
    lua.lua_pushvalue(L, 2);
    lua.lua_pushvalue(L, -3);
    lua.lua_pushvalue(L, -3);
    lua.lua_call(L, 2, 1);
    if (!lua.lua_isnoneornil(L, -1)) return 1;
    lua.lua_pop(L, 2);
  }
  return 0;
}

function tableForeachi(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  lauxlib.luaL_checktype(L, 2, lua.LUA_TFUNCTION);
  const n = lua.lua_rawlen(L, 1);
  for (let i = 1; i <= n; i++) {
    lua.lua_pushvalue(L, 2);
    lua.lua_pushnumber(L, i);
    lua.lua_rawgeti(L, 1, i);
    lua.lua_call(L, 2, 1);
    if (!lua.lua_isnoneornil(L, -1)) return 1;
    lua.lua_pop(L, 1);
  }
  return 0;
}

/** The 5.1 table library's functions that replace or add to fengari's. */
export const TABLE_FUNCTIONS: Record<string, LuaJsFunction> = {
  concat: concat51,
  sort: sort51,
  getn: tableGetn,
  setn: tableSetn,
  maxn: tableMaxn,
  foreach: tableForeach,
  foreachi: tableForeachi,
  insert: tableInsert51,
  remove: tableRemove51,
};
