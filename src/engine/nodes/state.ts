import { activityOwner } from '../activity';
import type { KeyEntry } from '../redis/keyspace';
import type { Reply } from '../redis/reply';
import type { NodeSpec, Scenario, VariantSpec } from '../scenario';
import { nodesOf } from '../scenario';
import { clockDriftPpmMax, type LocalClock } from './clock';

/**
 * The state of a world with several Redis nodes, as plain data (cloned with the world by
 * structuredClone): roles, clocks, links, messages in flight, replication streams and WAITs.
 * The nodes' keyspaces and script caches live in their servers (NodeServers), snapshotted apart.
 */
export interface ClusterState {
  /** Where a command without `node` goes: the current primary (a promotion changes it). */
  primary: string;
  nodes: Record<string, NodeState>;
  /** Node ids in the scenario's order (ties among nodes resolve in this order). */
  readonly order: readonly string[];
  /** Client-node links with a fault, by `${client}|${node}` (absent: healthy). */
  links: Record<string, LinkState>;
  clientClocks: Record<string, LocalClock>;
  /** Requests and replies on their way, in the order sent. */
  messages: Message[];
  nextMessageId: number;
  /** Per replica: its primary's writes on their way to it, oldest first. */
  pending: Record<string, ReplicationEntry[]>;
  /** WAITs blocked on a primary until enough replicas have a client's last write. */
  waits: PendingWait[];
  /** Per `${node}|${client}`: the replication offset after the client's last write there (for WAIT). */
  writeOffsets: Record<string, number>;
  /** Per client: the command whose reply it waits for over the network. */
  awaiting: Record<string, Awaiting>;
  /** Per node: what the trace last said of it (emit.ts): an event carries only the nodes that changed. */
  shown: Record<string, string>;
  /**
   * The foreign-release checker's memory (checkers.ts): per node, the lock key's value as the last
   * event showed it, and per value, the client whose command first wrote it on any node (a
   * replica's copy keeps its writer).
   */
  nodeLocks: Record<string, string | null>;
  lockWriters: Record<string, string>;
}

export interface NodeState extends LocalClock {
  readonly id: string;
  role: 'primary' | 'replica';
  replicaOf: string | null;
  up: boolean;
  /** A replica applies its primary's writes this many ms after they were made. */
  replicationDelayMs: number;
  /**
   * A primary: the offset of its last write (offsets count writes). A replica: the offset in its
   * primary's stream it has applied.
   */
  offset: number;
  readonly persistence: 'fsync' | 'none';
  readonly restartDelayMs: number;
  /** After a delayed restart: the node answers no client before this virtual time. */
  servingFromMs: number;
}

export interface LinkState {
  partitioned: boolean;
  /** Lose this many of the next requests (client to node) and replies (node to client). */
  loseRequests: number;
  loseReplies: number;
}

/** A key a write changed, as the replica must store it: its value and absolute expiry, or deleted. */
export interface Effect {
  readonly key: string;
  readonly entry: KeyEntry | null;
}

export interface ReplicationEntry {
  readonly offset: number;
  readonly from: string;
  readonly dueMs: number;
  readonly effects: readonly Effect[];
}

export interface Message {
  readonly id: number;
  readonly kind: 'request' | 'reply';
  readonly clientId: string;
  readonly nodeId: string;
  readonly dueMs: number;
  readonly argv: readonly string[];
  /** A reply's content. */
  readonly reply: Reply | null;
  /** The program step that sent it, and whether it gives the lock up (for the command's event). */
  readonly pc: number;
  readonly releases: boolean;
  /** The client's named connection it goes on (CommandStep.connection); absent: the client's own. */
  readonly connection?: string;
}

export interface PendingWait {
  readonly clientId: string;
  readonly nodeId: string;
  readonly offset: number;
  readonly replicaCount: number;
  /** Virtual time WAIT's own timeout ends it, or null (timeout 0: wait for ever). */
  readonly deadlineMs: number | null;
  readonly argv: readonly string[];
  /** The WAIT's request, answered when the wait ends. */
  readonly request: Message;
}

export interface Awaiting {
  readonly nodeId: string;
  readonly pc: number;
  readonly saveAs: string | null;
  readonly argv: readonly string[];
  readonly messageId: number;
  /** The reply, once it has arrived (the client takes it when it wakes). */
  reply: Reply | null;
}

/** A client's link to a node; an activity (`A·1`, a timer of async client A) uses its client's. */
export const linkKey = (clientId: string, nodeId: string) => `${activityOwner(clientId)}|${nodeId}`;

/**
 * Keeps `links` canonical: only faulty links, in key order. Two worlds whose links are in the same
 * state then have the same plain data whatever order the faults came in (state keys are JSON,
 * and the explorer counts states by them).
 */
export function tidyLinks(cluster: ClusterState): void {
  const keys = Object.keys(cluster.links).sort();
  const tidy: Record<string, LinkState> = {};
  for (const key of keys) {
    const link = cluster.links[key];
    if (link.partitioned || link.loseRequests > 0 || link.loseReplies > 0) tidy[key] = link;
  }
  cluster.links = tidy;
}

/** Reads of a scenario's node list: its checks run once per run context. */
export function validateNodes(scenario: Scenario, variant: VariantSpec, clientIds: readonly string[]): readonly NodeSpec[] | null {
  const nodes = nodesOf(scenario, variant);
  if (nodes === null) return null;
  const where = `${scenario.id}/${variant.id}`;
  const ids = nodes.map((n) => n.id);
  if (nodes.length === 0) throw new Error(`${where}: nodes is empty`);
  if (new Set(ids).size !== ids.length) throw new Error(`${where}: a node id appears twice`);
  if (scenario.scriptTiming !== undefined) throw new Error(`${where}: slow scripts (scriptTiming) are single-node only`);
  if (scenario.redisCluster === true) throw new Error(`${where}: a Redis Cluster (redisCluster) is single-node only`);
  for (const client of variant.clients) {
    // Pub/Sub, MULTI/EXEC steps and named connections of programs run on one server (a hosted client's
    // commands, MULTI and EXEC included, go one by one, each on its connection: cluster.ts routes those).
    const step = client.program.find((s) => s.op === 'transaction' || s.op === 'waitMessage' || (s.op === 'command' && s.connection !== undefined));
    if (step !== undefined) throw new Error(`${where}: client ${client.id}'s ${step.op === 'command' ? 'named connection' : step.op} step is single-node only`);
  }
  for (const n of nodes) {
    if (clientIds.includes(n.id)) throw new Error(`${where}: node id "${n.id}" is also a client id`);
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(n.id)) throw new Error(`${where}: node id "${n.id}" is not a schedule name`);
    if (n.role === 'replica' && (n.replicaOf === undefined || !nodes.some((p) => p.id === n.replicaOf && p.role === 'primary'))) {
      throw new Error(`${where}: replica ${n.id} needs replicaOf naming a primary`);
    }
    if (Math.abs(n.clockDriftPpm ?? 0) > clockDriftPpmMax) throw new Error(`${where}: node ${n.id}'s drift is beyond ${clockDriftPpmMax} ppm`);
  }
  if (!nodes.some((n) => n.role === 'primary')) throw new Error(`${where}: no primary node`);
  return nodes;
}

export function createClusterState(nodes: readonly NodeSpec[], clients: readonly { id: string; clockDriftPpm?: number }[]): ClusterState {
  const state: Record<string, NodeState> = {};
  for (const n of nodes) {
    state[n.id] = {
      id: n.id,
      role: n.role,
      replicaOf: n.role === 'replica' ? (n.replicaOf as string) : null,
      up: true,
      offsetMs: 0,
      driftPpm: n.clockDriftPpm ?? 0,
      replicationDelayMs: n.replicationDelayMs ?? 0,
      offset: 0,
      persistence: n.persistence ?? 'none',
      restartDelayMs: n.restartDelayMs ?? 0,
      servingFromMs: 0,
    };
  }
  const clientClocks: Record<string, LocalClock> = {};
  for (const c of clients) clientClocks[c.id] = { offsetMs: 0, driftPpm: c.clockDriftPpm ?? 0 };
  const pending: Record<string, ReplicationEntry[]> = {};
  for (const n of nodes) if (n.role === 'replica') pending[n.id] = [];
  return {
    primary: (nodes.find((n) => n.role === 'primary') as NodeSpec).id,
    nodes: state,
    order: nodes.map((n) => n.id),
    links: {},
    clientClocks,
    messages: [],
    nextMessageId: 0,
    pending,
    waits: [],
    writeOffsets: {},
    awaiting: {},
    shown: {},
    nodeLocks: {},
    lockWriters: {},
  };
}

/** Whether something already on its way (a request, a reply, a WAIT) may still end `clientId`'s wait for a reply. */
export function mayAnswer(cluster: Readonly<ClusterState>, clientId: string): boolean {
  const awaiting = cluster.awaiting[clientId];
  if (awaiting === undefined) return false;
  if (awaiting.reply !== null) return true;
  return cluster.messages.some((m) => m.clientId === clientId && m.id === awaiting.messageId) || cluster.waits.some((w) => w.request.id === awaiting.messageId);
}
