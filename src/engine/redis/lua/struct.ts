import { chargeWork, workPrices } from './budget';
import { ByteWriter } from './byte-writer';
import { lauxlib, lua, raiseError, type LuaState } from './fengari-api';
import { pushOwnedString } from './metering';
import { setFunctions } from './stdlib';

/**
 * Roberto Ierusalimschy's `struct` library (0.2), as bundled with Redis: pack/unpack/size of
 * binary records, with x86-64 sizes (short 2, int 4, long and size_t 8) and its error texts.
 * Integers go through 64-bit C casts (BigInt here) so sign extension and truncation match.
 * Every format option is charged to the script's budget, and the packed string grows in a
 * ByteWriter that checks the memory budget (a 200 kB format is 200 kB of work, not a JS stack).
 */

const BIG = 0;
const LITTLE = 1;
const NATIVE_ENDIAN = LITTLE;
/** MAXALIGN on x86-64 (max of the double padding and sizeof(int)). */
const MAX_ALIGN = 8;
const MAX_INT_SIZE = 32;

interface Header {
  endian: number;
  align: number;
}

interface Cursor {
  readonly fmt: Uint8Array;
  at: number;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

function getNum(L: LuaState, cursor: Cursor, fallback: number): number {
  if (!isDigit(cursor.fmt[cursor.at])) return fallback;
  let a = 0;
  // Bounded by the format's length.
  do {
    const digit = cursor.fmt[cursor.at] - 0x30;
    if (a > Math.floor(2147483647 / 10) || a * 10 > 2147483647 - digit) raiseError(L, 'integral size overflow');
    a = a * 10 + digit;
    cursor.at++;
  } while (isDigit(cursor.fmt[cursor.at]));
  return a;
}

function optSize(L: LuaState, opt: string, cursor: Cursor): number {
  switch (opt) {
    case 'B':
    case 'b':
    case 'x':
      return 1;
    case 'H':
    case 'h':
      return 2;
    case 'L':
    case 'l':
    case 'T':
    case 'd':
      return 8;
    case 'f':
      return 4;
    case 'c':
      return getNum(L, cursor, 1);
    case 'i':
    case 'I': {
      const size = getNum(L, cursor, 4);
      if (size > MAX_INT_SIZE) raiseError(L, `integral size ${size} is larger than limit of ${MAX_INT_SIZE}`);
      return size;
    }
    default:
      return 0;
  }
}

function toAlign(length: number, header: Header, opt: string, size: number): number {
  if (size === 0 || opt === 'c') return 0;
  const unit = Math.min(size, header.align);
  return (unit - (length & (unit - 1))) & (unit - 1);
}

function controlOption(L: LuaState, opt: string, cursor: Cursor, header: Header): void {
  switch (opt) {
    case ' ':
      return;
    case '>':
      header.endian = BIG;
      return;
    case '<':
      header.endian = LITTLE;
      return;
    case '!': {
      const align = getNum(L, cursor, MAX_ALIGN);
      if ((align & (align - 1)) !== 0) raiseError(L, `alignment ${align} is not a power of 2`);
      header.align = align;
      return;
    }
    default:
      lauxlib.luaL_argerror(L, 1, `invalid format option '${opt}'`);
  }
}

const INTEGER_OPTIONS = new Set(['b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I']);

/** (Uinttype)n for n >= 0, (Uinttype)(Inttype)n below: C's casts of a double, as x86-64 does them. */
function integerBits(n: number): bigint {
  if (!Number.isFinite(n) || Math.abs(n) >= 2 ** 64) return 1n << 63n;
  const truncated = BigInt(Math.trunc(n));
  return BigInt.asUintN(64, truncated);
}

function pack(L: LuaState): number {
  const cursor: Cursor = { fmt: lauxlib.luaL_checklstring(L, 1), at: 0 };
  const header: Header = { endian: NATIVE_ENDIAN, align: 1 };
  const out = new ByteWriter(L);
  let arg = 2;
  // b_pack pushes a nil to separate the arguments from its buffer: a missing one reads as nil.
  lua.lua_pushnil(L);
  // Bounded by the format's length.
  while (cursor.at < cursor.fmt.length) {
    chargeWork(L, workPrices.valueConverted);
    const opt = String.fromCharCode(cursor.fmt[cursor.at++]);
    let size = optSize(L, opt, cursor);
    out.zeros(toAlign(out.length, header, opt, size));
    if (INTEGER_OPTIONS.has(opt)) {
      let value = integerBits(lauxlib.luaL_checknumber(L, arg++));
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) {
        bytes[header.endian === LITTLE ? i : size - 1 - i] = Number(value & 0xffn);
        value >>= 8n;
      }
      out.bytes(bytes);
    } else if (opt === 'x') {
      out.byte(0);
    } else if (opt === 'f' || opt === 'd') {
      const view = new DataView(new ArrayBuffer(size));
      const n = lauxlib.luaL_checknumber(L, arg++);
      if (opt === 'f') view.setFloat32(0, n, header.endian === LITTLE);
      else view.setFloat64(0, n, header.endian === LITTLE);
      out.bytes(new Uint8Array(view.buffer));
    } else if (opt === 'c' || opt === 's') {
      const text = lauxlib.luaL_checklstring(L, arg++);
      if (size === 0) size = text.length;
      if (text.length < size) lauxlib.luaL_argerror(L, arg, 'string too short');
      out.bytes(text.subarray(0, size));
      if (opt === 's') out.byte(0);
    } else controlOption(L, opt, cursor, header);
  }
  pushOwnedString(L, out.take());
  return 1;
}

function unpack(L: LuaState): number {
  const cursor: Cursor = { fmt: lauxlib.luaL_checklstring(L, 1), at: 0 };
  const data = lauxlib.luaL_checklstring(L, 2);
  const header: Header = { endian: NATIVE_ENDIAN, align: 1 };
  let pos = (lua.lua_isnoneornil(L, 3) ? 1 : Math.trunc(lauxlib.luaL_checknumber(L, 3))) - 1;
  if (!(pos >= 0)) lauxlib.luaL_argerror(L, 3, 'offset must be 1 or greater');
  lua.lua_settop(L, 2);
  // Bounded by the format's length.
  while (cursor.at < cursor.fmt.length) {
    chargeWork(L, workPrices.valueConverted);
    const opt = String.fromCharCode(cursor.fmt[cursor.at++]);
    let size = optSize(L, opt, cursor);
    pos += toAlign(pos, header, opt, size);
    if (pos + size > data.length) lauxlib.luaL_argerror(L, 2, 'data string too short');
    lauxlib.luaL_checkstack(L, 1, 'too many results');
    if (INTEGER_OPTIONS.has(opt)) {
      let value = 0n;
      for (let i = 0; i < size; i++) {
        const byte = data[pos + (header.endian === BIG ? i : size - 1 - i)];
        value = (value << 8n) | BigInt(byte);
      }
      value = BigInt.asUintN(64, value);
      const signed = opt === opt.toLowerCase();
      if (signed && size > 0) {
        const mask = BigInt.asUintN(64, ~0n << BigInt(size * 8 - 1));
        if ((value & mask) !== 0n) value |= mask;
        lua.lua_pushnumber(L, Number(BigInt.asIntN(64, value)));
      } else lua.lua_pushnumber(L, Number(value));
    } else if (opt === 'f' || opt === 'd') {
      const view = new DataView(data.buffer, data.byteOffset + pos, size);
      lua.lua_pushnumber(L, opt === 'f' ? view.getFloat32(0, header.endian === LITTLE) : view.getFloat64(0, header.endian === LITTLE));
    } else if (opt === 'c') {
      if (size === 0) {
        if (lua.lua_gettop(L) < 3 || !lua.lua_isnumber(L, -1)) raiseError(L, "format 'c0' needs a previous size");
        size = Math.trunc(lua.lua_tonumber(L, -1));
        lua.lua_pop(L, 1);
        if (pos + size > data.length) lauxlib.luaL_argerror(L, 2, 'data string too short');
      }
      lua.lua_pushstring(L, data.slice(pos, pos + size));
    } else if (opt === 's') {
      const end = data.indexOf(0, pos);
      if (end < 0) raiseError(L, 'unfinished string in data');
      size = end - pos + 1;
      lua.lua_pushstring(L, data.slice(pos, end));
    } else if (opt !== 'x') controlOption(L, opt, cursor, header);
    pos += size;
  }
  lua.lua_pushnumber(L, pos + 1);
  return lua.lua_gettop(L) - 2;
}

function size(L: LuaState): number {
  const cursor: Cursor = { fmt: lauxlib.luaL_checklstring(L, 1), at: 0 };
  const header: Header = { endian: NATIVE_ENDIAN, align: 1 };
  let pos = 0;
  // Bounded by the format's length.
  while (cursor.at < cursor.fmt.length) {
    chargeWork(L, workPrices.valueConverted);
    const opt = String.fromCharCode(cursor.fmt[cursor.at++]);
    const optionSize = optSize(L, opt, cursor);
    pos += toAlign(pos, header, opt, optionSize);
    if (opt === 's') lauxlib.luaL_argerror(L, 1, "option 's' has no fixed size");
    else if (opt === 'c' && optionSize === 0) lauxlib.luaL_argerror(L, 1, "option 'c0' has no fixed size");
    if (!/[0-9A-Za-z]/.test(opt)) controlOption(L, opt, cursor, header);
    pos += optionSize;
  }
  lua.lua_pushnumber(L, pos);
  return 1;
}

export function openStructLibrary(L: LuaState): void {
  lua.lua_createtable(L, 0, 3);
  setFunctions(L, { pack, unpack, size });
  lua.lua_setglobal(L, 'struct');
}
