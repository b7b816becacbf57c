import { parseArgs } from 'node:util';
import type { ReplayCommand } from './replay';
import { parseServerUrl } from './replay/address';

/**
 * The CLI's command line, parsed with node:util's parseArgs (strict: an unknown option or a
 * missing value is a usage error). Pure: no I/O, so it is tested without spawning the CLI.
 */

/** A seed is a 32-bit unsigned integer (engine/rng.ts). */
const SEED_MAX = 0xffff_ffff;
/** The fastest replay: 1 s of the run in 1 ms (src/cli/replay/plan.ts timeScaleMax). */
const TIME_SCALE_MAX = 1000;
const KEY_PREFIX_LENGTH_MAX = 200;

export type Command =
  | { readonly name: 'help'; readonly topic: CommandName | null; readonly exitCode: 0 | 2 }
  | { readonly name: 'list'; readonly json: boolean; readonly lang: 'en' | 'zh' }
  | {
      readonly name: 'run';
      readonly scenario: string;
      readonly variant: string | undefined;
      readonly schedule: string | undefined;
      readonly seed: number | undefined;
      readonly json: boolean;
    }
  | { readonly name: 'console'; readonly json: boolean }
  | ({ readonly name: 'replay' } & ReplayCommand);

export type CommandName = 'list' | 'run' | 'console' | 'replay';

export class UsageError extends Error {
  constructor(
    message: string,
    /** Which command's help to show under the message (null: the overview). */
    readonly topic: CommandName | null,
  ) {
    super(message);
  }
}

const NUMBERS_ACCEPTED = 'plain decimal digits, no sign, no leading zeros, no exponent';

const HELP: Record<CommandName | 'overview', string> = {
  overview: `Usage: npm run sim -- <command> [options]      (or: npx lockstep <command>)

Commands:
  list       the scenarios, their titles and variants
  run        run a scenario and print its timeline
  console    a redis-cli-like console on one simulated Redis server
  replay     replay a run on a real Redis server and compare every reply
  help       this text; "help <command>" or "<command> --help" for one command

Run "npm run sim -- <command> --help" for a command's options.`,
  list: `Usage: npm run sim -- list [--json] [--lang en|zh]

Lists every scenario with its title, summary and variants.
  --json         one JSON document instead of text
  --lang en|zh   the language of titles and summaries (default en)
  -h, --help     this text`,
  run: `Usage: npm run sim -- run <scenario> [--variant <id>] [--schedule "<text>"] [--seed <n>] [--json]

Runs a scenario and prints its timeline (a violation is still a successful run: exit 0).
  <scenario>            a scenario id (see "list")
  --variant <id>        one of the scenario's variants (default: its default variant)
  --schedule "<text>"   who moves when, e.g. "A A +6000 B A": A = step client A, +N = advance
                        the clock N ms, !A = crash A, A~N = stall A N ms (default: the scenario's)
  --seed <n>            the random seed, a whole number from 0 to ${SEED_MAX}
                        (${NUMBERS_ACCEPTED}; default 1)
  --json                one JSON document instead of text
  -h, --help            this text`,
  console: `Usage: npm run sim -- console [--json]

A redis-cli-like console over one simulated Redis server, reading commands from standard input.
Its clock moves only on ".advance <ms>" (${NUMBERS_ACCEPTED}); ".help" lists the directives.
  --json       one JSON array of strings per input line, one JSON reply per output line
  -h, --help   this text
Input lines longer than 64 MiB are refused (with an error reply) and skipped.`,
  replay: `Usage: npm run sim -- replay <scenario> --redis redis://host:port [--variant <id>] [--schedule "<text>"]
                            [--seed <n>] [--time-scale <k>] [--key-prefix <p>] [--allow-server-wide] [--json]

Runs the scenario in the simulator, then sends the same Redis commands to a real server, in the
simulated order, each client over its own connection, and compares every reply (docs/REPLAY.md).
Exit 0: every reply matched (a violation is still a success); 1: a reply differed; 2: an error.
  <scenario>            a scenario id (see "list")
  --redis <url>         the server, redis://[user:password@]host:port[/db] (rediss:// for TLS)
  --variant <id>        one of the scenario's variants (default: its default variant)
  --schedule "<text>"   who moves when, as for "run" (default: the scenario's)
  --seed <n>            the random seed, 0 to ${SEED_MAX} (${NUMBERS_ACCEPTED}; default 1)
  --time-scale <k>      run k times faster than the simulated clock, 1 to ${TIME_SCALE_MAX} (default 1):
                        waits, PX/EX/PEXPIRE/EXPIRE and the durations scripts receive are divided
                        by k; a k that leaves less than 50 ms between a command and a key's expiry
                        is refused
  --key-prefix <p>      put before every key name (default lockstep:<random id>:); the replay
                        refuses to start if any of its keys exists, and removes them at the end
  --allow-server-wide   allow commands that affect the whole server (SCRIPT FLUSH): only on a
                        server of your own
  --json                one JSON document instead of text
  -h, --help            this text
Progress goes to stderr.`,
};

export function helpText(topic: CommandName | null): string {
  return HELP[topic ?? 'overview'];
}

const COMMAND_NAMES: readonly CommandName[] = ['list', 'run', 'console', 'replay'];

function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

const OPTIONS = {
  list: { json: { type: 'boolean' }, lang: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  run: {
    variant: { type: 'string' },
    schedule: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  console: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  replay: {
    variant: { type: 'string' },
    schedule: { type: 'string' },
    seed: { type: 'string' },
    redis: { type: 'string' },
    'time-scale': { type: 'string' },
    'key-prefix': { type: 'string' },
    'allow-server-wide': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
} as const;

/** Parses the arguments after the script name. Throws UsageError with a message for the user. */
export function parseCommandLine(argv: readonly string[]): Command {
  const [first, ...rest] = argv;
  if (first === undefined) return { name: 'help', topic: null, exitCode: 2 };
  if (first === 'help' || first === '--help' || first === '-h') {
    const topic = rest[0];
    if (topic === undefined) return { name: 'help', topic: null, exitCode: 0 };
    if (!isCommandName(topic)) throw new UsageError(`no help for "${topic}": the commands are ${COMMAND_NAMES.join(', ')}`, null);
    return { name: 'help', topic, exitCode: 0 };
  }
  if (!isCommandName(first)) throw new UsageError(`unknown command "${first}"`, null);
  const parsed = parseOptions(first, rest);
  const values = parsed.values;
  // --help wins over everything else on the line: `run x --help` shows help and runs nothing.
  if (values.help === true) return { name: 'help', topic: first, exitCode: 0 };
  const json = values.json === true;
  switch (first) {
    case 'list': {
      noPositionals(first, parsed.positionals);
      const lang = (values.lang as string | undefined) ?? 'en';
      if (lang !== 'en' && lang !== 'zh') throw new UsageError(`--lang must be en or zh, got "${lang}"`, first);
      return { name: 'list', json, lang };
    }
    case 'run': {
      const [scenario, ...extra] = parsed.positionals;
      if (scenario === undefined) throw new UsageError('run needs a scenario id (see "list")', first);
      if (extra.length > 0) throw new UsageError(`run takes one scenario id, got also "${extra.join(' ')}"`, first);
      const seed = values.seed as string | undefined;
      return {
        name: 'run',
        scenario,
        variant: values.variant as string | undefined,
        schedule: values.schedule as string | undefined,
        seed: seed === undefined ? undefined : parseWholeNumber('--seed', seed, SEED_MAX, first),
        json,
      };
    }
    case 'console':
      noPositionals(first, parsed.positionals);
      return { name: 'console', json };
    case 'replay':
      return parseReplay(values, parsed.positionals, json);
  }
}

function parseReplay(values: Record<string, unknown>, positionals: readonly string[], json: boolean): Command {
  const [scenario, ...extra] = positionals;
  if (scenario === undefined) throw new UsageError('replay needs a scenario id (see "list")', 'replay');
  if (extra.length > 0) throw new UsageError(`replay takes one scenario id, got also "${extra.join(' ')}"`, 'replay');
  const redis = values.redis as string | undefined;
  if (redis === undefined) throw new UsageError('replay needs --redis redis://host:port (the server to replay on)', 'replay');
  const address = parseServerUrl(redis);
  if ('problem' in address) throw new UsageError(address.problem, 'replay');
  const seed = values.seed as string | undefined;
  const scale = values['time-scale'] as string | undefined;
  const keyPrefix = values['key-prefix'] as string | undefined;
  if (keyPrefix !== undefined && (keyPrefix === '' || keyPrefix.length > KEY_PREFIX_LENGTH_MAX || /[\s]/.test(keyPrefix))) {
    throw new UsageError(`--key-prefix must be 1 to ${KEY_PREFIX_LENGTH_MAX} characters without spaces, got "${keyPrefix}"`, 'replay');
  }
  const timeScale = scale === undefined ? 1 : parseWholeNumber('--time-scale', scale, TIME_SCALE_MAX, 'replay');
  if (timeScale === 0) throw new UsageError(`--time-scale must be a whole number from 1 to ${TIME_SCALE_MAX}, got "0"`, 'replay');
  return {
    name: 'replay',
    scenario,
    variant: values.variant as string | undefined,
    schedule: values.schedule as string | undefined,
    seed: seed === undefined ? 1 : parseWholeNumber('--seed', seed, SEED_MAX, 'replay'),
    redis,
    timeScale,
    keyPrefix,
    allowServerWide: values['allow-server-wide'] === true,
    json,
  };
}

function parseOptions(command: CommandName, args: string[]): { values: Record<string, unknown>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options: OPTIONS[command], strict: true, allowPositionals: true });
    return { values, positionals };
  } catch (error) {
    // parseArgs explains itself ("Unknown option '--x'", "Option '--seed <value>' argument missing").
    throw new UsageError((error as Error).message, command);
  }
}

function noPositionals(command: CommandName, positionals: readonly string[]): void {
  if (positionals.length > 0) throw new UsageError(`${command} takes no arguments, got "${positionals.join(' ')}"`, command);
}

/**
 * A whole number written as plain decimal digits: no sign, no leading zeros (so "00001" is not
 * quietly 1), no exponent, hex or fraction, and at most `max`.
 */
function parseWholeNumber(name: string, text: string, max: number, topic: CommandName | null): number {
  if (!/^(0|[1-9][0-9]*)$/.test(text) || Number(text) > max) {
    throw new UsageError(`${name} must be a whole number from 0 to ${max} (${NUMBERS_ACCEPTED}), got "${text}"`, topic);
  }
  return Number(text);
}
