import { activityOwner } from '../activity';
import { ProgramError } from '../choice-error';
import { CONSOLE_ID } from '../console-choice';
import { readLock, type Emitter } from '../emit';
import { COMMANDS } from '../redis/commands';
import { KeyspaceSnapshot } from '../redis/keyspace';
import { reply, type Reply } from '../redis/reply';
import type { SimRedisServer } from '../redis/server';
import type { NodeView, TraceEvent } from '../trace';
import { connectionId } from '../messages';
import { isHosted, isLive, saveReply, type ClientState, type RunContext, type WorldState } from '../world';
import { localTimeMs, virtualTimeWhen } from './clock';
import type { NodeServers } from './servers';
import { linkKey, tidyLinks, type Awaiting, type ClusterState, type Effect, type Message, type NodeState, type ReplicationEntry } from './state';

/**
 * A world with several Redis nodes, at work for one schedule choice (docs/SCHEDULES.md, "Many
 * nodes"): commands as requests and replies over client-node links (delay, partitions, lost
 * messages), each node's keyspace on its own clock, asynchronous replication of write effects,
 * and WAIT. Faults are in faults.ts. Everything due happens at its due virtual time: the engine
 * asks `nextDueMs` where to stop and calls `fireDue` there.
 */

/** How a client-side timeout reads as a reply: no Redis error starts in lower case. */
export const clientTimeoutPrefix = 'client timeout';

type DropCause = Extract<TraceEvent, { kind: 'drop' }>['cause'];

export interface ClusterEnv {
  readonly world: WorldState;
  readonly nodes: NodeServers;
  readonly ctx: RunContext;
  readonly emit: Emitter;
}

/** Where the checkers read the lock in a world with nodes: the current primary, on its clock (null while it is down). */
export function clusterLockSource(world: WorldState, nodes: NodeServers): () => { server: SimRedisServer; nowMs: number } | null {
  return () => {
    const cluster = world.cluster as ClusterState;
    const node = cluster.nodes[cluster.primary];
    return node.up ? { server: nodes.get(node.id), nowMs: localTimeMs(node, world.nowMs) } : null;
  };
}

/** Every node as the timeline shows it now (the lock key read on each node's own clock). */
export function clusterNodeViews(world: WorldState, nodes: NodeServers, ctx: RunContext): () => NodeView[] {
  return () => {
    const cluster = world.cluster as ClusterState;
    return cluster.order.map((id) => {
      const node = cluster.nodes[id];
      const lock = node.up ? readLock(nodes.get(id), ctx, localTimeMs(node, world.nowMs), null) : { value: null, pttlMs: -2 };
      return { node: id, up: node.up, role: node.role, replicaOf: node.replicaOf, lock: lock.value, pttlMs: lock.pttlMs, offset: node.offset };
    });
  };
}

export class ClusterRun {
  readonly state: ClusterState;

  constructor(private readonly env: ClusterEnv) {
    if (env.world.cluster === undefined) throw new Error('ClusterRun needs a world with nodes');
    this.state = env.world.cluster;
  }

  get emitter(): Emitter {
    return this.env.emit;
  }

  get nowMs(): number {
    return this.env.world.nowMs;
  }

  private get now(): number {
    return this.env.world.nowMs;
  }

  /** The node's own clock now: its TTLs run on it. */
  nodeNow(nodeId: string): number {
    return localTimeMs(this.state.nodes[nodeId], this.now);
  }

  server(nodeId: string): SimRedisServer {
    return this.env.nodes.get(nodeId);
  }

  // ---- Sending a command (the step rule) ----------------------------------------------------

  /**
   * Sends one command from `c` to `nodeId`. Returns the reply when it came back at once (no
   * delay, nothing lost), else null: the client waits (until the reply, its timeout, or for ever).
   */
  send(c: ClientState, nodeId: string, argv: readonly string[], pc: number, saveAs: string | null, releases: boolean, connection?: string): Reply | null {
    if (!Object.hasOwn(this.state.nodes, nodeId)) throw new ProgramError(`client ${c.id} sends to unknown node "${nodeId}"`);
    const id = this.state.nextMessageId++;
    const awaiting: Awaiting = { nodeId, pc, saveAs, argv: argv.slice(), messageId: id, reply: null };
    this.state.awaiting[c.id] = awaiting;
    const request: Message = { id, kind: 'request', clientId: c.id, nodeId, dueMs: this.now + this.linkDelayMs(c.id, nodeId), argv: argv.slice(), reply: null, pc, releases, ...(connection === undefined ? {} : { connection }) };
    const lost = this.lossOnSend(request);
    if (lost !== null || request.dueMs > this.now) {
      this.env.emit.event(c.id, { kind: 'send', pc, node: nodeId, argv: request.argv, arriveAtMs: lost === null ? request.dueMs : null });
      if (lost !== null) this.drop(request, lost);
      else this.state.messages.push(request);
      return null;
    }
    this.arrive(request);
    if (awaiting.reply === null) return null;
    delete this.state.awaiting[c.id];
    return awaiting.reply;
  }

  /**
   * The console, connected to `nodeId` directly: no link, so no delay and no loss (a person at
   * redis-cli on that machine). The command runs there now, a write on a primary replicates as
   * a client's does, and a replica answers READONLY to a write. The console waits for nothing
   * (WAIT is refused before this: console-choice.ts).
   */
  runConsole(nodeId: string, argv: readonly string[]): void {
    this.execute({ id: -1, kind: 'request', clientId: CONSOLE_ID, nodeId, dueMs: this.now, argv: argv.slice(), reply: null, pc: -1, releases: false });
  }

  /** A hosted client's code (engine/host.ts) gets the reply its command's promise waits for. */
  replyToHost(c: ClientState, pc: number, result: Reply): void {
    if (isHosted(this.env.ctx, c)) this.env.ctx.host?.reply(c.id, pc, result, this.now);
  }

  /** The reply a waiting client takes when it wakes: the one that arrived, or its own timeout. */
  takeReply(c: ClientState): void {
    const awaiting = this.state.awaiting[c.id];
    if (awaiting === undefined) throw new Error(`client ${c.id} woke for a reply it does not wait for`);
    delete this.state.awaiting[c.id];
    if (awaiting.reply !== null) {
      saveReply(c, awaiting.saveAs, awaiting.reply);
      this.replyToHost(c, awaiting.pc, awaiting.reply);
      this.env.emit.event(c.id, { kind: 'reply', pc: awaiting.pc, var: awaiting.saveAs, reply: awaiting.reply, node: awaiting.nodeId });
      return;
    }
    const timeout = reply.error(`${clientTimeoutPrefix}: no reply from ${awaiting.nodeId} in time`);
    saveReply(c, awaiting.saveAs, timeout);
    this.replyToHost(c, awaiting.pc, timeout);
    this.env.emit.event(c.id, { kind: 'reply', pc: awaiting.pc, var: awaiting.saveAs, reply: timeout, node: awaiting.nodeId, timeout: true });
  }

  private linkDelayMs(clientId: string, nodeId: string): number {
    const links = this.env.ctx.scenario.links;
    const owner = activityOwner(clientId);
    const override = links?.overrides?.find((o) => o.client === owner && o.node === nodeId);
    return override?.delayMs ?? links?.delayMs ?? 0;
  }

  /** Why a message is lost as it leaves (a partition, a lost-message fault), or null. */
  private lossOnSend(m: Message): DropCause | null {
    const link = this.state.links[linkKey(m.clientId, m.nodeId)];
    if (link === undefined) return null;
    if (link.partitioned) return 'partition';
    if (m.kind === 'request' && link.loseRequests > 0) {
      link.loseRequests -= 1;
      tidyLinks(this.state);
      return 'loss';
    }
    if (m.kind === 'reply' && link.loseReplies > 0) {
      link.loseReplies -= 1;
      tidyLinks(this.state);
      return 'loss';
    }
    return null;
  }

  private drop(m: Message, cause: DropCause): void {
    this.env.emit.event(m.clientId, { kind: 'drop', node: m.nodeId, message: m.kind, cause, argv: m.argv });
  }

  /** A request reaches its node: it runs there, and the reply sets off back (unless it waits: WAIT). */
  private arrive(m: Message): void {
    const node = this.state.nodes[m.nodeId];
    if (!node.up) return this.drop(m, 'node-down');
    if (this.now < node.servingFromMs) return this.drop(m, 'not-serving');
    const result = this.execute(m);
    if (result !== null) this.respond(m, result);
  }

  /** The reply leaves the node: lost, or on its way, or (no delay) with the client at once. */
  private respond(request: Message, result: Reply): void {
    const m: Message = { ...request, kind: 'reply', dueMs: this.now + this.linkDelayMs(request.clientId, request.nodeId), reply: result };
    const lost = this.lossOnSend(m);
    if (lost !== null) return this.drop(m, lost);
    if (m.dueMs > this.now) this.state.messages.push(m);
    else this.receive(m);
  }

  /** A reply reaches its client: it takes it now, or when its stall ends. */
  private receive(m: Message): void {
    const c = this.env.world.clients.find((x) => x.id === m.clientId) as ClientState;
    const awaiting = this.state.awaiting[m.clientId];
    if (!isLive(c) || awaiting === undefined || awaiting.messageId !== m.id) return this.drop(m, isLive(c) ? 'late' : 'client-gone');
    awaiting.reply = m.reply;
    if (c.status === 'blocked' && c.blockReason === 'network') c.blockedUntilMs = this.now;
  }

  // ---- Running a command at a node -----------------------------------------------------------

  /** Runs a request at its node; null when the reply comes later (a WAIT that waits). */
  private execute(m: Message): Reply | null {
    const node = this.state.nodes[m.nodeId];
    if (m.argv[0]?.toLowerCase() === 'wait') return this.startWait(m, node);
    const server = this.server(m.nodeId);
    const before = this.env.emit.lockNow();
    const result = node.role === 'replica' ? this.executeOnReplica(m, server) : server.execute(m.argv, this.nodeNow(m.nodeId), connectionId(m.clientId, m.connection));
    const effects = node.role === 'primary' ? this.effects(m.nodeId) : [];
    // The write's offset exists from the command on (the event's node views show it).
    if (effects.length > 0) node.offset += 1;
    this.env.emit.event(m.clientId, { kind: 'command', pc: m.pc, argv: m.argv, reply: result, releases: m.releases, node: m.nodeId }, before);
    if (effects.length > 0) {
      this.produce(node, effects);
      this.state.writeOffsets[linkKey(m.nodeId, m.clientId)] = node.offset;
    }
    return result;
  }

  /**
   * A replica answers reads, and reads a logically expired key as missing without deleting it
   * (Redis 3.2+): only its primary's DEL removes it. Writes get READONLY (a script that writes
   * too: Lockstep undoes it and answers READONLY, where Redis stops it at its first write).
   */
  private executeOnReplica(m: Message, server: SimRedisServer): Reply {
    const name = m.argv[0]?.toLowerCase() ?? '';
    const readonly = reply.error("READONLY You can't write against a read only replica.");
    if (Object.hasOwn(COMMANDS, name) && COMMANDS[name].write) return readonly;
    const keyspace = server.keyspace.snapshot();
    const nowMs = this.nodeNow(m.nodeId);
    const expired = new Set(server.keyspace.expiredKeys(nowMs));
    const result = server.execute(m.argv, nowMs, connectionId(m.clientId, m.connection));
    const wrote = this.env.nodes.takeTouched(m.nodeId).some((key) => !expired.has(key));
    server.keyspace.restore(keyspace);
    this.env.nodes.takeTouched(m.nodeId);
    return wrote ? readonly : result;
  }

  /** The keys the last operation on `nodeId` changed, as effects for its replicas. */
  private effects(nodeId: string): Effect[] {
    const keyspace = this.server(nodeId).keyspace;
    return this.env.nodes.takeTouched(nodeId).map((key) => ({ key, entry: keyspace.entry(key) }));
  }

  // ---- Replication ---------------------------------------------------------------------------

  /** A primary's write (its offset already counted) joins its replication stream: each replica applies it after its delay. */
  private produce(primary: NodeState, effects: readonly Effect[]): void {
    for (const id of this.replicasOf(primary.id)) {
      const replica = this.state.nodes[id];
      if (!replica.up) continue;
      const entry: ReplicationEntry = { offset: primary.offset, from: primary.id, dueMs: this.now + replica.replicationDelayMs, effects };
      this.state.pending[id].push(entry);
    }
    // Replicas with no delay have it now (after the command's own event).
    for (const id of this.replicasOf(primary.id)) this.applyDue(id);
  }

  replicasOf(primaryId: string): string[] {
    return this.state.order.filter((id) => this.state.nodes[id].replicaOf === primaryId);
  }

  /** Applies the replica's entries that are due, in stream order. */
  private applyDue(replicaId: string): void {
    const queue = this.state.pending[replicaId];
    while (queue.length > 0 && queue[0].dueMs <= this.now) {
      const entry = queue.shift() as ReplicationEntry;
      const keyspace = this.server(replicaId).keyspace;
      for (const effect of entry.effects) {
        if (effect.entry === null) keyspace.delete(effect.key);
        else {
          const loaded = KeyspaceSnapshot.fromData({ entries: [effect.entry] });
          keyspace.write(effect.key, loaded.values.get(effect.key) as NonNullable<ReturnType<typeof keyspace.get>>, { keepTtl: false });
          const at = loaded.expires.get(effect.key);
          if (at !== undefined) keyspace.setExpireAt(effect.key, at);
        }
      }
      this.env.nodes.takeTouched(replicaId);
      this.state.nodes[replicaId].offset = entry.offset;
      this.env.emit.event(null, { kind: 'replicate', node: replicaId, from: entry.from, offset: entry.offset, keys: entry.effects.map((e) => e.key), full: false });
      this.answerWaits(entry.from);
    }
  }

  /** A full resync: the replica's keyspace becomes a copy of its primary's (what it had is gone). */
  resync(replicaId: string): void {
    const replica = this.state.nodes[replicaId];
    const primaryId = replica.replicaOf as string;
    const primary = this.state.nodes[primaryId];
    if (!replica.up || !primary.up) return;
    const copy = this.server(primaryId).keyspace.snapshot();
    this.server(replicaId).keyspace.restore(copy);
    this.env.nodes.takeTouched(replicaId);
    this.state.pending[replicaId] = [];
    replica.offset = primary.offset;
    this.env.emit.event(null, { kind: 'replicate', node: replicaId, from: primaryId, offset: primary.offset, keys: copy.entries.map((e) => e.key), full: true });
    this.answerWaits(primaryId);
  }

  // ---- WAIT ----------------------------------------------------------------------------------

  /**
   * `WAIT numreplicas timeout`: answers how many replicas have the client's last write, once
   * `numreplicas` have it or the timeout has passed (0: no timeout). It narrows the window of a
   * failover losing a write; it does not make replication synchronous.
   */
  private startWait(m: Message, node: NodeState): Reply | null {
    const [, count, timeout] = m.argv;
    const fail = (text: string): Reply => {
      const r = reply.error(text);
      this.env.emit.event(m.clientId, { kind: 'command', pc: m.pc, argv: m.argv, reply: r, releases: m.releases, node: m.nodeId });
      return r;
    };
    if (m.argv.length !== 3) return fail("ERR wrong number of arguments for 'wait' command");
    if (!/^-?[0-9]+$/.test(count) || !/^-?[0-9]+$/.test(timeout)) return fail('ERR value is not an integer or out of range');
    if (Number(timeout) < 0) return fail('ERR timeout is negative');
    if (node.role === 'replica') return fail('ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to replicas are just local and are not propagated.');
    const wait = {
      clientId: m.clientId,
      nodeId: m.nodeId,
      offset: this.state.writeOffsets[linkKey(m.nodeId, m.clientId)] ?? 0,
      replicaCount: Number(count),
      deadlineMs: Number(timeout) === 0 ? null : this.now + Number(timeout),
      argv: m.argv,
      request: m,
    };
    const acked = this.ackedReplicas(wait.nodeId, wait.offset);
    if (acked >= wait.replicaCount) return this.finishWait(wait, acked);
    this.state.waits.push(wait);
    return null;
  }

  private ackedReplicas(nodeId: string, offset: number): number {
    return this.replicasOf(nodeId).filter((id) => this.state.nodes[id].up && this.state.nodes[id].offset >= offset).length;
  }

  private finishWait(wait: ClusterState['waits'][number], acked: number): Reply {
    const result = reply.integer(acked);
    const m = wait.request;
    this.env.emit.event(m.clientId, { kind: 'command', pc: m.pc, argv: m.argv, reply: result, releases: m.releases, node: m.nodeId });
    return result;
  }

  /** WAITs on `nodeId` that are satisfied, or whose timeout has come, answer now. */
  private answerWaits(nodeId: string): void {
    const still: ClusterState['waits'] = [];
    const done: [ClusterState['waits'][number], number][] = [];
    for (const wait of this.state.waits) {
      const acked = this.ackedReplicas(wait.nodeId, wait.offset);
      if (wait.nodeId === nodeId && (acked >= wait.replicaCount || (wait.deadlineMs !== null && wait.deadlineMs <= this.now))) done.push([wait, acked]);
      else still.push(wait);
    }
    this.state.waits = still;
    for (const [wait, acked] of done) this.respond(wait.request, this.finishWait(wait, acked));
  }

  // ---- Time ----------------------------------------------------------------------------------

  /**
   * Drops every key whose expiry has passed on `nodeId`'s clock (a primary's, or a node on its
   * own: a replica never expires keys itself). Each DEL joins the node's replication stream.
   */
  expireKeys(nodeId: string): void {
    const node = this.state.nodes[nodeId];
    if (!node.up || node.role !== 'primary') return;
    const keyspace = this.server(nodeId).keyspace;
    for (const key of keyspace.expiredKeys(this.nodeNow(nodeId))) {
      const before = this.env.emit.lockNow();
      keyspace.delete(key);
      const effects = this.effects(nodeId);
      node.offset += 1;
      this.env.emit.event(null, { kind: 'expire', key, node: nodeId }, before);
      this.produce(node, effects);
    }
  }

  /** The next virtual time after now at which something is due: an expiry, a message, a replication entry, a WAIT's timeout. */
  nextDueMs(untilMs: number): number | null {
    const now = this.now;
    let next: number | null = null;
    const consider = (t: number | null) => {
      if (t !== null && t > now && (next === null || t < next)) next = t;
    };
    for (const id of this.state.order) {
      const node = this.state.nodes[id];
      if (!node.up) continue;
      if (node.role === 'primary') {
        const expiry = this.server(id).keyspace.nextExpiryAtMs();
        // Gone once the node's clock passes its expiry time.
        if (expiry !== null) consider(virtualTimeWhen(node, expiry + 1, now + 1, untilMs));
      } else consider(this.state.pending[id][0]?.dueMs ?? null);
    }
    for (const m of this.state.messages) consider(m.dueMs);
    for (const w of this.state.waits) consider(w.deadlineMs);
    return next;
  }

  /** Everything due at the current instant: expiries first, then replication, WAIT timeouts, messages. */
  fireDue(): void {
    for (const id of this.state.order) this.expireKeys(id);
    for (const id of this.state.order) if (this.state.nodes[id].role === 'replica' && this.state.nodes[id].up) this.applyDue(id);
    for (const id of this.state.order) this.answerWaits(id);
    for (;;) {
      const due = this.state.messages.filter((m) => m.dueMs <= this.now);
      if (due.length === 0) return;
      this.state.messages = this.state.messages.filter((m) => m.dueMs > this.now);
      due.sort((a, b) => a.dueMs - b.dueMs || a.id - b.id);
      for (const m of due) {
        const partitioned = this.state.links[linkKey(m.clientId, m.nodeId)]?.partitioned === true;
        if (partitioned) this.drop(m, 'partition');
        else if (m.kind === 'request') this.arrive(m);
        else this.receive(m);
      }
    }
  }
}
