/**
 * INCRBYFLOAT and HINCRBYFLOAT compute in C `long double`, which on x86-64 Linux (where Redis
 * runs) is the x87 80-bit extended format: a 64-bit significand. A JS double would print
 * "1.60000000000000009" where Redis prints "1.6", so this module emulates that format exactly
 * with BigInt: glibc's strtold (correctly rounded, round-half-even), one addition, and
 * printf("%.17Lf") followed by Redis's trimming of trailing zeros (util.c ld2string, LD_STR_HUMAN).
 */

export type LongDouble =
  | { kind: 'finite'; negative: boolean; mantissa: bigint; exponent: number }
  | { kind: 'inf'; negative: boolean }
  | { kind: 'nan' };

const SIGNIFICAND_BITS = 64;
/** Smallest exponent of the last significand bit (subnormals): 2^-16445. */
const EXPONENT_MIN = -16445;
/** Largest exponent of the last significand bit for finite values: (2^64-1)·2^16320. */
const EXPONENT_MAX = 16320;
/** util.c MAX_LONG_DOUBLE_CHARS: longer texts are not numbers to Redis. */
const TEXT_LENGTH_MAX = 5 * 1024;

/** Rounds sign·num/den·2^shift to the nearest long double (ties to even). Returns null on underflow to zero. */
function roundToLongDouble(negative: boolean, num: bigint, den: bigint, shift: number): LongDouble {
  if (num === 0n) return { kind: 'finite', negative, mantissa: 0n, exponent: 0 };
  // Find e with 2^63 <= num/den·2^(shift-e) < 2^64, using bit lengths, then correct by one.
  let exponent = bitLength(num) - bitLength(den) + shift - SIGNIFICAND_BITS;
  const scaled = (e: number): [bigint, bigint, bigint] => {
    const k = shift - e;
    const n = k >= 0 ? num << BigInt(k) : num;
    const d = k >= 0 ? den : den << BigInt(-k);
    return [n / d, n % d, d];
  };
  let [q] = scaled(exponent);
  if (q >= 1n << 64n) exponent += 1;
  else if (q < 1n << 63n) exponent -= 1;
  if (exponent < EXPONENT_MIN) exponent = EXPONENT_MIN;
  let r: bigint;
  let d: bigint;
  [q, r, d] = scaled(exponent);
  // Round half to even.
  if (2n * r > d || (2n * r === d && (q & 1n) === 1n)) q += 1n;
  if (q === 1n << 64n) {
    q >>= 1n;
    exponent += 1;
  }
  if (exponent > EXPONENT_MAX) return { kind: 'inf', negative };
  return { kind: 'finite', negative, mantissa: q, exponent };
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/**
 * util.c string2ld over glibc strtold: no leading space, the whole text consumed, no NaN, and no
 * overflow or underflow to zero (ERANGE). Returns null when Redis would reply "not a valid float".
 */
export function parseLongDouble(text: string): LongDouble | null {
  if (text.length === 0 || text.length >= TEXT_LENGTH_MAX) return null;
  // strtold reads a C string and stops at a NUL byte; Redis then checks that it read all `slen`
  // bytes, so a value with a NUL inside ("1\0" + "2", from SETRANGE) is not a float.
  if (text.includes('\0')) return null;
  const body = text;
  if (/^\s/.test(body)) return null;
  const sign = body.startsWith('-') ? -1 : 1;
  const unsigned = body.startsWith('-') || body.startsWith('+') ? body.slice(1) : body;
  const negative = sign < 0;
  if (/^(inf|infinity)$/i.test(unsigned)) return { kind: 'inf', negative };
  if (/^nan(\([0-9A-Za-z_]*\))?$/i.test(unsigned)) return null;
  const hex = /^0x(?:([0-9a-f]*)(?:\.([0-9a-f]*))?)(?:p([+-]?[0-9]+))?$/i.exec(unsigned);
  if (hex) {
    const [, intDigits = '', fracDigits = '', exp = '0'] = hex;
    if (intDigits === '' && fracDigits === '') return null;
    const mantissa = BigInt(`0x${intDigits}${fracDigits}` === '0x' ? '0' : `0x${intDigits}${fracDigits}`);
    const binaryExponent = clampExponent(exp) - 4 * fracDigits.length;
    return finiteOrNull(roundToLongDouble(negative, mantissa, 1n, binaryExponent), mantissa);
  }
  const dec = /^([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(unsigned);
  if (!dec) return null;
  const [, intDigits = '', fracDigits = '', exp = '0'] = dec;
  if (intDigits === '' && fracDigits === '') return null;
  const digits = BigInt(`${intDigits}${fracDigits}` || '0');
  if (digits === 0n) return { kind: 'finite', negative, mantissa: 0n, exponent: 0 };
  const decimalExponent = clampExponent(exp) - fracDigits.length;
  // Far outside the range (|x| > 1e5000 or < 1e-5000 with at most 5120 digits): overflow or underflow.
  if (decimalExponent > 5000) return null;
  if (decimalExponent < -11000) return null;
  const rounded =
    decimalExponent >= 0
      ? roundToLongDouble(negative, digits * 10n ** BigInt(decimalExponent), 1n, 0)
      : roundToLongDouble(negative, digits, 10n ** BigInt(-decimalExponent), 0);
  return finiteOrNull(rounded, digits);
}

/** Exponents beyond any representable value are clamped; the range checks then reject them. */
function clampExponent(text: string): number {
  const value = Number(text);
  return Math.max(-100_000, Math.min(100_000, value));
}

/** strtold's ERANGE: overflow to infinity, or a non-zero input that rounds to zero. */
function finiteOrNull(value: LongDouble, inputMantissa: bigint): LongDouble | null {
  if (value.kind === 'inf') return null;
  if (value.kind === 'finite' && value.mantissa === 0n && inputMantissa !== 0n) return null;
  return value;
}

export function addLongDouble(a: LongDouble, b: LongDouble): LongDouble {
  if (a.kind === 'nan' || b.kind === 'nan') return { kind: 'nan' };
  if (a.kind === 'inf' || b.kind === 'inf') {
    if (a.kind === 'inf' && b.kind === 'inf' && a.negative !== b.negative) return { kind: 'nan' };
    return a.kind === 'inf' ? a : b;
  }
  const exponent = Math.min(a.exponent, b.exponent);
  const signed = (x: { negative: boolean; mantissa: bigint; exponent: number }) =>
    (x.negative ? -1n : 1n) * (x.mantissa << BigInt(x.exponent - exponent));
  const sum = signed(a) + signed(b);
  if (sum === 0n) {
    // IEEE round-to-nearest: x + (-x) is +0; -0 + -0 is -0.
    return { kind: 'finite', negative: a.negative && b.negative && a.mantissa === 0n && b.mantissa === 0n, mantissa: 0n, exponent: 0 };
  }
  return roundToLongDouble(sum < 0n, sum < 0n ? -sum : sum, 1n, exponent);
}

/** printf("%.17Lf"), trailing zeros and a trailing dot removed, "-0" shown as "0" (ld2string LD_STR_HUMAN). */
export function formatLongDouble(value: LongDouble): string {
  if (value.kind === 'nan') return value.kind;
  if (value.kind === 'inf') return value.negative ? '-inf' : 'inf';
  const scale = 10n ** 17n;
  let units: bigint;
  if (value.exponent >= 0) units = (value.mantissa << BigInt(value.exponent)) * scale;
  else {
    const n = value.mantissa * scale;
    const d = 1n << BigInt(-value.exponent);
    units = n / d;
    const r = n % d;
    // glibc rounds the exact binary value, ties to even.
    if (2n * r > d || (2n * r === d && (units & 1n) === 1n)) units += 1n;
  }
  const digits = units.toString().padStart(18, '0');
  let text = `${value.negative ? '-' : ''}${digits.slice(0, -17)}.${digits.slice(-17)}`;
  text = text.replace(/0+$/, '').replace(/\.$/, '');
  return text === '-0' ? '0' : text;
}
