import { chargeBytes, chargeWork, workPrices } from './budget';
import { ByteWriter } from './byte-writer';
import { lauxlib, lua, luaBytes, raiseError, type LuaState } from './fengari-api';
import { pushOwnedString } from './metering';
import { countTime } from './timing';
import { setFunctions } from './stdlib';

/**
 * lua-cmsgpack 0.4.0 (`cmsgpack`), as bundled with Redis: MessagePack pack/unpack. Integral
 * numbers become the smallest integer encoding, others float32 when exact, else float64; a table
 * whose keys are exactly 1..n is an array, any other a map (in the table's traversal order);
 * nesting deeper than 16 packs as nil; unsupported types pack as nil. Every value packed or
 * unpacked is charged to the script's budget (a table that shares sub-tables holds 4^16 values
 * behind 16 levels), and the packed string is checked against the memory budget as it grows.
 */

const NESTING_MAX = 16;

class Writer extends ByteWriter {
  uint(value: number, size: number): void {
    for (let i = size - 1; i >= 0; i--) this.byte(Math.floor(value / 2 ** (8 * i)) & 0xff);
  }

  big(value: bigint, size: number): void {
    for (let i = size - 1; i >= 0; i--) this.byte(Number((value >> BigInt(8 * i)) & 0xffn));
  }

  raw(data: Uint8Array): void {
    this.bytes(data);
  }
}

function encodeNumber(w: Writer, n: number): void {
  if (Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 64) {
    encodeInteger(w, n);
    return;
  }
  if (Math.fround(n) === n || Number.isNaN(n)) {
    const view = new DataView(new ArrayBuffer(4));
    view.setFloat32(0, n);
    w.byte(0xca);
    w.raw(new Uint8Array(view.buffer));
    return;
  }
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  w.byte(0xcb);
  w.raw(new Uint8Array(view.buffer));
}

function encodeInteger(w: Writer, n: number): void {
  if (n >= 0) {
    if (n <= 127) w.byte(n);
    else if (n <= 0xff) {
      w.byte(0xcc);
      w.uint(n, 1);
    } else if (n <= 0xffff) {
      w.byte(0xcd);
      w.uint(n, 2);
    } else if (n <= 0xffffffff) {
      w.byte(0xce);
      w.uint(n, 4);
    } else {
      w.byte(0xcf);
      w.big(BigInt(n), 8);
    }
  } else if (n >= -32) w.byte(0xe0 | (n + 32));
  else if (n >= -128) {
    w.byte(0xd0);
    w.uint(n & 0xff, 1);
  } else if (n >= -32768) {
    w.byte(0xd1);
    w.uint(n & 0xffff, 2);
  } else if (n >= -2147483648) {
    w.byte(0xd2);
    w.uint(n >>> 0, 4);
  } else {
    w.byte(0xd3);
    w.big(BigInt.asUintN(64, BigInt(n)), 8);
  }
}

function encodeString(w: Writer, data: Uint8Array): void {
  const length = data.length;
  if (length < 32) w.byte(0xa0 | length);
  else if (length <= 0xff) {
    w.byte(0xd9);
    w.uint(length, 1);
  } else if (length <= 0xffff) {
    w.byte(0xda);
    w.uint(length, 2);
  } else {
    w.byte(0xdb);
    w.uint(length, 4);
  }
  w.raw(data);
}

/** table_is_an_array: every key a positive integer and no holes (count == max). */
function arrayLength(L: LuaState, at: number): number {
  let count = 0;
  let max = 0;
  lua.lua_pushnil(L);
  // Bounded by the table's size.
  while (lua.lua_next(L, at) !== 0) {
    chargeWork(L, workPrices.valueConverted);
    lua.lua_pop(L, 1);
    if (lua.lua_type(L, -1) !== lua.LUA_TNUMBER) {
      lua.lua_pop(L, 1);
      return -1;
    }
    const k = lua.lua_tonumber(L, -1);
    if (!(k > 0 && Number.isInteger(k))) {
      lua.lua_pop(L, 1);
      return -1;
    }
    max = Math.max(max, k);
    count++;
  }
  return max === count ? count : -1;
}

function encodeValue(L: LuaState, w: Writer, index: number, level: number): void {
  const at = lua.lua_absindex(L, index);
  chargeWork(L, workPrices.valueConverted);
  switch (lua.lua_type(L, at)) {
    case lua.LUA_TSTRING:
      encodeString(w, lua.lua_tostring(L, at) as Uint8Array);
      return;
    case lua.LUA_TBOOLEAN:
      w.byte(lua.lua_toboolean(L, at) ? 0xc3 : 0xc2);
      return;
    case lua.LUA_TNUMBER:
      encodeNumber(w, lua.lua_tonumber(L, at));
      return;
    case lua.LUA_TTABLE:
      if (level < NESTING_MAX) {
        encodeTable(L, w, at, level + 1);
        return;
      }
      break;
  }
  w.byte(0xc0);
}

function encodeTable(L: LuaState, w: Writer, at: number, level: number): void {
  lauxlib.luaL_checkstack(L, 3, null);
  const length = arrayLength(L, at);
  if (length >= 0) {
    encodeLength(w, length, 0x90, 0xdc, 0xdd);
    for (let i = 1; i <= length; i++) {
      lua.lua_rawgeti(L, at, i);
      encodeValue(L, w, -1, level);
      lua.lua_pop(L, 1);
    }
    return;
  }
  let count = 0;
  lua.lua_pushnil(L);
  // Bounded by the table's size.
  while (lua.lua_next(L, at) !== 0) {
    lua.lua_pop(L, 1);
    count++;
  }
  encodeLength(w, count, 0x80, 0xde, 0xdf);
  lua.lua_pushnil(L);
  // Bounded by the table's size.
  while (lua.lua_next(L, at) !== 0) {
    encodeValue(L, w, -2, level);
    encodeValue(L, w, -1, level);
    lua.lua_pop(L, 1);
  }
}

function encodeLength(w: Writer, length: number, fix: number, code16: number, code32: number): void {
  if (length <= 15) w.byte(fix | length);
  else if (length <= 0xffff) {
    w.byte(code16);
    w.uint(length, 2);
  } else {
    w.byte(code32);
    w.uint(length, 4);
  }
}

function pack(L: LuaState): number {
  const argc = lua.lua_gettop(L);
  if (argc === 0) return lauxlib.luaL_argerror(L, 0, 'MessagePack pack needs input.');
  const w = new Writer(L);
  for (let i = 1; i <= argc; i++) encodeValue(L, w, i, 0);
  countTime(w.length);
  pushOwnedString(L, w.take());
  return 1;
}

class Reader {
  at: number;

  constructor(
    private readonly L: LuaState,
    private readonly data: Uint8Array,
    offset: number,
  ) {
    this.at = offset;
  }

  private need(count: number): void {
    if (this.at + count > this.data.length) raiseError(this.L, 'Missing bytes in input.');
  }

  private uint(size: number): number {
    this.need(size);
    let value = 0;
    for (let i = 0; i < size; i++) value = value * 256 + this.data[this.at++];
    return value;
  }

  private float(size: 4 | 8): number {
    this.need(size);
    const view = new DataView(this.data.buffer, this.data.byteOffset + this.at, size);
    this.at += size;
    return size === 4 ? view.getFloat32(0) : view.getFloat64(0);
  }

  private bigint(size: number, signed: boolean): number {
    this.need(size);
    let value = 0n;
    for (let i = 0; i < size; i++) value = (value << 8n) | BigInt(this.data[this.at++]);
    return Number(signed ? BigInt.asIntN(size * 8, value) : value);
  }

  private bytes(length: number): void {
    this.need(length);
    lua.lua_pushstring(this.L, this.data.slice(this.at, this.at + length));
    this.at += length;
  }

  private array(length: number): void {
    lauxlib.luaL_checkstack(this.L, 2, null);
    lua.lua_createtable(this.L, length, 0);
    for (let i = 1; i <= length; i++) {
      this.value();
      lua.lua_rawseti(this.L, -2, i);
    }
  }

  private map(length: number): void {
    lauxlib.luaL_checkstack(this.L, 3, null);
    lua.lua_createtable(this.L, 0, length);
    for (let i = 0; i < length; i++) {
      this.value();
      this.value();
      if (lua.lua_type(this.L, -2) === lua.LUA_TNIL) lua.lua_pop(this.L, 2);
      else lua.lua_rawset(this.L, -3);
    }
  }

  /** Decodes one value and pushes it. */
  value(): void {
    const L = this.L;
    chargeWork(L, workPrices.valueConverted);
    this.need(1);
    const c = this.data[this.at++];
    if (c <= 0x7f) lua.lua_pushnumber(L, c);
    else if (c >= 0xe0) lua.lua_pushnumber(L, c - 0x100);
    else if ((c & 0xe0) === 0xa0) this.bytes(c & 0x1f);
    else if ((c & 0xf0) === 0x90) this.array(c & 0x0f);
    else if ((c & 0xf0) === 0x80) this.map(c & 0x0f);
    else {
      switch (c) {
        case 0xc0:
          lua.lua_pushnil(L);
          return;
        case 0xc2:
        case 0xc3:
          lua.lua_pushboolean(L, c === 0xc3);
          return;
        case 0xca:
          lua.lua_pushnumber(L, this.float(4));
          return;
        case 0xcb:
          lua.lua_pushnumber(L, this.float(8));
          return;
        case 0xcc:
          lua.lua_pushnumber(L, this.uint(1));
          return;
        case 0xcd:
          lua.lua_pushnumber(L, this.uint(2));
          return;
        case 0xce:
          lua.lua_pushnumber(L, this.uint(4));
          return;
        case 0xcf:
          lua.lua_pushnumber(L, this.bigint(8, false));
          return;
        case 0xd0:
          lua.lua_pushnumber(L, this.bigint(1, true));
          return;
        case 0xd1:
          lua.lua_pushnumber(L, this.bigint(2, true));
          return;
        case 0xd2:
          lua.lua_pushnumber(L, this.bigint(4, true));
          return;
        case 0xd3:
          lua.lua_pushnumber(L, this.bigint(8, true));
          return;
        case 0xc4:
        case 0xd9:
          this.bytes(this.uint(1));
          return;
        case 0xc5:
        case 0xda:
          this.bytes(this.uint(2));
          return;
        case 0xc6:
        case 0xdb:
          this.bytes(this.uint(4));
          return;
        case 0xdc:
          this.array(this.uint(2));
          return;
        case 0xdd:
          this.array(this.uint(4));
          return;
        case 0xde:
          this.map(this.uint(2));
          return;
        case 0xdf:
          this.map(this.uint(4));
          return;
        default:
          raiseError(L, 'Bad data format in input.');
      }
    }
  }

  done(): boolean {
    return this.at >= this.data.length;
  }
}

/** unpack / unpack_one / unpack_limit: decode up to `limit` values (0 = all) from `offset`. */
function unpackWith(L: LuaState, limit: number, offset: number, returnOffset: boolean): number {
  const data = lauxlib.luaL_checklstring(L, 1);
  if (offset < 0 || offset > data.length) return raiseError(L, 'Start offset %d greater than input length %d.'.replace('%d', String(offset)).replace('%d', String(data.length)));
  chargeBytes(L, data.length);
  countTime(data.length);
  const reader = new Reader(L, data, offset);
  const base = lua.lua_gettop(L);
  let count = 0;
  // Bounded by the input's length: every value consumes at least one byte.
  while (!reader.done() && (limit <= 0 || count < limit)) {
    lauxlib.luaL_checkstack(L, 1, 'too many results to unpack');
    reader.value();
    count++;
  }
  if (!returnOffset || limit <= 0) return lua.lua_gettop(L) - base;
  lua.lua_pushnumber(L, reader.done() ? -1 : reader.at);
  lua.lua_insert(L, base + 1);
  return lua.lua_gettop(L) - base;
}

export function openCmsgpackLibrary(L: LuaState): void {
  lua.lua_createtable(L, 0, 8);
  setFunctions(L, {
    pack,
    unpack: (state) => unpackWith(state, 0, 0, false),
    unpack_one: (state) => unpackWith(state, 1, lua.lua_isnoneornil(state, 2) ? 0 : Math.trunc(lauxlib.luaL_checknumber(state, 2)), true),
    unpack_limit: (state) =>
      unpackWith(state, Math.trunc(lauxlib.luaL_checknumber(state, 2)), lua.lua_isnoneornil(state, 3) ? 0 : Math.trunc(lauxlib.luaL_checknumber(state, 3)), true),
  });
  for (const [name, value] of [
    ['_NAME', 'cmsgpack'],
    ['_VERSION', 'lua-cmsgpack 0.4.0'],
    ['_COPYRIGHT', 'Copyright (C) 2012, Salvatore Sanfilippo'],
    ['_DESCRIPTION', 'MessagePack C implementation for Lua'],
  ] as const) {
    lua.lua_pushstring(L, luaBytes(value));
    lua.lua_setfield(L, -2, name);
  }
  lua.lua_setglobal(L, 'cmsgpack');
}
