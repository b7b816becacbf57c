import { describe, expect, it } from 'vitest';
import { boundedLines, type InputLine } from '../../src/cli/lines';

// Goal: the console reads lines of any size without keeping more than the limit of one line in
// memory: longer lines are reported by their size and skipped; chunk boundaries do not matter.

async function read(chunks: (string | Buffer)[], maxBytes: number): Promise<InputLine[]> {
  const out: InputLine[] = [];
  async function* source() {
    for (const chunk of chunks) yield chunk;
  }
  for await (const line of boundedLines(source(), maxBytes)) out.push(line);
  return out;
}

describe('boundedLines', () => {
  it('splits on newlines across chunks, drops a CR before LF, keeps empty lines, reads a last line without newline', async () => {
    expect(await read(['PI', 'NG\r\nGET', ' k\n\n', 'last'], 100)).toEqual([{ text: 'PING' }, { text: 'GET k' }, { text: '' }, { text: 'last' }]);
    expect(await read(['a\n'], 100)).toEqual([{ text: 'a' }]);
    expect(await read([], 100)).toEqual([]);
  });

  it('reports a line over the limit by its size and goes on with the next one', async () => {
    expect(await read(['ok\n', 'x'.repeat(6), 'x'.repeat(6), 'x\nPING\n'], 10)).toEqual([{ text: 'ok' }, { tooLongBytes: 13 }, { text: 'PING' }]);
    expect(await read(['x'.repeat(11)], 10)).toEqual([{ tooLongBytes: 11 }]);
    expect(await read(['x'.repeat(10), '\n'], 10)).toEqual([{ text: 'x'.repeat(10) }]);
  });

  it('decodes UTF-8, split anywhere, and replaces invalid bytes as readline does', async () => {
    const bytes = Buffer.from('héllo ✓\n');
    expect(await read([bytes.subarray(0, 2), bytes.subarray(2, 8), bytes.subarray(8)], 100)).toEqual([{ text: 'héllo ✓' }]);
    expect(await read([Buffer.from([0x61, 0xff, 0x0a])], 100)).toEqual([{ text: 'a\ufffd' }]);
  });
});
