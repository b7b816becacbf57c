import { describe, expect, it } from 'vitest';
import { decodeBytes, displayBytes, quoteForDisplay } from '../../src/engine/redis/commands/bytes';
import { formatCli } from '../../src/engine/redis/console';
import { formatReplyShort } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';
import { keyValueText } from '../../src/session/derive';

/**
 * Values are bytes. Text views show a byte that is not valid UTF-8 as `\xHH`, as redis-cli does,
 * never as U+FFFD: the console (redis-cli's own quoting), the timeline and event text
 * (formatReplyShort), and the inspector (keyValueText).
 */
const raw = decodeBytes(Uint8Array.from([0x61, 0xff, 0x5c, 0x62]));

describe('byte-exact display', () => {
  it('leaves valid UTF-8 alone, Chinese and backslashes included', () => {
    expect(displayBytes('锁 a\\b')).toBe('锁 a\\b');
    expect(quoteForDisplay('tok "1"\n')).toBe(JSON.stringify('tok "1"\n'));
  });

  it('shows a raw 0xff byte as \\xff (and a backslash next to it as \\\\)', () => {
    expect(displayBytes(raw)).toBe('a\\xff\\\\b');
    expect(quoteForDisplay(raw)).toBe('"a\\xff\\\\b"');
    expect(displayBytes(raw)).not.toContain('\ufffd');
  });

  it('is what the console, the timeline and the inspector print', () => {
    const s = new SimRedisServer();
    s.execute(['SET', 'k', raw], 0);
    const value = s.execute(['GET', 'k'], 0);
    expect(formatCli(value)).toBe('"a\\xff\\\\b"');
    expect(formatReplyShort(value)).toBe('"a\\xff\\\\b"');
    const entry = s.inspect(0)[0];
    expect(keyValueText(entry)).toBe('a\\xff\\\\b');
  });
});
