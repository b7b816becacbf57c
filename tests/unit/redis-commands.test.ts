import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBytes, encodeString, isValidUtf8Text, byteLength } from '../../src/engine/redis/commands/bytes';
import { stringMatch } from '../../src/engine/redis/commands/keys';
import { addLongDouble, formatLongDouble, parseLongDouble } from '../../src/engine/redis/commands/long-double';
import { parseInteger } from '../../src/engine/redis/commands';
import type { Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';
import { runs } from '../support/size';

/** Pieces of the command layer that the differential suite exercises only through whole commands. */

const run = (s: SimRedisServer, ...argv: string[]): Reply => s.execute(argv, 1_000);

describe('parseInteger follows string2ll', () => {
  it('accepts canonical 64-bit decimals only', () => {
    expect(parseInteger('0')).toBe(0n);
    expect(parseInteger('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(parseInteger('9223372036854775807')).toBe(2n ** 63n - 1n);
    for (const bad of ['', '-0', '01', '+1', ' 1', '1 ', '1.0', '9223372036854775808', '-9223372036854775809', '1e3', '-']) {
      expect(parseInteger(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('stringMatch follows util.c stringmatchlen', () => {
  const match = (pattern: string, text: string) => stringMatch(encodeString(pattern), encodeString(text));
  it('handles *, ?, classes, negation, ranges (either order) and escapes', () => {
    expect(match('lock:*', 'lock:a')).toBe(true);
    expect(match('lock:?', 'lock:ab')).toBe(false);
    expect(match('[ab]x', 'bx')).toBe(true);
    expect(match('[^ab]x', 'bx')).toBe(false);
    expect(match('[z-a]', 'm')).toBe(true);
    expect(match('a\\*b', 'a*b')).toBe(true);
    expect(match('a\\*b', 'axb')).toBe(false);
    expect(match('[!a]', 'b')).toBe(false);
    expect(match('**', '')).toBe(false);
    expect(match('a[', 'a[')).toBe(false);
  });
  it('gives up on abusive patterns without exponential time', () => {
    const pattern = `${'a*'.repeat(40)}b`;
    expect(match(pattern, 'a'.repeat(60))).toBe(false);
  });
});

describe('long double arithmetic matches Redis on x86-64', () => {
  // Expected texts are real redis-server 7.0.15 replies to INCRBYFLOAT.
  const incr = (base: string, by: string) => {
    const a = parseLongDouble(base);
    const b = parseLongDouble(by);
    if (a === null || b === null) return null;
    return formatLongDouble(addLongDouble(a, b));
  };
  it('formats sums as Redis does', () => {
    expect(incr('1.5', '0.1')).toBe('1.6');
    expect(incr('0.1', '0.2')).toBe('0.3');
    expect(incr('12345.1', '0.000001')).toBe('12345.10000099999999978');
    expect(incr('0', '12345.1')).toBe('12345.09999999999999964');
    expect(incr('1e20', '1.5')).toBe('100000000000000000000');
    expect(incr('0', '123456789012345678901234567890')).toBe('123456789012345678899921813504');
    expect(incr('0', '-1e-20')).toBe('0');
    expect(incr('16', '0x1.8p1')).toBe('19');
  });
  it('rejects what strtold or string2ld reject', () => {
    for (const bad of ['', ' 1', '1 ', 'abc', 'nan', '1e', '1e5000', '1e-5000', '0x', '.']) {
      expect(parseLongDouble(bad), JSON.stringify(bad)).toBeNull();
    }
    expect(parseLongDouble('inf')).toEqual({ kind: 'inf', negative: false });
  });
});

describe('byte strings', () => {
  it('round-trip any bytes through decode/encode (seed 7)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = decodeBytes(bytes);
        expect([...encodeString(text)]).toEqual([...bytes]);
        expect(byteLength(text)).toBe(bytes.length);
        expect(isValidUtf8Text(text)).toBe(isUtf8(bytes));
      }),
      { seed: 7, numRuns: runs(500) },
    );
  });
  it('keep ordinary text unchanged (seed 7)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(decodeBytes(encodeString(text))).toBe(text);
        expect(isValidUtf8Text(text)).toBe(true);
      }),
      { seed: 7, numRuns: runs(300) },
    );
  });
});

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

describe('keyspace storage', () => {
  it('keeps hash field order through snapshot and restore', () => {
    const s = new SimRedisServer();
    run(s, 'HSET', 'h', 'b', '1', '10', '2', 'a', '3', '__proto__', '4');
    const before = run(s, 'HGETALL', 'h');
    const copy = new SimRedisServer();
    copy.restore(s.snapshot());
    expect(run(copy, 'HGETALL', 'h')).toEqual(before);
    expect(before).toEqual({
      type: 'array',
      value: ['b', '1', '10', '2', 'a', '3', '__proto__', '4'].map((value) => ({ type: 'bulk', value })),
    });
  });

  it('stores keys named like Object.prototype members', () => {
    const s = new SimRedisServer();
    expect(run(s, 'GET', 'constructor')).toEqual({ type: 'nil' });
    expect(run(s, 'SET', '__proto__', 'v')).toEqual({ type: 'status', value: 'OK' });
    expect(run(s, 'TYPE', '__proto__')).toEqual({ type: 'status', value: 'string' });
    expect(s.inspect(1_000).map((e) => e.key)).toEqual(['__proto__']);
  });

  it('gives byte-identical snapshots for the same keyspace built in a different order', () => {
    const a = new SimRedisServer();
    const b = new SimRedisServer();
    run(a, 'SET', 'x', '1');
    run(a, 'SADD', 's', 'q', 'p');
    run(b, 'SADD', 's', 'p', 'q');
    run(b, 'SET', 'x', '1');
    expect(JSON.stringify(a.snapshot())).toBe(JSON.stringify(b.snapshot()));
  });
});
