import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runConsole } from '../../src/cli/console';

/** The stdin/stdout console over streams: what `npm run sim -- console` prints. */
async function runWith(json: boolean, lines: string[]): Promise<{ code: number; out: string[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk) => (text += String(chunk)));
  const done = runConsole({ json, input, output });
  input.end(lines.map((l) => `${l}\n`).join(''));
  const code = await done;
  return { code, out: text.split('\n').filter((l) => l !== '') };
}

describe('runConsole', () => {
  it('prints redis-cli style replies, one command per line, and exits 0 at the end of input', async () => {
    const { code, out } = await runWith(false, ['SET k v', 'GET k', 'INCR k', 'HSET h a 1 b 2', 'HGETALL h', '', '.advance 10', 'FOO']);
    expect(code).toBe(0);
    expect(out).toEqual([
      'OK',
      '"v"',
      '(error) ERR value is not an integer or out of range',
      '(integer) 2',
      '1) "a"',
      '2) "1"',
      '3) "b"',
      '4) "2"',
      'virtual time: 10 ms (+10 ms)',
      "(error) ERR unknown command 'FOO', with args beginning with: ",
    ]);
  });

  it('stops reading at quit', async () => {
    const { out } = await runWith(false, ['PING', 'quit', 'PING']);
    expect(out).toEqual(['PONG']);
  });

  it('--json answers one JSON reply per line and survives a malformed line', async () => {
    const { code, out } = await runWith(true, ['["SET","k","v"]', 'oops', '["GET","k"]', '[".advance","1500"]']);
    expect(code).toBe(0);
    expect(out.map((l) => JSON.parse(l))).toEqual([
      { type: 'status', value: 'OK' },
      expect.objectContaining({ type: 'error' }),
      { type: 'bulk', value: 'v' },
      { type: 'integer', value: '1500' },
    ]);
  });
});
