/**
 * Number formatting as Redis's Lua 5.1 does it in C (glibc printf), which JS does not match:
 * `tostring(x)` and `..` use "%.14g" (LUA_NUMBER_FMT), numbers passed to redis.call use "%.17g",
 * string.format uses %e/%f/%g as given. glibc rounds the exact binary value to the requested
 * digits with ties to even; JS's toFixed/toExponential round ties away from zero (so
 * `string.format('%.0f', 2.5)` is "2" in Redis, "3" in JS). Rounding here works on the exact
 * decimal expansion of the double, so it agrees with glibc digit for digit.
 */

/** The exact decimal expansion of a finite, positive double: value = 0.DIGITS × 10^pointPos. */
interface Decimal {
  /** Significant digits, no leading zeros (empty for zero). */
  digits: string;
  /** Position of the decimal point relative to the start of `digits`. */
  pointPos: number;
}

const scratch = new DataView(new ArrayBuffer(8));

function exactDecimal(value: number): Decimal {
  scratch.setFloat64(0, value);
  const high = scratch.getUint32(0);
  const low = scratch.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  let exponent: number;
  if (biased === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  if (mantissa === 0n) return { digits: '', pointPos: 0 };
  let digits: string;
  let pointPos: number;
  if (exponent >= 0) {
    digits = (mantissa << BigInt(exponent)).toString();
    pointPos = digits.length;
  } else {
    // m / 2^k = m * 5^k / 10^k
    digits = (mantissa * 5n ** BigInt(-exponent)).toString();
    pointPos = digits.length + exponent;
  }
  const trimmed = digits.replace(/0+$/, '');
  return { digits: trimmed, pointPos };
}

/**
 * Rounds to `count` significant digits (count >= 0) with ties to even. Returns the kept digits
 * (exactly `count`, zero-padded) and the possibly shifted point position.
 */
function roundDigits(decimal: Decimal, count: number): Decimal {
  const { digits, pointPos } = decimal;
  if (digits.length <= count) return { digits: digits.padEnd(count, '0'), pointPos };
  const kept = digits.slice(0, count);
  const first = digits.charCodeAt(count) - 48;
  const rest = digits.slice(count + 1);
  const lastKept = count > 0 ? kept.charCodeAt(count - 1) - 48 : 0;
  const roundUp = first > 5 || (first === 5 && (/[1-9]/.test(rest) || lastKept % 2 === 1));
  if (!roundUp) return { digits: kept, pointPos };
  if (count === 0) return { digits: '1', pointPos: pointPos + 1 };
  const bumped = (BigInt(kept) + 1n).toString();
  if (bumped.length > count) return { digits: bumped.slice(0, count), pointPos: pointPos + 1 };
  return { digits: bumped.padStart(count, '0'), pointPos };
}

/** %.<precision>e of a finite, non-negative value: "d.ddde+XX". */
export function formatExponent(value: number, precision: number, keepPoint = false): string {
  let mantissa: string;
  let exponent: number;
  if (value === 0) {
    mantissa = '0'.repeat(precision + 1);
    exponent = 0;
  } else {
    const rounded = roundDigits(exactDecimal(value), precision + 1);
    mantissa = rounded.digits;
    exponent = rounded.pointPos - 1;
  }
  const point = precision > 0 || keepPoint ? '.' : '';
  return `${mantissa[0]}${point}${mantissa.slice(1)}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** %.<precision>f of a finite, non-negative value. */
export function formatFixed(value: number, precision: number, keepPoint = false): string {
  let intPart: string;
  let fraction: string;
  if (value === 0) {
    intPart = '0';
    fraction = '0'.repeat(precision);
  } else {
    const decimal = exactDecimal(value);
    // Significant digits to keep: those before the point plus `precision` after it.
    const count = decimal.pointPos + precision;
    if (count < 0) {
      intPart = '0';
      fraction = '0'.repeat(precision);
    } else {
      const rounded = roundDigits(decimal, count);
      const all = rounded.pointPos > 0 ? rounded.digits : '0'.repeat(-rounded.pointPos) + rounded.digits;
      const point = Math.max(rounded.pointPos, 0);
      const padded = all.padEnd(point + precision, '0');
      intPart = padded.slice(0, point).replace(/^0+(?=\d)/, '') || '0';
      fraction = padded.slice(point, point + precision);
    }
  }
  return precision > 0 || keepPoint ? `${intPart}.${fraction}` : intPart;
}

/** %.<precision>g of a finite, non-negative value (alt = the '#' flag: keep zeros and point). */
export function formatGeneral(value: number, precision: number, alt = false): string {
  const p = precision === 0 ? 1 : precision;
  let exponent = 0;
  if (value !== 0) {
    const rounded = roundDigits(exactDecimal(value), p);
    exponent = rounded.pointPos - 1;
  }
  const text = exponent < -4 || exponent >= p ? formatExponent(value, p - 1, alt) : formatFixed(value, p - 1 - exponent, alt);
  if (alt) return text;
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const trimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
  return e < 0 ? trimmed : trimmed + text.slice(e);
}

/** C's printf("%.<precision>g") for any double, as glibc prints it (inf, -inf, -nan). */
export function formatG(n: number, precision: number): string {
  // glibc prints the NaN that x86 produces for 0/0 as "-nan". JS cannot see a NaN's sign bit
  // reliably, and every NaN a script makes in practice (0/0, inf-inf) is that negative one.
  if (Number.isNaN(n)) return '-nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  const negative = n < 0 || Object.is(n, -0);
  return (negative ? '-' : '') + formatGeneral(Math.abs(n), precision);
}

/** Lua 5.1's tostring(number): "%.14g" (so 4/2 is "2", not fengari's "2.0"). */
export function formatLuaNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e14 && !Object.is(n, -0)) return String(n);
  return formatG(n, 14);
}

/** A Lua number passed as a redis.call argument: Redis 7.0 formats it with "%.17g". */
export function formatArgumentNumber(n: number): string {
  // Integers up to 2^53 print exactly; above, String() may round where %.17g does not.
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return String(n);
  return formatG(n, 17);
}
