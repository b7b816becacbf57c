import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { ReplayHistory } from './record-history';
import { Simulation } from '../../engine/simulation';
import { findScenario } from '../../scenarios';
import { parseServerUrl, type ServerAddress } from './address';
import { buildPlan, ReplayRefusal, type ReplayPlan } from './plan';
import { hashTagOf } from './cluster';
import { OwnedServers } from './owned-servers';
import { exitCodeOf, jsonReport, textReport } from './report';
import { replayOnServers, type NodeOps } from './run';
import { OwnedNodes } from './owned-nodes';
import { slotOf } from '../../engine/redis/cluster-slots';
import { SINGLE_NODE } from './node-plan';
import { findVariant, nodesOf } from '../../engine/scenario';

/** `npm run sim -- replay`: a simulated run, replayed on a real Redis and compared reply by reply. */
export interface ReplayCommand {
  readonly scenario: string;
  readonly variant: string | undefined;
  readonly schedule: string | undefined;
  readonly seed: number;
  /**
   * The server's URL, or one per simulated node in node order (--redis given several times);
   * null: start a private redis-server per node for this replay (--start-server).
   */
  readonly redis: string | readonly string[] | null;
  readonly timeScale: number;
  readonly keyPrefix: string | undefined;
  readonly allowServerWide: boolean;
  /** The server is a node of a Redis Cluster (cluster.ts). */
  readonly cluster: boolean;
  readonly json: boolean;
  /** `--record <file>`: write the real side as a history (docs/HISTORIES.md). */
  readonly record?: string;
}

export interface ReplayIo {
  readonly stdout: { write(text: string): unknown };
  /** Progress and errors; `isTTY` makes the progress line rewrite itself. */
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly signal?: AbortSignal;
  /** Awaited when the server is checked and connected, just before the replay's clock starts. */
  readonly beforeStart?: () => Promise<void>;
}

/** Progress lines on a stream that is not a terminal: at most one per this many ms, and the last. */
const progressEveryMs = 1_000;

export async function runReplay(command: ReplayCommand, io: ReplayIo): Promise<number> {
  if (command.redis === null) return await replayOnOwnServers(command, io);
  const prepared = prepareReplay(command, io);
  return prepared === null ? 2 : await executeReplay(prepared, command.json, io);
}

/**
 * --start-server: a private redis-server on a free loopback port per simulated node (one for a
 * single-node run), for this replay only, stopped at the end; node faults act on these.
 */
async function replayOnOwnServers(command: ReplayCommand, io: ReplayIo): Promise<number> {
  const scenario = findScenario(command.scenario);
  const nodes = nodesOf(scenario, findVariant(scenario, command.variant));
  if (nodes === null) {
    const owned = new OwnedServers();
    try {
      const address = await owned.start();
      io.stderr.write(`started redis-server on ${address.display} for this replay (stopped at the end)\n`);
      return await runReplay({ ...command, redis: address.url }, io);
    } catch (error) {
      io.stderr.write(`lockstep: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    } finally {
      await owned.stopAll();
    }
  }
  // Plan first: a run that cannot be replayed starts no server.
  const probe = prepareReplay({ ...command, redis: nodes.map(() => 'redis://127.0.0.1:1') }, io);
  if (probe === null) return 2;
  const owned = new OwnedNodes(nodes, command.timeScale);
  try {
    await owned.start();
    const started = nodes.map((n) => `${n.id} on ${owned.addresses.get(n.id)?.display ?? '?'}${n.role === 'replica' ? ` (replica of ${n.replicaOf})` : ''}`);
    io.stderr.write(`started one redis-server per node for this replay (stopped at the end): ${started.join(', ')}\n`);
    const prepared = { ...probe, addresses: new Map(nodes.map((n) => [n.id, owned.addresses.get(n.id) as ServerAddress])) };
    return await executeReplay(prepared, command.json, io, owned);
  } catch (error) {
    io.stderr.write(`lockstep: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  } finally {
    await owned.stopAll();
  }
}

export interface PreparedReplay {
  readonly plan: ReplayPlan;
  /** The server of each node, in node order (one, SINGLE_NODE, for a single-node run). */
  readonly addresses: ReadonlyMap<string, ServerAddress>;
  readonly cluster: boolean;
  /** A history file to append the real side to, or null. */
  readonly record?: string | null;
}

/** The plan (the simulated run and the commands to send), or null after saying why it cannot be replayed. */
export function prepareReplay(command: ReplayCommand, io: ReplayIo): PreparedReplay | null {
  const urls = typeof command.redis === 'string' ? [command.redis] : (command.redis ?? []);
  const parsed: ServerAddress[] = [];
  for (const url of urls) {
    const address = parseServerUrl(url);
    if ('problem' in address) {
      io.stderr.write(`lockstep: ${address.problem}\n`);
      return null;
    }
    parsed.push(address);
  }
  const scenario = findScenario(command.scenario);
  const nodes = nodesOf(scenario, findVariant(scenario, command.variant));
  const nodeIds = nodes === null ? [SINGLE_NODE] : nodes.map((n) => n.id);
  if (parsed.length !== nodeIds.length) {
    io.stderr.write(
      `lockstep: ${scenario.id} runs on ${nodeIds.length === 1 ? 'one Redis server' : `${nodeIds.length} Redis nodes (${nodeIds.join(', ')})`}: ` +
        `give --redis ${nodeIds.length === 1 ? 'once' : `${nodeIds.length} times, one server per node in that order`} (got ${parsed.length}), or --start-server\n`,
    );
    return null;
  }
  if (command.cluster && nodes !== null) {
    io.stderr.write(`lockstep: --cluster replays a single-node run on a Redis Cluster; ${scenario.id} has several nodes of its own (${nodeIds.join(', ')}): give one --redis per node\n`);
    return null;
  }
  const addresses = new Map(nodeIds.map((id, i) => [id, parsed[i]]));
  const id = randomBytes(4).toString('hex');
  // A lesson about hash slots (redisCluster) needs its keys' own slots: its prefix has no tag, and it replays only on a cluster.
  const slotLesson = scenario.redisCluster === true;
  if (slotLesson && !command.cluster) {
    io.stderr.write(`lockstep: ${scenario.id} runs on a Redis Cluster (which keys share a hash slot is its lesson): replay it with --cluster on a cluster node\n`);
    return null;
  }
  // On a cluster the prefix's hash tag puts every key of the replay in one slot.
  const keyPrefix = command.keyPrefix ?? (command.cluster && !slotLesson ? `lockstep:{${id}}:` : `lockstep:${id}:`);
  if (slotLesson && keyPrefix.includes('{')) {
    io.stderr.write(`lockstep: ${scenario.id}'s keys carry their own hash tags and slots: a key prefix with "{" would change them; give one without, such as lockstep:demo:\n`);
    return null;
  }
  if (command.cluster && !slotLesson && hashTagOf(keyPrefix) === null) {
    io.stderr.write(`lockstep: --cluster needs a key prefix with a hash tag, such as lockstep:{demo}:, so that every key and script stays on one slot; got "${keyPrefix}"\n`);
    return null;
  }
  try {
    const plan = buildPlan(scenario, {
      variantId: command.variant,
      seed: command.seed,
      schedule: command.schedule,
      timeScale: command.timeScale,
      keyPrefix,
      allowServerWide: command.allowServerWide,
    });
    if (slotLesson) {
      // The real keys must cross slots exactly where the simulated ones do (an untagged key's slot moves with the prefix).
      const moved = plan.commands.find((c) => (slotOf([c.argv]) === 'cross') !== (slotOf([c.realArgv]) === 'cross'));
      if (moved !== undefined) {
        io.stderr.write(`lockstep: cannot replay ${scenario.id}: with the key prefix ${keyPrefix}, command ${moved.index + 1}'s keys ${slotOf([moved.argv]) === 'cross' ? 'share a slot' : 'span slots'} where the simulated ones do not; use another --key-prefix\n`);
        return null;
      }
    }
    return { plan, addresses, cluster: command.cluster, record: command.record ?? null };
  } catch (error) {
    if (!(error instanceof ReplayRefusal)) throw error;
    io.stderr.write(`lockstep: cannot replay ${scenario.id}: ${error.message}\n`);
    return null;
  }
}

/** Replays a prepared plan on its server and writes the report; the exit code (report.ts exitCodeOf). */
export async function executeReplay({ plan, addresses, cluster, record }: PreparedReplay, json: boolean, io: ReplayIo, nodeOps?: NodeOps): Promise<number> {
  // Names each client's token in the text report (`<A's token>`), read before any wait starts.
  const tokens = json ? {} : Object.fromEntries(new Simulation(plan.scenario, { variantId: plan.variant.id, seed: plan.seed }).clients.map((c) => [c.id, c.vars.token ?? '']));
  let lastProgressAt = -Infinity;
  const recordFile = record === undefined || record === null ? null : fs.createWriteStream('', { fd: fs.openSync(record, 'a') });
  const history = recordFile === null ? undefined : new ReplayHistory(plan, (line) => recordFile.write(`${line}\n`));
  const result = await replayOnServers(plan, addresses, {
    cluster,
    nodeOps,
    history,
    signal: io.signal,
    beforeStart: io.beforeStart,
    onProgress: (done, total, elapsedMs) => {
      const line = `replaying command ${done} of ${total}, ${(elapsedMs / 1000).toFixed(1)} s elapsed`;
      if (io.stderr.isTTY) io.stderr.write(`\r${line}${done === total ? '\n' : ''}`);
      else if (done === total || elapsedMs - lastProgressAt >= progressEveryMs) {
        lastProgressAt = elapsedMs;
        io.stderr.write(`${line}\n`);
      }
    },
  });
  if (recordFile !== null) {
    await new Promise<void>((resolve) => recordFile.end(() => resolve()));
    io.stderr.write(`recorded the real side to ${record}; check it with: lockstep check ${record} --lock-key ${plan.keyPrefix}${plan.variant.lockKey ?? plan.scenario.lockKey}\n`);
  }
  if (io.stderr.isTTY && result.rows.length > 0 && result.rows.length < plan.commands.length) io.stderr.write('\n');
  const server = plan.nodes === null ? [...addresses.values()][0].display : [...addresses].map(([node, a]) => `${node} ${a.display}`).join(', ');
  if (json) io.stdout.write(`${JSON.stringify(jsonReport(plan, result, server))}\n`);
  else io.stdout.write(textReport(plan, result, server, tokens));
  if (result.error !== null) io.stderr.write(`lockstep: replay failed: ${result.error.message}\n`);
  if (result.cleanup !== null && result.cleanup.left.length > 0) {
    io.stderr.write(`lockstep: keys left on the server: ${result.cleanup.left.join(', ')} (${result.cleanup.problem ?? ''})\n`);
  }
  return exitCodeOf(result);
}
