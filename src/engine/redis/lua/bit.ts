import { lauxlib, lua, luaBytes, type LuaState } from './fengari-api';
import { setFunctions } from './stdlib';

/**
 * LuaBitOp 1.0 (`bit`), as bundled with Redis: 32-bit operations on Lua numbers. Arguments are
 * reduced like its `barg`: round to nearest (ties to even) and keep the low 32 bits; results are
 * signed 32-bit numbers.
 */

const scratch = new DataView(new ArrayBuffer(8));
/** 2^52 + 2^51: adding it puts the rounded integer part in the low mantissa bits. */
const MAGIC = 6755399441055744.0;

/** LuaBitOp's barg: the low 32 bits of round-half-even(n), unsigned. */
export function toBits(n: number): number {
  scratch.setFloat64(0, n + MAGIC, true);
  return scratch.getUint32(0, true);
}

function arg(L: LuaState, index: number): number {
  return toBits(lauxlib.luaL_checknumber(L, index));
}

function push(L: LuaState, bits: number): number {
  lua.lua_pushnumber(L, bits | 0);
  return 1;
}

function fold(op: (a: number, b: number) => number) {
  return (L: LuaState): number => {
    let acc = arg(L, 1);
    const top = lua.lua_gettop(L);
    for (let i = 2; i <= top; i++) acc = op(acc, arg(L, i));
    return push(L, acc);
  };
}

function shift(op: (bits: number, count: number) => number) {
  return (L: LuaState): number => push(L, op(arg(L, 1), arg(L, 2) & 31));
}

const HEX_LOWER = '0123456789abcdef';
const HEX_UPPER = '0123456789ABCDEF';

export function openBitLibrary(L: LuaState): void {
  lua.lua_createtable(L, 0, 12);
  setFunctions(L, {
    tobit: (state) => push(state, arg(state, 1)),
    bnot: (state) => push(state, ~arg(state, 1)),
    band: fold((a, b) => a & b),
    bor: fold((a, b) => a | b),
    bxor: fold((a, b) => a ^ b),
    lshift: shift((b, n) => b << n),
    rshift: shift((b, n) => b >>> n),
    arshift: shift((b, n) => b >> n),
    rol: shift((b, n) => (b << n) | (b >>> (32 - n))),
    ror: shift((b, n) => (b >>> n) | (b << (32 - n))),
    bswap: (state) => {
      const b = arg(state, 1);
      return push(state, ((b >>> 24) | ((b >> 8) & 0xff00) | ((b & 0xff00) << 8) | (b << 24)) >>> 0);
    },
    tohex: (state) => {
      let bits = arg(state, 1) >>> 0;
      let count = lua.lua_isnoneornil(state, 2) ? 8 : toBits(lauxlib.luaL_checknumber(state, 2)) | 0;
      const digits = count < 0 ? HEX_UPPER : HEX_LOWER;
      if (count < 0) count = -count;
      if (count > 8) count = 8;
      let text = '';
      for (let i = 0; i < count; i++) {
        text = digits[bits & 15] + text;
        bits >>>= 4;
      }
      lua.lua_pushstring(state, luaBytes(text));
      return 1;
    },
  });
  lua.lua_setglobal(L, 'bit');
}
