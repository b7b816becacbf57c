/**
 * The console as part of a run: a command typed into the page's Redis console is a schedule
 * choice (`$SET|k|v`, docs/SCHEDULES.md) that runs on the `console` connection at the current
 * instant, so a run with console commands replays from its schedule like any other.
 *
 * The console is not a client with a program: it has no ClientState, only a lane of its own in
 * the timeline (its `command` events carry `clientId: 'console'` and `pc: -1`). Commands that
 * would wait, stream or leave the simulation are refused up front with the reason.
 */
import type { MessageRef } from '../i18n';
import type { SimRedisServer } from './redis/server';
import type { RunContext, WorldState } from './world';

/** The console's connection and lane id. A scenario client may not share it. */
export const CONSOLE_ID = 'console';

/** Most words one console command may have, and most characters in all of them. */
const consoleArgCountMax = 1_000;
const consoleCharsMax = 65_536;

type CommandRefusal = 'refuseConsoleBlocks' | 'refuseConsoleSubscribes' | 'refuseConsoleOutside' | 'refuseConsoleCloses';

/** Commands the console refuses (lower-case names, by reason): waiting, streaming, leaving the simulation. */
const REFUSED: readonly (readonly [string, CommandRefusal])[] = [
  ['blpop brpop brpoplpush blmove blmpop bzpopmin bzpopmax bzmpop wait waitaof xread xreadgroup', 'refuseConsoleBlocks'],
  ['subscribe psubscribe ssubscribe unsubscribe punsubscribe sunsubscribe monitor sync psync', 'refuseConsoleSubscribes'],
  ['shutdown debug save bgsave bgrewriteaof replicaof slaveof failover migrate cluster config module acl select swapdb move', 'refuseConsoleOutside'],
  ['quit reset', 'refuseConsoleCloses'],
];
const reasonOf = (name: string) => REFUSED.find(([names]) => names.split(' ').includes(name))?.[1];

/** CLIENT subcommands that reach other connections (the simulated clients'). */
const REFUSED_CLIENT_SUBCOMMANDS = 'kill pause unpause reply no-evict no-touch tracking'.split(' ');

const SCRIPT_COMMANDS = 'eval evalsha eval_ro evalsha_ro fcall fcall_ro'.split(' ');

/**
 * Why the console cannot run `argv` here and now, or null. Static checks first (shape, refused
 * commands), then the world: the node it is aimed at (several nodes: one, up and serving; one
 * node: none), a client named `console`, a slow script that would make the command wait.
 */
export function consoleRefusal(argv: readonly string[], nodeId: string | undefined, world: Readonly<WorldState>, ctx: RunContext, server: SimRedisServer | null): MessageRef | null {
  const shape = consoleShapeProblem(argv);
  if (shape !== null) return shape;
  const name = argv[0].toLowerCase();
  const reason = reasonOf(name);
  if (reason !== undefined) return { key: reason, params: { command: argv[0].toUpperCase() } };
  if (name === 'client' && argv.length > 1 && REFUSED_CLIENT_SUBCOMMANDS.includes(argv[1].toLowerCase())) {
    return { key: 'refuseConsoleClientSub', params: { sub: argv[1].toUpperCase() } };
  }
  const aim = aimRefusal(nodeId, world);
  if (aim !== null) return aim;
  if (ctx.clientIds.includes(CONSOLE_ID)) return { key: 'refuseConsoleNameTaken', params: { name: CONSOLE_ID } };
  if (SCRIPT_COMMANDS.includes(name) && ctx.scenario.scriptTiming !== undefined) {
    return { key: 'refuseConsoleScriptTime', params: { command: argv[0].toUpperCase() } };
  }
  const running = server?.scriptBusy.running(world.nowMs) ?? null;
  if (running !== null && world.nowMs < running.busyFromMs) {
    return { key: 'refuseConsoleBusy', params: { endMs: running.endMs } };
  }
  return null;
}

/** With several nodes the console is connected to one, which must be up and serving; with one node, to none. */
function aimRefusal(nodeId: string | undefined, world: Readonly<WorldState>): MessageRef | null {
  const cluster = world.cluster;
  if (cluster === undefined) return nodeId === undefined ? null : { key: 'refuseConsoleNoNodes' };
  if (nodeId === undefined) return { key: 'refuseConsoleNeedsNode', params: { node: cluster.order[0] } };
  const node = Object.hasOwn(cluster.nodes, nodeId) ? cluster.nodes[nodeId] : undefined;
  if (node === undefined) return { key: 'refuseNoNode', params: { node: nodeId } };
  if (!node.up) return { key: 'refuseConsoleNodeDown', params: { node: nodeId } };
  if (world.nowMs < node.servingFromMs) return { key: 'refuseConsoleNodeNotServing', params: { node: nodeId, atMs: node.servingFromMs } };
  return null;
}

/** A console command's shape: at least one word, a name, and within the bounds. */
export function consoleShapeProblem(argv: readonly string[]): MessageRef | null {
  if (argv.length === 0 || argv[0] === '') return { key: 'refuseConsoleEmpty' };
  if (argv.length > consoleArgCountMax) return { key: 'refuseConsoleWords', params: { max: consoleArgCountMax } };
  let chars = 0;
  for (const word of argv) chars += word.length;
  if (chars > consoleCharsMax) return { key: 'refuseConsoleChars', params: { max: consoleCharsMax } };
  return null;
}
