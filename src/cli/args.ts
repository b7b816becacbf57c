import { parseArgs } from 'node:util';

/**
 * The CLI's command line, parsed with node:util's parseArgs (strict: an unknown option or a
 * missing value is a usage error). Pure: no I/O, so it is tested without spawning the CLI.
 */

/** A seed is a 32-bit unsigned integer (engine/rng.ts). */
const SEED_MAX = 0xffff_ffff;

export type Command =
  | { readonly name: 'help'; readonly topic: CommandName | null; readonly exitCode: 0 | 2 }
  | { readonly name: 'list'; readonly json: boolean; readonly lang: 'en' | 'zh' }
  | {
      readonly name: 'run';
      /** A built-in scenario's id, or null with `file`. */
      readonly scenario: string | null;
      /** A scenario definition file (JSON), instead of a built-in id. */
      readonly file: string | null;
      readonly variant: string | undefined;
      readonly schedule: string | undefined;
      readonly seed: number | undefined;
      readonly json: boolean;
    }
  | {
      readonly name: 'explore';
      readonly scenario: string | null;
      readonly file: string | null;
      readonly variant: string | undefined;
      readonly seed: number | undefined;
      readonly stalls: number | undefined;
      readonly stallLengthsMs: readonly number[] | undefined;
      readonly crashes: number | undefined;
      readonly depthMax: number | undefined;
      readonly runCountMax: number | undefined;
      readonly json: boolean;
    }
  | { readonly name: 'console'; readonly json: boolean };

export type CommandName = 'list' | 'run' | 'explore' | 'console';

/** Bounds of the explorer's options as the CLI reads them; the Node API checks its own limits. */
const EXPLORE_NUMBER_MAX = 1_000_000;

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
  explore    search a scenario's schedules for violations
  console    a redis-cli-like console on one simulated Redis server
  help       this text; "help <command>" or "<command> --help" for one command

Run "npm run sim -- <command> --help" for a command's options.`,
  list: `Usage: npm run sim -- list [--json] [--lang en|zh]

Lists every scenario with its title, summary and variants.
  --json         one JSON document instead of text
  --lang en|zh   the language of titles and summaries (default en)
  -h, --help     this text`,
  run: `Usage: npm run sim -- run <scenario> [--variant <id>] [--schedule "<text>"] [--seed <n>] [--json]
       npm run sim -- run --file <definition.json> [--variant <id>] [--schedule "<text>"] [--seed <n>] [--json]

Runs a scenario and prints its timeline (a violation is still a successful run: exit 0).
  <scenario>            a scenario id (see "list")
  --file <path>         a scenario definition file instead (docs/scenario-definition.schema.json)
  --variant <id>        one of the scenario's variants (default: its default variant)
  --schedule "<text>"   who moves when, e.g. "A A +6000 B A": A = step client A, +N = advance
                        the clock N ms, !A = crash A, A~N = stall A N ms (default: the scenario's)
  --seed <n>            the random seed, a whole number from 0 to ${SEED_MAX}
                        (${NUMBERS_ACCEPTED}; default 1)
  --json                one JSON document instead of text
  -h, --help            this text`,
  explore: `Usage: npm run sim -- explore <scenario> [options]
       npm run sim -- explore --file <definition.json> [options]

Searches the scenario's schedules breadth first for violations and prints each kind found with a
shortest schedule that shows it ("run --schedule" replays it). Finding a violation is still a
successful search: exit 0.
  <scenario>            a scenario id (see "list")
  --file <path>         a scenario definition file instead (docs/scenario-definition.schema.json)
  --variant <id>        one of the scenario's variants (default: its default variant)
  --seed <n>            the random seed (default 1)
  --stalls <n>          stalls (A~N) one schedule may contain (default 0)
  --stall-ms <a,b,..>   the stall lengths tried (ms), e.g. 5000 or 2000,6000
  --crashes <n>         crashes (!A) one schedule may contain (default 0)
  --depth <n>           longest schedule searched, in choices (default 12)
  --runs <n>            schedules run at most (default 20000)
  --json                one JSON document instead of text
  -h, --help            this text
Numbers: ${NUMBERS_ACCEPTED}.`,
  console: `Usage: npm run sim -- console [--json]

A redis-cli-like console over one simulated Redis server, reading commands from standard input.
Its clock moves only on ".advance <ms>" (${NUMBERS_ACCEPTED}); ".help" lists the directives.
  --json       one JSON array of strings per input line, one JSON reply per output line
  -h, --help   this text
Input lines longer than 64 MiB are refused (with an error reply) and skipped.`,
};

export function helpText(topic: CommandName | null): string {
  return HELP[topic ?? 'overview'];
}

const COMMAND_NAMES: readonly CommandName[] = ['list', 'run', 'explore', 'console'];

function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

const OPTIONS = {
  list: { json: { type: 'boolean' }, lang: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  run: {
    file: { type: 'string' },
    variant: { type: 'string' },
    schedule: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  explore: {
    file: { type: 'string' },
    variant: { type: 'string' },
    seed: { type: 'string' },
    stalls: { type: 'string' },
    'stall-ms': { type: 'string' },
    crashes: { type: 'string' },
    depth: { type: 'string' },
    runs: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  console: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
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
      const file = definitionFile(values, scenario, first);
      if (scenario === undefined && file === null) throw new UsageError('run needs a scenario id (see "list") or --file <definition.json>', first);
      if (extra.length > 0) throw new UsageError(`run takes one scenario id, got also "${extra.join(' ')}"`, first);
      const seed = values.seed as string | undefined;
      return {
        name: 'run',
        scenario: scenario ?? null,
        file,
        variant: values.variant as string | undefined,
        schedule: values.schedule as string | undefined,
        seed: seed === undefined ? undefined : parseWholeNumber('--seed', seed, SEED_MAX, first),
        json,
      };
    }
    case 'explore': {
      const [scenario, ...extra] = parsed.positionals;
      const file = definitionFile(values, scenario, first);
      if (scenario === undefined && file === null) throw new UsageError('explore needs a scenario id (see "list") or --file <definition.json>', first);
      if (extra.length > 0) throw new UsageError(`explore takes one scenario id, got also "${extra.join(' ')}"`, first);
      const number = (name: string, max: number) => {
        const text = values[name] as string | undefined;
        return text === undefined ? undefined : parseWholeNumber(`--${name}`, text, max, first);
      };
      const lengths = values['stall-ms'] as string | undefined;
      return {
        name: 'explore',
        scenario: scenario ?? null,
        file,
        variant: values.variant as string | undefined,
        seed: number('seed', SEED_MAX),
        stalls: number('stalls', EXPLORE_NUMBER_MAX),
        stallLengthsMs: lengths === undefined ? undefined : lengths.split(',').map((ms) => parseWholeNumber('--stall-ms', ms, EXPLORE_NUMBER_MAX, first)),
        crashes: number('crashes', EXPLORE_NUMBER_MAX),
        depthMax: number('depth', EXPLORE_NUMBER_MAX),
        runCountMax: number('runs', EXPLORE_NUMBER_MAX),
        json,
      };
    }
    case 'console':
      noPositionals(first, parsed.positionals);
      return { name: 'console', json };
  }
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

/** `--file <path>`: a definition file, which replaces the scenario id (giving both is a usage error). */
function definitionFile(values: Record<string, unknown>, scenario: string | undefined, topic: CommandName): string | null {
  const file = values.file as string | undefined;
  if (file === undefined) return null;
  if (file === '') throw new UsageError('--file needs a path', topic);
  if (scenario !== undefined) throw new UsageError(`give a scenario id or --file, not both (got "${scenario}" and --file ${file})`, topic);
  return file;
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
