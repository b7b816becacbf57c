/**
 * The console as part of a run: a command typed into the page's Redis console is a schedule
 * choice (`$SET|k|v`, docs/SCHEDULES.md) that runs on the `console` connection at the current
 * instant, so a run with console commands replays from its schedule like any other.
 *
 * The console is not a client with a program: it has no ClientState, only a lane of its own in
 * the timeline (its `command` events carry `clientId: 'console'` and `pc: -1`). Commands that
 * would wait, stream or leave the simulation are refused up front with the reason.
 */
import type { SimRedisServer } from './redis/server';
import type { RunContext, WorldState } from './world';

/** The console's connection and lane id. A scenario client may not share it. */
export const CONSOLE_ID = 'console';

/** Most words one console command may have, and most characters in all of them. */
const consoleArgCountMax = 1_000;
const consoleCharsMax = 65_536;

/** Commands the console refuses (lower-case names, by reason): waiting, streaming, leaving the simulation. */
const REFUSED: readonly (readonly [string, string])[] = [
  ['blpop brpop brpoplpush blmove blmpop bzpopmin bzpopmax bzmpop wait waitaof xread xreadgroup', 'it blocks until data arrives, and the console cannot wait inside one step'],
  ['subscribe psubscribe ssubscribe unsubscribe punsubscribe sunsubscribe monitor sync psync', "the console shows one reply per command and cannot show a subscription's messages"],
  ['shutdown debug save bgsave bgrewriteaof replicaof slaveof failover migrate cluster config module acl select swapdb move', 'it would act outside the simulated Redis'],
  ['quit reset', 'it closes or resets the console\'s connection'],
];
const reasonOf = (name: string) => REFUSED.find(([names]) => names.split(' ').includes(name))?.[1];

/** CLIENT subcommands that reach other connections (the simulated clients'). */
const REFUSED_CLIENT_SUBCOMMANDS = 'kill pause unpause reply no-evict no-touch tracking'.split(' ');

const SCRIPT_COMMANDS = 'eval evalsha eval_ro evalsha_ro fcall fcall_ro'.split(' ');

/**
 * Why the console cannot run `argv` here and now, or null. Static checks first (shape, refused
 * commands), then the world: a scenario with several nodes, a client named `console`, a slow
 * script that would make the command wait.
 */
export function consoleRefusal(argv: readonly string[], world: Readonly<WorldState>, ctx: RunContext, server: SimRedisServer | null): string | null {
  const shape = consoleShapeProblem(argv);
  if (shape !== null) return shape;
  const name = argv[0].toLowerCase();
  const reason = reasonOf(name);
  if (reason !== undefined) return `the console does not run ${argv[0].toUpperCase()}: ${reason}`;
  if (name === 'client' && argv.length > 1 && REFUSED_CLIENT_SUBCOMMANDS.includes(argv[1].toLowerCase())) {
    return `the console does not run CLIENT ${argv[1].toUpperCase()}: it reaches the simulated clients' connections`;
  }
  if (world.cluster !== undefined) return 'the console runs only in scenarios with one Redis node';
  if (ctx.clientIds.includes(CONSOLE_ID)) return `this scenario has a client named "${CONSOLE_ID}", the console's own name`;
  if (SCRIPT_COMMANDS.includes(name) && ctx.scenario.scriptTiming !== undefined) {
    return `the console does not run ${argv[0].toUpperCase()} here: this scenario's scripts take virtual time, and the console answers at once`;
  }
  const running = server?.scriptBusy.running(world.nowMs) ?? null;
  if (running !== null && world.nowMs < running.busyFromMs) {
    return `Redis is running a script until t=${running.endMs} ms: the console's command would wait behind it (advance the clock first)`;
  }
  return null;
}

/** A console command's shape: at least one word, a name, and within the bounds. */
export function consoleShapeProblem(argv: readonly string[]): string | null {
  if (argv.length === 0 || argv[0] === '') return 'a console command needs a command name';
  if (argv.length > consoleArgCountMax) return `a console command has at most ${consoleArgCountMax} words`;
  let chars = 0;
  for (const word of argv) chars += word.length;
  if (chars > consoleCharsMax) return `a console command has at most ${consoleCharsMax} characters`;
  return null;
}
