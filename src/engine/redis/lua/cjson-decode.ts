import { chargeWork, workPrices } from './budget';
import { lauxlib, lua, luaBytes, raiseError, type LuaState } from './fengari-api';
import { JSON_NULL, type CjsonConfig, LUA_C_STACK_SLOTS } from './cjson-config';

/** cjson.decode: JSON text to Lua values, with lua-cjson's tokens, depth limit and error texts. */

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
export class Decoder {
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

