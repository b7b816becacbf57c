import { jsText, lauxlib, lua, luaBytes, raiseError, type LuaState } from './fengari-api';
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

interface CjsonConfig {
  sparseConvert: boolean;
  sparseRatio: number;
  sparseSafe: number;
  encodeMaxDepth: number;
  decodeMaxDepth: number;
  precision: number;
}

function defaultConfig(): CjsonConfig {
  return { sparseConvert: false, sparseRatio: 2, sparseSafe: 10, encodeMaxDepth: 1000, decodeMaxDepth: 1000, precision: 14 };
}

export function openCjsonLibrary(L: LuaState): void {
  const config = defaultConfig();
  lua.lua_createtable(L, 0, 14);
  setFunctions(L, {
    encode: (state) => {
      lauxlib.luaL_argcheck(state, lua.lua_gettop(state) === 1, 1, 'expected 1 argument');
      const out: string[] = [];
      encodeValue(state, config, 1, 0, out);
      lua.lua_pushstring(state, luaBytes(out.join('')));
      return 1;
    },
    decode: (state) => {
      lauxlib.luaL_argcheck(state, lua.lua_gettop(state) === 1, 1, 'expected 1 argument');
      const text = jsText(lauxlib.luaL_checklstring(state, 1));
      new Decoder(state, text, config.decodeMaxDepth).decodeDocument();
      return 1;
    },
    encode_sparse_array: (state) => {
      if (!lua.lua_isnoneornil(state, 1)) config.sparseConvert = lua.lua_toboolean(state, 1);
      if (!lua.lua_isnoneornil(state, 2)) config.sparseRatio = Math.trunc(lauxlib.luaL_checknumber(state, 2));
      if (!lua.lua_isnoneornil(state, 3)) config.sparseSafe = Math.trunc(lauxlib.luaL_checknumber(state, 3));
      lua.lua_pushboolean(state, config.sparseConvert);
      lua.lua_pushnumber(state, config.sparseRatio);
      lua.lua_pushnumber(state, config.sparseSafe);
      return 3;
    },
    encode_max_depth: (state) => configNumber(state, config, 'encodeMaxDepth'),
    decode_max_depth: (state) => configNumber(state, config, 'decodeMaxDepth'),
    encode_number_precision: (state) => configNumber(state, config, 'precision'),
    encode_keep_buffer: (state) => configBoolean(state, true),
    encode_invalid_numbers: (state) => configBoolean(state, false),
    decode_invalid_numbers: (state) => configBoolean(state, true),
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
}

function configNumber(L: LuaState, config: CjsonConfig, field: 'encodeMaxDepth' | 'decodeMaxDepth' | 'precision'): number {
  if (!lua.lua_isnoneornil(L, 1)) config[field] = Math.trunc(lauxlib.luaL_checknumber(L, 1));
  lua.lua_pushnumber(L, config[field]);
  return 1;
}

function configBoolean(L: LuaState, value: boolean): number {
  lua.lua_pushboolean(L, value);
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

function encodeNumber(L: LuaState, config: CjsonConfig, n: number): string {
  if (!Number.isFinite(n)) return raiseError(L, 'Cannot serialise number: must not be NaN or Inf');
  return formatG(n, config.precision);
}

function typeName(L: LuaState, index: number): string {
  return jsText(lua.lua_typename(L, lua.lua_type(L, index)));
}

function encodeValue(L: LuaState, config: CjsonConfig, index: number, depth: number, out: string[]): void {
  const at = lua.lua_absindex(L, index);
  switch (lua.lua_type(L, at)) {
    case lua.LUA_TSTRING:
      out.push(encodeString(lua.lua_tostring(L, at) as Uint8Array));
      return;
    case lua.LUA_TNUMBER:
      out.push(encodeNumber(L, config, lua.lua_tonumber(L, at)));
      return;
    case lua.LUA_TBOOLEAN:
      out.push(lua.lua_toboolean(L, at) ? 'true' : 'false');
      return;
    case lua.LUA_TNIL:
      out.push('null');
      return;
    case lua.LUA_TLIGHTUSERDATA:
      if (lua.lua_touserdata(L, at) === JSON_NULL) {
        out.push('null');
        return;
      }
      break;
    case lua.LUA_TTABLE:
      encodeTable(L, config, at, depth + 1, out);
      return;
  }
  raiseError(L, `Cannot serialise ${typeName(L, at)}: type not supported`);
}

/** lua_array_length: the array length, or -1 when the table is an object. */
function arrayLength(L: LuaState, config: CjsonConfig, at: number): number {
  let max = 0;
  let items = 0;
  lua.lua_pushnil(L);
  // Bounded by the table's size.
  while (lua.lua_next(L, at) !== 0) {
    if (lua.lua_type(L, -2) === lua.LUA_TNUMBER) {
      const k = lua.lua_tonumber(L, -2);
      if (Math.floor(k) === k && k >= 1) {
        if (k > max) max = k;
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

function encodeTable(L: LuaState, config: CjsonConfig, at: number, depth: number, out: string[]): void {
  if (depth > config.encodeMaxDepth) raiseError(L, `Cannot serialise, excessive nesting (${depth})`);
  lauxlib.luaL_checkstack(L, 4, null);
  const length = arrayLength(L, config, at);
  if (length > 0) {
    out.push('[');
    for (let i = 1; i <= length; i++) {
      if (i > 1) out.push(',');
      lua.lua_rawgeti(L, at, i);
      encodeValue(L, config, -1, depth, out);
      lua.lua_pop(L, 1);
    }
    out.push(']');
    return;
  }
  // Lua's next() visits the array part (keys 1, 2, ...) before the hash part: integer keys come
  // first, in order, then the others in insertion order (fengari's; C Lua follows its hash order).
  const integerMembers: { key: number; json: string }[] = [];
  const otherMembers: string[] = [];
  lua.lua_pushnil(L);
  // Bounded by the table's size.
  while (lua.lua_next(L, at) !== 0) {
    const keyType = lua.lua_type(L, -2);
    let keyText: string;
    if (keyType === lua.LUA_TNUMBER) keyText = `"${encodeNumber(L, config, lua.lua_tonumber(L, -2))}":`;
    else if (keyType === lua.LUA_TSTRING) keyText = `${encodeString(lua.lua_tostring(L, -2) as Uint8Array)}:`;
    else raiseError(L, `Cannot serialise ${typeName(L, -2)}: table key must be a number or string`);
    const member: string[] = [keyText];
    encodeValue(L, config, -1, depth, member);
    const json = member.join('');
    const k = keyType === lua.LUA_TNUMBER ? lua.lua_tonumber(L, -2) : NaN;
    if (Number.isInteger(k) && k >= 1) integerMembers.push({ key: k, json });
    else otherMembers.push(json);
    lua.lua_pop(L, 1);
  }
  integerMembers.sort((a, b) => a.key - b.key);
  out.push('{', [...integerMembers.map((m) => m.json), ...otherMembers].join(','));
  out.push('}');
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

/** What C's strtod accepts (decimal, hex integer, inf/infinity, nan). */
const STRTOD_PATTERN = /^[-+]?(?:0[xX][0-9a-fA-F]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)/i;

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

class Decoder {
  private position = 0;

  constructor(
    private readonly L: LuaState,
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  decodeDocument(): void {
    const token = this.nextToken();
    this.value(token, 0);
    const end = this.nextToken();
    if (end.type !== 'T_END') this.fail('the end', end);
  }

  private fail(expected: string, token: Token): never {
    const found = token.type === 'T_ERROR' ? token.text : token.type;
    return raiseError(this.L, `Expected ${expected} but found ${found} at character ${token.index + 1}`);
  }

  private value(token: Token, depth: number): void {
    switch (token.type) {
      case 'T_STRING':
        lua.lua_pushstring(this.L, luaBytes(token.text as string));
        return;
      case 'T_NUMBER':
        lua.lua_pushnumber(this.L, token.number as number);
        return;
      case 'T_BOOLEAN':
        lua.lua_pushboolean(this.L, token.boolean as boolean);
        return;
      case 'T_NULL':
        lua.lua_pushlightuserdata(this.L, JSON_NULL);
        return;
      case 'T_OBJ_BEGIN':
        this.object(token, depth + 1);
        return;
      case 'T_ARR_BEGIN':
        this.array(token, depth + 1);
        return;
      default:
        this.fail('value', token);
    }
  }

  private checkDepth(depth: number, token: Token): void {
    if (depth > this.maxDepth) {
      raiseError(this.L, `Found too many nested data structures (${depth}) at character ${token.index + 1}`);
    }
    lauxlib.luaL_checkstack(this.L, 3, null);
  }

  private object(open: Token, depth: number): void {
    this.checkDepth(depth, open);
    lua.lua_createtable(this.L, 0, 0);
    let token = this.nextToken();
    if (token.type === 'T_OBJ_END') return;
    // Bounded by the input's length: every round consumes tokens.
    for (;;) {
      if (token.type !== 'T_STRING') this.fail('object key string', token);
      lua.lua_pushstring(this.L, luaBytes(token.text as string));
      token = this.nextToken();
      if (token.type !== 'T_COLON') this.fail('colon', token);
      this.value(this.nextToken(), depth);
      lua.lua_rawset(this.L, -3);
      token = this.nextToken();
      if (token.type === 'T_OBJ_END') return;
      if (token.type !== 'T_COMMA') this.fail('comma or object end', token);
      token = this.nextToken();
    }
  }

  private array(open: Token, depth: number): void {
    this.checkDepth(depth, open);
    lua.lua_createtable(this.L, 0, 0);
    let token = this.nextToken();
    if (token.type === 'T_ARR_END') return;
    // Bounded by the input's length: every round consumes tokens.
    for (let i = 1; ; i++) {
      this.value(token, depth);
      lua.lua_rawseti(this.L, -2, i);
      token = this.nextToken();
      if (token.type === 'T_ARR_END') return;
      if (token.type !== 'T_COMMA') this.fail('comma or array end', token);
      token = this.nextToken();
    }
  }

  private nextToken(): Token {
    const text = this.text;
    while (this.position < text.length && ' \t\n\r'.includes(text[this.position])) this.position++;
    const index = this.position;
    if (index >= text.length) return { type: 'T_END', index };
    const ch = text[index];
    const simple: Record<string, TokenType> = { '{': 'T_OBJ_BEGIN', '}': 'T_OBJ_END', '[': 'T_ARR_BEGIN', ']': 'T_ARR_END', ':': 'T_COLON', ',': 'T_COMMA' };
    if (simple[ch]) {
      this.position++;
      return { type: simple[ch], index };
    }
    if (ch === '"') return this.stringToken(index);
    for (const [word, token] of [
      ['true', { type: 'T_BOOLEAN', index, boolean: true }],
      ['false', { type: 'T_BOOLEAN', index, boolean: false }],
      ['null', { type: 'T_NULL', index }],
    ] as const) {
      if (text.startsWith(word, index)) {
        this.position += word.length;
        return { ...token };
      }
    }
    // lua-cjson 2.1 decodes "invalid numbers" by default (decode_invalid_numbers): whatever
    // strtod reads, including leading zeros, hex, '+', inf and nan.
    if (ch === '-' || ch === '+' || (ch >= '0' && ch <= '9') || /^(inf|nan)/i.test(text.slice(index, index + 3))) {
      const match = STRTOD_PATTERN.exec(text.slice(index));
      if (match === null) return { type: 'T_ERROR', index, text: 'invalid number' };
      this.position += match[0].length;
      return { type: 'T_NUMBER', index, number: strtod(match[0]) };
    }
    return { type: 'T_ERROR', index, text: 'invalid token' };
  }

  private stringToken(index: number): Token {
    const text = this.text;
    let i = index + 1;
    let out = '';
    // Bounded by the input's length.
    while (i < text.length) {
      const ch = text[i];
      if (ch === '"') {
        this.position = i + 1;
        return { type: 'T_STRING', index, text: out };
      }
      if (ch === '\\') {
        const esc = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (esc !== undefined && simple[esc] !== undefined) {
          out += simple[esc];
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
      out += ch;
      i++;
    }
    return { type: 'T_ERROR', index: i, text: 'unexpected end of string' };
  }
}

function parseHex4(text: string, at: number): number | null {
  const hex = text.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : null;
}
