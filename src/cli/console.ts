import { ConsoleSession } from '../engine/redis/console';
import { SimRedisServer } from '../engine/redis/server';
import { boundedLines } from './lines';

export interface RunConsoleOptions {
  /** One JSON array of strings per input line, one JSON reply per output line. */
  readonly json: boolean;
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

/**
 * Longest input line accepted, in bytes: room for a 16 MiB value (the simulator's largest
 * string) written as a JSON string with escapes. A longer line is answered with an error and
 * skipped without being kept in memory.
 */
export const INPUT_LINE_BYTES_MAX = 64 * 1024 * 1024;

/** Longest reply printed, in characters: a bigger one (KEYS of a huge keyspace) is answered with an error instead. */
const OUTPUT_LINE_CHARS_MAX = 64 * 1024 * 1024;

/**
 * `npm run sim -- console`: a redis-cli-like console over one simulated Redis server whose clock
 * only moves on `.advance`. Reads lines until the input ends (or `quit`), or until the output is
 * closed (`| head`); exit code 0.
 */
export async function runConsole(options: RunConsoleOptions): Promise<number> {
  const session = new ConsoleSession({ server: new SimRedisServer(), startMs: 0 });
  const interactive = !options.json && (options.input as NodeJS.ReadStream).isTTY === true;
  const output = new LineWriter(options.output);
  const prompt = () => {
    if (interactive) options.output.write(`lockstep@${session.nowMs}ms${session.promptTag}> `);
  };
  const error = (message: string) => (options.json ? JSON.stringify({ type: 'error', value: message }) : `(error) ${message}`);
  prompt();
  for await (const line of boundedLines(options.input as AsyncIterable<Buffer | string>, INPUT_LINE_BYTES_MAX)) {
    let text: string;
    if ('tooLongBytes' in line) {
      text = error(`ERR input line of ${line.tooLongBytes} bytes is longer than the limit of ${INPUT_LINE_BYTES_MAX} bytes; skipped`);
    } else if (options.json) {
      text = bounded(() => session.runJsonLine(line.text), error);
    } else {
      const result = session.runLine(line.text);
      if (result.exit) break;
      text = result.text.length > OUTPUT_LINE_CHARS_MAX ? tooLong(result.text.length, error) : result.text;
    }
    if (text !== '' && !(await output.writeLine(text))) break;
    prompt();
  }
  return 0;
}

/** A reply too big to print is answered with an error (JS strings stop at about 512 MiB anyway). */
function bounded(render: () => string, error: (message: string) => string): string {
  let text: string;
  try {
    text = render();
  } catch (caught) {
    if (caught instanceof RangeError) return error(`ERR reply too large to print (${caught.message})`);
    throw caught;
  }
  return text.length > OUTPUT_LINE_CHARS_MAX ? tooLong(text.length, error) : text;
}

function tooLong(length: number, error: (message: string) => string): string {
  return error(`ERR reply of ${length} characters is longer than the console prints (${OUTPUT_LINE_CHARS_MAX}); ask for less (GETRANGE, LRANGE, KEYS with a pattern)`);
}

/** Writes lines in order, waiting for the stream to drain so memory stays bounded; reports when the reader went away. */
class LineWriter {
  private closed = false;

  constructor(private readonly stream: NodeJS.WritableStream) {
    const close = () => {
      this.closed = true;
    };
    stream.once('close', close);
    stream.on('error', close);
  }

  /** False once the output is closed (EPIPE): the console then stops reading. */
  writeLine(text: string): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('close', done);
        this.stream.off('error', done);
        resolve(!this.closed);
      };
      if (this.stream.write(`${text}\n`)) resolve(!this.closed);
      else {
        this.stream.once('drain', done);
        this.stream.once('close', done);
        this.stream.once('error', done);
      }
    });
  }
}
