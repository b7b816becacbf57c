import { chargeWork, reserveString } from './budget';
import { lauxlib, lua as luaApi, raiseError, type LuaJsFunction, type LuaState } from './fengari-api';
import { pushOwnedString } from './metering';
import { PATTERN_FUNCTIONS } from './patterns';
import { stringFormat51 } from './strformat';
import { cStackHasRoom } from './tablib51';

// A module-local reference: calls through it skip the import binding on hot paths.
const lua = luaApi;

/**
 * Lua 5.1's string functions where fengari's 5.3 ones differ (lstrlib.c of 5.1.5): the pattern
 * functions (patterns.ts), format (strformat.ts), rep, byte and char. Each checks the script's
 * memory budget before it builds a string, and charges its work.
 */

/** A C int argument (luaL_checkint): truncated, then wrapped to 32 bits as C's cast does. */
function checkInt(L: LuaState, index: number): number {
  return Math.trunc(lauxlib.luaL_checknumber(L, index)) | 0;
}

/**
 * 5.1's string.rep(s, n): no separator argument, and n is a C int, so rep('x', 2^32 + 3) is
 * "xxx" and rep('x', 2^31) is "" on a real server. A result bigger than the script's memory
 * budget ends the script with the budget error before it is built.
 */
function rep51(L: LuaState): number {
  const unit = lauxlib.luaL_checklstring(L, 1);
  const count = checkInt(L, 2);
  if (count <= 0 || unit.length === 0) {
    lua.lua_pushstring(L, new Uint8Array());
    return 1;
  }
  reserveString(L, unit.length * count);
  const out = new Uint8Array(unit.length * count);
  if (unit.length === 1) out.fill(unit[0]);
  else {
    out.set(unit, 0);
    // Doubling copies: log2(count) copies instead of count.
    for (let filled = unit.length; filled < out.length; filled *= 2) out.copyWithin(filled, 0, Math.min(filled, out.length - filled));
  }
  pushOwnedString(L, out);
  return 1;
}

/** 5.1's posrelat. */
function posrelat(pos: number, len: number): number {
  if (pos < 0) pos += len + 1;
  return pos >= 0 ? pos : 0;
}

/** 5.1's string.byte: one result per byte, as many as a C function may push (8000 stack slots). */
function byte51(L: LuaState): number {
  const s = lauxlib.luaL_checklstring(L, 1);
  const l = s.length;
  let posi = posrelat(lua.lua_isnoneornil(L, 2) ? 1 : Math.trunc(lauxlib.luaL_checknumber(L, 2)), l);
  let pose = posrelat(lua.lua_isnoneornil(L, 3) ? posi : Math.trunc(lauxlib.luaL_checknumber(L, 3)), l);
  if (posi <= 0) posi = 1;
  if (pose > l) pose = l;
  if (posi > pose) return 0;
  const n = pose - posi + 1;
  if (!cStackHasRoom(L, n)) return raiseError(L, 'stack overflow (string slice too long)');
  lauxlib.luaL_checkstack(L, n, null);
  chargeWork(L, n);
  for (let i = 0; i < n; i++) lua.lua_pushnumber(L, s[posi + i - 1]);
  return n;
}

/** 5.1's string.char: C ints truncated, each in 0..255 ("invalid value" otherwise). */
function char51(L: LuaState): number {
  const n = lua.lua_gettop(L);
  const bytes = new Uint8Array(n);
  for (let i = 1; i <= n; i++) {
    const c = Math.trunc(lauxlib.luaL_checknumber(L, i));
    if (!(c >= 0 && c <= 255)) lauxlib.luaL_argerror(L, i, 'invalid value');
    bytes[i - 1] = c;
  }
  lua.lua_pushstring(L, bytes);
  return 1;
}

/** The 5.1 string library's functions that replace fengari's. */
export const STRING_FUNCTIONS: Record<string, LuaJsFunction> = {
  ...PATTERN_FUNCTIONS,
  format: stringFormat51,
  rep: rep51,
  byte: byte51,
  char: char51,
};
