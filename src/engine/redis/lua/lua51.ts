import ldebug from 'fengari/src/ldebug.js';
import llex from 'fengari/src/llex.js';
import lobject from 'fengari/src/lobject.js';
import lstate from 'fengari/src/lstate.js';
import lstring from 'fengari/src/lstring.js';
import ltable from 'fengari/src/ltable.js';
import ltm from 'fengari/src/ltm.js';
import { lua, luaBytes, type LuaState } from './fengari-api';
import { activeBudget, memoryPrices, workPrices, type ScriptBudget } from './budget';
import { formatLuaNumber } from './numbers';
import { countTime, timeWeights } from './timing';

/**
 * Makes fengari (Lua 5.3 in JS) behave like Redis's Lua 5.1 where a learner can see it. Patched
 * once per JS realm, on fengari's shared module objects, so every fengari state in the realm gets
 * them (only this engine uses fengari).
 *
 * Numbers. Lua 5.1 has one number type, a double. fengari has 5.3's two subtypes, and its
 * integers are 32-bit: `2147483647 + 1` wraps, `4/2` prints "2.0". Choice: every number is a
 * double. The VM asks a value `ttisinteger()` / `ttisfloat()` before every arithmetic, comparison,
 * for-loop and conversion, so answering "never an integer, always a float" on TValue's prototype
 * sends all of them down the float paths: no wrap at 2^31, `/` and `^` as in 5.1, loop counters
 * exact up to 2^53. Integer-tagged values still exist (literals, `#t`, library results) but
 * nothing treats them as integers. Number-to-text goes through `luaO_tostring` (tostring, `..`,
 * lua_tostring) and `luaO_pushvfstring` (%d/%f in messages such as "user_script:1:"): both are
 * replaced to print 5.1's "%.14g" with no ".0" suffix. Chosen over converting at the boundary because integers are born inside
 * the VM (literals, `#`, string.len), not only at the boundary, and over a source rewrite
 * because it leaves the parser and the line numbers of errors untouched.
 *
 * Syntax. 5.3-only tokens must fail to compile, at the line and with the message Lua 5.1 gives.
 * The parser reads tokens through `llex.luaX_next`; the wrapper below re-tokenises the way 5.1's
 * lexer would: `//` `<<` `>>` `::` become two one-character tokens, `&` `|` `~` become tokens no
 * grammar rule accepts (printed back as themselves in the message), and `goto` is a plain name.
 * The 5.3 parser then fails exactly where 5.1's would ("unexpected symbol near '/'", "'<eof>'
 * expected near '&'").
 *
 * Tables. fengari's tables are JS Maps in insertion order; 5.1's have an array part visited
 * first. `#t` becomes 5.1's search from 1 (fengari starts from the Map's size, which answers 3
 * for {[1]=1, [3]=3} where 5.1 answers 1), next()/pairs visits the integer keys 1..#t in order
 * before the others (a constructor {10, 20, 30} otherwise iterates 3, 2, 1), and `__len` is
 * ignored on tables as 5.1 does. Other keys still come in insertion order, not 5.1's hash order.
 *
 * Read-only tables. Redis 7.0 protects every table reachable from the globals: any write
 * raises "Attempt to modify a readonly table". fengari writes table slots through
 * `ltable.luaH_setfrom` / `luaH_setint` (VM, API, libraries alike), so a check there covers
 * assignment, rawset and table.insert.
 */

/** What the engine is told while a script runs (see patchCallDepth). */
export interface RunHooks {
  /** Called when a call would nest deeper than Lua 5.1 allows (`callDepthMax`): raise "stack overflow" soon. */
  tooDeep(L: LuaState): void;
}

/**
 * Lua 5.1 stops at 16384 nested calls (its CallInfo array may grow to 16384 entries, LUAI_MAXCALLS
 * being 20000): a recursion of 16382 levels runs on a fresh redis-server 7.0, 16383 fails with
 * "stack overflow". fengari's limit is its stack size (a million slots), so the depth is counted
 * here, in the same units (call frames, the base frame included).
 */
export const callDepthMax = 16384;

/** Set while a script runs. */
let activeState: LuaState | null = null;
let activeHooks: RunHooks | null = null;

export function setActiveRun(L: LuaState | null, hooks: RunHooks | null): void {
  activeState = L;
  activeHooks = hooks;
}

interface FengariTable {
  readonly?: boolean;
  strong?: Map<unknown, unknown>;
  /** 5.1's array-part size, as a table constructor sets it (see getn51). */
  sizearray51?: number;
}

const READONLY_MESSAGE = luaBytes('Attempt to modify a readonly table');

/** Control characters that stand in for `&`, `|`, `~` in the token stream (printed as '<\N>'). */
const STAND_INS: ReadonlyArray<readonly [standIn: number, shown: string]> = [
  [0x1d, '&'],
  [0x1e, '|'],
  [0x1f, '~'],
];

let installed = false;
/** Decodes fengari's format strings and token names (ASCII). */
const ascii = new TextDecoder();

export function installLua51Semantics(): void {
  if (installed) return;
  installed = true;
  patchNumbers();
  patchLexer();
  patchTableWrites();
  patchTableOrder();
  patchStringToNumber();
  patchCallDepth();
}

interface CallInfoLike {
  depth51?: number;
}

function patchCallDepth(): void {
  const extend = lstate.luaE_extendCI as (L: LuaState) => CallInfoLike;
  lstate.luaE_extendCI = function luaE_extendCI51(L: LuaState): CallInfoLike {
    const previous = (L as unknown as { ci: CallInfoLike }).ci;
    const ci = extend(L);
    const depth = (previous.depth51 ?? 1) + 1;
    ci.depth51 = depth;
    if (depth > callDepthMax && activeHooks !== null) activeHooks.tooDeep(L);
    return ci;
  };
}

interface TValueLike {
  type: number;
  value: number;
  setsvalue(ts: unknown): void;
}

function patchNumbers(): void {
  const TValue = lobject.TValue as { prototype: { ttisinteger(): boolean; ttisfloat(): boolean } };
  const NUMBER_TAG = lua.LUA_TNUMBER;
  TValue.prototype.ttisinteger = function ttisinteger() {
    return false;
  };
  TValue.prototype.ttisfloat = function ttisfloat(this: TValueLike) {
    return (this.type & 0x0f) === NUMBER_TAG;
  };

  const bless = lstring.luaS_bless as (L: LuaState, bytes: Uint8Array) => unknown;
  lobject.luaO_tostring = function luaO_tostring(L: LuaState, obj: TValueLike): void {
    // A new string, as the ones setsvalue2s makes (metering.ts): charged alike.
    activeBudget()?.charge(null, workPrices.stringCreated);
    obj.setsvalue(bless(L, luaBytes(formatLuaNumber(obj.value))));
  };

  // fengari's printf: hand it only %s and %p, with the numbers already formatted our way.
  type PushV = (L: LuaState, fmt: Uint8Array, argp: unknown[]) => Uint8Array;
  const pushvfstring = lobject.luaO_pushvfstring as PushV;
  const preformatted = function luaO_pushvfstring(L: LuaState, fmt: Uint8Array, argp: unknown[]): Uint8Array {
    if (fmt.indexOf(PERCENT) < 0) {
      const reworded = fmt.length > 20 ? REWORDED.get(ascii.decode(fmt)) : undefined;
      return pushvfstring(L, reworded ?? fmt, argp);
    }
    if (fmt.length === TYPE_ERROR_FORMAT.length && ascii.decode(fmt) === TYPE_ERROR_FORMAT) {
      return pushvfstring(L, ...typeError51(argp));
    }
    if (fmt.length === ARG_ERROR_FORMAT.length && ascii.decode(fmt) === ARG_ERROR_FORMAT) {
      const extra = argp[2] instanceof Uint8Array ? ascii.decode(argp[2]) : String(argp[2]);
      if (extra === 'thread expected') argp = [argp[0], argp[1], luaBytes('coroutine expected')];
    }
    const bytes = Array.from(fmt);
    const args: unknown[] = [];
    let a = 0;
    for (let i = 0; i < bytes.length - 1; i++) {
      if (bytes[i] !== PERCENT) continue;
      const directive = bytes[i + 1];
      i++;
      if (directive === PERCENT) continue;
      const value = argp[a++];
      let text: string | null = null;
      if (directive === CHAR_D || directive === CHAR_I) text = String(value);
      else if (directive === CHAR_F) text = formatLuaNumber(value as number);
      else if (directive === CHAR_P && value !== null && (typeof value === 'object' || typeof value === 'function')) {
        // A pointer-looking address, as C Lua prints (fengari prints small object ids).
        text = `0x${(POINTER_BASE + pointerId(value) * 0x40).toString(16)}`;
      }
      else if (directive === CHAR_C) {
        const code = value as number;
        text = code >= 0x20 && code < 0x7f ? String.fromCharCode(code) : `<\\${code}>`;
      }
      if (text === null) args.push(value);
      else {
        bytes[i] = CHAR_S;
        args.push(luaBytes(text));
      }
    }
    return pushvfstring(L, Uint8Array.from(bytes), args);
  };
  lobject.luaO_pushvfstring = preformatted;
  lobject.luaO_pushfstring = function luaO_pushfstring(L: LuaState, fmt: Uint8Array, ...argp: unknown[]): Uint8Array {
    return preformatted(L, fmt, argp);
  };
}

const PERCENT = 0x25;
const CHAR_C = 'c'.charCodeAt(0);
const CHAR_D = 'd'.charCodeAt(0);
const CHAR_I = 'I'.charCodeAt(0);
const CHAR_F = 'f'.charCodeAt(0);
const CHAR_S = 's'.charCodeAt(0);
const CHAR_P = 'p'.charCodeAt(0);
const POINTER_BASE = 0x55d4a2c00000;
const pointerIds = new WeakMap<object, number>();
let pointerIdNext = 1;

function pointerId(value: object): number {
  const own = (value as { id?: unknown }).id;
  if (typeof own === 'number') return own;
  let id = pointerIds.get(value);
  if (id === undefined) {
    // Counted down from far above fengari's ids, so the two never collide.
    id = 0x3ffffff - pointerIdNext++;
    pointerIds.set(value, id);
  }
  return id;
}

/** 5.3 messages that 5.1 words differently (raised without arguments). */
const REWORDED = new Map<string, Uint8Array>([
  ['attempt to yield from outside a coroutine', luaBytes('attempt to yield across metamethod/C-call boundary')],
  ['attempt to yield across a C-call boundary', luaBytes('attempt to yield across metamethod/C-call boundary')],
]);

/** luaL_argerror's format: 5.1 says "coroutine expected" where 5.3 says "thread expected". */
const ARG_ERROR_FORMAT = "bad argument #%d to '%s' (%s)";

/** luaG_typeerror's format in 5.3; 5.1 words it "attempt to index local 't' (a nil value)". */
const TYPE_ERROR_FORMAT = 'attempt to %s a %s value%s';

function typeError51(argp: unknown[]): [Uint8Array, unknown[]] {
  const [op, typeName, varinfo] = argp as [Uint8Array, Uint8Array, Uint8Array];
  const info = /^ \((\w+) '(.*)'\)$/s.exec(ascii.decode(varinfo));
  if (info === null) return [luaBytes('attempt to %s a %s value'), [op, typeName]];
  return [luaBytes("attempt to %s %s '%s' (a %s value)"), [op, luaBytes(info[1]), luaBytes(info[2]), typeName]];
}

interface Token {
  token: number;
  seminfo: { ts: unknown; r: number; i: number };
}
interface LexState {
  t: Token;
  lookahead: Token;
}

function patchLexer(): void {
  const first = llex.FIRST_RESERVED as number;
  const tokens = (llex.luaX_tokens as Uint8Array[]).map((bytes) => ascii.decode(bytes));
  const tk = (text: string) => first + tokens.indexOf(text);
  const TK_IDIV = tk('//');
  const TK_SHL = tk('<<');
  const TK_SHR = tk('>>');
  const TK_DBCOLON = tk('::');
  const TK_GOTO = tk('goto');
  const TK_NAME = tk('<name>');
  const split = new Map<number, number>([
    [TK_IDIV, '/'.charCodeAt(0)],
    [TK_SHL, '<'.charCodeAt(0)],
    [TK_SHR, '>'.charCodeAt(0)],
    [TK_DBCOLON, ':'.charCodeAt(0)],
  ]);
  const standIn = new Map<number, number>(STAND_INS.map(([code, shown]) => [shown.charCodeAt(0), code]));
  const gotoName = luaBytes('goto');
  const newString = llex.luaX_newstring as (ls: LexState, s: Uint8Array) => unknown;
  const next = llex.luaX_next as (ls: LexState) => void;
  llex.luaX_next = function luaX_next51(ls: LexState): void {
    next(ls);
    const token = ls.t.token;
    const half = split.get(token);
    if (half !== undefined) {
      // After luaX_next the look-ahead slot is free: the second half goes there.
      ls.t.token = half;
      ls.lookahead.token = half;
      return;
    }
    const replacement = standIn.get(token);
    if (replacement !== undefined) {
      ls.t.token = replacement;
      return;
    }
    if (token === TK_GOTO) {
      ls.t.token = TK_NAME;
      ls.t.seminfo.ts = newString(ls, gotoName);
    }
  };
}

/**
 * Rewrites a fengari (5.3) syntax error message into Lua 5.1's wording: `&`, `|`, `~` back in
 * place of their stand-ins, every token quoted ('<eof>', '<name>'; 5.3 leaves those bare), and
 * 5.1's "'=' expected" where 5.3 says "syntax error" for an expression used as a statement.
 */
export function lua51SyntaxMessage(message: string): string {
  let out = message;
  for (const [code, shown] of STAND_INS) out = out.split(`'<\\${code}>'`).join(`'${shown}'`);
  out = out.replace(/(^|[^'])<(eof|name|string|number|integer)>(?!')/g, (_m, before: string, what: string) => `${before}'<${what === 'integer' ? 'number' : what}>'`);
  // 5.3's exprstat: "syntax error" unless the next token starts an assignment ('=' or ',').
  return out.replace(/: syntax error near (?!'='$|','$)/, ": '=' expected near ");
}

function patchTableWrites(): void {
  const setfrom = ltable.luaH_setfrom as (L: LuaState, t: FengariTable, key: unknown, value: unknown) => void;
  const setint = ltable.luaH_setint as (t: FengariTable, key: number, value: unknown) => void;
  const runerror = ldebug.luaG_runerror as (L: LuaState, fmt: Uint8Array) => never;
  ltable.luaH_setfrom = function luaH_setfrom(L: LuaState, t: FengariTable, key: unknown, value: unknown): void {
    if (t.readonly === true) runerror(L, READONLY_MESSAGE);
    countTime(timeWeights.tableWrite);
    const budget = activeBudget();
    if (budget === null) return setfrom(L, t, key, value);
    const size = t.strong?.size ?? 0;
    setfrom(L, t, key, value);
    meterTableWrite(budget, L, (t.strong?.size ?? 0) > size);
  };
  ltable.luaH_setint = function luaH_setint(t: FengariTable, key: number, value: unknown): void {
    if (t.readonly === true) {
      if (activeState === null) throw new Error('Attempt to modify a readonly table');
      runerror(activeState, READONLY_MESSAGE);
    }
    countTime(timeWeights.tableWrite);
    // A constructor's SETLIST writes its items last to first into the new table: the first
    // integer write into an empty table is the array size 5.1 would have allocated.
    const size = t.strong?.size ?? 0;
    if (t.sizearray51 === undefined && size === 0) t.sizearray51 = key;
    setint(t, key, value);
    // No state is passed here: an overrun is recorded and raised by the count hook.
    const budget = activeBudget();
    if (budget !== null) meterTableWrite(budget, null, (t.strong?.size ?? 0) > size);
  };
}

/** A table write costs work; a new slot costs memory. */
function meterTableWrite(budget: ScriptBudget, L: LuaState | null, grew: boolean): void {
  if (!grew) return budget.charge(L, workPrices.tableWrite);
  budget.charge(L, workPrices.tableWrite + workPrices.tableSlotCreated);
  budget.allocate(L, memoryPrices.tableSlot);
}

/** True when the table at `idx` is read-only. */
export function isReadonlyTable(L: LuaState, idx: number): boolean {
  return lua.lua_type(L, idx) === lua.LUA_TTABLE && (lua.lua_topointer(L, idx) as FengariTable).readonly === true;
}

/** Raises Redis's read-only error from a native function (no position, as from C). */
export function raiseReadonly(L: LuaState): never {
  return (ldebug.luaG_runerror as (L: LuaState, fmt: Uint8Array) => never)(L, READONLY_MESSAGE);
}

export function setTableReadonly(L: LuaState, idx: number, readonly: boolean): void {
  (lua.lua_topointer(L, idx) as FengariTable).readonly = readonly;
}

/**
 * Redis's luaSetTableProtectionRecursively: the table at the top of the stack, every table
 * reachable from it through values, and their metatables become read-only.
 */
export function protectRecursively(L: LuaState): void {
  if (isReadonlyTable(L, -1)) return;
  setTableReadonly(L, -1, true);
  lua.lua_pushnil(L);
  // Bounded by the table's size; cycles stop at tables already marked.
  while (lua.lua_next(L, -2) !== 0) {
    if (lua.lua_type(L, -1) === lua.LUA_TTABLE) protectRecursively(L);
    lua.lua_pop(L, 1);
  }
  if (lua.lua_getmetatable(L, -1)) {
    protectRecursively(L);
    lua.lua_pop(L, 1);
  }
}

const BACKSLASH = 0x5c;
const ESCAPES_53_ONLY = new Set(['x', 'z', 'u'].map((c) => c.charCodeAt(0)));

/**
 * 5.3's string escapes \x, \z and \u{...} do not exist in 5.1, whose lexer keeps an unknown
 * escape's character ("\x41" is "x41"). This pass drops the backslash of those three inside
 * short strings, before compiling, so fengari's lexer reads what 5.1's would. Comments and long
 * strings are left alone; no newline moves, so line numbers stay right.
 */
export function lua51Escapes(source: Uint8Array): Uint8Array {
  if (source.indexOf(BACKSLASH) < 0) return source;
  const out: number[] = [];
  let changed = false;
  const length = source.length;
  let i = 0;
  const longBracketLevel = (at: number): number => {
    // "[" "="* "[" -> the number of '=', or -1.
    if (source[at] !== 0x5b) return -1;
    let j = at + 1;
    while (source[j] === 0x3d) j++;
    return source[j] === 0x5b ? j - at - 1 : -1;
  };
  const skipLong = (at: number, level: number): number => {
    // Returns the index just past "]" "="*level "]", or the end.
    let j = at + level + 2;
    while (j < length) {
      if (source[j] === 0x5d) {
        let k = j + 1;
        while (source[k] === 0x3d) k++;
        if (source[k] === 0x5d && k - j - 1 === level) return k + 1;
      }
      j++;
    }
    return length;
  };
  // Bounded by the source's length: every branch advances i.
  while (i < length) {
    const c = source[i];
    if (c === 0x2d && source[i + 1] === 0x2d) {
      const level = longBracketLevel(i + 2);
      let end: number;
      if (level >= 0) end = skipLong(i + 2, level);
      else {
        end = source.indexOf(0x0a, i);
        if (end < 0) end = length;
      }
      for (let j = i; j < end; j++) out.push(source[j]);
      i = end;
    } else if (c === 0x5b && longBracketLevel(i) >= 0) {
      const end = skipLong(i, longBracketLevel(i));
      for (let j = i; j < end; j++) out.push(source[j]);
      i = end;
    } else if (c === 0x22 || c === 0x27) {
      out.push(c);
      i++;
      while (i < length && source[i] !== c && source[i] !== 0x0a) {
        if (source[i] === BACKSLASH && i + 1 < length) {
          if (ESCAPES_53_ONLY.has(source[i + 1])) changed = true;
          else out.push(BACKSLASH);
          out.push(source[i + 1]);
          i += 2;
        } else out.push(source[i++]);
      }
      if (i < length) out.push(source[i++]);
    } else {
      out.push(c);
      i++;
    }
  }
  return changed ? Uint8Array.from(out) : source;
}

interface TValueSlot {
  type: number;
  value: unknown;
  ttisnil(): boolean;
}
interface OrderedTable {
  strong: Map<unknown, unknown>;
  sizearray51?: number;
  /** The border found when the current traversal started (see patchTableOrder). */
  border51?: number;
}

/**
 * 5.1's luaH_getn: with an array part of size n (a constructor's item count), a border inside it
 * by bisection if t[n] is nil; otherwise (or without one) doubling from n, then bisecting
 * (unbound_search). Tables grown by assignment have no recorded array part and search from 0.
 */
function getn51(getint: (t: OrderedTable, key: number) => TValueSlot, t: OrderedTable): number {
  const sizearray = t.sizearray51 ?? 0;
  if (sizearray > 0 && getint(t, sizearray).ttisnil()) {
    let low = 0;
    let high = sizearray;
    while (high - low > 1) {
      const m = Math.floor((low + high) / 2);
      if (getint(t, m).ttisnil()) high = m;
      else low = m;
    }
    return low;
  }
  let i = sizearray;
  let j = sizearray + 1;
  // Doubling is bounded by the table's integer keys (at most 2^53).
  while (!getint(t, j).ttisnil()) {
    i = j;
    if (j > Number.MAX_SAFE_INTEGER / 2) {
      // A table built to defeat the search: linear, as 5.1 does.
      i = 1;
      while (!getint(t, i).ttisnil()) i++;
      return i - 1;
    }
    j *= 2;
  }
  while (j - i > 1) {
    const m = Math.floor((i + j) / 2);
    if (getint(t, m).ttisnil()) j = m;
    else i = m;
  }
  return i;
}

function patchTableOrder(): void {
  const getint = ltable.luaH_getint as (t: OrderedTable, key: number) => TValueSlot;
  const next = ltable.luaH_next as (L: LuaState, t: OrderedTable, keyIndex: number) => boolean;
  const TValue = lobject.TValue as new (type: number, value: unknown) => TValueSlot;
  const setobj2s = lobject.setobj2s as (L: LuaState, index: number, value: TValueSlot) => void;
  const NIL = new TValue(lua.LUA_TNIL, null);
  const NUMBER_FLOAT = lua.LUA_TNUMBER; // a float-tagged number (tag 3 is LUA_TNUMFLT)
  const getn = (t: OrderedTable) => getn51(getint, t);
  ltable.luaH_getn = getn;

  /** Continues fengari's insertion-order walk, skipping the integer keys phase one visited. */
  const nextOutsideArray = (L: LuaState, t: OrderedTable, keyIndex: number, border: number): boolean => {
    const stack = (L as unknown as { stack: TValueSlot[] }).stack;
    // Bounded by the table's size.
    for (;;) {
      if (!next(L, t, keyIndex)) return false;
      const key = stack[keyIndex];
      const k = key.value;
      if ((key.type & 0x0f) === lua.LUA_TNUMBER && typeof k === 'number' && Number.isInteger(k) && k >= 1 && k <= border) continue;
      return true;
    }
  };

  ltable.luaH_next = function luaH_next51(L: LuaState, t: OrderedTable, keyIndex: number): boolean {
    const stack = (L as unknown as { stack: TValueSlot[] }).stack;
    const key = stack[keyIndex];
    let from = 0;
    if (key.ttisnil()) t.border51 = getn(t);
    else {
      const k = key.value;
      const border = t.border51 ?? 0;
      const inArray = (key.type & 0x0f) === lua.LUA_TNUMBER && typeof k === 'number' && Number.isInteger(k) && k >= 1 && k <= border;
      if (!inArray) return nextOutsideArray(L, t, keyIndex, border);
      from = k;
    }
    const border = t.border51 ?? 0;
    // Phase one: the array part, 1..border in order (skipping holes, as 5.1 skips nil slots).
    for (let i = from + 1; i <= border; i++) {
      const value = getint(t, i);
      if (!value.ttisnil()) {
        setobj2s(L, keyIndex, new TValue(NUMBER_FLOAT, i));
        setobj2s(L, keyIndex + 1, value);
        return true;
      }
    }
    // Phase two: everything else, from the start of the insertion order.
    setobj2s(L, keyIndex, NIL);
    return nextOutsideArray(L, t, keyIndex, border);
  };

  // 5.1 has no __len for tables (only for userdata).
  const fasttm = ltm.fasttm as (L: LuaState, et: unknown, event: number) => unknown;
  const TM_LEN = (ltm.TMS as Record<string, number>).TM_LEN;
  ltm.fasttm = function fasttm51(L: LuaState, et: unknown, event: number): unknown {
    return event === TM_LEN ? null : fasttm(L, et, event);
  };
}

/**
 * 5.1 converts strings to numbers with C's strtod, which also reads "inf", "infinity" and "nan"
 * (tonumber('inf'), 'nan' + 0); 5.3 refuses them.
 */
function patchStringToNumber(): void {
  const str2num = lobject.luaO_str2num as (s: Uint8Array, o: { setfltvalue(n: number): void }) => number;
  lobject.luaO_str2num = function luaO_str2num51(s: Uint8Array, o: { setfltvalue(n: number): void }): number {
    const size = str2num(s, o);
    if (size !== 0 || s.length > 24) return size;
    const match = /^\s*([-+]?)(inf|infinity|nan)\s*$/i.exec(ascii.decode(s));
    if (match === null) return 0;
    const magnitude = match[2].toLowerCase() === 'nan' ? NaN : Infinity;
    o.setfltvalue(match[1] === '-' ? -magnitude : magnitude);
    return s.length + 1;
  };
}

/** luaG_runerror: raises `message` with the position of the running Lua function ("user_script:1: "). */
export function runError(L: LuaState, message: string): never {
  return (ldebug.luaG_runerror as (L: LuaState, fmt: Uint8Array) => never)(L, luaBytes(message.replace(/%/g, '%%')));
}
