import { activeBudget, chargeWork, memoryPrices, workPrices } from './budget';
import { jsText, lauxlib, lua as luaApi, luaBytes, lualib, raiseError, type LuaJsFunction, type LuaState } from './fengari-api';
import { isReadonlyTable, lua51Escapes, lua51SyntaxMessage, raiseReadonly } from './lua51';
import { RAND48_MAX, type Rand48 } from './rand48';
import { STRING_FUNCTIONS } from './strlib51';
import { TABLE_FUNCTIONS, unpack51 } from './tablib51';

// A module-local reference: calls through it skip the import binding on hot paths.
const lua = luaApi;

/**
 * The global environment of a Redis 7.0 script: Lua 5.1's base, table, string, math and
 * coroutine libraries (no os, io, debug, package, print, dofile, loadfile), with 5.1's names
 * where 5.3 renamed or dropped them (unpack, loadstring, table.getn, math.pow, string.gfind, ...)
 * and 5.3's additions removed, so a script that works on a real server works here and a script
 * that fails there fails here too.
 */
export function openStandardLibraries(L: LuaState, random: Rand48): void {
  for (const [name, open] of [
    ['_G', lualib.luaopen_base],
    ['table', lualib.luaopen_table],
    ['string', lualib.luaopen_string],
    ['math', lualib.luaopen_math],
    ['coroutine', lualib.luaopen_coroutine],
  ] as const) {
    lauxlib.luaL_requiref(L, name, open, 1);
    lua.lua_pop(L, 1);
  }

  lua.lua_pushglobaltable(L);
  removeFields(L, ['dofile', 'loadfile', 'print', 'rawlen', 'require']);
  setString(L, '_VERSION', 'Lua 5.1');
  setFunctions(L, {
    pcall: redisPcall,
    error: error51,
    collectgarbage: collectgarbage51,
    loadstring: loadstring51,
    load: load51,
    setmetatable: setmetatable51,
    unpack: unpack51,
    gcinfo: (state) => {
      // Kilobytes in use; fengari cannot measure its heap, so a plausible constant.
      lua.lua_pushnumber(state, 84);
      return 1;
    },
  });
  lua.lua_pop(L, 1);

  withLibrary(L, 'table', () => {
    removeFields(L, ['move', 'pack', 'unpack']);
    setFunctions(L, TABLE_FUNCTIONS);
  });

  withLibrary(L, 'string', () => {
    removeFields(L, ['pack', 'packsize', 'unpack']);
    setFunctions(L, STRING_FUNCTIONS);
  });

  withLibrary(L, 'math', () => {
    removeFields(L, ['tointeger', 'type', 'ult', 'maxinteger', 'mininteger']);
    lua.lua_getfield(L, -1, 'fmod');
    lua.lua_setfield(L, -2, 'mod');
    setFunctions(L, {
      pow: numberFunction2((x, y) => Math.pow(x, y)),
      atan2: numberFunction2((y, x) => Math.atan2(y, x)),
      ldexp: numberFunction2((m, e) => m * Math.pow(2, Math.trunc(e))),
      cosh: numberFunction1(Math.cosh),
      sinh: numberFunction1(Math.sinh),
      tanh: numberFunction1(Math.tanh),
      log10: numberFunction1(Math.log10),
      log: numberFunction1(Math.log),
      max: (state) => mathExtreme(state, (a, b) => b > a),
      min: (state) => mathExtreme(state, (a, b) => b < a),
      frexp: mathFrexp,
      random: (state) => mathRandom(state, random),
      randomseed: (state) => {
        random.seed(Math.trunc(lauxlib.luaL_checknumber(state, 1)));
        return 0;
      },
    });
  });

  withLibrary(L, 'coroutine', () => {
    removeFields(L, ['isyieldable']);
    // A coroutine has its own stack (memory), and every switch unwinds or rebuilds JS frames (work).
    for (const name of ['create', 'wrap']) chargeFirst(L, name, workPrices.coroutineSwitch, memoryPrices.coroutine);
    for (const name of ['resume', 'yield']) chargeFirst(L, name, workPrices.coroutineSwitch, 0);
    lua.lua_getfield(L, -1, 'running');
    lua.lua_pushcclosure(L, coroutineRunning51, 1);
    lua.lua_setfield(L, -2, 'running');
  });

  // 5.3's luaL_argerror names a function by its path in package.loaded ("string.rep"); 5.1 says
  // "rep". Emptying the loaded-modules table makes fengari fall back to the 5.1 naming.
  lua.lua_createtable(L, 0, 0);
  lua.lua_setfield(L, lua.LUA_REGISTRYINDEX, '_LOADED');
}

/** Replaces library function `name` (in the table on top) with one that first charges `units` of work and `bytes` of memory. */
function chargeFirst(L: LuaState, name: string, units: number, bytes: number): void {
  lua.lua_getfield(L, -1, name);
  const original = lua.lua_tocfunction(L, -1) as LuaJsFunction;
  lua.lua_pop(L, 1);
  // Same stack frame as the original: argument errors still name the function as Lua 5.1 does.
  lua.lua_pushjsfunction(L, (state) => {
    const budget = activeBudget();
    if (budget !== null) {
      budget.charge(state, units);
      if (bytes > 0) budget.allocate(state, bytes);
    }
    return original(state);
  });
  lua.lua_setfield(L, -2, name);
}

function withLibrary(L: LuaState, name: string, edit: () => void): void {
  lua.lua_getglobal(L, name);
  edit();
  lua.lua_pop(L, 1);
}

function removeFields(L: LuaState, names: readonly string[]): void {
  for (const name of names) {
    lua.lua_pushnil(L);
    lua.lua_setfield(L, -2, name);
  }
}

function setString(L: LuaState, name: string, value: string): void {
  lua.lua_pushstring(L, luaBytes(value));
  lua.lua_setfield(L, -2, name);
}

export function setFunctions(L: LuaState, fns: Record<string, LuaJsFunction>): void {
  for (const [name, fn] of Object.entries(fns)) {
    lua.lua_pushjsfunction(L, fn);
    lua.lua_setfield(L, -2, name);
  }
}

function numberFunction1(fn: (x: number) => number): LuaJsFunction {
  return (L) => {
    lua.lua_pushnumber(L, fn(lauxlib.luaL_checknumber(L, 1)));
    return 1;
  };
}

function numberFunction2(fn: (x: number, y: number) => number): LuaJsFunction {
  return (L) => {
    lua.lua_pushnumber(L, fn(lauxlib.luaL_checknumber(L, 1), lauxlib.luaL_checknumber(L, 2)));
    return 1;
  };
}

function mathFrexp(L: LuaState): number {
  const x = lauxlib.luaL_checknumber(L, 1);
  if (x === 0 || !Number.isFinite(x)) {
    lua.lua_pushnumber(L, x);
    lua.lua_pushnumber(L, 0);
    return 2;
  }
  let exponent = Math.ceil(Math.log2(Math.abs(x)));
  let mantissa = x / Math.pow(2, exponent);
  // log2 rounding can leave |m| at exactly 1 or just under 0.5: normalise into [0.5, 1).
  if (Math.abs(mantissa) >= 1) {
    mantissa /= 2;
    exponent += 1;
  } else if (Math.abs(mantissa) < 0.5) {
    mantissa *= 2;
    exponent -= 1;
  }
  lua.lua_pushnumber(L, mantissa);
  lua.lua_pushnumber(L, exponent);
  return 2;
}

/** Redis's math_random: redisLrand48, C-int arguments, 5.1's error texts. */
function mathRandom(L: LuaState, random: Rand48): number {
  const r = (random.next() % RAND48_MAX) / RAND48_MAX;
  switch (lua.lua_gettop(L)) {
    case 0:
      lua.lua_pushnumber(L, r);
      return 1;
    case 1: {
      const upper = Math.trunc(lauxlib.luaL_checknumber(L, 1));
      if (!(upper >= 1)) lauxlib.luaL_argerror(L, 1, 'interval is empty');
      lua.lua_pushnumber(L, Math.floor(r * upper) + 1);
      return 1;
    }
    case 2: {
      const lower = Math.trunc(lauxlib.luaL_checknumber(L, 1));
      const upper = Math.trunc(lauxlib.luaL_checknumber(L, 2));
      if (!(lower <= upper)) lauxlib.luaL_argerror(L, 2, 'interval is empty');
      lua.lua_pushnumber(L, Math.floor(r * (upper - lower + 1)) + lower);
      return 1;
    }
    default:
      return raiseError(L, 'wrong number of arguments');
  }
}

/** 5.1's coroutine.running: the running coroutine, or nil on the main thread (5.3 adds a boolean). */
function coroutineRunning51(L: LuaState): number {
  lua.lua_pushvalue(L, lua.lua_upvalueindex(1));
  lua.lua_call(L, 0, 2);
  if (lua.lua_toboolean(L, -1)) {
    lua.lua_pushnil(L);
    return 1;
  }
  lua.lua_pop(L, 1);
  return 1;
}

/**
 * Redis 7.0 replaces `pcall` (luaRedisPcall): an error caught from redis.call is the table
 * {err = "..."}; the script sees its text instead, as it did in earlier Redis versions.
 */
function redisPcall(L: LuaState): number {
  lauxlib.luaL_checkany(L, 1);
  const argc = lua.lua_gettop(L);
  lua.lua_pushboolean(L, true);
  lua.lua_insert(L, 1);
  if (lua.lua_pcall(L, argc - 1, lua.LUA_MULTRET, 0) !== lua.LUA_OK) {
    lua.lua_remove(L, 1);
    if (lua.lua_type(L, -1) === lua.LUA_TTABLE) {
      lua.lua_getfield(L, -1, 'err');
      if (lua.lua_isstring(L, -1)) lua.lua_replace(L, -2);
      else lua.lua_pop(L, 1);
    }
    lua.lua_pushboolean(L, false);
    lua.lua_insert(L, 1);
  }
  return lua.lua_gettop(L);
}

/** 5.1's error: the position is added to numbers too (5.3 adds it to strings only). */
function error51(L: LuaState): number {
  const level = lua.lua_isnoneornil(L, 2) ? 1 : Math.trunc(lauxlib.luaL_checknumber(L, 2));
  lua.lua_settop(L, 1);
  const t = lua.lua_type(L, 1);
  if ((t === lua.LUA_TSTRING || t === lua.LUA_TNUMBER) && level > 0) {
    lauxlib.luaL_where(L, level);
    lua.lua_pushvalue(L, 1);
    lua.lua_concat(L, 2);
  }
  return lua.lua_error(L);
}

/** fengari has no lua_gc: answer as 5.1 would for a small heap. */
function collectgarbage51(L: LuaState): number {
  const option = lua.lua_isnoneornil(L, 1) ? 'collect' : jsText(lauxlib.luaL_checklstring(L, 1));
  switch (option) {
    case 'collect':
    case 'stop':
    case 'restart':
      lua.lua_pushnumber(L, 0);
      return 1;
    case 'count':
      lua.lua_pushnumber(L, 84.5);
      return 1;
    case 'step':
      lua.lua_pushboolean(L, false);
      return 1;
    case 'setpause':
    case 'setstepmul':
      lua.lua_pushnumber(L, 200);
      return 1;
    default:
      return lauxlib.luaL_argerror(L, 1, `invalid option '${option}'`);
  }
}

/** Compiles `bytes` as a text chunk (no bytecode, as Redis refuses binary chunks). */
function loadChunk(L: LuaState, bytes: Uint8Array, chunkname: Uint8Array): number {
  // Compiling costs work per byte, and the compiled function memory (about as much again).
  chargeWork(L, bytes.length * workPrices.compiledByte);
  activeBudget()?.allocate(L, bytes.length * memoryPrices.compiledPerSourceByte);
  const source = lua51Escapes(bytes);
  const status = lauxlib.luaL_loadbufferx(L, source, source.length, chunkname, 't');
  if (status !== lua.LUA_OK) {
    const message = lua51SyntaxMessage(jsText(lua.lua_tostring(L, -1) ?? new Uint8Array()));
    lua.lua_pop(L, 1);
    lua.lua_pushnil(L);
    lua.lua_pushstring(L, luaBytes(message));
    return 2;
  }
  return 1;
}

/** loadstring(s [, chunkname]): 5.1 names the chunk after its own text ([string "..."]). */
function loadstring51(L: LuaState): number {
  const source = lauxlib.luaL_checklstring(L, 1);
  const chunkname = lua.lua_isnoneornil(L, 2) ? source : lauxlib.luaL_checklstring(L, 2);
  return loadChunk(L, source, chunkname);
}

/** load(func [, chunkname]): 5.1 takes only a reader function, called until it returns nil or "". */
function load51(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TFUNCTION);
  const chunkname = lua.lua_isnoneornil(L, 2) ? luaBytes('=(load)') : lauxlib.luaL_checklstring(L, 2);
  const pieces: Uint8Array[] = [];
  let total = 0;
  // Bounded by the script's work budget: the reader is Lua code.
  for (;;) {
    lua.lua_pushvalue(L, 1);
    lua.lua_call(L, 0, 1);
    if (lua.lua_isnoneornil(L, -1)) {
      lua.lua_pop(L, 1);
      break;
    }
    if (lua.lua_type(L, -1) !== lua.LUA_TSTRING) return raiseError(L, 'reader function must return a string');
    const piece = lua.lua_tostring(L, -1) as Uint8Array;
    lua.lua_pop(L, 1);
    if (piece.length === 0) break;
    pieces.push(piece);
    total += piece.length;
  }
  const source = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    source.set(piece, offset);
    offset += piece.length;
  }
  return loadChunk(L, source, chunkname);
}

/** setmetatable refusing read-only tables, as Redis's patched lua_setmetatable does. */
function setmetatable51(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  const t = lua.lua_type(L, 2);
  if (t !== lua.LUA_TNIL && t !== lua.LUA_TTABLE) lauxlib.luaL_argerror(L, 2, 'nil or table expected');
  if (lauxlib.luaL_getmetafield(L, 1, '__metatable') !== lua.LUA_TNIL) {
    return raiseError(L, 'cannot change a protected metatable');
  }
  if (isReadonlyTable(L, 1)) raiseReadonly(L);
  lua.lua_settop(L, 2);
  lua.lua_setmetatable(L, 1);
  return 1;
}

/** 5.1's math.max/min: at least one number; comparisons as C does them (NaN never wins). */
function mathExtreme(L: LuaState, better: (current: number, candidate: number) => boolean): number {
  const n = lua.lua_gettop(L);
  let result = lauxlib.luaL_checknumber(L, 1);
  for (let i = 2; i <= n; i++) {
    const candidate = lauxlib.luaL_checknumber(L, i);
    if (better(result, candidate)) result = candidate;
  }
  lua.lua_pushnumber(L, result);
  return 1;
}
