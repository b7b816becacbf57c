import { reserveString } from './budget';
import { lauxlib, lua, luaBytes, raiseError, type LuaState } from './fengari-api';
import { pushOwnedString } from './metering';
import { formatExponent, formatFixed, formatGeneral } from './numbers';

/**
 * Lua 5.1's string.format (lstrlib.c str_format) over C's sprintf, in JS. fengari's 5.3 version
 * differs where scripts notice: `%d` of 3.7 is "3" in 5.1 (a C cast) but an error in 5.3, and
 * `%d` of a millisecond timestamp overflows fengari's 32-bit integers.
 */

const FLAGS = '-+ #0';
const PERCENT = 0x25;

interface Spec {
  readonly flags: string;
  readonly width: number;
  readonly precision: number | null;
}

export function stringFormat51(L: LuaState): number {
  const format = lauxlib.luaL_checklstring(L, 1);
  const top = lua.lua_gettop(L);
  const out: Uint8Array[] = [];
  let literalStart = 0;
  let arg = 1;
  let i = 0;
  // Bounded by the format string's length.
  while (i < format.length) {
    if (format[i] !== PERCENT) {
      i++;
      continue;
    }
    out.push(format.subarray(literalStart, i));
    i++;
    if (format[i] === PERCENT) {
      out.push(format.subarray(i, i + 1));
      i++;
      literalStart = i;
      continue;
    }
    arg++;
    if (arg > top) lauxlib.luaL_argerror(L, arg, 'no value');
    const specStart = i;
    while (i < format.length && FLAGS.includes(String.fromCharCode(format[i]))) i++;
    if (i - specStart > FLAGS.length) raiseError(L, 'invalid format (repeated flags)');
    const flags = ascii(format.subarray(specStart, i));
    const widthStart = i;
    if (isDigit(format[i])) i++;
    if (isDigit(format[i])) i++;
    const width = i > widthStart ? Number(ascii(format.subarray(widthStart, i))) : 0;
    let precision: number | null = null;
    if (format[i] === 0x2e) {
      i++;
      const precisionStart = i;
      if (isDigit(format[i])) i++;
      if (isDigit(format[i])) i++;
      precision = i > precisionStart ? Number(ascii(format.subarray(precisionStart, i))) : 0;
    }
    if (isDigit(format[i])) raiseError(L, 'invalid format (width or precision too long)');
    const conversion = i < format.length ? String.fromCharCode(format[i]) : '\0';
    i++;
    literalStart = i;
    const spec: Spec = { flags, width, precision };
    switch (conversion) {
      case 'c': {
        const code = Number(BigInt.asUintN(8, BigInt(cInt(lauxlib.luaL_checknumber(L, arg)))));
        out.push(pad(spec, Uint8Array.of(code)));
        break;
      }
      case 'd':
      case 'i':
        out.push(luaBytes(formatInteger(spec, cLongLong(lauxlib.luaL_checknumber(L, arg)), 'd')));
        break;
      case 'o':
      case 'u':
      case 'x':
      case 'X':
        out.push(luaBytes(formatInteger(spec, BigInt.asUintN(64, cLongLong(lauxlib.luaL_checknumber(L, arg))), conversion)));
        break;
      case 'e':
      case 'E':
      case 'f':
      case 'g':
      case 'G':
        out.push(luaBytes(formatFloat(spec, lauxlib.luaL_checknumber(L, arg), conversion)));
        break;
      case 'q':
        out.push(quoted(lauxlib.luaL_checklstring(L, arg)));
        break;
      case 's': {
        const text = lauxlib.luaL_checklstring(L, arg);
        if (precision === null && text.length >= 100) out.push(text);
        else {
          // sprintf stops at the first NUL byte.
          const nul = text.indexOf(0);
          const visible = nul < 0 ? text : text.subarray(0, nul);
          out.push(pad(spec, precision === null ? visible : visible.subarray(0, precision)));
        }
        break;
      }
      default:
        raiseError(L, `invalid option '%${conversion}' to 'format'`);
    }
  }
  out.push(format.subarray(literalStart));
  pushOwnedString(L, concat(L, out));
  return 1;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

function ascii(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

/** Joins the pieces, once the script's budget has room for the result (format('%s%s', s, s) doubles). */
function concat(L: LuaState, parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += part.length;
  reserveString(L, total);
  return join(parts, total);
}

function join(parts: readonly Uint8Array[], total = parts.reduce((sum, part) => sum + part.length, 0)): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** C's (int) cast of a double, as x86 does it (out of range -> INT_MIN). */
function cInt(n: number): number {
  if (!(n > -2147483649 && n < 2147483648)) return -2147483648;
  return Math.trunc(n);
}

/** C's (long long) cast of a double, as x86 does it (out of range or NaN -> INT64_MIN). */
function cLongLong(n: number): bigint {
  if (!(n > -(2 ** 63) - 1 && n < 2 ** 63)) return -(2n ** 63n);
  return BigInt(Math.trunc(n));
}

function pad(spec: Spec, body: Uint8Array): Uint8Array {
  if (body.length >= spec.width) return body;
  const fill = new Uint8Array(spec.width - body.length).fill(0x20);
  return spec.flags.includes('-') ? join([body, fill]) : join([fill, body]);
}

function padText(spec: Spec, sign: string, prefix: string, digits: string, zeroAllowed: boolean): string {
  const length = sign.length + prefix.length + digits.length;
  if (length >= spec.width) return sign + prefix + digits;
  const gap = spec.width - length;
  if (spec.flags.includes('-')) return sign + prefix + digits + ' '.repeat(gap);
  if (zeroAllowed && spec.flags.includes('0')) return sign + prefix + '0'.repeat(gap) + digits;
  return ' '.repeat(gap) + sign + prefix + digits;
}

function formatInteger(spec: Spec, value: bigint, conversion: string): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  let digits: string;
  switch (conversion) {
    case 'o':
      digits = magnitude.toString(8);
      break;
    case 'x':
      digits = magnitude.toString(16);
      break;
    case 'X':
      digits = magnitude.toString(16).toUpperCase();
      break;
    default:
      digits = magnitude.toString(10);
  }
  if (spec.precision !== null) {
    if (spec.precision === 0 && magnitude === 0n) digits = '';
    digits = digits.padStart(spec.precision, '0');
  }
  let sign = '';
  if (conversion === 'd') sign = negative ? '-' : spec.flags.includes('+') ? '+' : spec.flags.includes(' ') ? ' ' : '';
  let prefix = '';
  if (spec.flags.includes('#')) {
    if (conversion === 'o' && !digits.startsWith('0')) prefix = '0';
    if ((conversion === 'x' || conversion === 'X') && magnitude !== 0n) prefix = conversion === 'x' ? '0x' : '0X';
  }
  return padText(spec, sign, prefix, digits, spec.precision === null);
}

function formatFloat(spec: Spec, value: number, conversion: string): string {
  const upper = conversion === 'E' || conversion === 'G';
  const negative = value < 0 || Object.is(value, -0) || Number.isNaN(value);
  const sign = negative ? '-' : spec.flags.includes('+') ? '+' : spec.flags.includes(' ') ? ' ' : '';
  const magnitude = Math.abs(value);
  if (!Number.isFinite(magnitude)) {
    const word = Number.isNaN(magnitude) ? 'nan' : 'inf';
    return padText(spec, sign, '', upper ? word.toUpperCase() : word, false);
  }
  const precision = spec.precision ?? 6;
  const alt = spec.flags.includes('#');
  let body: string;
  switch (conversion.toLowerCase()) {
    case 'f':
      body = formatFixed(magnitude, Math.min(precision, 99), alt);
      break;
    case 'e':
      body = formatExponent(magnitude, Math.min(precision, 99), alt);
      break;
    default:
      body = formatGeneral(magnitude, Math.min(precision, 99), alt);
  }
  if (upper) body = body.toUpperCase();
  return padText(spec, sign, '', body, true);
}

/** %q: 5.1's addquoted. */
function quoted(bytes: Uint8Array): Uint8Array {
  const out: number[] = [0x22];
  for (const byte of bytes) {
    if (byte === 0x22 || byte === 0x5c || byte === 0x0a) out.push(0x5c, byte);
    else if (byte === 0x0d) out.push(0x5c, 0x72);
    else if (byte === 0) out.push(0x5c, 0x30, 0x30, 0x30);
    else out.push(byte);
  }
  out.push(0x22);
  return Uint8Array.from(out);
}
