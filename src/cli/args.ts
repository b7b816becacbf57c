import { parseArgs } from 'node:util';
import type { CheckCommand } from './check';
import type { RecordCommand } from './record';
import type { ReplayCommand } from './replay';
import { parseServerUrl } from './replay/address';
import { parseShardSpec, ShardError } from '../engine/explore/shard';
import type { ShardSpec } from '../engine/explore/search';

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
      /** A built-in scenario's id, or null with `file`. */
      readonly scenario: string | null;
      /** A scenario definition file (JSON), instead of a built-in id. */
      readonly file: string | null;
      readonly variant: string | undefined;
      readonly schedule: string | undefined;
      readonly seed: number | undefined;
      readonly json: boolean;
      /** The language of the lesson, the narration and the events (text output). */
      readonly lang: 'en' | 'zh';
    }
  | { readonly name: 'console'; readonly json: boolean }
  | ExploreCommand
  | ExploreMergeCommand
  | ({ readonly name: 'replay' } & ReplayCommand)
  | ({ readonly name: 'check' } & CheckCommand)
  | ({ readonly name: 'record' } & RecordCommand);

/** `explore merge <shard.json>...`: one verdict from every shard of a search (engine/explore/shard.ts). */
export interface ExploreMergeCommand {
  readonly name: 'explore-merge';
  readonly files: readonly string[];
  readonly json: boolean;
}

/** `explore`: the explorer's options (docs/EXPLORER.md); undefined means the scenario's declared bound. */
export interface ExploreCommand {
  readonly name: 'explore';
  /** A built-in scenario id, or null with `file`. */
  readonly scenario: string | null;
  /** A scenario definition file (docs/scenario-definition.schema.json), or null. */
  readonly file: string | null;
  /** A variant id; undefined: the default variant; 'all': every variant in turn. */
  readonly variant: string | undefined;
  readonly seed: number | undefined;
  readonly depth: number | undefined;
  readonly states: number | undefined;
  readonly horizonMs: number | undefined;
  /** Fault budget parts given on the line (the rest comes from the scenario's declared budget). */
  readonly stalls: number | undefined;
  readonly stallMs: readonly number[] | undefined;
  readonly crashes: number | undefined;
  readonly faultClients: readonly string[] | undefined;
  /** A whole fault budget as text (parseFaultBudget), over the scenario's declared one; the single flags then apply over it. */
  readonly faults: string | undefined;
  readonly invariants: readonly string[] | undefined;
  /** bfs (default), or a random mode: random (uniform walks; `--random`), pct, swarm. */
  readonly mode: ExploreModeName;
  readonly walks: number | undefined;
  readonly walkSeed: number | undefined;
  /** PCT's bug depth d (--mode pct). */
  readonly bugDepth: number | undefined;
  readonly reduce: boolean;
  /** Replay each violation's schedule on every variant of the scenario (the page's side-by-side). */
  readonly compareVariants: boolean;
  /** Search only this shard (`i/n`, 1-based) and print its file for `explore merge`. */
  readonly shard: ShardSpec | undefined;
  /** Resume from / stop into this file (the breadth-first search). */
  readonly checkpoint: string | undefined;
  /** With a checkpoint: stop after this many seconds of wall time. */
  readonly maxSeconds: number | undefined;
  /** Worker threads for the breadth-first search (1: none). */
  readonly workers: number;
  readonly json: boolean;
}

export const EXPLORE_MODE_NAMES = ['bfs', 'random', 'pct', 'swarm'] as const;
export type ExploreModeName = (typeof EXPLORE_MODE_NAMES)[number];

export type CommandName = 'list' | 'run' | 'console' | 'explore' | 'replay' | 'check' | 'record';

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

// The explorer's limits (engine/explore/bounds.ts holds the authoritative checks; these are for the help).
const DEFAULT_DEPTH = 24;
const DEFAULT_STATES = 200_000;
const DEPTH_MAX = 200;
const STATES_MAX = 5_000_000;
const FAULTS_MAX = 8;
const STALL_LENGTHS_MAX = 8;
const WALKS_DEFAULT = 1000;
const WALKS_MAX = 1_000_000;
const BUG_DEPTH_DEFAULT = 2;
const BUG_DEPTH_MAX = 10;
const WORKERS_MAX = 64;
/** A week. */
const MAX_SECONDS = 604_800;
/** Longest stall or horizon accepted on the line (a day of virtual time). */
const MS_MAX = 86_400_000;

const HELP: Record<CommandName | 'overview', string> = {
  overview: `Usage: npm run sim -- <command> [options]      (or: npx lockstep <command>)

Commands:
  list       the scenarios, their titles and variants
  run        run a scenario and print its timeline
  console    a redis-cli-like console on one simulated Redis server
  explore    search a scenario's schedules for the shortest violation (docs/EXPLORER.md)
  replay     replay a run on a real Redis server and compare every reply
  check      check a recorded history of real Redis traffic for lock violations (docs/HISTORIES.md)
  record     record real Redis traffic as a history: a proxy in front of Redis
  help       this text; "help <command>" or "<command> --help" for one command

Run "npm run sim -- <command> --help" for a command's options.`,
  list: `Usage: npm run sim -- list [--json] [--lang en|zh]

Lists every scenario with its title, summary and variants.
  --json         one JSON document instead of text
  --lang en|zh   the language of titles and summaries (default en)
  -h, --help     this text`,
  run: `Usage: npm run sim -- run <scenario> [--variant <id>] [--schedule "<text>"] [--seed <n>] [--json] [--lang en|zh]
       npm run sim -- run --file <definition.json> [--variant <id>] [--schedule "<text>"] [--seed <n>] [--json] [--lang en|zh]

Runs a scenario and prints its lesson and timeline, the scenario's narration beside the steps of its
own schedule (a violation is still a successful run: exit 0).
  <scenario>            a scenario id (see "list")
  --file <path>         a scenario definition file instead (docs/scenario-definition.schema.json)
  --variant <id>        one of the scenario's variants (default: its default variant)
  --schedule "<text>"   who moves when, e.g. "A A +6000 B A": A = step client A, +N = advance
                        the clock N ms, !A = crash A, A~N = stall A N ms (default: the scenario's)
  --seed <n>            the random seed, a whole number from 0 to ${SEED_MAX}
                        (${NUMBERS_ACCEPTED}; default 1)
  --json                one JSON document instead of text
  --lang en|zh          the language of the lesson, narration and events (default en)
  -h, --help            this text`,
  console: `Usage: npm run sim -- console [--json]

A redis-cli-like console over one simulated Redis server, reading commands from standard input.
Its clock moves only on ".advance <ms>" (${NUMBERS_ACCEPTED}); ".help" lists the directives.
  --json       one JSON array of strings per input line, one JSON reply per output line
  -h, --help   this text
Input lines longer than 64 MiB are refused (with an error reply) and skipped.`,
  explore: `Usage: npm run sim -- explore <scenario>|--file <definition.json> [--variant <id>|all] [--depth <n>] [--stalls <n>]
         [--stall-ms <ms>[,<ms>...]] [--crashes <n>] [--fault-clients A,B] [--faults <budget>] [--states <n>]
         [--horizon-ms <ms>] [--invariant <kind>[,<kind>...]] [--mode bfs|random|pct|swarm [--walks <n>]
         [--walk-seed <n>] [--bug-depth <d>]] [--random]
         [--no-reduce] [--compare-variants] [--shard <i>/<n>] [--checkpoint <file> [--max-seconds <n>]] [--workers <n>]
         [--seed <n>] [--json]
       npm run sim -- explore merge <shard.json>... [--json]

Searches the schedules of a scenario variant, breadth-first, for the shortest one (fewest choices)
that breaks an invariant: client steps, the clock moved to the next due time, and faults within the
budget. Prints each violation found with its schedule (replay it with "run --schedule"), or what was
searched without finding one: "No violation of <invariants> within <bounds>: N states, M transitions,
exhaustive" only when every state within the bounds was seen. Unset bounds are the scenario's declared
ones (docs/EXPLORER.md), else depth ${DEFAULT_DEPTH}, no faults, ${DEFAULT_STATES} states.
  <scenario>                a scenario id (see "list")
  --file <path>             a scenario definition file instead (docs/scenario-definition.schema.json)
  --variant <id>|all        one variant (default: the default variant), or every variant in turn
  --depth <n>               longest schedule searched, in choices (1 to ${DEPTH_MAX})
  --stalls <n>              stalls one schedule may contain (0 to ${FAULTS_MAX}); needs stall lengths
  --stall-ms <ms>,...       the stall lengths tried at every point (ms, at most ${STALL_LENGTHS_MAX})
  --crashes <n>             crashes one schedule may contain (0 to ${FAULTS_MAX})
  --fault-clients A,B       only these clients' processes are faulted (default: every client's)
  --faults <budget>         the whole fault budget, "none" or items joined by commas: stalls=1,lengths=5000+7000,
                            crashes=1,clients=A+B and, with several Redis nodes, node-crashes=1 (restarts free),
                            promotions=1, jumps=1,jump-ms=11000+-2000 (node clock jumps), partitions=2 (heals
                            free), losses=1 (a lost request or reply), client-jumps=1,client-jump-ms=2000+-2000
                            (client clock jumps), repl-delays=1,repl-delay-ms=0+3000 (a replica's replication
                            delay set), nodes=r3+r4 (only these nodes); the single flags above apply over it
  --states <n>              distinct states the search may visit (1 to ${STATES_MAX})
  --horizon-ms <ms>         latest virtual time a schedule may reach
  --invariant <kind>,...    violation kinds to look for (default: all), e.g. foreign-release
  --mode <m>                bfs (default): breadth-first, shortest first; or seeded random walks (a sample:
                            never exhaustive; prints a coverage estimate): random (uniform), pct
                            (probabilistic concurrency testing, with its probability bound), swarm (each
                            walk draws its own fault budget within the bounds)
  --random                  the same as --mode random
  --walks <n>               random walks to take (default ${WALKS_DEFAULT})
  --walk-seed <n>           the walks' seed (default 1): walk i runs with seed n + i, printed with what it
                            finds; --walk-seed <that> --walks 1 replays that walk alone
  --bug-depth <d>           PCT's bug depth, 1 to ${BUG_DEPTH_MAX} (default ${BUG_DEPTH_DEFAULT}): d - 1 priority change points per walk
  --no-reduce               turn off the reductions: the partial-order reduction (same states, more
                            transitions) and, with several nodes, the canonical cluster key (more states)
  --compare-variants        replay each violation's schedule on every variant: which it breaks, which
                            refuse one of its choices, and the first step where each run differs
  --shard <i>/<n>           search shard i of n (1-based) of the breadth-first search and print its file
                            (JSON, exit 0 whatever it found); "explore merge <files>" gives the verdict
                            of one unsharded run (docs/EXPLORER.md, "Shards")
  --checkpoint <file>       go on from this file when it exists; on Ctrl-C or after --max-seconds write the
                            search there and exit 4 (run again to go on); removed when the search ends
  --max-seconds <n>         with --checkpoint: stop and write the checkpoint after n seconds
  --workers <n>             run the breadth-first search on n worker threads (default 1; each searches a
                            shard, merged as by explore merge: the same verdict and schedules)
  --seed <n>                the run's seed (tokens, jitter), 0 to ${SEED_MAX} (default 1)
  --json                    one JSON document (an array with --variant all)
  -h, --help                this text
Numbers: ${NUMBERS_ACCEPTED}.
Exit codes: 0 no violation found, 3 a violation found, 4 stopped into its checkpoint, 2 bad usage or input
(1: an internal error).`,
  replay: `Usage: npm run sim -- replay <scenario> (--redis redis://host:port ... | --start-server) [--variant <id>] [--schedule "<text>"]
                            [--seed <n>] [--time-scale <k>] [--key-prefix <p>] [--allow-server-wide] [--cluster]
                            [--record <file>] [--json]

Runs the scenario in the simulator, then sends the same Redis commands to a real server, in the
simulated order, each client over its own connection, and compares every reply (docs/REPLAY.md).
Exit 0: every reply matched (a violation is still a success); 1: a reply differed; 2: an error.
  <scenario>            a scenario id (see "list")
  --redis <url>         the server, redis://[user:password@]host:port[/db] (rediss:// for TLS);
                        a run with several nodes takes one --redis per node, in node order
  --start-server        start a private redis-server (from PATH) per node on free loopback ports
                        for this replay (replicas set up as the scenario says) and stop them at
                        the end; node faults happen only on such servers
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
  --cluster             --redis is a node of a Redis Cluster: the key prefix gets a hash tag
                        (default lockstep:{<random id>}:) and the replay runs on the master that
                        serves its slot
  --record <file>       append the real side to <file> as a history (docs/HISTORIES.md): every command
                        with its real reply and times, the simulated code's enter/leave/write as marks;
                        then "check <file>" judges what the real server did
  --json                one JSON document instead of text
  -h, --help            this text
Progress goes to stderr.`,
  check: `Usage: npm run sim -- check <history.jsonl> [--lock-key <key>] [--max-hold-ms <ms>] [--clock-skew-ms <ms>]
                            [--format jsonl|monitor] [--json]

Checks a recorded history of real Redis traffic (docs/HISTORIES.md) for lock violations: foreign
release, mutual exclusion, stale writes, locks never released, holds longer than a bound. Each is
certain (every order the recording allows shows it) or possible (some order does), with the lines
that show it. The file is read line by line; its length does not matter.
  <history.jsonl>        the recording: one JSON object per line (record(), "record", replay --record)
  --lock-key <key>       the lock's key (default: the key of the first SET ... NX in the file)
  --max-hold-ms <ms>     report a lock held longer than this
  --clock-skew-ms <ms>   how far apart the recorders' wall clocks may be (default 0)
  --format monitor       the file is redis-cli MONITOR output: commands only; replies are worked out
                         by running them on Lockstep's simulated Redis (what each client saw is unknown)
  --json                 one JSON document instead of text
  -h, --help             this text
Exit codes: 0 no violation, 1 a violation (certain or possible), 2 bad input or usage (lines it could
not read; the rest was still checked).`,
  record: `Usage: npm run sim -- record --listen [<host>:]<port> --redis redis://host:port --out <history.jsonl>

A recording proxy: point your application at --listen instead of Redis. Every byte goes on to
--redis and back untouched and in order; each command, its reply and the times the proxy saw them
are appended to --out as history lines (docs/HISTORIES.md). Ctrl-C stops it. Then: check <file>.
  --listen [<host>:]<port>  where to listen (host default 127.0.0.1; port 0: any free port, printed)
  --redis <url>             the real Redis, redis://host:port (TLS is not supported yet)
  --out <file>              the history file (appended to)
  -h, --help                this text`,
};

export function helpText(topic: CommandName | null): string {
  return HELP[topic ?? 'overview'];
}

const COMMAND_NAMES: readonly CommandName[] = ['list', 'run', 'console', 'explore', 'replay', 'check', 'record'];

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
    lang: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  console: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  explore: {
    file: { type: 'string' },
    variant: { type: 'string' },
    seed: { type: 'string' },
    depth: { type: 'string' },
    states: { type: 'string' },
    'horizon-ms': { type: 'string' },
    stalls: { type: 'string' },
    'stall-ms': { type: 'string' },
    crashes: { type: 'string' },
    'fault-clients': { type: 'string' },
    faults: { type: 'string' },
    invariant: { type: 'string' },
    random: { type: 'boolean' },
    mode: { type: 'string' },
    'bug-depth': { type: 'string' },
    walks: { type: 'string' },
    'walk-seed': { type: 'string' },
    'no-reduce': { type: 'boolean' },
    'compare-variants': { type: 'boolean' },
    shard: { type: 'string' },
    checkpoint: { type: 'string' },
    'max-seconds': { type: 'string' },
    workers: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  replay: {
    variant: { type: 'string' },
    schedule: { type: 'string' },
    seed: { type: 'string' },
    redis: { type: 'string', multiple: true },
    'time-scale': { type: 'string' },
    'key-prefix': { type: 'string' },
    'allow-server-wide': { type: 'boolean' },
    cluster: { type: 'boolean' },
    'start-server': { type: 'boolean' },
    record: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  check: {
    'lock-key': { type: 'string' },
    'max-hold-ms': { type: 'string' },
    'clock-skew-ms': { type: 'string' },
    format: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  record: {
    listen: { type: 'string' },
    redis: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
} as const;

function langOption(value: string | undefined, topic: CommandName): 'en' | 'zh' {
  const lang = value ?? 'en';
  if (lang !== 'en' && lang !== 'zh') throw new UsageError(`--lang must be en or zh, got "${lang}"`, topic);
  return lang;
}

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
      return { name: 'list', json, lang: langOption(values.lang as string | undefined, first) };
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
        lang: langOption(values.lang as string | undefined, first),
      };
    }
    case 'console':
      noPositionals(first, parsed.positionals);
      return { name: 'console', json };
    case 'explore':
      return exploreCommand(values, parsed.positionals, json);
    case 'replay':
      return parseReplay(values, parsed.positionals, json);
    case 'check':
      return parseCheck(values, parsed.positionals, json);
    case 'record':
      return parseRecord(values, parsed.positionals);
  }
}

function parseRecord(values: Record<string, unknown>, positionals: readonly string[]): Command {
  noPositionals('record', positionals);
  const listen = values.listen as string | undefined;
  const redis = values.redis as string | undefined;
  const out = values.out as string | undefined;
  if (listen === undefined || redis === undefined || out === undefined || out === '') throw new UsageError('record needs --listen, --redis and --out', 'record');
  const m = /^(?:([^:]+):)?([0-9]+)$/.exec(listen);
  if (m === null) throw new UsageError(`--listen wants [<host>:]<port>, got "${listen}"`, 'record');
  const listenPort = parseWholeNumber('--listen port', m[2], 65_535, 'record');
  const address = parseServerUrl(redis);
  if ('problem' in address) throw new UsageError(address.problem, 'record');
  return { name: 'record', listenHost: m[1] ?? '127.0.0.1', listenPort, redis: address.url, out };
}

function parseCheck(values: Record<string, unknown>, positionals: readonly string[], json: boolean): Command {
  const [file, ...extra] = positionals;
  if (file === undefined) throw new UsageError('check needs a history file (docs/HISTORIES.md)', 'check');
  if (extra.length > 0) throw new UsageError(`check takes one file, got also "${extra.join(' ')}"`, 'check');
  const format = (values.format as string | undefined) ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'monitor') throw new UsageError(`--format must be jsonl or monitor, got "${format}"`, 'check');
  const lockKey = values['lock-key'] as string | undefined;
  if (lockKey === '') throw new UsageError('--lock-key needs a key', 'check');
  const ms = (name: string): number | undefined => {
    const text = values[name] as string | undefined;
    return text === undefined ? undefined : parseWholeNumber(`--${name}`, text, MS_MAX, 'check');
  };
  return { name: 'check', file, format, lockKey, maxHoldMs: ms('max-hold-ms'), clockSkewMs: ms('clock-skew-ms'), json };
}

function exploreMerge(values: Record<string, unknown>, files: readonly string[], json: boolean): ExploreMergeCommand {
  const others = Object.keys(values).filter((k) => k !== 'json' && values[k] !== undefined);
  if (others.length > 0) throw new UsageError(`explore merge takes shard files and --json only, not --${others[0]}: the shards carry what was searched`, 'explore');
  if (files.length === 0) throw new UsageError('explore merge needs the shard files (the output of explore --shard i/n), e.g. explore merge shard-1.json shard-2.json', 'explore');
  return { name: 'explore-merge', files, json };
}

function exploreCommand(values: Record<string, unknown>, positionals: readonly string[], json: boolean): ExploreCommand | ExploreMergeCommand {
  if (positionals[0] === 'merge') return exploreMerge(values, positionals.slice(1), json);
  const [scenario, ...extra] = positionals;
  const file = definitionFile(values, scenario, 'explore');
  if (scenario === undefined && file === null) throw new UsageError('explore needs a scenario id (see "list") or --file <definition.json>', 'explore');
  if (extra.length > 0) throw new UsageError(`explore takes one scenario id, got also "${extra.join(' ')}"`, 'explore');
  const text = (name: string): string | undefined => values[name] as string | undefined;
  const whole = (name: string, min: number, max: number): number | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const n = parseWholeNumber(`--${name}`, value, max, 'explore');
    if (n < min) throw new UsageError(`--${name} must be at least ${min}, got "${value}"`, 'explore');
    return n;
  };
  const list = (name: string): string[] | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const items = value.split(',');
    if (items.some((item) => item === '')) throw new UsageError(`--${name} wants a comma-separated list without empty items, got "${value}"`, 'explore');
    return items;
  };
  const stallMs = list('stall-ms')?.map((ms) => parseWholeNumber('--stall-ms', ms, MS_MAX, 'explore'));
  if (stallMs && (stallMs.length > STALL_LENGTHS_MAX || stallMs.includes(0))) {
    throw new UsageError(`--stall-ms wants 1 to ${STALL_LENGTHS_MAX} lengths, each at least 1 ms`, 'explore');
  }
  const modeText = text('mode');
  if (modeText !== undefined && !(EXPLORE_MODE_NAMES as readonly string[]).includes(modeText)) {
    throw new UsageError(`--mode must be one of ${EXPLORE_MODE_NAMES.join(', ')}, got "${modeText}"`, 'explore');
  }
  if (values.random === true && modeText !== undefined && modeText !== 'random') throw new UsageError(`--random is --mode random: not with --mode ${modeText}`, 'explore');
  const mode: ExploreModeName = values.random === true ? 'random' : ((modeText as ExploreModeName | undefined) ?? 'bfs');
  if (mode === 'bfs' && (values.walks !== undefined || values['walk-seed'] !== undefined)) throw new UsageError('--walks and --walk-seed need a random mode (--mode random, pct or swarm)', 'explore');
  if (mode !== 'pct' && values['bug-depth'] !== undefined) throw new UsageError('--bug-depth needs --mode pct', 'explore');
  let shard: ShardSpec | undefined;
  if (text('shard') !== undefined) {
    try {
      shard = parseShardSpec(text('shard') as string);
    } catch (error) {
      if (error instanceof ShardError) throw new UsageError(`--shard: ${error.message}`, 'explore');
      throw error;
    }
    if (mode !== 'bfs') throw new UsageError('--shard splits the breadth-first search: random modes split by --walk-seed instead', 'explore');
    if (text('variant') === 'all') throw new UsageError('--shard searches one variant: give --variant <id>', 'explore');
    if (values['compare-variants'] === true) throw new UsageError('--compare-variants goes with the merge, not a shard', 'explore');
  }
  const checkpoint = text('checkpoint');
  if (checkpoint !== undefined) {
    if (checkpoint === '') throw new UsageError('--checkpoint wants a file name', 'explore');
    if (mode !== 'bfs') throw new UsageError('--checkpoint is for the breadth-first search (random walks are resumed by --walk-seed)', 'explore');
    if (text('variant') === 'all') throw new UsageError('--checkpoint searches one variant: give --variant <id>', 'explore');
    if (shard !== undefined) throw new UsageError('--checkpoint and --shard do not go together: checkpoint one shard by running it whole', 'explore');
    if (values['compare-variants'] === true) throw new UsageError('--compare-variants does not go with --checkpoint', 'explore');
  }
  const workersOf = (n: number | undefined): number => {
    if (n === undefined || n === 1) return 1;
    if (mode !== 'bfs') throw new UsageError('--workers runs the breadth-first search on threads: random modes run on one', 'explore');
    if (checkpoint !== undefined || shard !== undefined) throw new UsageError('--workers does not go with --checkpoint or --shard', 'explore');
    return n;
  };
  if (values['max-seconds'] !== undefined && checkpoint === undefined) throw new UsageError('--max-seconds needs --checkpoint <file> (where the search stops and goes on)', 'explore');
  return {
    name: 'explore',
    scenario: scenario ?? null,
    file,
    variant: text('variant'),
    seed: whole('seed', 0, SEED_MAX),
    depth: whole('depth', 1, DEPTH_MAX),
    states: whole('states', 1, STATES_MAX),
    horizonMs: whole('horizon-ms', 1, MS_MAX),
    stalls: whole('stalls', 0, FAULTS_MAX),
    stallMs,
    crashes: whole('crashes', 0, FAULTS_MAX),
    faultClients: list('fault-clients'),
    faults: text('faults'),
    invariants: list('invariant'),
    mode,
    walks: whole('walks', 1, WALKS_MAX),
    walkSeed: whole('walk-seed', 0, SEED_MAX),
    bugDepth: whole('bug-depth', 1, BUG_DEPTH_MAX),
    reduce: values['no-reduce'] !== true,
    compareVariants: values['compare-variants'] === true,
    shard,
    checkpoint,
    maxSeconds: whole('max-seconds', 1, MAX_SECONDS),
    workers: workersOf(whole('workers', 1, WORKERS_MAX)),
    json,
  };
}

function parseReplay(values: Record<string, unknown>, positionals: readonly string[], json: boolean): Command {
  const [scenario, ...extra] = positionals;
  if (scenario === undefined) throw new UsageError('replay needs a scenario id (see "list")', 'replay');
  if (extra.length > 0) throw new UsageError(`replay takes one scenario id, got also "${extra.join(' ')}"`, 'replay');
  const redis = (values.redis as string[] | undefined) ?? [];
  const startServer = values['start-server'] === true;
  if (startServer && redis.length > 0) throw new UsageError('replay takes --redis or --start-server, not both', 'replay');
  if (startServer && values.cluster === true) throw new UsageError('--start-server starts servers, not a cluster: give --cluster a running cluster with --redis', 'replay');
  if (redis.length === 0 && !startServer) throw new UsageError('replay needs --redis redis://host:port (the server to replay on; one per node for a run with several), or --start-server', 'replay');
  if (values.cluster === true && redis.length > 1) throw new UsageError('--cluster takes one --redis (any node of the cluster)', 'replay');
  for (const url of redis) {
    const address = parseServerUrl(url);
    if ('problem' in address) throw new UsageError(address.problem, 'replay');
  }
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
    redis: redis.length === 0 ? null : redis.length === 1 ? redis[0] : redis,
    timeScale,
    keyPrefix,
    allowServerWide: values['allow-server-wide'] === true,
    cluster: values.cluster === true,
    json,
    ...(values.record === undefined ? {} : { record: recordFile(values.record as string) }),
  };
}

function recordFile(path: string): string {
  if (path === '') throw new UsageError('--record needs a file', 'replay');
  return path;
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
