import { setTimeout as sleep } from 'node:timers/promises';
import { compareReplies, type Match } from './compare';
import type { ServerAddress } from './address';
import { ClusterRefusal, clusterMasters, clusterNodeFor, isClusterNode } from './cluster';
import { commandKeys, keyHashSlot } from '../../engine/redis/cluster-slots';
import { ConnectionFailure, RealConnection, type RealMessage, type RealReply } from './connection';
import type { ReplayHistory } from './record-history';
import { needsOwnedServers, SINGLE_NODE } from './node-plan';
import { escapeGlob, timingMarginMinMs, type ExpectedMessage, type PlannedCommand, type ReplayPlan } from './plan';

/**
 * Sends a plan's commands to a real server: each client over its own connection, one command at a
 * time in the trace's order (the next goes only after the previous one's reply), each no earlier
 * than its virtual time divided by the time scale after the start. Before writing anything it
 * checks that none of the prefixed keys exists; afterwards, also after an error, it removes them.
 */
interface ReplayRow {
  readonly index: number;
  /** Null when nothing was sent: the simulated request never reached its node (emulated). */
  readonly real: RealReply | null;
  readonly match: Match;
  /** When it was sent, real ms after the start, and how late against its scaled virtual time. */
  readonly sentAtMs: number;
  readonly lateMs: number;
}

/** A Pub/Sub message the simulation delivered, and what the real subscriber received in its place. */
interface MessageRow {
  readonly expected: ExpectedMessage;
  /** Unprefixed channel and pattern; null when nothing arrived within messageWaitMsMax. */
  readonly real: RealMessage | null;
  readonly match: boolean;
}

/**
 * How long to wait, after the command that published, for the messages the simulation delivered:
 * on loopback they arrive within a millisecond; one missing after this long is a divergence.
 */
const messageWaitMsMax = 1_000;

interface Cleanup {
  readonly removed: number;
  /** Keys that may still be on the server (the server could not be reached to remove them). */
  readonly left: readonly string[];
  readonly problem: string | null;
}

export interface ReplayResult {
  readonly serverVersion: string | null;
  /** With --cluster: the master the replay ran on and the slot of the key prefix's hash tag. */
  readonly clusterNode: { readonly display: string; readonly slot: number } | null;
  readonly rows: readonly ReplayRow[];
  readonly messages: readonly MessageRow[];
  /** Messages the real subscribers received that the simulated ones did not (unprefixed names). */
  readonly unexpectedMessages: readonly { readonly connection: string; readonly message: RealMessage }[];
  /** The first command whose real reply differs (or whose published messages differ), or null. */
  readonly divergence: number | null;
  /** Why the replay stopped before its end (a refusal before writing, a lost server), or null. */
  readonly error: { readonly atCommand: number | null; readonly message: string } | null;
  readonly cleanup: Cleanup | null;
  readonly elapsedMs: number;
}

export interface ReplayHooks {
  /** After each command's reply: `done` of `total`, real ms since the start. */
  readonly onProgress?: (done: number, total: number, elapsedMs: number) => void;
  /** Stops the replay (Ctrl-C); the keys are still removed. */
  readonly signal?: AbortSignal;
  /** Awaited once every connection is open and checked, just before the replay's clock starts. */
  readonly beforeStart?: () => Promise<void>;
  /** The address is a node of a Redis Cluster: replay on the master serving the key prefix's slot (cluster.ts). */
  readonly cluster?: boolean;
  /** Node faults on servers the replay started (several nodes). */
  readonly nodeOps?: NodeOps;
  /** `--record`: the real side written as a history. */
  readonly history?: ReplayHistory;
}

/** One server of the replay: a simulated node's real counterpart, with the connections that go to it. */
interface ServerLink {
  readonly node: string;
  address: ServerAddress;
  control: RealConnection | null;
  /** The clients' connections to this server, by connection id (`A`, `A/pubsub`). */
  readonly clients: Map<string, RealConnection>;
  up: boolean;
}

/**
 * Node faults on servers the replay started itself (owned-nodes.ts): null when the servers are
 * somebody else's, and the plan's node faults and replicas are then refused before anything is sent.
 */
export interface NodeOps {
  crash(node: string): Promise<void>;
  restart(node: string): Promise<void>;
  promote(node: string): Promise<void>;
  setReplicationDelay(node: string, ms: number): Promise<void>;
  /** Whether the node is a replica now (its keys are removed through its primary). */
  isReplica(node: string): boolean;
}

/** Replays a single-node plan on one server (see replayOnServers). */
export async function replayOnServer(plan: ReplayPlan, address: ServerAddress, hooks: ReplayHooks = {}): Promise<ReplayResult> {
  return await replayOnServers(plan, new Map([[plan.nodes?.[0]?.id ?? SINGLE_NODE, address]]), hooks);
}

/** Sends a plan's commands to one real server per node (node faults through `hooks.nodeOps`). */
export async function replayOnServers(plan: ReplayPlan, addresses: ReadonlyMap<string, ServerAddress>, hooks: ReplayHooks = {}): Promise<ReplayResult> {
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  const rows: ReplayRow[] = [];
  const messageRows: MessageRow[] = [];
  const servers = new Map<string, ServerLink>();
  for (const [node, address] of addresses) servers.set(node, { node, address, control: null, clients: new Map(), up: true });
  const failedBefore = (error: unknown): ReplayResult => ({
    serverVersion: null,
    clusterNode: null,
    rows,
    messages: messageRows,
    unexpectedMessages: [],
    divergence: null,
    cleanup: null,
    elapsedMs: elapsed(),
    error: { atCommand: null, message: messageOf(error) },
  });
  try {
    for (const server of servers.values()) server.control = await RealConnection.open(server.address, 'control');
  } catch (error) {
    for (const server of servers.values()) server.control?.close();
    return failedBefore(error);
  }
  const link = (node: string) => servers.get(node) as ServerLink;
  const first = [...servers.values()][0];
  // Where a command, and a key, go: the command's node; on a cluster lesson about slots, the master of the key's slot.
  let route = (command: PlannedCommand): ServerLink => link(command.node);
  let keyServer: ((key: string) => ServerLink) | null = null;
  let serverVersion: string | null = null;
  let clusterNode: ReplayResult['clusterNode'] = null;
  let wrote = false;
  let error: ReplayResult['error'] = null;
  let divergence: number | null = null;
  let inbox: Inbox | null = null;
  try {
    const owned = needsOwnedServers(plan.nodeActions, plan.nodes);
    if (owned !== null && hooks.nodeOps === undefined) {
      throw new Refused(
        `the run needs ${owned}; the replay causes node faults and configures replication only on servers it started itself, not on somebody else's: use --start-server`,
      );
    }
    for (const server of servers.values()) {
      const control = server.control as RealConnection;
      const isCluster = await isClusterNode(control);
      if (hooks.cluster === true && !isCluster) throw new Refused(`--cluster: ${server.address.display} is not a Redis Cluster node (INFO cluster says cluster_enabled:0)`);
      if (hooks.cluster !== true && isCluster) {
        throw new Refused(`${server.address.display} is a Redis Cluster node: replay with --cluster (the key prefix then carries a hash tag, so every key and script stays on one slot)`);
      }
    }
    if (hooks.cluster === true && plan.scenario.redisCluster === true) {
      // A lesson about hash slots: each command goes to the master serving its first key's slot, as a cluster client sends it.
      const masters = await clusterMasters(first.control as RealConnection, first.address);
      const links = new Map<string, ServerLink>();
      for (const m of masters) {
        if (links.has(m.address.url)) continue;
        const control = await RealConnection.open(m.address, 'control');
        links.set(m.address.url, { node: m.address.display, address: m.address, control, clients: new Map(), up: true });
      }
      first.control?.close();
      servers.clear();
      for (const l of links.values()) servers.set(l.node, l);
      const masterOf = (key: string) => masters.find((m) => keyHashSlot(key) >= m.from && keyHashSlot(key) <= m.to) ?? masters[0];
      const byKey = (key: string) => links.get(masterOf(key).address.url) as ServerLink;
      keyServer = byKey;
      route = (command) => {
        const keys = commandKeys(command.realArgv);
        return keys.length === 0 ? (links.get(masters[0].address.url) as ServerLink) : byKey(keys[0]);
      };
    } else if (hooks.cluster === true) {
      const node = await clusterNodeFor(first.control as RealConnection, first.address, plan.keyPrefix);
      clusterNode = { display: node.address.display, slot: node.slot };
      if (node.address.url !== first.address.url) {
        first.address = node.address;
        first.control?.close();
        first.control = await RealConnection.open(first.address, 'control');
      }
    }
    serverVersion = await readVersion([...servers.values()][0].control as RealConnection);
    const required = plan.variant.requiresRedis;
    if (required !== undefined && serverVersion !== null && compareVersions(serverVersion, required) < 0) {
      throw new Refused(`variant ${plan.variant.id} needs Redis ${required} or later; the server runs ${serverVersion}`);
    }
    const existing: string[] = [];
    for (const server of servers.values()) {
      for (const key of plan.realKeys) {
        if (keyServer !== null && keyServer(key) !== server) continue;
        const reply = await (server.control as RealConnection).send(['EXISTS', key]);
        if (reply.type !== 'integer' || reply.value !== '0') existing.push(servers.size > 1 ? `${JSON.stringify(key)} (on ${server.address.display})` : JSON.stringify(key));
      }
    }
    if (existing.length > 0) {
      throw new Refused(
        `the server already holds ${existing.join(', ')}: the replay only writes keys that nobody else uses, ` +
          'so it refuses rather than overwrite them (choose another --key-prefix, or remove them if they are left from an earlier replay)',
      );
    }
    const received = new Inbox(plan.keyPrefix);
    inbox = received;
    const openClients = async (server: ServerLink) => {
      for (const id of plan.connections) {
        if (!plan.commands.some((c) => c.connection === id && route(c) === server && c.notSent === null)) continue;
        const connection = await RealConnection.open(server.address, servers.size > 1 ? `${id}@${server.node}` : id);
        server.clients.set(id, connection);
        connection.listen((message) => received.receive(id, message));
      }
    };
    for (const server of servers.values()) await openClients(server);
    const lateMsMax = lateMsMaxOf(plan);
    await hooks.beforeStart?.();
    const replayStart = performance.now();
    const waitUntil = async (dueMs: number) => {
      const waitMs = dueMs - (performance.now() - replayStart);
      if (waitMs > 0) await sleep(waitMs, undefined, { signal: hooks.signal }).catch(() => undefined);
      if (hooks.signal?.aborted) throw new Refused('stopped (interrupted)');
    };
    let lateMsSoFar = 0;
    let nextAction = 0;
    const runActions = async (beforeCommand: number) => {
      for (; nextAction < plan.nodeActions.length && plan.nodeActions[nextAction].beforeCommand <= beforeCommand; nextAction++) {
        const action = plan.nodeActions[nextAction];
        await waitUntil(action.atMs / plan.timeScale);
        const ops = hooks.nodeOps as NodeOps;
        const server = link(action.node);
        if (action.fault === 'node-crash') {
          server.up = false;
          await ops.crash(action.node);
          for (const connection of server.clients.values()) connection.close();
          server.clients.clear();
          server.control?.close();
          server.control = null;
        } else if (action.fault === 'node-restart') {
          await ops.restart(action.node);
          server.control = await RealConnection.open(server.address, 'control');
          await openClients(server);
          server.up = true;
        } else if (action.fault === 'promote') await ops.promote(action.node);
        else await ops.setReplicationDelay(action.node, action.ms ?? 0);
      }
    };
    const history = hooks.history;
    for (const command of plan.commands) {
      if (hooks.signal?.aborted) throw new Refused('stopped (interrupted)');
      await runActions(command.index);
      // What the code believed before this command, at its own (scaled) time.
      for (const mark of history?.marksBefore(command.index) ?? []) {
        await waitUntil(mark.atMs / plan.timeScale);
        history?.mark(mark);
      }
      const dueMs = command.sendAtMs / plan.timeScale;
      await waitUntil(dueMs);
      const sentAtMs = performance.now() - replayStart;
      if (command.notSent !== null) {
        // The simulated request never reached its node: nothing is sent (emulated, docs/REPLAY.md).
        rows.push({ index: command.index, real: null, match: 'emulated', sentAtMs, lateMs: 0 });
        hooks.onProgress?.(rows.length, plan.commands.length, elapsed());
        continue;
      }
      if (lateMsMax !== null && sentAtMs - dueMs > lateMsMax) throw new FellBehind(command.index, sentAtMs - dueMs, lateMsMax);
      const server = route(command);
      const connection = command.connection === null ? server.control : server.clients.get(command.connection);
      if (connection === null || connection === undefined) throw new LostAt(command.index, new Error(`no connection to ${command.node} (the node is down in the replay but not in the simulation)`));
      wrote = true;
      let real: RealReply;
      const startMs = performance.now();
      const startWallMs = Date.now();
      try {
        real = asConfirmation(command, await connection.send(command.realArgv));
      } catch (failure) {
        history?.command(command, null, startMs, startWallMs);
        throw new LostAt(command.index, failure);
      }
      history?.command(command, real, startMs, startWallMs);
      const lateMs = Math.max(0, sentAtMs - dueMs);
      lateMsSoFar = Math.max(lateMsSoFar, lateMs);
      // A duration reply (PTTL) moves by as much as the commands that set and read it were late:
      // compared within the margin plus the most the replay has been late so far (itself bounded by lateMsMax).
      const tolerance = { scale: plan.timeScale, toleranceMs: timingMarginMinMs + lateMsSoFar };
      const match = compareReplies(command.simReply, real, command.replyIsDurationMs ? tolerance : null);
      if (match === 'different' && divergence === null) divergence = command.index;
      rows.push({ index: command.index, real, match, sentAtMs, lateMs });
      // The messages it published reach their subscribers before the next command: a simulated
      // subscriber read each one before acting on it.
      for (const expected of plan.messages.filter((m) => m.afterCommand === command.index)) {
        const got = await received.next(expected.connection, messageWaitMsMax);
        const same = got !== null && got.channel === expected.channel && got.pattern === expected.pattern && got.payload === expected.payload;
        messageRows.push({ expected, real: got, match: same });
        if (!same && divergence === null) divergence = command.index;
      }
      hooks.onProgress?.(rows.length, plan.commands.length, elapsed());
    }
    await runActions(plan.commands.length);
    for (const mark of history?.marksBefore(plan.commands.length) ?? []) {
      await waitUntil(mark.atMs / plan.timeScale);
      history?.mark(mark);
    }
  } catch (failure) {
    if (failure instanceof LostAt) {
      error = { atCommand: failure.index, message: `command ${failure.index + 1} of ${plan.commands.length}: ${messageOf(failure.cause)}` };
    } else error = { atCommand: null, message: messageOf(failure) };
  }
  const unexpectedMessages = inbox?.unread() ?? [];
  if (unexpectedMessages.length > 0 && divergence === null && error === null) divergence = Math.max(0, rows.length - 1);
  for (const server of servers.values()) for (const connection of server.clients.values()) connection.close();
  let cleanup: Cleanup | null = null;
  if (wrote) {
    const parts: Cleanup[] = [];
    for (const server of servers.values()) {
      // A replica's copies go with its primary's DEL; a node that is down holds nothing (its server stops with the replay).
      if (!server.up || hooks.nodeOps?.isReplica(server.node) === true) continue;
      // On a cluster lesson about slots each key goes to its own master, one DEL each (one DEL of keys in several slots is CROSSSLOT).
      const keys = keyServer === null ? plan.realKeys : plan.realKeys.filter((k) => keyServer?.(k) === server);
      const removed = await removeKeysOneByOne(keys, server.control, server.address, keyServer !== null);
      parts.push(servers.size > 1 ? { ...removed, left: removed.left.map((k) => `${k} (on ${server.address.display})`) } : removed);
    }
    cleanup = {
      removed: parts.reduce((n, p) => n + p.removed, 0),
      left: parts.flatMap((p) => p.left),
      problem: parts.find((p) => p.problem !== null)?.problem ?? null,
    };
  }
  for (const server of servers.values()) server.control?.close();
  return { serverVersion, clusterNode, rows, messages: messageRows, unexpectedMessages, divergence, error, cleanup, elapsedMs: elapsed() };
}

/**
 * ioredis answers SUBSCRIBE and its family with the connection's subscription count only: the
 * confirmation Redis sent (`["subscribe", channel, count]`) is rebuilt from the one channel the
 * command named (commands.ts refuses several) and that count, so it compares with the simulation's.
 */
function asConfirmation(command: PlannedCommand, real: RealReply): RealReply {
  const kind = command.argv[0].toLowerCase();
  if (!/^p?(un)?subscribe$/.test(kind) || real.type !== 'integer') return real;
  return { type: 'array', value: [{ type: 'string', value: kind }, { type: 'string', value: command.argv[1] }, real] };
}

/** Messages the real subscribers received, per connection, with the key prefix taken off their channels. */
class Inbox {
  private readonly queues = new Map<string, { channel: string; pattern: string | null; payload: string }[]>();
  private readonly waiters = new Map<string, () => void>();

  constructor(private readonly prefix: string) {}

  receive(connection: string, message: RealMessage): void {
    const queue = this.queues.get(connection) ?? [];
    queue.push({ channel: this.unprefixed(message.channel), pattern: message.pattern === null ? null : this.unprefixed(message.pattern, true), payload: message.payload });
    this.queues.set(connection, queue);
    this.waiters.get(connection)?.();
  }

  /** The next message on a connection, waiting at most `waitMsMax` real ms for it; null if none came. */
  async next(connection: string, waitMsMax: number): Promise<RealMessage | null> {
    const queue = this.queues.get(connection) ?? [];
    if (queue.length === 0) {
      const controller = new AbortController();
      const arrived = new Promise<void>((resolve) => this.waiters.set(connection, resolve));
      await Promise.race([arrived, sleep(waitMsMax, undefined, { signal: controller.signal }).catch(() => undefined)]);
      controller.abort();
      this.waiters.delete(connection);
    }
    return (this.queues.get(connection) ?? []).shift() ?? null;
  }

  unread(): { connection: string; message: RealMessage }[] {
    return [...this.queues].flatMap(([connection, queue]) => queue.map((message) => ({ connection, message })));
  }

  private unprefixed(name: string, pattern = false): string {
    const prefix = pattern ? escapeGlob(this.prefix) : this.prefix;
    return name.startsWith(prefix) ? name.slice(prefix.length) : name;
  }
}

class Refused extends Error {}

/**
 * How late a command may be sent: half the tightest margin (real ms). Two commands whose lateness
 * differs by the whole margin would meet a key on the wrong side of its expiry; beyond half, the
 * replay no longer tests what the simulation ran. Null: no command depends on an expiry.
 */
function lateMsMaxOf(plan: ReplayPlan): number | null {
  return plan.margin === null ? null : plan.margin.virtualMs / plan.timeScale / 2;
}

class FellBehind extends Error {
  constructor(index: number, lateMs: number, lateMsMax: number) {
    super(
      `fell behind: command ${index + 1} was due ${lateMs.toFixed(0)} ms ago, more than half the run's tightest margin (${lateMsMax.toFixed(0)} ms), ` +
        'so the real server would no longer see the simulated timing; the machine is too busy for this --time-scale: use a smaller one',
    );
  }
}

class LostAt extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super(messageOf(cause));
  }
}

function messageOf(error: unknown): string {
  if (error instanceof ConnectionFailure || error instanceof Refused || error instanceof FellBehind || error instanceof ClusterRefusal) return error.message;
  return error instanceof Error ? error.message : String(error);
}

async function removeKeysOneByOne(keys: readonly string[], control: RealConnection | null, address: ServerAddress, oneByOne: boolean): Promise<Cleanup> {
  if (!oneByOne) return await removeKeys(keys, control, address);
  const parts: Cleanup[] = [];
  for (const key of keys) parts.push(await removeKeys([key], control, address));
  return { removed: parts.reduce((n, p) => n + p.removed, 0), left: parts.flatMap((p) => p.left), problem: parts.find((p) => p.problem !== null)?.problem ?? null };
}

/** Removes the replay's keys, over a fresh connection if the control connection was lost. */
async function removeKeys(keys: readonly string[], control: RealConnection | null, address: ServerAddress): Promise<Cleanup> {
  if (keys.length === 0) return { removed: 0, left: [], problem: null };
  const attempt = async (connection: RealConnection): Promise<Cleanup> => {
    const reply = await connection.send(['DEL', ...keys]);
    if (reply.type === 'error') return { removed: 0, left: keys, problem: reply.value };
    return { removed: Number(reply.type === 'integer' ? reply.value : 0), left: [], problem: null };
  };
  try {
    if (control === null) throw new Error('no control connection');
    return await attempt(control);
  } catch {
    let fresh: RealConnection | null = null;
    try {
      fresh = await RealConnection.open(address, 'cleanup');
      return await attempt(fresh);
    } catch (error) {
      return { removed: 0, left: keys, problem: messageOf(error) };
    } finally {
      fresh?.close();
    }
  }
}

async function readVersion(control: RealConnection): Promise<string | null> {
  const info = await control.send(['INFO', 'server']);
  if (info.type !== 'string') return null;
  return /^redis_version:(\S+)/m.exec(info.value)?.[1] ?? null;
}

/** Compares dotted version numbers: '7.0.15' < '8.4'. */
function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
