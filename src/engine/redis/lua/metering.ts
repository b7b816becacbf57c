import ldebug from 'fengari/src/ldebug.js';
import ldo from 'fengari/src/ldo.js';
import lobject from 'fengari/src/lobject.js';
import lopcodes from 'fengari/src/lopcodes.js';
import lstring from 'fengari/src/lstring.js';
import ltable from 'fengari/src/ltable.js';
import lvm from 'fengari/src/lvm.js';
import { activeBudget, memoryPrices, workPrices } from './budget';
import { countTime, timeWeights } from './timing';
import { lua, type LuaState } from './fengari-api';

/**
 * Charges the running script (budget.ts) for work and memory that happen inside fengari, where
 * no library function of ours sees them. Patched once per JS realm on fengari's shared module
 * objects, like lua51.ts; inert while no script runs.
 *
 * - Strings: every string the VM or the API creates costs work and memory, by its bytes.
 * - Tables: every table created costs work and memory (slots are charged in lua51.ts's write
 *   patch). Every error raised costs work (fengari throws a JS exception for it).
 * - String keys: fengari keys tables (and orders strings for `<`) by a hex text of the string's
 *   bytes, computed once per string. fengari writes one hex digit for bytes under 0x10, so
 *   "\1\1" and "\17" got the same key (the same table slot) and "\15" < "\16" was false. The key
 *   here has two digits per byte: the same text as fengari's for every byte from 0x10 (reserved
 *   words, which fengari's lexer looks up by key, included), distinct for distinct strings, and
 *   ordered as the bytes are (Lua 5.1 compares strings with strcoll in the C locale: bytes). It
 *   is built in one pass and charged per byte.
 * - One instruction that does unbounded work: `a .. b .. c` is checked against the memory
 *   budget before fengari allocates the result, and `==`, `<`, `<=` of two long strings are
 *   charged per byte compared. The check runs in the per-instruction trace function that the
 *   count hook already makes fengari call.
 */

interface TStringLike {
  realstring: Uint8Array;
  hashKey: string | null;
}
interface TValueLike {
  type: number;
  value: unknown;
}
interface InstructionLike {
  opcode: number;
  A: number;
  B: number;
  C: number;
}
interface CallInfoLike {
  l_base: number;
  l_savedpc: number;
  l_code: InstructionLike[];
  func: { value: { p: { k: TValueLike[] } } };
}
interface StateLike {
  ci: CallInfoLike;
  stack: TValueLike[];
  top: number;
}

const T_STRING = 4;
const T_NUMBER = 3;
/** Longest text a number becomes when concatenated ("%.14g"). */
const NUMBER_TEXT_BYTES_MAX = 24;
/** Work on strings shorter than this is left to the instruction count (names, tokens: most strings). */
const SMALL_STRING_BYTES = 64;

let installed = false;

export function installMetering(): void {
  if (installed) return;
  installed = true;
  meterStringCreation();
  meterTableCreation();
  replaceStringKeys();
  meterInstructions();
  meterErrors();
}

function meterStringCreation(): void {
  for (const name of ['setsvalue2s', 'pushsvalue2s'] as const) {
    const original = lobject[name] as (L: LuaState, a: unknown, b?: unknown) => void;
    lobject[name] = function meteredStringValue(L: LuaState, a: unknown, b?: unknown): void {
      original(L, a, b);
      const budget = activeBudget();
      if (budget === null) return;
      const length = ((b === undefined ? a : b) as TStringLike).realstring.length;
      if (length >= timeWeights.stringBytesPerUnit) countTime(length / timeWeights.stringBytesPerUnit);
      budget.charge(L, workPrices.stringCreated + length / workPrices.bytesPerUnitCopied);
      budget.allocate(L, length + memoryPrices.stringOverhead);
    };
  }
}

function meterTableCreation(): void {
  const create = ltable.luaH_new as (L: LuaState) => unknown;
  ltable.luaH_new = function meteredTable(L: LuaState): unknown {
    const t = create(L);
    const budget = activeBudget();
    if (budget !== null) {
      budget.charge(L, workPrices.tableCreated);
      budget.allocate(L, memoryPrices.table);
    }
    return t;
  };
}

/** Every Lua error raised (error(), runtime errors, errors inside pcall) unwinds a JS exception. */
function meterErrors(): void {
  const LUA_ERRRUN = 2;
  const throwError = ldo.luaD_throw as (L: LuaState, status: number) => never;
  ldo.luaD_throw = function meteredThrow(L: LuaState, status: number): never {
    // Recorded only: the error is already on its way, and an overrun is raised by the count hook.
    if (status === LUA_ERRRUN) activeBudget()?.charge(null, workPrices.errorRaised);
    return throwError(L, status);
  };
}

const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef');
const HEX_PAIRS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const asciiDecoder = new TextDecoder();

/** '|' and two lower-case hex digits per byte. */
export function stringTableKey(bytes: Uint8Array): string {
  const length = bytes.length;
  if (length < 32) {
    let key = '|';
    for (let i = 0; i < length; i++) key += HEX_PAIRS[bytes[i]];
    return key;
  }
  const text = new Uint8Array(2 * length + 1);
  text[0] = 0x7c;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i];
    text[2 * i + 1] = HEX_DIGITS[byte >> 4];
    text[2 * i + 2] = HEX_DIGITS[byte & 15];
  }
  return asciiDecoder.decode(text);
}

function replaceStringKeys(): void {
  const prototype = (lstring.TString as { prototype: object }).prototype;
  // fengari's luaS_hashlongstr reads `ts.hash` and computes it when null: an accessor that never
  // answers null takes the computation over. The constructor's `this.hash = null` goes through
  // the setter, so every string has its own `hashKey` slot.
  Object.defineProperty(prototype, 'hash', {
    configurable: true,
    get(this: TStringLike): string {
      let key = this.hashKey;
      if (key === null || key === undefined) {
        const length = this.realstring.length;
        // No Lua state here: the charge is recorded, and an overrun is raised by the count hook.
        if (length >= SMALL_STRING_BYTES) activeBudget()?.charge(null, length / workPrices.bytesPerUnitHashed);
        key = stringTableKey(this.realstring);
        this.hashKey = key;
      }
      return key;
    },
    set(this: TStringLike, value: string | null) {
      this.hashKey = value;
    },
  });
}

function meterInstructions(): void {
  const OPS = lopcodes.OpCodesI as Record<string, number>;
  const OP_CONCAT = OPS.OP_CONCAT;
  const OP_EQ = OPS.OP_EQ;
  const OP_LT = OPS.OP_LT;
  const OP_LE = OPS.OP_LE;
  const BITRK = lopcodes.BITRK as number;
  const traceexec = ldebug.luaG_traceexec as (L: LuaState) => void;
  ldebug.luaG_traceexec = function meteredTraceexec(L: LuaState): void {
    if (activeBudget() !== null) {
      const state = L as unknown as StateLike;
      const ci = state.ci;
      const ins = ci.l_code[ci.l_savedpc - 1];
      const op = ins.opcode;
      if (op === OP_CONCAT) reserveConcat(L, state, ci.l_base + ins.B, ci.l_base + ins.C);
      else if (op === OP_EQ || op === OP_LT || op === OP_LE) {
        const k = ci.func.value.p.k;
        const b = ins.B & BITRK ? k[ins.B & ~BITRK] : state.stack[ci.l_base + ins.B];
        const c = ins.C & BITRK ? k[ins.C & ~BITRK] : state.stack[ci.l_base + ins.C];
        chargeComparison(L, b, c, op === OP_EQ);
      }
    }
    traceexec(L);
  };

  // lua_concat (the C API, used by library functions) reaches fengari's luaV_concat through the
  // module object; the VM's own CONCAT instruction is covered by the trace function above.
  const concat = lvm.luaV_concat as (L: LuaState, total: number) => void;
  lvm.luaV_concat = function meteredConcat(L: LuaState, total: number): void {
    if (activeBudget() !== null) {
      const state = L as unknown as StateLike;
      reserveConcat(L, state, state.top - total, state.top - 1);
    }
    concat(L, total);
  };
}

/** Before a concatenation of the stack slots first..last: is there room for the result? */
function reserveConcat(L: LuaState, state: StateLike, first: number, last: number): void {
  let bytes = 0;
  for (let i = first; i <= last; i++) {
    const tv = state.stack[i];
    const basic = tv.type & 0x0f;
    if (basic === T_STRING) bytes += (tv.value as TStringLike).realstring.length;
    else if (basic === T_NUMBER) bytes += NUMBER_TEXT_BYTES_MAX;
  }
  if (bytes > SMALL_STRING_BYTES) activeBudget()?.reserve(L, bytes);
}

/** `==` compares two distinct strings of one length byte by byte; `<` and `<=` compare their keys. */
function chargeComparison(L: LuaState, a: TValueLike, b: TValueLike, equality: boolean): void {
  if ((a.type & 0x0f) !== T_STRING || (b.type & 0x0f) !== T_STRING || a.value === b.value) return;
  const left = (a.value as TStringLike).realstring.length;
  const right = (b.value as TStringLike).realstring.length;
  if (equality && left !== right) return;
  const bytes = Math.min(left, right);
  if (bytes > SMALL_STRING_BYTES) activeBudget()?.charge(L, bytes / workPrices.bytesPerUnitCopied);
}

interface TableEntriesLike {
  strong: Map<unknown, { value: TValueLike }>;
}

/**
 * t[name] for the table at `index` when it is a string, read without the Lua API (which would
 * create a Lua string for the name on every call), raw as lua_rawget. For the reply converter,
 * which asks every table for its `err` and `ok` fields.
 */
export function rawStringField(L: LuaState, index: number, key: string): Uint8Array | null {
  const t = lua.lua_topointer(L, index) as TableEntriesLike;
  const value = t.strong.get(key)?.value;
  return value !== undefined && (value.type & 0x0f) === T_STRING ? (value.value as TStringLike).realstring : null;
}

/**
 * Pushes a Lua string made of `bytes`, which the caller hands over (a buffer it just built and
 * will not touch again). lua_pushstring copies its argument with Uint8Array.from, which walks it
 * one element at a time: about a second for 50 MB. The push is charged like any string made.
 */
export function pushOwnedString(L: LuaState, bytes: Uint8Array): void {
  const bless = lstring.luaS_bless as (L: LuaState, bytes: Uint8Array) => unknown;
  (lobject.pushsvalue2s as (L: LuaState, ts: unknown) => void)(L, bless(L, bytes));
}
