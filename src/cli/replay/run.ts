import { setTimeout as sleep } from 'node:timers/promises';
import { compareReplies, type Match } from './compare';
import type { ServerAddress } from './address';
import { ClusterRefusal, clusterNodeFor, isClusterNode } from './cluster';
import { ConnectionFailure, RealConnection, type RealMessage, type RealReply } from './connection';
import { escapeGlob, timingMarginMinMs, type ExpectedMessage, type PlannedCommand, type ReplayPlan } from './plan';

/**
 * Sends a plan's commands to a real server: each client over its own connection, one command at a
 * time in the trace's order (the next goes only after the previous one's reply), each no earlier
 * than its virtual time divided by the time scale after the start. Before writing anything it
 * checks that none of the prefixed keys exists; afterwards, also after an error, it removes them.
 */
interface ReplayRow {
  readonly index: number;
  readonly real: RealReply;
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
}

export async function replayOnServer(plan: ReplayPlan, address: ServerAddress, hooks: ReplayHooks = {}): Promise<ReplayResult> {
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  const rows: ReplayRow[] = [];
  const messageRows: MessageRow[] = [];
  let control: RealConnection;
  try {
    control = await RealConnection.open(address, 'control');
  } catch (error) {
    const failed = { serverVersion: null, clusterNode: null, rows, messages: messageRows, unexpectedMessages: [], divergence: null, cleanup: null, elapsedMs: elapsed() };
    return { ...failed, error: { atCommand: null, message: messageOf(error) } };
  }
  const clients = new Map<string, RealConnection>();
  let serverVersion: string | null = null;
  let clusterNode: ReplayResult['clusterNode'] = null;
  let target = address;
  let wrote = false;
  let error: ReplayResult['error'] = null;
  let divergence: number | null = null;
  let inbox: Inbox | null = null;
  try {
    const isCluster = await isClusterNode(control);
    if (hooks.cluster === true && !isCluster) throw new Refused(`--cluster: ${address.display} is not a Redis Cluster node (INFO cluster says cluster_enabled:0)`);
    if (hooks.cluster !== true && isCluster) {
      throw new Refused(`${address.display} is a Redis Cluster node: replay with --cluster (the key prefix then carries a hash tag, so every key and script stays on one slot)`);
    }
    if (hooks.cluster === true) {
      const node = await clusterNodeFor(control, address, plan.keyPrefix);
      clusterNode = { display: node.address.display, slot: node.slot };
      if (node.address.url !== address.url) {
        target = node.address;
        control.close();
        control = await RealConnection.open(target, 'control');
      }
    }
    serverVersion = await readVersion(control);
    const required = plan.variant.requiresRedis;
    if (required !== undefined && serverVersion !== null && compareVersions(serverVersion, required) < 0) {
      throw new Refused(`variant ${plan.variant.id} needs Redis ${required} or later; the server runs ${serverVersion}`);
    }
    const existing: string[] = [];
    for (const key of plan.realKeys) {
      const reply = await control.send(['EXISTS', key]);
      if (reply.type !== 'integer' || reply.value !== '0') existing.push(key);
    }
    if (existing.length > 0) {
      throw new Refused(
        `the server already holds ${existing.map((k) => JSON.stringify(k)).join(', ')}: the replay only writes keys that nobody else uses, ` +
          'so it refuses rather than overwrite them (choose another --key-prefix, or remove them if they are left from an earlier replay)',
      );
    }
    const received = new Inbox(plan.keyPrefix);
    inbox = received;
    for (const id of plan.connections) {
      const connection = await RealConnection.open(target, id);
      clients.set(id, connection);
      connection.listen((message) => received.receive(id, message));
    }
    const lateMsMax = lateMsMaxOf(plan);
    await hooks.beforeStart?.();
    const replayStart = performance.now();
    let lateMsSoFar = 0;
    for (const command of plan.commands) {
      if (hooks.signal?.aborted) throw new Refused('stopped (interrupted)');
      const dueMs = command.atMs / plan.timeScale;
      const waitMs = dueMs - (performance.now() - replayStart);
      if (waitMs > 0) await sleep(waitMs, undefined, { signal: hooks.signal }).catch(() => undefined);
      if (hooks.signal?.aborted) throw new Refused('stopped (interrupted)');
      const sentAtMs = performance.now() - replayStart;
      if (lateMsMax !== null && sentAtMs - dueMs > lateMsMax) throw new FellBehind(command.index, sentAtMs - dueMs, lateMsMax);
      const connection = command.connection === null ? control : (clients.get(command.connection) as RealConnection);
      wrote = true;
      let real: RealReply;
      try {
        real = asConfirmation(command, await connection.send(command.realArgv));
      } catch (failure) {
        throw new LostAt(command.index, failure);
      }
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
  } catch (failure) {
    if (failure instanceof LostAt) {
      error = { atCommand: failure.index, message: `command ${failure.index + 1} of ${plan.commands.length}: ${messageOf(failure.cause)}` };
    } else error = { atCommand: null, message: messageOf(failure) };
  }
  const unexpectedMessages = inbox?.unread() ?? [];
  if (unexpectedMessages.length > 0 && divergence === null && error === null) divergence = Math.max(0, rows.length - 1);
  for (const connection of clients.values()) connection.close();
  const cleanup = wrote ? await removeKeys(plan.realKeys, control, target) : null;
  control.close();
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

/** Removes the replay's keys, over a fresh connection if the control connection was lost. */
async function removeKeys(keys: readonly string[], control: RealConnection, address: ServerAddress): Promise<Cleanup> {
  if (keys.length === 0) return { removed: 0, left: [], problem: null };
  const attempt = async (connection: RealConnection): Promise<Cleanup> => {
    const reply = await connection.send(['DEL', ...keys]);
    if (reply.type === 'error') return { removed: 0, left: keys, problem: reply.value };
    return { removed: Number(reply.type === 'integer' ? reply.value : 0), left: [], problem: null };
  };
  try {
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
