import { chargeBytes, chargeWork, reserveString, workPrices } from './budget';
import { jsText, lauxlib, lua, raiseError, type LuaState } from './fengari-api';
import { formatG } from './numbers';
import { JSON_NULL, type CjsonConfig, LUA_C_STACK_SLOTS } from './cjson-config';

/** cjson.encode: a Lua value to JSON text, with lua-cjson's sparse-array, depth and number rules. */

const ESCAPES: Record<number, string> = { 0x22: '\\"', 0x5c: '\\\\', 0x2f: '\\/', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };

function encodeString(bytes: Uint8Array): string {
  let out = '"';
  let plainStart = 0;
  const flush = (end: number) => {
    if (end > plainStart) out += jsText(bytes.subarray(plainStart, end));
  };
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    const escape = ESCAPES[byte] ?? (byte < 0x20 || byte === 0x7f ? `\\u${byte.toString(16).padStart(4, '0')}` : null);
    if (escape !== null) {
      flush(i);
      out += escape;
      plainStart = i + 1;
    }
  }
  flush(bytes.length);
  return `${out}"`;
}

/** json_append_number: NaN and Inf refused, written as nan/inf, or as null (encode_invalid_numbers). */
function encodeNumber(L: LuaState, config: CjsonConfig, n: number): string {
  if (!Number.isFinite(n)) {
    if (config.encodeInvalidNumbers === 0) return raiseError(L, 'Cannot serialise number: must not be NaN or Inf');
    if (config.encodeInvalidNumbers === 2) return 'null';
    // lua-cjson writes "nan" itself: some C libraries print "-nan".
    if (Number.isNaN(n)) return 'nan';
  }
  // An integer with no more digits than the precision prints as itself ("%.14g").
  if (Number.isInteger(n) && Math.abs(n) < 10 ** config.precision && !Object.is(n, -0)) return String(n);
  return formatG(n, config.precision);
}

function typeName(L: LuaState, index: number): string {
  return jsText(lua.lua_typename(L, lua.lua_type(L, index)));
}

/** A table being written: an array (items 1..length) or an object (lua_next order). */
interface EncodeFrame {
  readonly array: boolean;
  readonly length: number;
  next: number;
  first: boolean;
  /** Lua stack slots lua-cjson would hold at this level (see LUA_C_STACK_SLOTS). */
  readonly slots: number;
  readonly depth: number;
}

/** Output past which the encoder checks the memory budget again. */
const ENCODE_CHECK_BYTES = 1 << 20;

/**
 * lua-cjson's json_append_data over the value at stack index 1, without recursion: an explicit
 * stack of open tables (each kept on the Lua stack while it is written), so a deep table cannot
 * overflow the JS stack. Every value is charged to the script's budget: a table that shares
 * sub-tables (2^40 values behind 40 levels) ends with the budget error.
 */
export class Encoder {
  private readonly out: string[] = [];
  private outBytes = 0;
  private checkAtBytes = ENCODE_CHECK_BYTES;
  private readonly frames: EncodeFrame[] = [];

  constructor(
    private readonly L: LuaState,
    private readonly config: CjsonConfig,
  ) {}

  encode(): string {
    const L = this.L;
    lua.lua_pushvalue(L, 1);
    // The argument is the C function's one stack slot.
    this.value(0, 1);
    // Bounded by the budget: every step writes one value or closes one table.
    while (this.frames.length > 0) {
      const frame = this.frames[this.frames.length - 1];
      if (frame.array) {
        if (frame.next > frame.length) {
          this.close(']');
          continue;
        }
        if (frame.next > 1) this.write(',');
        lua.lua_rawgeti(L, -1, frame.next++);
        this.value(frame.depth, frame.slots + 1);
        continue;
      }
      // Object: the table and the last key are on the stack.
      if (lua.lua_next(L, -2) === 0) {
        this.close('}');
        continue;
      }
      if (!frame.first) this.write(',');
      frame.first = false;
      const keyType = lua.lua_type(L, -2);
      if (keyType === lua.LUA_TNUMBER) this.write(`"${encodeNumber(L, this.config, lua.lua_tonumber(L, -2))}":`);
      else if (keyType === lua.LUA_TSTRING) this.write(`${this.string(-2)}:`);
      else raiseError(L, `Cannot serialise ${typeName(L, -2)}: table key must be a number or string`);
      this.value(frame.depth, frame.slots + 2);
    }
    return this.out.join('');
  }

  /** Writes the value at the top of the stack and pops it, or opens it (a table stays on the stack). */
  private value(depth: number, slots: number): void {
    const L = this.L;
    chargeWork(L, workPrices.jsonValue);
    switch (lua.lua_type(L, -1)) {
      case lua.LUA_TSTRING:
        this.write(this.string(-1));
        break;
      case lua.LUA_TNUMBER:
        this.write(encodeNumber(L, this.config, lua.lua_tonumber(L, -1)));
        break;
      case lua.LUA_TBOOLEAN:
        this.write(lua.lua_toboolean(L, -1) ? 'true' : 'false');
        break;
      case lua.LUA_TNIL:
        this.write('null');
        break;
      case lua.LUA_TLIGHTUSERDATA:
        if (lua.lua_touserdata(L, -1) !== JSON_NULL) raiseError(L, `Cannot serialise ${typeName(L, -1)}: type not supported`);
        this.write('null');
        break;
      case lua.LUA_TTABLE:
        this.open(depth + 1, slots);
        return;
      default:
        raiseError(L, `Cannot serialise ${typeName(L, -1)}: type not supported`);
    }
    lua.lua_pop(L, 1);
  }

  private open(depth: number, slots: number): void {
    const L = this.L;
    // Room for this level's key and value, or for the error message.
    lauxlib.luaL_checkstack(L, 4, null);
    // json_check_encode_depth: lua-cjson needs 3 free slots per level.
    if (depth > this.config.encodeMaxDepth || slots + 3 > LUA_C_STACK_SLOTS) raiseError(L, `Cannot serialise, excessive nesting (${depth})`);
    const length = this.arrayLength();
    if (length > 0) {
      this.write('[');
      this.frames.push({ array: true, length, next: 1, first: true, slots, depth });
    } else {
      this.write('{');
      lua.lua_pushnil(L);
      this.frames.push({ array: false, length: 0, next: 0, first: true, slots, depth });
    }
  }

  /** Ends the innermost table: pops it (an object's loop already popped its last key). */
  private close(bracket: string): void {
    this.write(bracket);
    this.frames.pop();
    lua.lua_pop(this.L, 1);
  }

  /** lua_array_length: the array length, or -1 when the table is an object. */
  private arrayLength(): number {
    const L = this.L;
    const config = this.config;
    let max = 0;
    let items = 0;
    lua.lua_pushnil(L);
    // Bounded by the table's size; each entry is charged.
    while (lua.lua_next(L, -2) !== 0) {
      chargeWork(L, workPrices.jsonValue);
      if (lua.lua_type(L, -2) === lua.LUA_TNUMBER) {
        const k = lua.lua_tonumber(L, -2);
        if (Math.floor(k) === k && k >= 1) {
          // `max` is a C int: a key beyond it (inf, 2^40) becomes INT_MIN, as x86 converts.
          if (k > max) max = k < 2 ** 31 ? k : -(2 ** 31);
          items++;
          lua.lua_pop(L, 1);
          continue;
        }
      }
      lua.lua_pop(L, 2);
      return -1;
    }
    if (config.sparseRatio > 0 && max > items * config.sparseRatio && max > config.sparseSafe) {
      if (!config.sparseConvert) raiseError(L, 'Cannot serialise table: excessively sparse array');
      return -1;
    }
    return max;
  }

  private string(index: number): string {
    const bytes = lua.lua_tostring(this.L, index) as Uint8Array;
    chargeBytes(this.L, bytes.length);
    return encodeString(bytes);
  }

  private write(text: string): void {
    this.out.push(text);
    this.outBytes += text.length;
    if (this.outBytes > this.checkAtBytes) {
      // The text so far is kept until the end: check it against the memory budget as it grows.
      reserveString(this.L, this.outBytes);
      this.checkAtBytes = this.outBytes + ENCODE_CHECK_BYTES;
    }
  }
}

