import { replyText, type Reply } from './redis/reply';
import type { ServerSnapshot } from './redis/server';
import { nextToken, seedRng, type RngState } from './rng';
import { resourcesOf, type ScriptSpec, type Scenario, type VariantSpec } from './scenario';
import type { Step } from './program';
import { checkersFor, type Checker } from './checkers';
import { propertyCheckers } from './properties/checker';
import type { ClientHost } from './host';
import { createClusterState, validateNodes, type ClusterState } from './nodes/state';
import type { NodeSpec } from './scenario';

/**
 * Where a client is in its life (docs/SCHEDULES.md, "The time model").
 * - idle: not started; the schedule's first step of it is its arrival (or another client's
 *   `start` step, for helpers such as a watchdog thread).
 * - ready: runnable at the current instant, with its next action pending.
 * - blocked: waiting until `blockedUntilMs` (null: no end, e.g. a call that never answers).
 * - crashed, done: never runs again.
 * Faults (stalls, crashes) belong to processes: see WorldState.processes.
 */
export type ClientStatus = 'idle' | 'ready' | 'blocked' | 'crashed' | 'done';
/**
 * Why a client waits. Its own program: work (business logic), sleep (a timer between rounds),
 * retry (backoff before trying again), hang (a call with no timeout that never answers). Redis:
 * reply (a slow script's reply arrives when the script ends), busy (Redis is running another
 * client's script; the command waits its turn). Pub/Sub: message (a `waitMessage`: until a
 * message arrives or the timeout, whichever is first). network (several nodes: a command's reply is
 * on its way, or lost; the wait ends with the reply, or at the client's timeout). await (a hosted
 * client's code awaits a promise another activity of its process settles: it wakes when one of them steps).
 */
export type BlockReason = 'work' | 'sleep' | 'retry' | 'hang' | 'reply' | 'busy' | 'message' | 'network' | 'await' | 'pop';

/** A Pub/Sub message delivered to one of a client's connections and not read by its program yet. */
export interface InboxMessage {
  readonly channel: string;
  /** The pattern it matched (PSUBSCRIBE), or null for a channel subscription. */
  readonly pattern: string | null;
  readonly payload: string;
  readonly atMs: number;
}

/** Unread messages kept per client; older ones are dropped first (Redis too drops a subscriber that reads too slowly, by its output buffer limit). */
export const inboxCountMax = 1_000;

/** One simulated client. Plain data: cloning a world is structuredClone. */
export interface ClientState {
  readonly id: string;
  /** The process it runs in: stalls and crashes hit every client of a process together. */
  readonly process: string;
  /** Index of the next program step. */
  pc: number;
  status: ClientStatus;
  /** While blocked: the virtual time its wait ends, or null when nothing will end it. */
  blockedUntilMs: number | null;
  blockReason: BlockReason | null;
  /**
   * Order among clients ready at the same instant (first come, first run) and, while blocked,
   * among wake-ups due at the same time (first set, first fired). From WorldState.nextOrder.
   */
  order: number;
  /** Virtual time this client became ready (for lateness: a stall can hold a ready client). */
  readySinceMs: number;
  /** `${name}` values: `token`, saved replies (text; nil as null), `set` results. */
  vars: Record<string, string | null>;
  /** RESP type of each saved reply, for nil/error conditions. */
  replyTypes: Record<string, Reply['type']>;
  lastReply: Reply | null;
  inCriticalSection: boolean;
  /** The client's belief, which can differ from Redis's truth: set on enter, cleared on release. */
  believesHoldsLock: boolean;
  /** Retry attempts used, by the retry step's program index. */
  attempts: Record<number, number>;
  /** When each retry step first made the client wait (for its deadline), by program index. */
  retrySinceMs: Record<number, number>;
  /** Lock generation this client last acquired (see LockTracking), or null. */
  leaseGeneration: number | null;
  /**
   * While this client waits for the reply to a slow script (one that occupies the server on the
   * virtual clock): when the script started, and the variable its reply is saved under.
   */
  awaitingScript: { startMs: number; saveAs: string | null; pc: number } | null;
  /** Pub/Sub messages received and not read yet, oldest first (at most inboxCountMax). */
  inbox: InboxMessage[];
  /** While blocked in `waitMessage`: the channel it waits for (null: any), where the payload goes. */
  awaitingMessage: { channel: string | null; saveAs: string | null; pc: number } | null;
  /**
   * An activity (a timer's callback, a run of an interval) that a hosted client's code created
   * while it ran (a `spawn` step): the client that created it. Absent for the scenario's own clients,
   * so a world without activities keeps its old shape.
   */
  spawnedBy?: string;
  /**
   * While blocked in a blocking pop (BLPOP & co.): the connection it waits on, where the reply
   * goes, and the reply once another client's push served it (null: not yet). Absent otherwise,
   * so worlds that never block keep their shape.
   */
  awaitingPop?: { connection: string; saveAs: string | null; pc: number; reply: Reply | null };
  /**
   * Scenarios with a waitMsMax only (the starvation checker): since when this client has waited
   * to get into the critical section for the first time. Set at its arrival, removed when it gets
   * in or its starvation is reported; absent otherwise, so other worlds keep their shape.
   */
  waitingSinceMs?: number;
  /**
   * Scenarios with an acquisitionsWhileWaitingMax only (starvation by count): how many times other
   * clients have got in since this client arrived, while it has not yet. Removed when it gets in or
   * its starvation is reported; absent otherwise, so other worlds keep their shape.
   */
  overtakenCount?: number;
}

/** A process hosting one or more clients (an application instance, a JVM). */
export interface ProcessState {
  /** Frozen (a stop-the-world GC pause, a VM migration) until this virtual time; 0 when running. */
  stalledUntilMs: number;
}

/**
 * What the checkers know about the lock key. A generation starts each time a client's command
 * writes a new value into an absent or foreign-held lock key; the holder is that client until the
 * key disappears (DEL or expiry) or another client overwrites it.
 */
export interface LockTracking {
  holder: string | null;
  generation: number;
  value: string | null;
  /** Generation for which lock-never-released was reported (report once). */
  neverReleasedReportedGeneration: number | null;
  /** Virtual time the current generation began (its holder's acquiring command), or null when free. */
  acquiredAtMs: number | null;
  /** Generation for which lock-held-too-long was reported (report once). */
  heldTooLongReportedGeneration: number | null;
}

export interface WorldState {
  nowMs: number;
  /** Next value for ClientState.order: first come, first served among equals. */
  nextOrder: number;
  rng: RngState;
  /** Number of schedule choices applied. */
  stepIndex: number;
  /** seq of the next trace event. */
  nextSeq: number;
  clients: ClientState[];
  processes: Record<string, ProcessState>;
  lock: LockTracking;
  /** Per counter: marks so far, whether its checker reported, and (db-read) the times of recent marks. */
  counters: Record<string, { sold: number; reported: boolean; recentMs: number[] }>;
  resources: Record<string, { value: string | null; maxFencingToken: string | null; writeCount: number }>;
  /** Several Redis nodes (Scenario.nodes): roles, clocks, links, messages, replication. Absent: one node. */
  cluster?: ClusterState;
}

/** Everything needed to run one scenario variant; derived once, never mutated. */
export interface RunContext {
  readonly scenario: Scenario;
  readonly variant: VariantSpec;
  readonly seed: number;
  readonly params: Readonly<Record<string, string>>;
  readonly scripts: Readonly<Record<string, ScriptSpec>>;
  readonly programs: Readonly<Record<string, readonly Step[]>>;
  /** label -> step index, per client. */
  readonly labels: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly clientIds: readonly string[];
  /** The checkers this run applies (the scenario's `checkers`, else all). */
  readonly checkers: readonly Checker[];
  /** Clients whose program is written while they run (ClientSpec.hosted), and who writes it. */
  readonly hosted: ReadonlySet<string>;
  readonly host: ClientHost | null;
  /** The Redis nodes, or null for the single-node engine. */
  readonly nodes: readonly NodeSpec[] | null;
  /** Node ids (empty for the single-node engine). */
  readonly nodeIds: readonly string[];
}

export function createRunContext(scenario: Scenario, variant: VariantSpec, seed: number, host: ClientHost | null = null): RunContext {
  const programs: Record<string, readonly Step[]> = {};
  const labels: Record<string, Record<string, number>> = {};
  for (const client of variant.clients) {
    programs[client.id] = client.program;
    const byLabel: Record<string, number> = {};
    client.program.forEach((step, index) => {
      if (step.label !== undefined) {
        if (step.label in byLabel) throw new Error(`${scenario.id}/${variant.id}: client ${client.id} has label "${step.label}" twice`);
        byLabel[step.label] = index;
      }
    });
    for (const step of client.program) {
      const target = 'goto' in step ? step.goto : null;
      if (target !== null && !(target in byLabel)) {
        throw new Error(`${scenario.id}/${variant.id}: client ${client.id} jumps to unknown label "${target}"`);
      }
    }
    labels[client.id] = byLabel;
  }
  const clientIds = variant.clients.map((c) => c.id);
  const nodes = validateNodes(scenario, variant, clientIds);
  return {
    scenario,
    variant,
    seed,
    nodes,
    nodeIds: nodes?.map((n) => n.id) ?? [],
    params: { ...scenario.params, ...(variant.params ?? {}) },
    scripts: { ...(scenario.scripts ?? {}), ...(variant.scripts ?? {}) },
    programs,
    labels,
    clientIds,
    checkers: [...checkersFor(scenario.checkers), ...propertyCheckers(scenario.properties)],
    hosted: new Set(variant.clients.filter((c) => c.hosted === true).map((c) => c.id)),
    host,
  };
}

/** The world at time 0: every client ready at its first step, each with a fresh token from the seed. */
export function createWorld(ctx: RunContext): WorldState {
  let rng = seedRng(ctx.seed);
  const tokens: Record<string, string> = {};
  const clients: ClientState[] = ctx.variant.clients.map((spec) => {
    // Every client draws a token, shared or not, so adding tokenFrom changes no other client's token.
    const [drawn, next] = nextToken(rng);
    rng = next;
    tokens[spec.id] = drawn;
    const token = spec.tokenFrom === undefined ? drawn : tokens[spec.tokenFrom];
    if (token === undefined) throw new Error(`${ctx.scenario.id}/${ctx.variant.id}: client ${spec.id} takes its token from ${spec.tokenFrom}, which is not listed before it`);
    return newClientState({ id: spec.id, process: spec.process ?? spec.id, pc: 0, status: 'idle', order: 0, readySinceMs: 0, vars: { token, clientId: spec.id, ...(spec.vars ?? {}) } });
  });
  const counters: WorldState['counters'] = {};
  for (const c of ctx.scenario.counters ?? []) counters[c.id] = { sold: 0, reported: false, recentMs: [] };
  const resources: WorldState['resources'] = {};
  for (const r of resourcesOf(ctx.scenario, ctx.variant)) resources[r.id] = { value: null, maxFencingToken: null, writeCount: 0 };
  const processes: WorldState['processes'] = {};
  for (const c of clients) processes[c.process] = { stalledUntilMs: 0 };
  const world: WorldState = {
    nowMs: 0,
    nextOrder: 0,
    rng,
    stepIndex: 0,
    nextSeq: 0,
    clients,
    processes,
    lock: {
      holder: null,
      generation: 0,
      value: null,
      neverReleasedReportedGeneration: null,
      acquiredAtMs: null,
      heldTooLongReportedGeneration: null,
    },
    counters,
    resources,
  };
  // Only with nodes: a single-node world keeps exactly its old shape.
  if (ctx.nodes !== null) world.cluster = createClusterState(ctx.nodes, ctx.variant.clients);
  return world;
}

/** A client as it starts: what it is given, and nothing it has done yet (a scenario's client, or an activity a hosted client spawns). */
export function newClientState(start: Pick<ClientState, 'id' | 'process' | 'pc' | 'status' | 'order' | 'readySinceMs' | 'vars'>): ClientState {
  return {
    id: start.id,
    process: start.process,
    pc: start.pc,
    status: start.status,
    blockedUntilMs: null,
    blockReason: null,
    order: start.order,
    readySinceMs: start.readySinceMs,
    vars: start.vars,
    replyTypes: {},
    lastReply: null,
    inCriticalSection: false,
    believesHoldsLock: false,
    attempts: {},
    retrySinceMs: {},
    leaseGeneration: null,
    awaitingScript: null,
    inbox: [],
    awaitingMessage: null,
  };
}

/**
 * A deep copy of a world (what structuredClone gives, tests/unit/engine-clone.test.ts checks it),
 * written out by hand: explorers and checkpoints copy worlds all the time, and structuredClone
 * costs many times more. Replies are shared: they are immutable. Key order is kept everywhere
 * (state keys are JSON).
 */
export function cloneWorld(world: Readonly<WorldState>): WorldState {
  const processes: Record<string, ProcessState> = {};
  for (const name in world.processes) processes[name] = { ...world.processes[name] };
  const counters: WorldState['counters'] = {};
  for (const id in world.counters) {
    const counter = world.counters[id];
    counters[id] = { ...counter, recentMs: counter.recentMs.slice() };
  }
  const resources: WorldState['resources'] = {};
  for (const id in world.resources) resources[id] = { ...world.resources[id] };
  const copy: WorldState = {
    ...world,
    clients: world.clients.map(cloneClient),
    processes,
    lock: { ...world.lock },
    counters,
    resources,
  };
  if (world.cluster !== undefined) copy.cluster = cloneCluster(world.cluster);
  return copy;
}

/**
 * A deep copy of a cluster's state, by hand like cloneWorld (explorers copy it per move).
 * Messages, replication entries and WAITs are never changed once made: new arrays are enough.
 */
function cloneCluster(cluster: Readonly<ClusterState>): ClusterState {
  const nodes: ClusterState['nodes'] = {};
  for (const id in cluster.nodes) nodes[id] = { ...cluster.nodes[id] };
  const links: ClusterState['links'] = {};
  for (const key in cluster.links) links[key] = { ...cluster.links[key] };
  const clientClocks: ClusterState['clientClocks'] = {};
  for (const id in cluster.clientClocks) clientClocks[id] = { ...cluster.clientClocks[id] };
  const pending: ClusterState['pending'] = {};
  for (const id in cluster.pending) pending[id] = cluster.pending[id].slice();
  const awaiting: ClusterState['awaiting'] = {};
  for (const id in cluster.awaiting) awaiting[id] = { ...cluster.awaiting[id] };
  return {
    ...cluster,
    nodes,
    links,
    clientClocks,
    order: cluster.order.slice(),
    messages: cluster.messages.slice(),
    pending,
    waits: cluster.waits.slice(),
    writeOffsets: { ...cluster.writeOffsets },
    awaiting,
    shown: { ...cluster.shown },
    nodeLocks: { ...cluster.nodeLocks },
    lockWriters: { ...cluster.lockWriters },
  };
}

function cloneClient(c: Readonly<ClientState>): ClientState {
  return {
    ...c,
    vars: { ...c.vars },
    replyTypes: { ...c.replyTypes },
    attempts: { ...c.attempts },
    retrySinceMs: { ...c.retrySinceMs },
    awaitingScript: c.awaitingScript === null ? null : { ...c.awaitingScript },
    // Messages are immutable once received: a new array is enough.
    inbox: c.inbox.slice(),
    awaitingMessage: c.awaitingMessage === null ? null : { ...c.awaitingMessage },
    // Replies are immutable: a shallow copy is enough.
    ...(c.awaitingPop === undefined ? {} : { awaitingPop: { ...c.awaitingPop } }),
  };
}

/** A point in a run from which replay can resume: the world plus the server's state. */
export interface Checkpoint {
  readonly world: WorldState;
  readonly server: ServerSnapshot;
  /** Number of trace events before this point. */
  readonly eventCount: number;
}

/** Whether the client's program is written while it runs: a hosted client, or an activity one created. */
export function isHosted(ctx: RunContext, c: Readonly<ClientState>): boolean {
  return c.spawnedBy !== undefined || ctx.hosted.has(c.id);
}

/** A client's program: the scenario's, or (an activity) its host's log. */
export function programOf(ctx: RunContext, c: Readonly<ClientState>): readonly Step[] {
  const program = ctx.programs[c.id] ?? (c.spawnedBy === undefined ? undefined : ctx.host?.program(c.id));
  if (program === undefined) throw new Error(`client ${c.id} has no program`);
  return program;
}

/** A client that has not finished or crashed (it may not have started yet). */
export function isLive(client: Readonly<ClientState>): boolean {
  return client.status !== 'done' && client.status !== 'crashed';
}

/** Saves a reply where conditions and templates read it. */
export function saveReply(c: ClientState, name: string | null | undefined, result: Reply): void {
  c.lastReply = result;
  if (name === undefined || name === null) return;
  c.vars[name] = replyText(result);
  c.replyTypes[name] = result.type;
}
