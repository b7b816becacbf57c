// Plain fengari, in its own worker so no Lockstep patch touches it: the unlock script compiled
// once, KEYS/ARGV set per call, redis.call a stub answering GET with a fixed token. The upper
// bound for a Lua engine built on fengari.
import { parentPort, workerData } from 'node:worker_threads';
import fengari from 'fengari';

const { lua, lauxlib, lualib, to_luastring } = fengari;
const { script, roundCount, roundMs, warmupCount } = workerData;

const L = lauxlib.luaL_newstate();
lualib.luaL_openlibs(L);
const token = to_luastring('tok');
lua.lua_createtable(L, 0, 1);
lua.lua_pushjsfunction(L, (state) => {
  // GET answers the lock's token; any other command answers 1 (DEL).
  const name = lua.lua_tojsstring(state, 1).toLowerCase();
  if (name === 'get') lua.lua_pushstring(state, token);
  else lua.lua_pushnumber(state, 1);
  return 1;
});
lua.lua_setfield(L, -2, to_luastring('call'));
lua.lua_setglobal(L, to_luastring('redis'));
const source = to_luastring(script);
if (lauxlib.luaL_loadbuffer(L, source, source.length, to_luastring('@user_script')) !== lua.LUA_OK) throw new Error('compile');
const fnRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);

function evalOnce(key, arg) {
  lua.lua_createtable(L, 1, 0);
  lua.lua_pushstring(L, to_luastring(key));
  lua.lua_rawseti(L, -2, 1);
  lua.lua_setglobal(L, to_luastring('KEYS'));
  lua.lua_createtable(L, 1, 0);
  lua.lua_pushstring(L, to_luastring(arg));
  lua.lua_rawseti(L, -2, 1);
  lua.lua_setglobal(L, to_luastring('ARGV'));
  lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, fnRef);
  if (lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) throw new Error(lua.lua_tojsstring(L, -1));
  const result = lua.lua_tonumber(L, -1);
  lua.lua_pop(L, 1);
  return result;
}

for (let i = 0; i < warmupCount; i++) evalOnce('lock', 'other');
// Best of the rounds, as bench/eval.bench.ts measures the others.
let best = 0;
for (let round = 0; round < roundCount; round++) {
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < roundMs) {
    for (let i = 0; i < 1000; i++) evalOnce('lock', 'other');
    count += 1000;
    elapsed = performance.now() - start;
  }
  best = Math.max(best, (count * 1000) / elapsed);
}
parentPort.postMessage({ opsPerSec: best });
