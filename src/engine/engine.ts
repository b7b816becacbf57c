import { traceRef, type MessageRef } from '../i18n';
import type { SimRedisServer } from './redis/server';
import { ChoiceError, ProgramError } from './choice-error';
import { advanceMsMax, isNodeChoice, type Choice } from './schedule';
import { ClusterRun, clusterLockSource, clusterNodeViews } from './nodes/cluster';
import { applyNodeFault, nodeFaultRefusal } from './nodes/faults';
import type { NodeServers } from './nodes/servers';
import { mayAnswer } from './nodes/state';
import type { TraceEvent } from './trace';
import { emitter, type Emitter } from './emit';
import { connectionsOf, deliverPushes, takeMessage } from './messages';
import { reply } from './redis/reply';
import { runClientStep, saveReply, wakeKilledScriptCaller } from './step-rule';
import { CONSOLE_ID, consoleRefusal } from './console-choice';
import { isHosted, isLive, newClientState, type BlockReason, type ClientState, type RunContext, type WorldState } from './world';

export { readLock } from './emit';

/**
 * The time model (docs/SCHEDULES.md): a discrete-event simulation on the virtual clock.
 *
 * - A started client runs by itself: whenever it is ready and its process is not stalled, it
 *   runs as soon as the clock is about to move. The schedule decides the order of clients ready
 *   at the same instant (`A`), when time passes (`+N`), when idle clients arrive (their first
 *   `A`), and the faults (`A~N` stalls a process, `!A` crashes it).
 * - Every wake-up (end of work, a retry's backoff, a helper's timer, a slow script's reply, Redis
 *   becoming free, the end of a stall) happens at its due time. Moving the clock processes every
 *   due wake-up and key expiry in time order; nothing due is skipped. A wake-up runs late only
 *   when its process was stalled, and its `wake` event says so.
 */

export { ChoiceError };

/**
 * Bound on client scheduling steps one choice may run (autonomous clients during an advance).
 * A run that needs more is refused: advance in smaller moves, or the programs loop without waiting.
 */
export const choiceStepCountMax = 20_000;
/** Latest virtual time the clock may reach: integer milliseconds stay exact below 2^53. */
export const clockMsMax = Number.MAX_SAFE_INTEGER;

/**
 * Applies one schedule choice: mutates `world` and `server` and returns the events it produced.
 * Deterministic: the same world, server state and choice always give the same events.
 * Throws ChoiceError when the choice does not fit; a choice refused half-way (one that would run
 * more than choiceStepCountMax steps) may leave world and server changed: Simulation restores them.
 */
export function applyChoice(world: WorldState, server: SimRedisServer, ctx: RunContext, choice: Choice, nodes: NodeServers | null = null): TraceEvent[] {
  validateChoice(world, ctx, choice, server);
  if ((world.cluster !== undefined) !== (nodes !== null)) throw new Error('a world with several nodes needs their servers (and only it)');
  const run = new WorldRun(world, server, ctx, nodes);
  if (isNodeChoice(choice)) {
    applyNodeFault(run.cluster as ClusterRun, choice);
    run.fireDue(null);
    world.stepIndex += 1;
    return run.events;
  }
  switch (choice.kind) {
    case 'advance':
      run.runUntil(world.nowMs + choice.ms);
      break;
    case 'crash':
      run.crashProcess(clientById(world, choice.clientId));
      break;
    case 'stall':
      run.stallProcess(clientById(world, choice.clientId), choice.ms);
      break;
    case 'step':
      run.stepChosen(clientById(world, choice.clientId));
      break;
    case 'console':
      run.runConsole(choice.argv, choice.nodeId);
      break;
  }
  // Invariant between choices: no wake-up is overdue (those due now have fired).
  run.fireDue(null);
  world.stepIndex += 1;
  return run.events;
}

/**
 * For explorers: the `+N` that takes the world to the next time anything is due (a wake-up, the
 * end of a stall, a key's expiry), once the clients ready now have run. It applies exactly what
 * `applyChoice(world, server, ctx, { kind: 'advance', ms })` applies for the returned `ms` (the
 * same events, the same world), so the choice replays from schedule text. Returns null when nothing
 * is due within `msMax` after the ready clients ran; the world and server may then have changed
 * (the ready clients ran): restore them.
 */
export function applyAdvanceToNextDue(
  world: WorldState,
  server: SimRedisServer,
  ctx: RunContext,
  msMax: number = advanceMsMax,
  nodes: NodeServers | null = null,
): { readonly choice: Choice; readonly events: TraceEvent[] } | null {
  const run = new WorldRun(world, server, ctx, nodes);
  const ms = run.runToNextDue(Math.min(msMax, clockMsMax - world.nowMs));
  if (ms === null) return null;
  run.fireDue(null);
  world.stepIndex += 1;
  return { choice: { kind: 'advance', ms }, events: run.events };
}

/**
 * The next virtual time something is due after now (a wake-up, the end of a stall, a key's
 * expiry), or null. Where `+N` stops first when no client is ready now.
 */
export function nextDueMs(world: WorldState, server: SimRedisServer, ctx: RunContext, nodes: NodeServers | null = null): number | null {
  return new WorldRun(world, server, ctx, nodes).nextDueMs();
}

function validateChoice(world: WorldState, ctx: RunContext, choice: Choice, server: SimRedisServer): void {
  const refusal = refusalRefOf(world, ctx, choice, server);
  if (refusal !== null) throw ChoiceError.of(refusal, world.stepIndex);
}

/**
 * Why `choice` cannot apply to this world, or null when it can. The UI disables what is refused,
 * and random and exhaustive explorers only ever pick choices that fit.
 */
export function refusalOf(world: Readonly<WorldState>, ctx: RunContext, choice: Choice, server: SimRedisServer | null = null): string | null {
  const ref = refusalRefOf(world, ctx, choice, server);
  return ref === null ? null : traceRef(ref);
}

/** `refusalOf` as a catalog key and its parameters, for a reader in any language (and no string built). */
export function refusalRefOf(world: Readonly<WorldState>, ctx: RunContext, choice: Choice, server: SimRedisServer | null = null): MessageRef | null {
  if (choice.kind === 'console') return consoleRefusal(choice.argv, choice.nodeId, world, ctx, server);
  if (choice.kind === 'advance') {
    return world.nowMs + choice.ms > clockMsMax ? { key: 'refuseClockPass', params: { max: clockMsMax } } : null;
  }
  if (isNodeChoice(choice)) return nodeFaultRefusal(world, choice);
  const c = world.clients.find((x) => x.id === choice.clientId);
  if (!c) return { key: 'refuseNoClient', params: { client: choice.clientId } };
  const client = c.id;
  const processClients = world.clients.filter((x) => x.process === c.process);
  if (choice.kind === 'stall') {
    if (processClients.every((x) => x.status === 'crashed')) return { key: 'refuseStallCrashed', params: { client } };
    if (Math.max(world.nowMs, world.processes[c.process].stalledUntilMs) + choice.ms > clockMsMax) return { key: 'refuseStallPass', params: { max: clockMsMax } };
    return null;
  }
  if (choice.kind === 'crash') {
    return processClients.some(isLive) ? null : { key: c.status === 'done' ? 'refuseCrashFinished' : 'refuseCrashCrashed', params: { client } };
  }
  if (!isLive(c)) return { key: c.status === 'done' ? 'refuseStepFinished' : 'refuseStepCrashed', params: { client } };
  if (c.status === 'idle') {
    const startedBy = ctx.variant.clients.find((spec) => spec.id === c.id)?.startedBy;
    if (startedBy !== undefined) return { key: 'refuseNotStarted', params: { client, starter: startedBy } };
  }
  if (c.status === 'blocked' && c.blockReason === 'await') {
    return awaitWakers(world, c).length > 0 ? null : { key: 'refuseAwaitNoWaker', params: { client } };
  }
  if (c.status === 'blocked' && c.blockedUntilMs === null && !(c.blockReason === 'network' && world.cluster !== undefined && mayAnswer(world.cluster, c.id))) {
    return { key: 'refuseNeverReply', params: { client } };
  }
  return null;
}

/** The clients whose steps may wake `c` from an `await`: the other started, live clients of its process. */
function awaitWakers(world: Readonly<WorldState>, c: Readonly<ClientState>): ClientState[] {
  return world.clients.filter((x) => x !== c && x.process === c.process && isLive(x) && x.status !== 'idle');
}

function clientById(world: WorldState, id: string): ClientState {
  const c = world.clients.find((x) => x.id === id);
  if (!c) throw new Error(`no client ${id}`);
  return c;
}

/** One choice's worth of the world running: time, wake-ups, autonomous clients, faults. */
class WorldRun {
  private readonly emit: Emitter;
  private stepsRun = 0;
  /** Several Redis nodes at work (null: the single-node engine). */
  readonly cluster: ClusterRun | null;

  constructor(
    private readonly world: WorldState,
    private readonly server: SimRedisServer,
    private readonly ctx: RunContext,
    nodes: NodeServers | null = null,
  ) {
    this.emit = nodes === null ? emitter(world, server, ctx) : emitter(world, server, ctx, clusterLockSource(world, nodes), clusterNodeViews(world, nodes, ctx));
    this.cluster = nodes === null ? null : new ClusterRun({ world, nodes, ctx, emit: this.emit });
  }

  get events(): TraceEvent[] {
    return this.emit.events;
  }

  /** `+N`: the world runs until `targetMs`; everything due up to and including it happens. */
  runUntil(targetMs: number): void {
    this.settle();
    for (;;) {
      const next = this.nextDueMs();
      if (next === null || next > targetMs) break;
      this.moveClock(next, 'advance');
      this.settle();
    }
    this.moveClock(targetMs, 'advance');
  }

  /**
   * `+N` with N chosen to end at the next due time after the ready clients ran (runUntil of that
   * time does exactly this: its first due time is the target, after which nothing is due). Null
   * when nothing is due within `msMax`.
   */
  runToNextDue(msMax: number): number | null {
    const startMs = this.world.nowMs;
    this.settle();
    const next = this.nextDueMs();
    if (next === null || next - startMs > msMax) return null;
    this.moveClock(next, 'advance');
    this.settle();
    return next - startMs;
  }

  /**
   * `A`: client A takes one scheduling step. An idle client arrives; a blocked or stalled one is
   * first waited for: the world runs (without A) until A can run, and A goes first among equals.
   */
  stepChosen(c: ClientState): void {
    for (;;) {
      this.fireDue(c);
      if (c.status === 'blocked' && c.blockReason === 'await') {
        this.runUntilAwaitEnds(c);
        continue;
      }
      const wakeMs = this.wakeTimeOf(c);
      if (wakeMs === null) throw ChoiceError.of({ key: 'refuseNoWake', params: { client: c.id } }, this.world.stepIndex);
      if (wakeMs <= this.world.nowMs) break;
      this.settle(c);
      // Running the others can move A's wake-up (SCRIPT KILL ends the script A waits for).
      const ownMs = this.wakeTimeOf(c);
      const next = this.nextDueMs();
      const toMs = ownMs === null ? next : next === null ? ownMs : Math.min(ownMs, next);
      if (toMs === null) throw ChoiceError.of({ key: 'refuseNoWake', params: { client: c.id } }, this.world.stepIndex);
      this.moveClock(toMs, toMs === ownMs ? 'wait' : 'advance');
    }
    if (c.status === 'idle') this.startClient(c, null);
    if (c.status !== 'ready') throw new Error(`client ${c.id} should be ready after its wake-up (status ${c.status})`);
    this.runStep(c);
  }

  /**
   * `A` while A's code awaits another activity of its process: the world runs (A's activities
   * among it) until one of them steps and so wakes A. One round: the ready clients run, or the
   * clock moves to the next due time.
   */
  private runUntilAwaitEnds(c: ClientState): void {
    if (awaitWakers(this.world, c).length === 0) throw ChoiceError.of({ key: 'refuseAwaitNoWaker', params: { client: c.id } }, this.world.stepIndex);
    const stepsBefore = this.stepsRun;
    this.settle(c);
    if (c.status !== 'blocked' || this.stepsRun > stepsBefore) return;
    const next = this.nextDueMs();
    if (next === null) throw ChoiceError.of({ key: 'refuseNoWake', params: { client: c.id } }, this.world.stepIndex);
    this.moveClock(next, 'advance');
  }

  /**
   * `$CMD|arg`: the console's command runs now, on its own connection, before any client ready
   * at this instant (a person typing goes first, as a chosen client does). Messages it publishes
   * reach subscribed clients; a SCRIPT KILL it sends ends the killed script's wait. With several
   * nodes (`$@r1|CMD|arg`) it runs on the node it is aimed at (nodes/cluster.ts).
   */
  runConsole(argv: readonly string[], nodeId: string | undefined): void {
    if (nodeId !== undefined && this.cluster !== null) return this.cluster.runConsole(nodeId, argv);
    const before = this.emit.lockNow();
    const result = this.server.execute(argv, this.world.nowMs, CONSOLE_ID);
    this.emit.event(CONSOLE_ID, { kind: 'command', pc: -1, argv: argv.slice(), reply: result, releases: false }, before);
    deliverPushes(this.world, this.server, this.ctx, this.emit);
    wakeKilledScriptCaller({ world: this.world, server: this.server });
  }

  /** `A~N`: A's process freezes for N ms (stalls add up). Its wake-ups due meanwhile run late. */
  stallProcess(c: ClientState, ms: number): void {
    const process = this.world.processes[c.process];
    process.stalledUntilMs = Math.max(this.world.nowMs, process.stalledUntilMs) + ms;
    const clients = this.world.clients.filter((x) => x.process === c.process && isLive(x)).map((x) => x.id);
    this.emit.event(c.id, { kind: 'stall', process: c.process, clients, durationMs: ms, untilMs: process.stalledUntilMs });
  }

  /** `!A`: A's process dies with every client in it, holding whatever it held. */
  crashProcess(c: ClientState): void {
    for (const x of this.world.clients) {
      if (x.process !== c.process || !isLive(x)) continue;
      const pc = x.status === 'idle' ? null : x.pc;
      x.status = 'crashed';
      x.inCriticalSection = false;
      x.believesHoldsLock = false;
      x.blockReason = null;
      x.blockedUntilMs = null;
      x.awaitingScript = null;
      x.awaitingMessage = null;
      delete x.awaitingPop;
      x.inbox = [];
      // Its connections close: Redis discards their transactions and WATCHes and ends their subscriptions.
      for (const id of connectionsOf(this.ctx, x.id)) this.server.disconnect(id);
      this.emit.event(x.id, { kind: 'crash', pc });
    }
  }

  /**
   * Fires every wake-up due at the current instant, in due order (then the order the waits
   * began), `first` ahead of the others. Woken clients become ready; they run in `settle`.
   */
  fireDue(first: ClientState | null): void {
    const now = this.world.nowMs;
    const due = this.world.clients.filter((c) => {
      const wake = this.wakeTimeOf(c);
      return c.status !== 'idle' && c.status !== 'ready' && wake !== null && wake <= now;
    });
    due.sort((a, b) => (a === first ? -1 : b === first ? 1 : (this.wakeTimeOf(a) as number) - (this.wakeTimeOf(b) as number) || a.order - b.order));
    for (const c of due) this.wake(c);
    // Ready clients frozen by a stall that has ended resume now: late by the stall.
    for (const [name, process] of Object.entries(this.world.processes)) {
      if (process.stalledUntilMs === 0 || process.stalledUntilMs > now) continue;
      process.stalledUntilMs = 0;
      for (const c of this.world.clients) {
        if (c.process !== name || c.status !== 'ready' || c.readySinceMs >= now) continue;
        this.emit.event(c.id, { kind: 'wake', reason: 'stall', dueMs: c.readySinceMs, lateMs: now - c.readySinceMs, lateCause: 'stall' });
      }
    }
  }

  /**
   * Runs every ready client of an unstalled process at the current instant, first come first run
   * (except `reserved`: the client the schedule chose, which waits for its own turn).
   */
  private settle(reserved: ClientState | null = null): void {
    for (;;) {
      this.fireDue(null);
      const c = this.nextRunnable(reserved);
      if (c === null) return;
      this.runStep(c);
    }
  }

  private runStep(c: ClientState): void {
    this.stepsRun += 1;
    if (this.stepsRun > choiceStepCountMax) {
      throw ChoiceError.of({ key: 'refuseChoiceSteps', params: { max: choiceStepCountMax, atMs: this.world.nowMs } }, this.world.stepIndex);
    }
    try {
      runClientStep(c, {
        world: this.world,
        server: this.server,
        ctx: this.ctx,
        emit: this.emit,
        block: (x, reason, ms, pc) => this.block(x, reason, ms, pc),
        start: (helper, by, delayMs) => {
          this.startClient(helper, by);
          // A timer's wait begins at the start, as an activity's does (spawnActivity).
          if (delayMs !== undefined && delayMs > 0) this.block(helper, 'sleep', delayMs, null);
        },
        spawn: (creator, id, delayMs) => this.spawnActivity(creator, id, delayMs),
        cancel: (target, by) => this.cancelActivity(target, by),
        cluster: this.cluster,
      });
    } catch (error) {
      // The program cannot go on: the step is refused (Simulation restores the world), the run keeps what it had.
      if (error instanceof ProgramError) throw ChoiceError.of({ key: 'refuseProgram', params: { client: c.id, problem: error.message } }, this.world.stepIndex);
      throw error;
    }
    // Still ready (its next Redis command is pending): it goes to the back of the line.
    if (c.status === 'ready') c.order = this.world.nextOrder++;
    this.wakeAwaiting(c);
  }

  /**
   * Code of `c`'s process ran: clients of the process whose code awaited a promise (an `await`
   * step) may go on, so they wake; the host asks their code again (a new `await` if it cannot go on).
   */
  private wakeAwaiting(c: ClientState): void {
    for (const x of this.world.clients) {
      if (x === c || x.process !== c.process || x.status !== 'blocked' || x.blockReason !== 'await') continue;
      x.blockedUntilMs = this.world.nowMs;
      this.wake(x);
    }
  }

  private nextRunnable(reserved: ClientState | null): ClientState | null {
    let best: ClientState | null = null;
    for (const c of this.world.clients) {
      if (c === reserved || c.status !== 'ready' || this.world.processes[c.process].stalledUntilMs > this.world.nowMs) continue;
      if (best === null || c.order < best.order) best = c;
    }
    return best;
  }

  /** When `c` can next run: now if it can run now, null if nothing will wake it (or it never runs again). */
  private wakeTimeOf(c: ClientState): number | null {
    const stalledUntil = this.world.processes[c.process].stalledUntilMs;
    switch (c.status) {
      case 'idle':
      case 'ready':
        return Math.max(this.world.nowMs, stalledUntil);
      case 'blocked':
        if (c.blockedUntilMs === null) return this.networkWakeMs(c);
        return Math.max(c.blockedUntilMs, stalledUntil);
      default:
        return null;
    }
  }

  /**
   * A client waiting with no timeout for a reply still on its way: it may wake at the nodes' next
   * due time (then it is asked again). Null when nothing on its way can answer it (a hang).
   */
  private networkWakeMs(c: ClientState): number | null {
    if (this.cluster === null || c.blockReason !== 'network' || !mayAnswer(this.cluster.state, c.id)) return null;
    return this.cluster.nextDueMs(clockMsMax);
  }

  /** The next virtual time something is due: a wake-up, the end of a stall, or a key's expiry. */
  nextDueMs(): number | null {
    const now = this.world.nowMs;
    let next: number | null = null;
    const consider = (t: number | null) => {
      if (t !== null && t > now && (next === null || t < next)) next = t;
    };
    for (const c of this.world.clients) {
      if (c.status === 'idle') continue;
      consider(this.wakeTimeOf(c));
    }
    for (const process of Object.values(this.world.processes)) if (process.stalledUntilMs > now) consider(process.stalledUntilMs);
    if (this.cluster !== null) {
      consider(this.cluster.nextDueMs(clockMsMax));
      return next;
    }
    const expiry = this.server.keyspace.nextExpiryAtMs();
    // A key with expiry time `when` exists while now <= when: it is gone at when + 1.
    if (expiry !== null) consider(expiry + 1);
    return next;
  }

  /** Moves the clock forward to `toMs`, then drops every key whose expiry time has passed. */
  private moveClock(toMs: number, reason: 'advance' | 'wait'): void {
    const fromMs = this.world.nowMs;
    if (toMs <= fromMs) return;
    const before = this.emit.lockNow();
    this.world.nowMs = toMs;
    this.emit.event(null, { kind: 'clock', fromMs, toMs, reason }, before);
    if (this.cluster !== null) {
      this.cluster.fireDue();
      return;
    }
    for (const key of this.server.keyspace.expiredKeys(toMs)) {
      const lockBefore = this.emit.lockNow();
      this.server.keyspace.delete(key);
      this.emit.event(null, { kind: 'expire', key }, lockBefore);
    }
  }

  private wake(c: ClientState): void {
    const now = this.world.nowMs;
    const dueMs = c.blockedUntilMs as number;
    const reason = c.blockReason as BlockReason;
    const lateMs = now - dueMs;
    c.status = 'ready';
    c.blockReason = null;
    c.blockedUntilMs = null;
    c.readySinceMs = now;
    c.order = this.world.nextOrder++;
    if (reason === 'message') return this.endMessageWait(c, dueMs, lateMs);
    this.emit.event(c.id, { kind: 'wake', reason, dueMs, lateMs, lateCause: lateMs > 0 ? 'stall' : null });
    if (reason === 'pop') this.deliverPopReply(c);
    if (reason === 'reply') this.deliverScriptReply(c);
    if (reason === 'network') (this.cluster as ClusterRun).takeReply(c);
  }

  /** A `waitMessage` ends: with the oldest message it accepts (saved as its payload), or at its timeout (nil). */
  private endMessageWait(c: ClientState, dueMs: number, lateMs: number): void {
    const waiting = c.awaitingMessage;
    if (waiting === null) throw new Error(`client ${c.id} woke from a message wait it was not in`);
    c.awaitingMessage = null;
    const message = takeMessage(c, waiting.channel);
    this.emit.event(c.id, { kind: 'wake', reason: message === null ? 'timeout' : 'message', dueMs, lateMs, lateCause: lateMs > 0 ? 'stall' : null });
    saveReply(c, waiting.saveAs, message === null ? reply.nil() : reply.bulk(message.payload));
  }

  /** A blocking pop ends: with the element a push served it, or at its timeout with nil. */
  private deliverPopReply(c: ClientState): void {
    const waiting = c.awaitingPop as NonNullable<ClientState['awaitingPop']>;
    delete c.awaitingPop;
    const result = waiting.reply ?? this.server.unblock(waiting.connection);
    saveReply(c, waiting.saveAs, result);
    if (this.ctx.hosted.has(c.id)) this.ctx.host?.reply(c.id, waiting.pc, result, this.world.nowMs);
    this.emit.event(c.id, { kind: 'reply', pc: waiting.pc, var: waiting.saveAs, reply: result });
  }

  /** A slow script's caller gets its reply when the script ends (or is killed). */
  private deliverScriptReply(c: ClientState): void {
    const waiting = c.awaitingScript;
    c.awaitingScript = null;
    const script = this.server.scriptBusy.last();
    if (waiting === null || script === null || script.startMs !== waiting.startMs) {
      throw new Error(`client ${c.id} woke for a script reply the server no longer has`);
    }
    const name = waiting.saveAs;
    saveReply(c, name, script.reply);
    if (isHosted(this.ctx, c)) this.ctx.host?.reply(c.id, waiting.pc, script.reply, this.world.nowMs);
    this.emit.event(c.id, { kind: 'reply', pc: waiting.pc, var: name, reply: script.reply });
  }

  private block(c: ClientState, reason: BlockReason, durationMs: number | null, pc: number | null): void {
    c.status = 'blocked';
    c.blockReason = reason;
    c.blockedUntilMs = durationMs === null ? null : this.world.nowMs + durationMs;
    c.order = this.world.nextOrder++;
    this.emit.event(c.id, { kind: 'block', pc, reason, durationMs, untilMs: c.blockedUntilMs });
  }

  /**
   * A hosted client's code created an activity (a timer, a run of an interval, a setImmediate):
   * a client of the creator's process whose program (the host's log) starts with a sleep of
   * `delayMs`, from now, so the clock fires it at its due time (late only if the process stalls).
   */
  private spawnActivity(creator: ClientState, id: string, delayMs: number): void {
    if (this.world.clients.some((x) => x.id === id)) throw new Error(`activity ${id} is created twice`);
    const now = this.world.nowMs;
    const c: ClientState = {
      // Step 0 of its program is the sleep of its delay: it is taken here (pc 1).
      ...newClientState({ id, process: creator.process, pc: 1, status: 'ready', order: this.world.nextOrder++, readySinceMs: now, vars: { token: creator.vars.token ?? '', clientId: id } }),
      spawnedBy: creator.id,
    };
    this.world.clients.push(c);
    this.emit.event(id, { kind: 'start', by: creator.id });
    if (delayMs > 0) this.block(c, 'sleep', delayMs, 0);
  }

  /** A timer cleared before its callback ran: its activity ends with no actions. */
  private cancelActivity(target: ClientState, by: ClientState): void {
    if (target.spawnedBy === undefined) throw new Error(`client ${by.id} cancels ${target.id}, which is not an activity`);
    if (!isLive(target)) return;
    target.status = 'done';
    target.blockReason = null;
    target.blockedUntilMs = null;
    this.emit.event(target.id, { kind: 'end', pc: null });
  }

  private startClient(c: ClientState, by: string | null): void {
    if (c.status !== 'idle') throw new Error(`client ${c.id} is started twice (status ${c.status})`);
    c.status = 'ready';
    c.readySinceMs = this.world.nowMs;
    c.order = this.world.nextOrder++;
    this.emit.event(c.id, { kind: 'start', by });
  }
}
