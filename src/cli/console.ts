import readline from 'node:readline';
import { ConsoleSession } from '../engine/redis/console';
import { SimRedisServer } from '../engine/redis/server';

export interface RunConsoleOptions {
  /** One JSON array of strings per input line, one JSON reply per output line. */
  readonly json: boolean;
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

/** Longest input line accepted; a longer one is answered with an error and skipped. */
const INPUT_LINE_LENGTH_MAX = 1 << 20;

/**
 * `npm run sim -- console`: a redis-cli-like console over one simulated Redis server whose clock
 * only moves on `.advance`. Reads lines until the input ends (or `quit`); exit code 0.
 */
export async function runConsole(options: RunConsoleOptions): Promise<number> {
  const session = new ConsoleSession({ server: new SimRedisServer(), startMs: 0 });
  const interactive = !options.json && (options.input as NodeJS.ReadStream).isTTY === true;
  const prompt = () => {
    if (interactive) options.output.write(`lockstep@${session.nowMs}ms${session.promptTag}> `);
  };
  const lines = readline.createInterface({ input: options.input, crlfDelay: Infinity, terminal: false });
  prompt();
  for await (const line of lines) {
    if (line.length > INPUT_LINE_LENGTH_MAX) {
      const message = `ERR input line longer than ${INPUT_LINE_LENGTH_MAX} characters`;
      await write(options.output, options.json ? JSON.stringify({ type: 'error', value: message }) : `(error) ${message}`);
      prompt();
      continue;
    }
    if (options.json) {
      const out = session.runJsonLine(line);
      if (out !== '') await write(options.output, out);
    } else {
      const result = session.runLine(line);
      if (result.exit) break;
      if (result.text !== '') await write(options.output, result.text);
    }
    prompt();
  }
  lines.close();
  return 0;
}

/** Writes one line, waiting for the stream to drain so a large output keeps its order and memory bounded. */
function write(output: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (output.write(`${text}\n`)) resolve();
    else output.once('drain', () => resolve());
  });
}
