import { chargeWork, workPrices } from './budget';
import { ByteWriter } from './byte-writer';
import { jsText, lauxlib, lua, raiseError, type LuaJsFunction, type LuaState } from './fengari-api';
import { pushOwnedString } from './metering';
import { countTime, timeWeights } from './timing';

/**
 * Lua 5.1's pattern matching (lstrlib.c of 5.1.5): string.find, string.match, string.gmatch and
 * string.gsub, ported so that scripts see 5.1's results and so that the matcher's work is
 * charged to the script's budget. fengari ships 5.3's matcher, which differs where scripts can
 * see it: 5.1 has no %g class, gsub and gmatch treat empty matches differently
 * (`("hello world"):gsub("%w*", "-")` is "-- --" in 5.1, "- -" in 5.3), find clamps a start
 * past the end, "%" before a non-digit in a replacement is that character, and the error texts
 * differ ("invalid capture index", "unbalanced pattern").
 *
 * Backtracking is exponential in the number of `-`, `*`, `?` items, and one library call can
 * run it for hours (`string.find(string.rep("a", 300), ".-.-.-.-b")`): every step of the
 * matcher (a call of `match`, a character tried by an expansion, a byte compared) is charged,
 * so such a call ends with the work budget error.
 *
 * As in C, a pattern ends at its first NUL byte, and reading a subject at its end reads NUL.
 */

const L_ESC = 0x25; // '%'
const SPECIALS = new Set(Array.from('^$*+?.([%-', (c) => c.charCodeAt(0)));
const LUA_MAXCAPTURES = 32;
const CAP_UNFINISHED = -1;
const CAP_POSITION = -2;
/**
 * Nested `match` calls allowed. C Lua 5.1 recurses on the C stack with no limit of its own; the
 * JS stack is smaller, so a pattern needing more (thousands of `?`, `*`, `-` items or captures in
 * a row) fails with 5.2's "pattern too complex" instead of overflowing it.
 */
const MATCH_DEPTH_MAX = 2000;
/** Steps counted before charging them to the budget. */
const STEP_BATCH = 1024;

interface Capture {
  init: number;
  len: number;
}

function isalpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
function isdigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function islower(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}
function isupper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}
function isspace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}
function iscntrl(c: number): boolean {
  return c < 0x20 || c === 0x7f;
}
function ispunct(c: number): boolean {
  return c > 0x20 && c < 0x7f && !isalpha(c) && !isdigit(c);
}
function isxdigit(c: number): boolean {
  return isdigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** 5.1's match_class (C locale): %a %c %d %l %p %s %u %w %x %z, upper case negates; any other letter is itself. */
function matchClass(c: number, cl: number): boolean {
  let res: boolean;
  switch (cl | 0x20) {
    case 0x61: res = isalpha(c); break; // a
    case 0x63: res = iscntrl(c); break; // c
    case 0x64: res = isdigit(c); break; // d
    case 0x6c: res = islower(c); break; // l
    case 0x70: res = ispunct(c); break; // p
    case 0x73: res = isspace(c); break; // s
    case 0x75: res = isupper(c); break; // u
    case 0x77: res = isalpha(c) || isdigit(c); break; // w
    case 0x78: res = isxdigit(c); break; // x
    case 0x7a: res = c === 0; break; // z
    default: return cl === c;
  }
  return islower(cl) ? res : !res;
}

class MatchState {
  level = 0;
  readonly capture: Capture[] = [];
  private steps = 0;
  private depth = 0;
  /** End of the pattern: its length, or its first NUL. */
  readonly pEnd: number;

  constructor(
    readonly L: LuaState,
    readonly src: Uint8Array,
    readonly p: Uint8Array,
  ) {
    const nul = p.indexOf(0);
    this.pEnd = nul < 0 ? p.length : nul;
  }

  /** Pattern byte at i (0 past the end, as C reads the terminator). */
  pat(i: number): number {
    return i < this.pEnd ? this.p[i] : 0;
  }

  /** Subject byte at i (0 at the end). */
  at(i: number): number {
    return i < this.src.length ? this.src[i] : 0;
  }

  step(count = 1): void {
    this.steps += count;
    if (this.steps >= STEP_BATCH) this.flush();
  }

  flush(): void {
    if (this.steps > 0) chargeWork(this.L, this.steps * workPrices.patternStep);
    this.steps = 0;
  }

  enter(): void {
    if (++this.depth > MATCH_DEPTH_MAX) raiseError(this.L, 'pattern too complex');
    this.step();
  }

  leave(): void {
    this.depth--;
  }

  fail(message: string): never {
    return raiseError(this.L, message);
  }
}

function classEnd(ms: MatchState, p: number): number {
  switch (ms.pat(p++)) {
    case L_ESC:
      if (ms.pat(p) === 0) ms.fail("malformed pattern (ends with '%')");
      return p + 1;
    case 0x5b: {
      // '['
      if (ms.pat(p) === 0x5e) p++;
      // Bounded by the pattern's end: each round advances p or fails.
      do {
        if (ms.pat(p) === 0) ms.fail("malformed pattern (missing ']')");
        if (ms.pat(p++) === L_ESC && ms.pat(p) !== 0) p++;
      } while (ms.pat(p) !== 0x5d);
      return p + 1;
    }
    default:
      return p;
  }
}

function matchBracketClass(ms: MatchState, c: number, p: number, ec: number): boolean {
  let sig = true;
  if (ms.pat(p + 1) === 0x5e) {
    sig = false;
    p++;
  }
  while (++p < ec) {
    if (ms.pat(p) === L_ESC) {
      p++;
      if (matchClass(c, ms.pat(p))) return sig;
    } else if (ms.pat(p + 1) === 0x2d && p + 2 < ec) {
      p += 2;
      if (ms.pat(p - 2) <= c && c <= ms.pat(p)) return sig;
    } else if (ms.pat(p) === c) return sig;
  }
  return !sig;
}

function singleMatch(ms: MatchState, c: number, p: number, ep: number): boolean {
  switch (ms.pat(p)) {
    case 0x2e:
      return true; // '.'
    case L_ESC:
      return matchClass(c, ms.pat(p + 1));
    case 0x5b:
      return matchBracketClass(ms, c, p, ep - 1);
    default:
      return ms.pat(p) === c;
  }
}

function matchBalance(ms: MatchState, s: number, p: number): number | null {
  if (ms.pat(p) === 0 || ms.pat(p + 1) === 0) ms.fail('unbalanced pattern');
  if (ms.at(s) !== ms.pat(p)) return null;
  const b = ms.pat(p);
  const e = ms.pat(p + 1);
  let cont = 1;
  const end = ms.src.length;
  const start = s;
  while (++s < end) {
    const c = ms.src[s];
    if (c === e) {
      if (--cont === 0) {
        ms.step(s - start);
        return s + 1;
      }
    } else if (c === b) cont++;
  }
  ms.step(s - start);
  return null;
}

function maxExpand(ms: MatchState, s: number, p: number, ep: number): number | null {
  let i = 0;
  const end = ms.src.length;
  while (s + i < end && singleMatch(ms, ms.src[s + i], p, ep)) i++;
  ms.step(i);
  // Try the longest repetition first, then one fewer, down to none.
  while (i >= 0) {
    const res = match(ms, s + i, ep + 1);
    if (res !== null) return res;
    i--;
  }
  return null;
}

function minExpand(ms: MatchState, s: number, p: number, ep: number): number | null {
  const end = ms.src.length;
  // Bounded by the subject's length: each round consumes one character or ends.
  for (;;) {
    const res = match(ms, s, ep + 1);
    if (res !== null) return res;
    if (s < end && singleMatch(ms, ms.src[s], p, ep)) s++;
    else return null;
  }
}

function startCapture(ms: MatchState, s: number, p: number, what: number): number | null {
  const level = ms.level;
  if (level >= LUA_MAXCAPTURES) ms.fail('too many captures');
  ms.capture[level] = { init: s, len: what };
  ms.level = level + 1;
  const res = match(ms, s, p);
  if (res === null) ms.level--;
  return res;
}

function endCapture(ms: MatchState, s: number, p: number): number | null {
  const l = captureToClose(ms);
  ms.capture[l].len = s - ms.capture[l].init;
  const res = match(ms, s, p);
  if (res === null) ms.capture[l].len = CAP_UNFINISHED;
  return res;
}

function captureToClose(ms: MatchState): number {
  let level = ms.level;
  for (level--; level >= 0; level--) if (ms.capture[level].len === CAP_UNFINISHED) return level;
  return ms.fail('invalid pattern capture');
}

function checkCapture(ms: MatchState, l: number): number {
  l -= 0x31; // '1'
  if (l < 0 || l >= ms.level || ms.capture[l].len === CAP_UNFINISHED) ms.fail('invalid capture index');
  return l;
}

function matchCapture(ms: MatchState, s: number, l: number): number | null {
  l = checkCapture(ms, l);
  const len = ms.capture[l].len;
  const init = ms.capture[l].init;
  if (ms.src.length - s < len) return null;
  ms.step(len);
  for (let i = 0; i < len; i++) if (ms.src[init + i] !== ms.src[s + i]) return null;
  return s + len;
}

/** 5.1's match: the end of the match of pattern p at subject s, or null. */
function match(ms: MatchState, s: number, p: number): number | null {
  ms.enter();
  try {
    // Bounded by the pattern: each round consumes pattern items (the C version's `goto init`).
    for (;;) {
      ms.step();
      switch (ms.pat(p)) {
        case 0x28: // '('
          if (ms.pat(p + 1) === 0x29) return startCapture(ms, s, p + 2, CAP_POSITION);
          return startCapture(ms, s, p + 1, CAP_UNFINISHED);
        case 0x29: // ')'
          return endCapture(ms, s, p + 1);
        case L_ESC: {
          const next = ms.pat(p + 1);
          if (next === 0x62) {
            // %b
            const e = matchBalance(ms, s, p + 2);
            if (e === null) return null;
            s = e;
            p += 4;
            continue;
          }
          if (next === 0x66) {
            // %f
            p += 2;
            if (ms.pat(p) !== 0x5b) ms.fail("missing '[' after '%f' in pattern");
            const ep = classEnd(ms, p);
            const previous = s === 0 ? 0 : ms.src[s - 1];
            if (matchBracketClass(ms, previous, p, ep - 1) || !matchBracketClass(ms, ms.at(s), p, ep - 1)) return null;
            p = ep;
            continue;
          }
          if (isdigit(next)) {
            const e = matchCapture(ms, s, next);
            if (e === null) return null;
            s = e;
            p += 2;
            continue;
          }
          break;
        }
        case 0: // end of pattern
          return s;
        case 0x24: // '$'
          if (ms.pat(p + 1) === 0) return s === ms.src.length ? s : null;
          break;
      }
      // A single-character class with an optional repetition suffix.
      const ep = classEnd(ms, p);
      const m = s < ms.src.length && singleMatch(ms, ms.src[s], p, ep);
      switch (ms.pat(ep)) {
        case 0x3f: {
          // '?'
          if (m) {
            const res = match(ms, s + 1, ep + 1);
            if (res !== null) return res;
          }
          p = ep + 1;
          continue;
        }
        case 0x2a: // '*'
          return maxExpand(ms, s, p, ep);
        case 0x2b: // '+'
          return m ? maxExpand(ms, s + 1, p, ep) : null;
        case 0x2d: // '-'
          return minExpand(ms, s, p, ep);
        default:
          if (!m) return null;
          s++;
          p = ep;
      }
    }
  } finally {
    ms.leave();
  }
}

function pushOneCapture(ms: MatchState, i: number, s: number, e: number): void {
  const L = ms.L;
  if (i >= ms.level) {
    if (i === 0) lua.lua_pushstring(L, ms.src.subarray(s, e));
    else ms.fail('invalid capture index');
    return;
  }
  const l = ms.capture[i].len;
  if (l === CAP_UNFINISHED) ms.fail('unfinished capture');
  if (l === CAP_POSITION) lua.lua_pushnumber(L, ms.capture[i].init + 1);
  else lua.lua_pushstring(L, ms.src.subarray(ms.capture[i].init, ms.capture[i].init + l));
}

function pushCaptures(ms: MatchState, s: number | null, e: number): number {
  const nlevels = ms.level === 0 && s !== null ? 1 : ms.level;
  lauxlib.luaL_checkstack(ms.L, nlevels, 'too many captures');
  for (let i = 0; i < nlevels; i++) pushOneCapture(ms, i, s ?? 0, e);
  return nlevels;
}

/** lua_Integer from a number argument, as luaL_optinteger reads it in 5.1 (a C cast: truncation). */
function optInteger(L: LuaState, index: number, fallback: number): number {
  return lua.lua_isnoneornil(L, index) ? fallback : Math.trunc(lauxlib.luaL_checknumber(L, index));
}

/** 5.1's posrelat: negative positions count back from the end; below the start is 0. */
function posrelat(pos: number, len: number): number {
  if (pos < 0) pos += len + 1;
  return pos >= 0 ? pos : 0;
}

/** lmemfind: a plain search, charged per byte compared. */
function plainFind(L: LuaState, s: Uint8Array, from: number, p: Uint8Array): number {
  if (p.length === 0) return from;
  if (p.length > s.length - from) return -1;
  const first = p[0];
  const last = s.length - p.length;
  let compared = 0;
  for (let i = s.indexOf(first, from); i >= 0 && i <= last; i = s.indexOf(first, i + 1)) {
    let j = 1;
    while (j < p.length && s[i + j] === p[j]) j++;
    compared += j;
    if (compared >= STEP_BATCH * 64) {
      chargeWork(L, compared / workPrices.bytesPerUnitCopied);
      compared = 0;
    }
    if (j === p.length) return i;
  }
  chargeWork(L, (compared + s.length - from) / workPrices.bytesPerUnitCopied);
  return -1;
}

/** str_find_aux: string.find (find = true) and string.match. */
function findAux(L: LuaState, find: boolean): number {
  const s = lauxlib.luaL_checklstring(L, 1);
  const p = lauxlib.luaL_checklstring(L, 2);
  let init = posrelat(optInteger(L, 3, 1), s.length) - 1;
  if (init < 0) init = 0;
  else if (init > s.length) init = s.length;
  const nul = p.indexOf(0);
  const patternText = nul < 0 ? p : p.subarray(0, nul);
  if (find && (lua.lua_toboolean(L, 4) || !patternText.some((c) => SPECIALS.has(c)))) {
    const found = plainFind(L, s, init, p);
    if (found >= 0) {
      lua.lua_pushnumber(L, found + 1);
      lua.lua_pushnumber(L, found + p.length);
      return 2;
    }
  } else {
    const anchor = p[0] === 0x5e;
    const ms = new MatchState(L, s, anchor ? p.subarray(1) : p);
    let s1 = init;
    // Bounded by the subject's length (and the budget, which every step is charged to).
    do {
      ms.level = 0;
      const res = match(ms, s1, 0);
      if (res !== null) {
        ms.flush();
        if (find) {
          lua.lua_pushnumber(L, s1 + 1);
          lua.lua_pushnumber(L, res);
          return pushCaptures(ms, null, 0) + 2;
        }
        return pushCaptures(ms, s1, res);
      }
    } while (s1++ < s.length && !anchor);
    ms.flush();
  }
  lua.lua_pushnil(L);
  return 1;
}

/** string.gmatch: an iterator over the matches; 5.1 moves one character on after an empty match. */
function gmatch(L: LuaState): number {
  const s = lauxlib.luaL_checklstring(L, 1);
  const p = lauxlib.luaL_checklstring(L, 2);
  let start = 0;
  const iterator: LuaJsFunction = (state) => {
    const ms = new MatchState(state, s, p);
    for (let src = start; src <= s.length; src++) {
      ms.level = 0;
      const e = match(ms, src, 0);
      if (e !== null) {
        ms.flush();
        start = e === src ? e + 1 : e;
        return pushCaptures(ms, src, e);
      }
    }
    ms.flush();
    start = s.length + 1;
    return 0;
  };
  lua.lua_pushjsfunction(L, iterator);
  return 1;
}

/** add_s: the replacement string, with %0-%9 captures; '%' before any other character is that character. */
function addString(ms: MatchState, b: ByteWriter, s: number, e: number, news: Uint8Array): void {
  const L = ms.L;
  const l = news.length;
  let plain = 0;
  for (let i = 0; i < l; i++) {
    if (news[i] !== L_ESC) continue;
    b.range(news, plain, i);
    i++;
    // Past the end, C reads the terminating NUL: "x%" adds an "x" and a NUL byte.
    const c = i < l ? news[i] : 0;
    if (!isdigit(c)) b.byte(c);
    else if (c === 0x30) b.range(ms.src, s, e);
    else {
      pushOneCapture(ms, c - 0x31, s, e);
      b.bytes(lua.lua_tostring(L, -1) as Uint8Array);
      lua.lua_pop(L, 1);
    }
    plain = i + 1;
  }
  b.range(news, plain, l);
}

function addValue(ms: MatchState, b: ByteWriter, s: number, e: number, kind: number): void {
  const L = ms.L;
  if (kind === lua.LUA_TNUMBER || kind === lua.LUA_TSTRING) {
    addString(ms, b, s, e, lua.lua_tostring(L, 3) as Uint8Array);
    return;
  }
  if (kind === lua.LUA_TFUNCTION) {
    lua.lua_pushvalue(L, 3);
    const n = pushCaptures(ms, s, e);
    lua.lua_call(L, n, 1);
  } else {
    pushOneCapture(ms, 0, s, e);
    lua.lua_gettable(L, 3);
  }
  if (!lua.lua_toboolean(L, -1)) {
    lua.lua_pop(L, 1);
    lua.lua_pushstring(L, ms.src.subarray(s, e));
  } else if (!lua.lua_isstring(L, -1)) {
    ms.fail(`invalid replacement value (a ${jsText(lua.lua_typename(L, lua.lua_type(L, -1)))})`);
  }
  b.bytes(lua.lua_tostring(L, -1) as Uint8Array);
  lua.lua_pop(L, 1);
}

function gsub(L: LuaState): number {
  const src = lauxlib.luaL_checklstring(L, 1);
  const pattern = lauxlib.luaL_checklstring(L, 2);
  const kind = lua.lua_type(L, 3);
  // luaL_optint: a C int, so the count wraps as C's cast does.
  const maxS = lua.lua_isnoneornil(L, 4) ? src.length + 1 : Math.trunc(lauxlib.luaL_checknumber(L, 4)) | 0;
  const anchor = pattern[0] === 0x5e;
  lauxlib.luaL_argcheck(
    L,
    kind === lua.LUA_TNUMBER || kind === lua.LUA_TSTRING || kind === lua.LUA_TFUNCTION || kind === lua.LUA_TTABLE,
    3,
    'string/function/table expected',
  );
  // A number replacement is used as its text (lua_tolstring converts the argument in place).
  if (kind === lua.LUA_TNUMBER) lua.lua_tostring(L, 3);
  const ms = new MatchState(L, src, anchor ? pattern.subarray(1) : pattern);
  const b = new ByteWriter(L);
  let s = 0;
  let n = 0;
  /** Start of the subject characters kept as they are, not yet written. */
  let kept = 0;
  // Bounded by the subject's length: each round consumes a character or a non-empty match.
  while (n < maxS) {
    ms.level = 0;
    const e = match(ms, s, 0);
    if (e !== null) {
      n++;
      b.range(src, kept, s);
      chargeWork(L, workPrices.replacement);
      addValue(ms, b, s, e, kind);
      kept = s;
    }
    if (e !== null && e > s) {
      s = e;
      kept = e;
    } else if (s < src.length) s++;
    else break;
    if (anchor) break;
  }
  ms.flush();
  b.range(src, kept, src.length);
  pushOwnedString(L, b.take());
  lua.lua_pushnumber(L, n);
  return 2;
}

/** Virtual time (timing.ts) counts a pattern function's subject, as it has since before the work budget. */
function timedBySubject(fn: LuaJsFunction, unitsPerByte: number): LuaJsFunction {
  return (L) => {
    if (lua.lua_type(L, 1) === lua.LUA_TSTRING) countTime(lua.lua_rawlen(L, 1) * unitsPerByte);
    return fn(L);
  };
}

/** The 5.1 pattern functions, for the string table. */
export const PATTERN_FUNCTIONS: Record<string, LuaJsFunction> = {
  find: timedBySubject((L) => findAux(L, true), 1),
  match: timedBySubject((L) => findAux(L, false), 1),
  gmatch: timedBySubject(gmatch, 1),
  gfind: gmatch,
  gsub: timedBySubject(gsub, timeWeights.gsubUnitsPerSubjectByte),
};
