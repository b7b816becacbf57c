import { chargeBytes, reserveString } from './budget';
import { jsText, lauxlib, lua, luaBytes, raiseError, type LuaState } from './fengari-api';
import { pushOwnedString } from './metering';
import { setFunctions } from './stdlib';
import { JSON_NULL, type CjsonConfig, DEFAULT_CONFIG, INT_MAX, BOOLEAN_OPTIONS, argumentsAtMost, enumOption, integerOption } from './cjson-config';
import { Encoder } from './cjson-encode';
import { Decoder } from './cjson-decode';

/**
 * lua-cjson 2.1.0 (`cjson`) as bundled with Redis 7.0: encode/decode with its defaults (14
 * significant digits, sparse arrays refused past ratio 2 beyond index 10, depth 1000) and its
 * error texts. One difference remains: object keys come out in insertion order, where the C
 * version follows Lua's hash order (JSON objects are unordered).
 */

/** The engine's handle on the library: its configuration is server state (snapshots, SCRIPT FLUSH). */
export interface CjsonLibrary {
  /** Back to the defaults, as a fresh Lua state has them (SCRIPT FLUSH). */
  reset(): void;
  /** The configuration as text, or null when it is the default. */
  save(): string | null;
  restore(text: string | null): void;
}

export function openCjsonLibrary(L: LuaState): CjsonLibrary {
  const config: CjsonConfig = { ...DEFAULT_CONFIG };
  lua.lua_createtable(L, 0, 14);
  setFunctions(L, {
    encode: (state) => {
      lauxlib.luaL_argcheck(state, lua.lua_gettop(state) === 1, 1, 'expected 1 argument');
      const json = new Encoder(state, config).encode();
      reserveString(state, json.length);
      pushOwnedString(state, luaBytes(json));
      return 1;
    },
    decode: (state) => {
      lauxlib.luaL_argcheck(state, lua.lua_gettop(state) === 1, 1, 'expected 1 argument');
      const bytes = lauxlib.luaL_checklstring(state, 1);
      if (bytes.length >= 2 && (bytes[0] === 0 || bytes[1] === 0)) raiseError(state, 'JSON parser does not support UTF-16 or UTF-32');
      chargeBytes(state, bytes.length);
      new Decoder(state, jsText(bytes), config).decodeDocument();
      return 1;
    },
    encode_sparse_array: (state) => {
      argumentsAtMost(state, 3);
      enumOption(state, 1, config, 'sparseConvert', BOOLEAN_OPTIONS);
      integerOption(state, 2, config, 'sparseRatio', 0, INT_MAX);
      integerOption(state, 3, config, 'sparseSafe', 0, INT_MAX);
      return 3;
    },
    encode_max_depth: (state) => {
      argumentsAtMost(state, 1);
      return integerOption(state, 1, config, 'encodeMaxDepth', 1, INT_MAX);
    },
    decode_max_depth: (state) => {
      argumentsAtMost(state, 1);
      return integerOption(state, 1, config, 'decodeMaxDepth', 1, INT_MAX);
    },
    encode_number_precision: (state) => {
      argumentsAtMost(state, 1);
      return integerOption(state, 1, config, 'precision', 1, 14);
    },
    encode_keep_buffer: (state) => {
      argumentsAtMost(state, 1);
      return enumOption(state, 1, config, 'encodeKeepBuffer', BOOLEAN_OPTIONS);
    },
    encode_invalid_numbers: (state) => {
      argumentsAtMost(state, 1);
      return enumOption(state, 1, config, 'encodeInvalidNumbers', ['off', 'on', 'null']);
    },
    decode_invalid_numbers: (state) => {
      argumentsAtMost(state, 1);
      return enumOption(state, 1, config, 'decodeInvalidNumbers', BOOLEAN_OPTIONS);
    },
    new: (state) => {
      lua.lua_getglobal(state, 'cjson');
      return 1;
    },
  });
  lua.lua_pushlightuserdata(L, JSON_NULL);
  lua.lua_setfield(L, -2, 'null');
  lua.lua_pushstring(L, luaBytes('cjson'));
  lua.lua_setfield(L, -2, '_NAME');
  lua.lua_pushstring(L, luaBytes('2.1.0'));
  lua.lua_setfield(L, -2, '_VERSION');
  lua.lua_setglobal(L, 'cjson');
  return {
    reset: () => Object.assign(config, DEFAULT_CONFIG),
    save: () => {
      const changed = (Object.keys(DEFAULT_CONFIG) as (keyof CjsonConfig)[]).filter((key) => config[key] !== DEFAULT_CONFIG[key]);
      return changed.length === 0 ? null : JSON.stringify(config);
    },
    restore: (text) => {
      Object.assign(config, DEFAULT_CONFIG);
      if (text === null) return;
      const saved = JSON.parse(text) as Partial<CjsonConfig>;
      for (const key of Object.keys(DEFAULT_CONFIG) as (keyof CjsonConfig)[]) {
        if (typeof saved[key] === 'number') config[key] = saved[key];
      }
    },
  };
}
