import { chargeBytes, chargeWork, reserveString, workPrices } from './budget';
import { jsText, lauxlib, lua, luaBytes, raiseError, type LuaState } from './fengari-api';
import { pushOwnedString } from './metering';
import { formatG } from './numbers';
import { setFunctions } from './stdlib';

/**
 * lua-cjson 2.1.0 (`cjson`) as bundled with Redis 7.0: encode/decode with its defaults (14
 * significant digits, sparse arrays refused past ratio 2 beyond index 10, depth 1000) and its
 * error texts. One difference remains: object keys come out in insertion order, where the C
 * version follows Lua's hash order (JSON objects are unordered).
 */

/** The `cjson.null` sentinel: a light userdata, equal to itself only. */
const JSON_NULL = Object.freeze({ cjsonNull: true });

/** lua-cjson's configuration, one per Lua state (Redis rebuilds the state on SCRIPT FLUSH). */
interface CjsonConfig {
  sparseConvert: number;
  sparseRatio: number;
  sparseSafe: number;
  encodeMaxDepth: number;
  decodeMaxDepth: number;
  precision: number;
  /** 0 off (NaN/Inf refused), 1 on (written as nan, inf), 2 null. */
  encodeInvalidNumbers: number;
  decodeInvalidNumbers: number;
  encodeKeepBuffer: number;
}

const DEFAULT_CONFIG: Readonly<CjsonConfig> = {
  sparseConvert: 0,
  sparseRatio: 2,
  sparseSafe: 10,
  encodeMaxDepth: 1000,
  decodeMaxDepth: 1000,
  precision: 14,
  encodeInvalidNumbers: 0,
  decodeInvalidNumbers: 1,
  encodeKeepBuffer: 1,
};

/**
 * Lua 5.1's LUAI_MAXCSTACK: a C function may use this many stack slots. lua-cjson asks for free
 * slots at every nesting level (lua_checkstack), so past its depth setting this is what stops a
 * deep or cyclic table, at a depth that depends on how many slots each level holds.
 */
const LUA_C_STACK_SLOTS = 8000;
const INT_MAX = 2147483647;

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

const BOOLEAN_OPTIONS = ['off', 'on'] as const;

/** json_arg_init: at most `count` arguments ("found too many arguments" on the first extra one). */
function argumentsAtMost(L: LuaState, count: number): void {
  lauxlib.luaL_argcheck(L, lua.lua_gettop(L) <= count, count + 1, 'found too many arguments');
}

/**
 * json_enum_option: a boolean (true is 1) or one of `options` by name; answers the setting as a
 * boolean while it is off or on, else by name.
 */
function enumOption<K extends keyof CjsonConfig>(L: LuaState, index: number, config: CjsonConfig, key: K, options: readonly string[]): number {
  if (!lua.lua_isnoneornil(L, index)) {
    if (lua.lua_type(L, index) === lua.LUA_TBOOLEAN) config[key] = lua.lua_toboolean(L, index) ? 1 : 0;
    else {
      const name = jsText(lauxlib.luaL_checklstring(L, index));
      const found = options.indexOf(name);
      if (found < 0) lauxlib.luaL_argerror(L, index, luaBytes(`invalid option '${name}'`));
      config[key] = found;
    }
  }
  if (config[key] <= 1) lua.lua_pushboolean(L, config[key] === 1);
  else lua.lua_pushstring(L, luaBytes(options[config[key]]));
  return 1;
}

/** json_integer_option: an integer within min..max (lua-cjson reports it as argument #1 whatever its place). */
function integerOption<K extends keyof CjsonConfig>(L: LuaState, index: number, config: CjsonConfig, key: K, min: number, max: number): number {
  if (lua.lua_type(L, index) > lua.LUA_TNIL) {
    const value = Math.trunc(lauxlib.luaL_checknumber(L, index));
    lauxlib.luaL_argcheck(L, min <= value && value <= max, 1, `expected integer between ${min} and ${max}`);
    config[key] = value;
  }
  lua.lua_pushnumber(L, config[key]);
  return 1;
}

// ------------------------------------------------------------------ encode

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
class Encoder {
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

// ------------------------------------------------------------------ decode

type TokenType =
  | 'T_OBJ_BEGIN'
  | 'T_OBJ_END'
  | 'T_ARR_BEGIN'
  | 'T_ARR_END'
  | 'T_STRING'
  | 'T_NUMBER'
  | 'T_BOOLEAN'
  | 'T_NULL'
  | 'T_COLON'
  | 'T_COMMA'
  | 'T_END'
  | 'T_ERROR';

interface Token {
  type: TokenType;
  /** 0-based index of the token's first character. */
  index: number;
  text?: string;
  number?: number;
  boolean?: boolean;
}

const SIMPLE_ESCAPES = new Map<string, string>([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
]);

const PUNCTUATION = new Map<string, TokenType>([
  ['{', 'T_OBJ_BEGIN'],
  ['}', 'T_OBJ_END'],
  ['[', 'T_ARR_BEGIN'],
  [']', 'T_ARR_END'],
  [':', 'T_COLON'],
  [',', 'T_COMMA'],
]);

/** What C's strtod accepts (decimal, hex integer, inf/infinity, nan), read where the token starts. */
const STRTOD_PATTERN = /[-+]?(?:0[xX][0-9a-fA-F]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)/iy;

function strtod(text: string): number {
  const negative = text.startsWith('-');
  const body = text.replace(/^[-+]/, '').toLowerCase();
  let value: number;
  if (body.startsWith('inf')) value = Infinity;
  else if (body === 'nan') value = NaN;
  else if (body.startsWith('0x')) value = parseInt(body.slice(2), 16);
  else value = Number(body);
  return negative ? -value : value;
}

/** json_is_invalid_number: what strict JSON refuses and strtod would read (+, hex, leading zeros, inf, nan). */
function isInvalidNumber(text: string, at: number): boolean {
  let p = at;
  if (text[p] === '+') return true;
  if (text[p] === '-') p++;
  if (text[p] === '0') {
    const next = text.charCodeAt(p + 1);
    return (next | 0x20) === 0x78 || (next >= 0x30 && next <= 0x39);
  }
  if (p < text.length && text.charCodeAt(p) <= 0x39) return false;
  const word = text.slice(p, p + 3).toLowerCase();
  return word === 'inf' || word === 'nan';
}

/** An array or object being read (its table is on the Lua stack; an object's key above it while its value is read). */
interface DecodeFrame {
  readonly array: boolean;
  index: number;
}

/**
 * lua-cjson's decoder without recursion: an explicit stack of open containers. Depth is checked
 * as lua-cjson checks it (json_decode_descend): past decode_max_depth, or when Lua 5.1 would
 * have no room for the slots the level needs (2 for an array, 3 for an object), so a document
 * of 10,000 '[' answers "Found too many nested data structures (7999) ...", as Redis does.
 */
class Decoder {
  private position = 0;
  private depth = 0;
  /** Lua stack slots lua-cjson would hold: the argument, then 1 per open array and 2 per open object. */
  private slots = 1;
  private readonly frames: DecodeFrame[] = [];

  constructor(
    private readonly L: LuaState,
    private readonly text: string,
    private readonly config: CjsonConfig,
  ) {}

  decodeDocument(): void {
    let token = this.nextToken();
    // Bounded by the input's length: every round consumes at least one token.
    for (;;) {
      // Read one value (a container is opened, and its first item read next).
      if (token.type === 'T_OBJ_BEGIN' || token.type === 'T_ARR_BEGIN') {
        const array = token.type === 'T_ARR_BEGIN';
        this.descend(token, array ? 2 : 3);
        lua.lua_createtable(this.L, 0, 0);
        this.frames.push({ array, index: 1 });
        token = this.nextToken();
        if (token.type === (array ? 'T_ARR_END' : 'T_OBJ_END')) this.ascend(array);
        else {
          if (!array) token = this.key(token);
          continue;
        }
      } else this.scalar(token);
      // A value is on the stack: store it in its container; close containers that end here.
      for (;;) {
        const frame = this.frames[this.frames.length - 1];
        if (frame === undefined) {
          const end = this.nextToken();
          if (end.type !== 'T_END') this.fail('the end', end);
          return;
        }
        if (frame.array) lua.lua_rawseti(this.L, -2, frame.index++);
        else lua.lua_rawset(this.L, -3);
        token = this.nextToken();
        if (token.type === (frame.array ? 'T_ARR_END' : 'T_OBJ_END')) {
          this.ascend(frame.array);
          continue;
        }
        if (token.type !== 'T_COMMA') this.fail(frame.array ? 'comma or array end' : 'comma or object end', token);
        token = this.nextToken();
        if (!frame.array) token = this.key(token);
        break;
      }
    }
  }

  /** An object key and its colon: pushes the key, returns the value's first token. */
  private key(token: Token): Token {
    if (token.type !== 'T_STRING') this.fail('object key string', token);
    lua.lua_pushstring(this.L, luaBytes(token.text as string));
    const colon = this.nextToken();
    if (colon.type !== 'T_COLON') this.fail('colon', colon);
    return this.nextToken();
  }

  private descend(token: Token, slotsNeeded: number): void {
    // Room for this level's table and key, or for the error message.
    lauxlib.luaL_checkstack(this.L, 4, null);
    this.depth++;
    if (this.depth > this.config.decodeMaxDepth || this.slots + slotsNeeded > LUA_C_STACK_SLOTS) {
      raiseError(this.L, `Found too many nested data structures (${this.depth}) at character ${token.index + 1}`);
    }
    this.slots += slotsNeeded - 1;
  }

  /** The container on top is complete: it is now a value on the stack. */
  private ascend(array: boolean): void {
    this.frames.pop();
    this.depth--;
    this.slots -= array ? 1 : 2;
  }

  private scalar(token: Token): void {
    const L = this.L;
    chargeWork(L, workPrices.jsonValue);
    switch (token.type) {
      case 'T_STRING':
        lua.lua_pushstring(L, luaBytes(token.text as string));
        return;
      case 'T_NUMBER':
        lua.lua_pushnumber(L, token.number as number);
        return;
      case 'T_BOOLEAN':
        lua.lua_pushboolean(L, token.boolean as boolean);
        return;
      case 'T_NULL':
        lua.lua_pushlightuserdata(L, JSON_NULL);
        return;
      default:
        this.fail('value', token);
    }
  }

  private fail(expected: string, token: Token): never {
    const found = token.type === 'T_ERROR' ? token.text : token.type;
    return raiseError(this.L, `Expected ${expected} but found ${found} at character ${token.index + 1}`);
  }

  private nextToken(): Token {
    const text = this.text;
    while (this.position < text.length && ' \t\n\r'.includes(text[this.position])) this.position++;
    const index = this.position;
    if (index >= text.length) return { type: 'T_END', index };
    const ch = text[index];
    const punctuation = PUNCTUATION.get(ch);
    if (punctuation !== undefined) {
      this.position++;
      return { type: punctuation, index };
    }
    if (ch === '"') return this.stringToken(index);
    if (text.startsWith('true', index)) {
      this.position += 4;
      return { type: 'T_BOOLEAN', index, boolean: true };
    }
    if (text.startsWith('false', index)) {
      this.position += 5;
      return { type: 'T_BOOLEAN', index, boolean: false };
    }
    if (text.startsWith('null', index)) {
      this.position += 4;
      return { type: 'T_NULL', index };
    }
    // json_next_token: '-' and digits are numbers (refused when strict and invalid); with
    // decode_invalid_numbers on (the default), also what only strtod reads: '+', inf, nan.
    const invalid = isInvalidNumber(text, index);
    if (ch === '-' || (ch >= '0' && ch <= '9')) {
      if (this.config.decodeInvalidNumbers === 0 && invalid) return { type: 'T_ERROR', index, text: 'invalid number' };
      return this.numberToken(index);
    }
    if (this.config.decodeInvalidNumbers !== 0 && invalid) return this.numberToken(index);
    return { type: 'T_ERROR', index, text: 'invalid token' };
  }

  private numberToken(index: number): Token {
    STRTOD_PATTERN.lastIndex = index;
    const match = STRTOD_PATTERN.exec(this.text);
    if (match === null) return { type: 'T_ERROR', index, text: 'invalid number' };
    this.position += match[0].length;
    return { type: 'T_NUMBER', index, number: strtod(match[0]) };
  }

  private stringToken(index: number): Token {
    const text = this.text;
    let i = index + 1;
    let out = '';
    // Bounded by the input's length.
    while (i < text.length) {
      // Plain characters up to the next quote or backslash, in one slice.
      let plainEnd = i;
      while (plainEnd < text.length && text.charCodeAt(plainEnd) !== 0x22 && text.charCodeAt(plainEnd) !== 0x5c) plainEnd++;
      if (plainEnd > i) {
        out += text.slice(i, plainEnd);
        i = plainEnd;
        continue;
      }
      const ch = text[i];
      if (ch === '"') {
        this.position = i + 1;
        return { type: 'T_STRING', index, text: out };
      }
      if (ch === '\\') {
        const esc = text[i + 1];
        const simple = esc === undefined ? undefined : SIMPLE_ESCAPES.get(esc);
        if (simple !== undefined) {
          out += simple;
          i += 2;
          continue;
        }
        if (esc === 'u') {
          const code = parseHex4(text, i + 2);
          if (code === null) return { type: 'T_ERROR', index: i, text: 'invalid unicode escape code' };
          if (code >= 0xd800 && code <= 0xdbff) {
            const low = text[i + 6] === '\\' && text[i + 7] === 'u' ? parseHex4(text, i + 8) : null;
            if (low === null || low < 0xdc00 || low > 0xdfff) return { type: 'T_ERROR', index: i, text: 'invalid unicode escape code' };
            out += String.fromCharCode(code, low);
            i += 12;
            continue;
          }
          if (code >= 0xdc00 && code <= 0xdfff) return { type: 'T_ERROR', index: i, text: 'invalid unicode escape code' };
          out += String.fromCharCode(code);
          i += 6;
          continue;
        }
        return { type: 'T_ERROR', index: i, text: 'invalid escape code' };
      }
    }
    return { type: 'T_ERROR', index: i, text: 'unexpected end of string' };
  }
}

function parseHex4(text: string, at: number): number | null {
  const hex = text.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : null;
}
