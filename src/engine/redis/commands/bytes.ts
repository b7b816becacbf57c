/**
 * Redis values are byte strings; Lockstep carries them as JS strings. Valid UTF-8 becomes ordinary
 * text. A byte that is not part of valid UTF-8 becomes the lone surrogate U+DC00+byte (Python's
 * "surrogateescape"), so any byte string round-trips exactly, text stays readable, and a string is
 * valid UTF-8 exactly when it has no lone surrogate.
 */

const ESCAPE_BASE = 0xdc00;

let fatalDecoder: TextDecoder | null = null;

export function decodeBytes(bytes: Uint8Array): string {
  fatalDecoder ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    return decodeEscaping(bytes);
  }
}

let lenientDecoder: TextDecoder | null = null;

/** Invalid UTF-8: each run of valid sequences decoded at once, each stray byte escaped. */
function decodeEscaping(bytes: Uint8Array): string {
  lenientDecoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
  const parts: string[] = [];
  let runStart = 0;
  let i = 0;
  // Bounded by the input: each round moves i forward.
  while (i < bytes.length) {
    const length = validSequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    if (i > runStart) parts.push(lenientDecoder.decode(bytes.subarray(runStart, i)));
    parts.push(String.fromCharCode(ESCAPE_BASE + bytes[i]));
    i += 1;
    runStart = i;
  }
  if (i > runStart) parts.push(lenientDecoder.decode(bytes.subarray(runStart, i)));
  return parts.join('');
}

/** Length of the valid UTF-8 sequence starting at `i` (1-4), or 0 if none (WHATWG ranges). */
function validSequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i];
  if (b0 < 0x80) return 1;
  const cont = (at: number, lo = 0x80, hi = 0xbf) => at < bytes.length && bytes[at] >= lo && bytes[at] <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

const SURROGATE = /[\ud800-\udfff]/;
let utf8Encoder: TextEncoder | null = null;

export function encodeString(text: string): Uint8Array {
  utf8Encoder ??= new TextEncoder();
  // Text without surrogates (almost all of it) is plain UTF-8.
  if (!SURROGATE.test(text)) return utf8Encoder.encode(text);
  const out = new Uint8Array(text.length * 3);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        i += 1;
      }
    } else if (cp >= ESCAPE_BASE + 0x80 && cp <= ESCAPE_BASE + 0xff) {
      out[length++] = cp - ESCAPE_BASE;
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) out[length++] = cp;
    else if (cp < 0x800) {
      out[length++] = 0xc0 | (cp >> 6);
      out[length++] = 0x80 | (cp & 63);
    } else if (cp < 0x10000) {
      out[length++] = 0xe0 | (cp >> 12);
      out[length++] = 0x80 | ((cp >> 6) & 63);
      out[length++] = 0x80 | (cp & 63);
    } else {
      out[length++] = 0xf0 | (cp >> 18);
      out[length++] = 0x80 | ((cp >> 12) & 63);
      out[length++] = 0x80 | ((cp >> 6) & 63);
      out[length++] = 0x80 | (cp & 63);
    }
  }
  return out.slice(0, length);
}

/** True when the string is well-formed text (no lone surrogate), i.e. its bytes are valid UTF-8. */
export function isValidUtf8Text(text: string): boolean {
  if (!SURROGATE.test(text)) return true;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (low < 0xdc00 || low > 0xdfff) return false;
      i += 1;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) return false;
  }
  return true;
}

/** Byte length as Redis counts it (STRLEN, APPEND, HSTRLEN). */
export function byteLength(text: string): number {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  return ascii ? text.length : encodeString(text).length;
}

const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * A value as text views show it, byte-exact: valid UTF-8 reads as itself; otherwise each byte
 * that is not part of valid UTF-8 shows as `\xHH`, as redis-cli writes it (never U+FFFD), and a
 * backslash as `\\`, so the text still says which bytes the value holds.
 */
export function displayBytes(text: string): string {
  if (isValidUtf8Text(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      out += text.slice(i, i + 2);
      i += 1;
    } else if (unit >= ESCAPE_BASE + 0x80 && unit <= ESCAPE_BASE + 0xff) out += `\\x${(unit - ESCAPE_BASE).toString(16).padStart(2, '0')}`;
    else if (unit >= 0xd800 && unit <= 0xdfff) out += '\ufffd';
    else if (unit === 0x5c) out += '\\\\';
    else out += text[i];
  }
  return out;
}

/**
 * A value in double quotes for one-line views (timelines, event text): JSON.stringify's escapes,
 * except that a byte that is not valid UTF-8 shows as `\xHH` rather than `\udcHH`.
 */
export function quoteForDisplay(text: string): string {
  const json = JSON.stringify(text);
  if (isValidUtf8Text(text)) return json;
  // JSON escapes a lone surrogate as \udcHH; an escaped backslash before it is `\\`, so count them.
  return json.replace(/(\\+)udc([89a-f][0-9a-f])/g, (all, slashes: string, hex: string) => (slashes.length % 2 === 1 ? `${slashes}x${hex}` : all));
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

export function toHex(bytes: Uint8Array): string {
  const parts: string[] = [];
  // Built in slices: one string per 64 KiB keeps the work linear.
  for (let start = 0; start < bytes.length; start += 65536) {
    let slice = '';
    const end = Math.min(bytes.length, start + 65536);
    for (let i = start; i < end; i++) slice += HEX_PAIRS[bytes[i]];
    parts.push(slice);
  }
  return parts.join('');
}
