import type { MessageRef } from '../i18n';
import { applyAdvanceToNextDue, applyChoice, ChoiceError, nextDueMs, readLock, refusalOf, refusalRefOf } from './engine';
import { hash53 } from './hash';
import type { ClientHost } from './host';
import type { KeyEntry } from './redis/keyspace';
import { SimRedisServer, type ServerSnapshot } from './redis/server';
import { sharedScriptEngine } from './shared-scripts';
import { NodeServers } from './nodes/servers';
import { localTimeMs } from './nodes/clock';
import { findVariant, type Scenario } from './scenario';
import { formatSchedule, parseSchedule, type Choice } from './schedule';
import type { LockView, Trace, TraceEvent, ViolationEvent } from './trace';
import { cloneWorld, createRunContext, createWorld, isLive, type Checkpoint, type ClientState, type RunContext, type WorldState } from './world';

export interface SimulationOptions {
  readonly variantId?: string;
  readonly seed?: number;
  /** Take a checkpoint every this many steps: step-back cost is at most this many replays. */
  readonly checkpointEverySteps?: number;
  /** Who writes the programs of hosted clients (engine/host.ts); null when there are none. */
  readonly host?: ClientHost;
}

export const defaultSeed = 1;
/** Longest timeline a simulation keeps (choices); apply() refuses more. */
export const timelineStepCountMax = 100_000;

/** A run at time 0: its context, its server after the scenario's setup, and its world. */
export interface RunStart {
  readonly ctx: RunContext;
  readonly server: SimRedisServer;
  readonly world: WorldState;
  /** Several Redis nodes (Scenario.nodes), each with the setup applied; null: the one `server`. */
  readonly nodes: NodeServers | null;
}

/** Builds a run at time 0 (what a Simulation starts from; explorers start there too). */
export function startRun(scenario: Scenario, options: Pick<SimulationOptions, 'variantId' | 'seed' | 'host'> = {}): RunStart {
  const variant = findVariant(scenario, options.variantId);
  const ctx = createRunContext(scenario, variant, options.seed ?? defaultSeed, options.host ?? null);
  // One Lua engine serves every run of this realm (shared-scripts.ts): a run costs no Lua state.
  const serverOptions = {
    scriptTiming: scenario.scriptTiming,
    unixEpochMs: scenario.unixEpochMs,
    cluster: scenario.redisCluster,
    createScriptEngine: sharedScriptEngine,
    randomSeed: options.seed ?? defaultSeed,
  };
  const server = new SimRedisServer(serverOptions);
  const nodes = ctx.nodes === null ? null : new NodeServers(ctx.nodeIds, serverOptions);
  // With nodes, every node starts with the setup (replicas in sync with their primary).
  for (const target of nodes === null ? [server] : ctx.nodeIds.map((id) => nodes.get(id))) {
    for (const argv of scenario.setup ?? []) {
      const result = target.execute(argv, 0);
      if (result.type === 'error') throw new Error(`${scenario.id}: setup ${argv.join(' ')} failed: ${result.value}`);
    }
  }
  if (nodes !== null) for (const id of ctx.nodeIds) nodes.takeTouched(id);
  return { ctx, server, world: createWorld(ctx), nodes };
}

/**
 * A run of one scenario variant as a timeline: seed + choices, with the events they produced and
 * checkpoints for cheap time travel. The live world sits at `cursor` (choices applied). Seeking
 * restores the nearest checkpoint and replays. Applying a choice while not at the end forks: the
 * future is dropped and the new choice becomes the next one (RaftScope's fork).
 */
export class Simulation {
  readonly ctx: RunContext;
  private readonly server: SimRedisServer;
  /** Several Redis nodes (Scenario.nodes), or null: the one `server`. */
  private readonly nodes: NodeServers | null;
  /** The nodes' states at each checkpoint, by checkpoint index. */
  private nodeCheckpoints: Record<string, ServerSnapshot>[] = [];
  private world: WorldState;
  private choices: Choice[] = [];
  private events: TraceEvent[] = [];
  /** firstEventOfStep[i] = index in `events` of step i's first event; one extra entry at the end. */
  private firstEventOfStep: number[] = [0];
  private checkpoints: Checkpoint[] = [];
  private readonly checkpointEverySteps: number;
  private cuts = 0;

  constructor(scenario: Scenario, options: SimulationOptions = {}) {
    const start = startRun(scenario, options);
    this.ctx = start.ctx;
    this.server = start.server;
    this.world = start.world;
    this.checkpointEverySteps = options.checkpointEverySteps ?? 32;
    this.nodes = start.nodes;
    this.checkpoints.push(this.checkpoint());
  }

  get seed(): number {
    return this.ctx.seed;
  }
  get scenarioId(): string {
    return this.ctx.scenario.id;
  }
  get variantId(): string {
    return this.ctx.variant.id;
  }
  /** Choices applied to the live world. */
  get cursor(): number {
    return this.world.stepIndex;
  }
  /** Length of the whole timeline (past and future of the cursor). */
  get length(): number {
    return this.choices.length;
  }
  get nowMs(): number {
    return this.world.nowMs;
  }
  get clients(): readonly Readonly<ClientState>[] {
    return this.world.clients;
  }
  /** The live world; read-only by contract (clone it to keep it). */
  get state(): Readonly<WorldState> {
    return this.world;
  }
  get timeline(): readonly Choice[] {
    return this.choices;
  }
  get schedule(): string {
    return formatSchedule(this.choices);
  }
  /** Schedule text up to the cursor. */
  get scheduleToCursor(): string {
    return formatSchedule(this.choices.slice(0, this.cursor));
  }
  /**
   * How many times the timeline was cut (a choice applied before its end drops the future): a
   * reader that remembers it knows, in O(1), whether the events it read still stand.
   */
  get cutCount(): number {
    return this.cuts;
  }
  get isFinished(): boolean {
    return !this.world.clients.some(isLive);
  }

  /** Events of every step before the cursor. */
  eventsToCursor(): readonly TraceEvent[] {
    return this.events.slice(0, this.firstEventOfStep[this.cursor]);
  }
  /** Events of the whole timeline, including steps after the cursor. */
  allEvents(): readonly TraceEvent[] {
    return this.events;
  }
  /** Events produced by one step (0-based). */
  eventsOfStep(step: number): readonly TraceEvent[] {
    return this.events.slice(this.firstEventOfStep[step], this.firstEventOfStep[step + 1]);
  }
  violationsToCursor(): ViolationEvent[] {
    return this.eventsToCursor().filter((e): e is ViolationEvent => e.kind === 'violation');
  }

  /** Why `choice` cannot apply at the cursor, or null when it can (the UI disables refused controls). */
  refusal(choice: Choice): string | null {
    return refusalOf(this.world, this.ctx, choice, this.nodes === null ? this.server : null);
  }

  /** `refusal` as a catalog key and parameters: the page words it in the reader's language. */
  refusalRef(choice: Choice): MessageRef | null {
    return refusalRefOf(this.world, this.ctx, choice, this.nodes === null ? this.server : null);
  }

  /** Applies one choice at the cursor, forking the timeline if the cursor is not at its end. */
  apply(choice: Choice): readonly TraceEvent[] {
    if (this.cursor < this.choices.length) this.truncateAtCursor();
    if (this.choices.length >= timelineStepCountMax) {
      throw ChoiceError.of({ key: 'refuseTimelineFull', params: { max: timelineStepCountMax } }, this.cursor);
    }
    const produced = this.applyLive(choice);
    this.append(choice, produced);
    return produced;
  }

  /**
   * For explorers that cannot snapshot (the async search): the engine explorer's `next-due` move
   * at the cursor, the `+N` that ends at the next due time once the clients ready now have run
   * (engine.applyAdvanceToNextDue), kept as that `+N`. Null (nothing changed) when nothing is due.
   */
  applyNextDue(): Choice | null {
    if (this.cursor < this.choices.length) this.truncateAtCursor();
    if (this.choices.length >= timelineStepCountMax) return null;
    const cursorBefore = this.cursor;
    let applied: ReturnType<typeof applyAdvanceToNextDue>;
    try {
      applied = applyAdvanceToNextDue(this.world, this.server, this.ctx, undefined, this.nodes);
    } catch (error) {
      this.rebuild(cursorBefore);
      throw error;
    }
    // The ready clients may have run before it found nothing due: back to where it was.
    if (applied === null) this.rebuild(cursorBefore);
    else this.append(applied.choice, applied.events);
    return applied?.choice ?? null;
  }

  private append(choice: Choice, produced: readonly TraceEvent[]): void {
    this.choices.push(choice);
    this.events.push(...produced);
    this.firstEventOfStep.push(this.events.length);
    if (this.cursor % this.checkpointEverySteps === 0) this.checkpoints[this.cursor / this.checkpointEverySteps] = this.checkpoint();
  }

  /** Applies every choice of a schedule (text or parsed), failing loudly at the first that does not fit. */
  applySchedule(schedule: string | readonly Choice[]): void {
    const choices = typeof schedule === 'string' ? parseSchedule(schedule, this.ctx.clientIds, this.ctx.nodeIds) : schedule;
    for (const choice of choices) this.apply(choice);
  }

  /** Moves the live world to just after `step` choices (0 = the start), by checkpoint + replay. */
  seek(step: number): void {
    if (!Number.isInteger(step) || step < 0 || step > this.choices.length) {
      throw new RangeError(`seek(${step}): the timeline has ${this.choices.length} steps`);
    }
    if (step === this.cursor) return;
    if (step < this.cursor || Math.floor(step / this.checkpointEverySteps) > Math.floor(this.cursor / this.checkpointEverySteps)) {
      const index = Math.floor(step / this.checkpointEverySteps);
      this.restore(index);
    }
    while (this.cursor < step) this.applyLive(this.choices[this.cursor]);
  }

  stepBack(): boolean {
    if (this.cursor === 0) return false;
    this.seek(this.cursor - 1);
    return true;
  }

  stepForward(): boolean {
    if (this.cursor >= this.choices.length) return false;
    this.seek(this.cursor + 1);
    return true;
  }

  /** The trace of the whole timeline; JSON.stringify of it is byte-identical for equal inputs. */
  trace(): Trace {
    return {
      scenario: this.scenarioId,
      variant: this.variantId,
      seed: this.seed,
      schedule: this.schedule,
      events: this.events,
      violations: this.events.filter((e): e is ViolationEvent => e.kind === 'violation'),
    };
  }

  /** Every live key at the cursor's time (the inspector's view); with nodes, the current primary's. */
  inspect(): KeyEntry[] {
    const { server, nowMs } = this.viewNode();
    return server.inspect(nowMs);
  }

  /** Node ids (empty with one node). */
  get nodeIds(): readonly string[] {
    return this.ctx.nodeIds;
  }

  /**
   * One node's keys as it holds them now, on its own clock (a replica keeps keys that are
   * logically expired until its primary's DEL arrives: they are listed with their expiry).
   */
  inspectNode(nodeId: string): KeyEntry[] {
    const { server } = this.viewNode(nodeId);
    return server.keyspace.snapshot().entries.slice();
  }

  /**
   * One node's lock key now, with its expiry on the node's own clock, and that clock's reading
   * (null entry: absent). A replica keeps a key past its expiry until its primary's DEL arrives.
   */
  nodeLockEntry(nodeId: string): { readonly entry: KeyEntry | null; readonly nowMs: number } {
    const { server, nowMs } = this.viewNode(nodeId);
    return { entry: server.keyspace.entry(this.ctx.scenario.lockKey), nowMs };
  }

  lock(): LockView {
    const cluster = this.world.cluster;
    if (cluster !== undefined && !cluster.nodes[cluster.primary].up) return { value: null, pttlMs: -2, holder: null };
    const { server, nowMs } = this.viewNode();
    return readLock(server, this.ctx, nowMs, this.world.lock.holder, this.world);
  }

  /** Runs a command on this simulation's server (with nodes: the current primary) outside any client (the console). Not part of the timeline. */
  executeOutside(argv: readonly string[]): ReturnType<SimRedisServer['execute']> {
    const { server, nowMs } = this.viewNode();
    return server.execute(argv, nowMs);
  }

  /** A node's server and its clock now (default: the current primary; with one node, the server). */
  private viewNode(nodeId?: string): { server: SimRedisServer; nowMs: number } {
    const cluster = this.world.cluster;
    if (cluster === undefined || this.nodes === null) return { server: this.server, nowMs: this.world.nowMs };
    const id = nodeId ?? cluster.primary;
    if (!(id in cluster.nodes)) throw new RangeError(`there is no node "${id}"`);
    return { server: this.nodes.get(id), nowMs: localTimeMs(cluster.nodes[id], this.world.nowMs) };
  }

  /**
   * A stable key of the live state (world + keyspace + script cache), for hashing and comparison.
   * Counters that only record history (step index, event and order counters) are left out; the
   * order among clients, which decides who runs first, is kept as ranks.
   */
  stateKey(): string {
    const { stepIndex, nextSeq, nextOrder, clients, ...rest } = this.world;
    void stepIndex;
    void nextSeq;
    void nextOrder;
    const byOrder = clients.map((c) => c.order).sort((a, b) => a - b);
    const ranked = clients.map((c) => ({ ...c, order: byOrder.indexOf(c.order) }));
    const key: Record<string, unknown> = { world: { ...rest, clients: ranked }, server: this.server.snapshot() };
    if (this.nodes !== null) key.nodes = this.nodes.snapshot();
    return JSON.stringify(key);
  }

  /** The next virtual time anything is due after now (engine.nextDueMs), or null: where an advance to the next event stops. */
  nextDueMs(): number | null {
    return nextDueMs(this.world, this.server, this.ctx, this.nodes);
  }

  /** hash53 of stateKey(): equal states hash equal; compare keys to rule out a collision. */
  stateHash(): number {
    return hash53(this.stateKey());
  }

  private applyLive(choice: Choice): readonly TraceEvent[] {
    const cursorBefore = this.cursor;
    try {
      return applyChoice(this.world, this.server, this.ctx, choice, this.nodes);
    } catch (error) {
      // A choice refused up front changed nothing, but one refused half-way (too many steps) or a
      // scenario bug may have: rebuild the world as it was before this choice, then report.
      this.rebuild(cursorBefore);
      throw error;
    }
  }

  /** The live world as it was after `step` choices, from the checkpoint before it. */
  private rebuild(step: number): void {
    this.restore(Math.floor(step / this.checkpointEverySteps));
    while (this.cursor < step) applyChoice(this.world, this.server, this.ctx, this.choices[this.cursor], this.nodes);
  }

  private truncateAtCursor(): void {
    this.cuts += 1;
    this.choices.length = this.cursor;
    this.events.length = this.firstEventOfStep[this.cursor];
    this.firstEventOfStep.length = this.cursor + 1;
    this.checkpoints.length = Math.floor(this.cursor / this.checkpointEverySteps) + 1;
    this.nodeCheckpoints.length = this.checkpoints.length;
  }

  private checkpoint(): Checkpoint {
    if (this.nodes !== null) this.nodeCheckpoints[Math.floor(this.cursor / this.checkpointEverySteps)] = this.nodes.snapshot();
    return { world: cloneWorld(this.world), server: this.server.snapshot(), eventCount: this.events.length };
  }

  private restore(index: number): void {
    const checkpoint = this.checkpoints[index];
    this.world = cloneWorld(checkpoint.world);
    this.server.restore(checkpoint.server);
    if (this.nodes !== null) this.nodes.restore(this.nodeCheckpoints[index]);
  }
}

/** Runs a scenario variant under a schedule from the start and returns its trace. */
export function runSchedule(scenario: Scenario, options: SimulationOptions & { schedule?: string }): Trace {
  const sim = new Simulation(scenario, options);
  sim.applySchedule(options.schedule ?? scenario.defaultSchedule);
  return sim.trace();
}
