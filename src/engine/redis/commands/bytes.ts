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

function decodeEscaping(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const length = validSequenceLength(bytes, i);
    if (length === 0) {
      out += String.fromCharCode(ESCAPE_BASE + bytes[i]);
      i += 1;
    } else {
      out += new TextDecoder('utf-8').decode(bytes.subarray(i, i + length));
      i += length;
    }
  }
  return out;
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

export function encodeString(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        pushUtf8(out, 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00));
        i += 1;
        continue;
      }
    }
    if (unit >= ESCAPE_BASE + 0x80 && unit <= ESCAPE_BASE + 0xff) out.push(unit - ESCAPE_BASE);
    else if (unit >= 0xd800 && unit <= 0xdfff) pushUtf8(out, 0xfffd);
    else pushUtf8(out, unit);
  }
  return Uint8Array.from(out);
}

function pushUtf8(out: number[], cp: number): void {
  if (cp < 0x80) out.push(cp);
  else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
  else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
}

/** True when the string is well-formed text (no lone surrogate), i.e. its bytes are valid UTF-8. */
export function isValidUtf8Text(text: string): boolean {
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
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
