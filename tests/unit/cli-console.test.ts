import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { INPUT_LINE_BYTES_MAX, runConsole } from '../../src/cli/console';
import { ConsoleSession } from '../../src/engine/redis/console';
import { SimRedisServer } from '../../src/engine/redis/server';

// Goal: the console stays bounded and well-behaved with hostile input and output: a line over
// the size limit is refused with an error (not a crash), a 16 MiB value goes through, a reader
// that goes away ends the session, and the virtual clock refuses to move past 2^53 ms.

async function runJson(input: PassThrough, output: PassThrough): Promise<{ code: number; lines: unknown[] }> {
  let text = '';
  output.on('data', (chunk) => (text += String(chunk)));
  const code = await runConsole({ json: true, input, output });
  return { code, lines: text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown) };
}

describe('console input and output limits', () => {
  it('refuses a line over the limit with an error reply and goes on', async () => {
    const input = new PassThrough();
    const done = runJson(input, new PassThrough());
    input.write('["PING"]\n');
    const chunk = Buffer.alloc(1024 * 1024, 0x78);
    for (let i = 0; i <= INPUT_LINE_BYTES_MAX / chunk.length; i++) input.write(chunk);
    input.end('\n["PING"]\n');
    const { code, lines } = await done;
    expect(code).toBe(0);
    expect(lines).toEqual([
      { type: 'status', value: 'PONG' },
      { type: 'error', value: `ERR input line of ${INPUT_LINE_BYTES_MAX + chunk.length} bytes is longer than the limit of ${INPUT_LINE_BYTES_MAX} bytes; skipped` },
      { type: 'status', value: 'PONG' },
    ]);
  });

  it('passes a 16 MiB value through --json', async () => {
    const input = new PassThrough();
    const done = runJson(input, new PassThrough());
    const value = 'v'.repeat(16 * 1024 * 1024 - 1);
    input.end(`${JSON.stringify(['SET', 'k', value])}\n["GET","k"]\n["STRLEN","k"]\n`);
    const { lines } = await done;
    expect(lines).toEqual([{ type: 'status', value: 'OK' }, { type: 'bulk', value }, { type: 'integer', value: String(value.length) }]);
  });

  it('stops reading when its reader goes away', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = 0;
    output.on('data', () => {
      written++;
      output.destroy();
    });
    const done = runConsole({ json: false, input, output });
    // More input than would ever be read: the session must end on its own once the output is gone.
    for (let i = 0; i < 100; i++) input.write('PING\n');
    const code = await done;
    expect(code).toBe(0);
    expect(written).toBe(1);
  });
});

describe('.advance', () => {
  const session = (startMs = 0) => new ConsoleSession({ server: new SimRedisServer(), startMs });

  it.each(['00001', '1e3', '0x10', '-1', '1.5', '+5', ''])('refuses %j', (text) => {
    const c = session();
    expect(c.runLine(`.advance "${text}"`).text).toBe(
      '(error) ERR .advance takes a whole number of milliseconds from 0 to 10000000000000, in plain decimal digits',
    );
    expect(c.nowMs).toBe(0);
  });

  it('refuses to take the clock past 2^53 ms, where it could no longer count milliseconds, and keeps it', () => {
    const c = session(Number.MAX_SAFE_INTEGER - 10);
    expect(c.runLine('.advance 10').text).toBe(`virtual time: ${Number.MAX_SAFE_INTEGER} ms (+10 ms)`);
    expect(c.runLine('.advance 1').text).toBe(
      `(error) ERR .advance 1 would take the virtual clock past ${Number.MAX_SAFE_INTEGER} ms (2^53 - 1), where it could no longer count milliseconds; it stays at ${Number.MAX_SAFE_INTEGER} ms`,
    );
    expect(c.nowMs).toBe(Number.MAX_SAFE_INTEGER);
  });
});
