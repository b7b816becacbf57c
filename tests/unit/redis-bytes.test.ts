import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBytes, encodeString, isValidUtf8Text, toHex } from '../../src/engine/redis/commands/bytes';
import { runs } from '../support/size';

// Goal: the byte convention's fast paths (TextEncoder for text without surrogates, decoding runs
// of valid UTF-8 at once, hex by table) give exactly what the plain per-character definitions
// below give, for any string and any bytes. Seed pinned.

const ESCAPE_BASE = 0xdc00;

/** The definition, one character at a time (the implementation before it was made linear). */
function encodeReference(text: string): Uint8Array {
  const out: number[] = [];
  const utf8 = (cp: number) => out.push(...new TextEncoder().encode(String.fromCodePoint(cp)));
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        utf8(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00));
        i += 1;
        continue;
      }
    }
    if (unit >= ESCAPE_BASE + 0x80 && unit <= ESCAPE_BASE + 0xff) out.push(unit - ESCAPE_BASE);
    else if (unit >= 0xd800 && unit <= 0xdfff) utf8(0xfffd);
    else utf8(unit);
  }
  return Uint8Array.from(out);
}

/** Each byte that does not start a valid UTF-8 sequence (WHATWG ranges) escaped, sequence by sequence. */
function decodeReference(bytes: Uint8Array): string {
  const cont = (at: number, lo = 0x80, hi = 0xbf) => at < bytes.length && bytes[at] >= lo && bytes[at] <= hi;
  const validLength = (i: number): number => {
    const b0 = bytes[i];
    if (b0 < 0x80) return 1;
    if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0;
    if (b0 >= 0xe0 && b0 <= 0xef) return cont(i + 1, b0 === 0xe0 ? 0xa0 : 0x80, b0 === 0xed ? 0x9f : 0xbf) && cont(i + 2) ? 3 : 0;
    if (b0 >= 0xf0 && b0 <= 0xf4) return cont(i + 1, b0 === 0xf0 ? 0x90 : 0x80, b0 === 0xf4 ? 0x8f : 0xbf) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    return 0;
  };
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const length = validLength(i);
    if (length === 0) {
      out += String.fromCharCode(ESCAPE_BASE + bytes[i]);
      i += 1;
    } else {
      out += new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(i, i + length));
      i += length;
    }
  }
  return out;
}

const anyText = fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), fc.constantFrom('\udcff', '\udc80', '\ud800', 'é', '✓', '😀')), maxLength: 40 });
const anyBytes = fc.uint8Array({ maxLength: 40 });

describe('bytes.ts fast paths', () => {
  it('encodeString gives the per-character definition (seed 7)', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(encodeString(text)).toEqual(encodeReference(text));
      }),
      { seed: 7, numRuns: runs(500) },
    );
  });

  it('decodeBytes gives the per-sequence definition and round-trips (seed 8)', () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        const text = decodeBytes(bytes);
        expect(text).toBe(decodeReference(bytes));
        expect(encodeString(text)).toEqual(bytes);
        expect(isValidUtf8Text(text)).toBe(!text.split('').some((c) => c.charCodeAt(0) >= ESCAPE_BASE + 0x80 && c.charCodeAt(0) <= ESCAPE_BASE + 0xff));
      }),
      { seed: 8, numRuns: runs(500) },
    );
  });

  it('toHex writes two lower-case digits per byte, also past its 64 KiB slices', () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) & 0xff);
    expect(toHex(bytes)).toBe(Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(''));
  });
});
