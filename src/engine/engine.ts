import { CHECKERS } from './checkers';
import { resourcesOf } from './scenario';
import { addInteger, evaluateCondition, isRedisStep, resolveTemplate, type Step } from './program';
import { replyText, type Reply } from './redis/reply';
import type { SimRedisServer } from './redis/server';
import { sha1Hex } from './redis/lua/sha1';
import { nextBelow } from './rng';
import type { Choice } from './schedule';
import type { LockView, TraceEvent } from './trace';
import { isLive, type ClientState, type RunContext, type WorldState } from './world';

/** Bound on program steps one scheduling step may run without reaching a Redis command or a wait. */
export const localStepCountMax = 1_000;

/** A schedule choice that cannot apply to the current world (replay does not fit). */
export class ChoiceError extends Error {
  override name = 'ChoiceError';
  constructor(
    message: string,
    readonly stepIndex: number,
  ) {
    super(`step ${stepIndex + 1}: ${message}`);
  }
}

type EventBody = DistributiveOmit<TraceEvent, 'seq' | 'step' | 'atMs' | 'lockBefore' | 'lockAfter' | 'clientId'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Applies one schedule choice: mutates `world` and `server` and returns the events it produced.
 * Deterministic: the same world, server state and choice always give the same events.
 * Throws ChoiceError (leaving world and server untouched) when the choice does not fit.
 */
export function applyChoice(world: WorldState, server: SimRedisServer, ctx: RunContext, choice: Choice): TraceEvent[] {
  validateChoice(world, choice);
  const run = new StepRun(world, server, ctx);
  switch (choice.kind) {
    case 'advance':
      run.advanceClock(world.nowMs + choice.ms, 'advance', null);
      break;
    case 'crash':
      run.crash(client(world, choice.clientId), null);
      break;
    case 'stall': {
      const c = client(world, choice.clientId);
      const fromMs = Math.max(world.nowMs, c.status === 'blocked' ? c.blockedUntilMs : world.nowMs);
      c.status = 'blocked';
      c.blockedUntilMs = fromMs + choice.ms;
      c.blockReason = 'stall';
      run.emit(c.id, { kind: 'block', pc: null, reason: 'stall', durationMs: choice.ms, untilMs: c.blockedUntilMs });
      break;
    }
    case 'step':
      run.stepClient(client(world, choice.clientId));
      break;
  }
  world.stepIndex += 1;
  return run.events;
}

function validateChoice(world: WorldState, choice: Choice): void {
  if (choice.kind === 'advance') return;
  const c = world.clients.find((x) => x.id === choice.clientId);
  if (!c) throw new ChoiceError(`there is no client "${choice.clientId}"`, world.stepIndex);
  if (!isLive(c)) {
    const what = choice.kind === 'step' ? 'step' : choice.kind;
    throw new ChoiceError(`cannot ${what} ${c.id}: it has ${c.status === 'done' ? 'finished' : 'crashed'}`, world.stepIndex);
  }
}

function client(world: WorldState, id: string): ClientState {
  const c = world.clients.find((x) => x.id === id);
  if (!c) throw new Error(`no client ${id}`);
  return c;
}

/** The lock key as the checkers see it: value (hashes as field=value pairs), PTTL, tracked holder. */
export function readLock(server: SimRedisServer, ctx: RunContext, nowMs: number, holder: string | null): LockView {
  server.keyspace.expireDue(nowMs);
  const entry = server.keyspace.entry(ctx.scenario.lockKey);
  if (entry === null) return { value: null, pttlMs: -2, holder: null };
  const value =
    entry.type === 'string'
      ? entry.value
      : entry.type === 'hash'
        ? `{${entry.value.map(([f, v]) => `${f}=${v}`).join(', ')}}`
        : JSON.stringify(entry.value);
  return { value, pttlMs: server.keyspace.pttl(ctx.scenario.lockKey, nowMs), holder };
}

/** One choice's worth of execution: collects events and runs the checkers after each. */
class StepRun {
  readonly events: TraceEvent[] = [];

  constructor(
    private readonly world: WorldState,
    private readonly server: SimRedisServer,
    private readonly ctx: RunContext,
  ) {}

  private lockNow(): LockView {
    return readLock(this.server, this.ctx, this.world.nowMs, this.world.lock.holder);
  }

  /** Records an event whose effects already happened, given the lock as it was before them. */
  emit(clientId: string | null, body: EventBody, lockBefore: LockView = this.lockNow()): TraceEvent {
    const lockAfter = this.trackLock(clientId, body, lockBefore);
    const event = {
      seq: this.world.nextSeq++,
      step: this.world.stepIndex,
      atMs: this.world.nowMs,
      clientId,
      lockBefore,
      lockAfter,
      ...body,
    } as TraceEvent;
    this.events.push(event);
    this.check(event);
    return event;
  }

  /** Updates who holds the lock after an event, and returns the lock as it is now. */
  private trackLock(clientId: string | null, body: EventBody, before: LockView): LockView {
    const lock = this.world.lock;
    const now = readLock(this.server, this.ctx, this.world.nowMs, lock.holder);
    if (now.value === null) {
      lock.holder = null;
      lock.acquiredAtMs = null;
    } else if (body.kind === 'command' && clientId !== null && now.value !== before.value) {
      if (lock.holder !== clientId) {
        lock.holder = clientId;
        lock.generation += 1;
        lock.acquiredAtMs = this.world.nowMs;
        const writer = this.world.clients.find((c) => c.id === clientId);
        if (writer) writer.leaseGeneration = lock.generation;
      }
    }
    lock.value = now.value;
    return { ...now, holder: lock.holder };
  }

  private check(event: TraceEvent): void {
    if (event.kind === 'violation') return;
    const counterValue = (key: string) => {
      const entry = this.server.keyspace.entry(key);
      return entry && entry.type === 'string' ? entry.value : null;
    };
    for (const checker of CHECKERS) {
      for (const finding of checker(event, this.world, this.ctx, counterValue)) {
        const lock = event.lockAfter;
        this.events.push({
          seq: this.world.nextSeq++,
          step: this.world.stepIndex,
          atMs: this.world.nowMs,
          clientId: finding.clients[0] ?? null,
          lockBefore: lock,
          lockAfter: lock,
          kind: 'violation',
          violation: finding.kind,
          causeSeq: event.seq,
          message: finding.message,
          clients: finding.clients,
        });
      }
    }
  }

  advanceClock(toMs: number, reason: 'advance' | 'wait', clientId: string | null): void {
    const fromMs = this.world.nowMs;
    if (toMs <= fromMs) return;
    const before = this.lockNow();
    this.world.nowMs = toMs;
    this.emit(clientId, { kind: 'clock', fromMs, toMs, reason }, before);
  }

  crash(c: ClientState, pc: number | null): void {
    c.status = 'crashed';
    c.inCriticalSection = false;
    c.believesHoldsLock = false;
    c.blockReason = null;
    this.emit(c.id, { kind: 'crash', pc });
    // A process crash takes every client of that process with it (ClientSpec.process).
    for (const other of this.sameProcess(c)) this.crash(other, null);
  }

  /** The other live clients that run in c's process. */
  private sameProcess(c: ClientState): ClientState[] {
    const processOf = (id: string) => this.ctx.variant.clients.find((spec) => spec.id === id)?.process ?? id;
    const process = processOf(c.id);
    return this.world.clients.filter((other) => other.id !== c.id && isLive(other) && processOf(other.id) === process);
  }

  /**
   * One scheduling step of a client: wake it if it is blocked (the clock moves to its wake-up
   * time), then run program steps until it has run one Redis command and reached the next one,
   * or it starts waiting (work, pause, retry), crashes or ends. Local steps (branches,
   * assignments, entering and leaving the critical section, writes, marks) run as they come.
   */
  stepClient(c: ClientState): void {
    if (c.status === 'blocked') {
      const script = c.awaitingScript === null ? null : this.server.scriptBusy.last();
      // A slow script killed by SCRIPT KILL ends early: its caller wakes then, with the kill error.
      if (script && c.awaitingScript && script.startMs === c.awaitingScript.startMs && script.killedAtMs !== null) {
        c.blockedUntilMs = Math.min(c.blockedUntilMs, script.killedAtMs);
      }
      this.advanceClock(c.blockedUntilMs, 'wait', c.id);
      c.status = 'ready';
      c.blockReason = null;
      if (script && c.awaitingScript && script.startMs === c.awaitingScript.startMs) {
        // The reply is delivered now: the script's result, or the error SCRIPT KILL left for it.
        const name = c.awaitingScript.saveAs ?? 'reply';
        this.saveReply(c, name, script.reply);
        this.emit(c.id, { kind: 'set', pc: c.pc - 1, var: name, value: replyText(script.reply) ?? '' });
      }
      c.awaitingScript = null;
    }
    const program = this.ctx.programs[c.id];
    let redisCommandsRun = 0;
    for (let localSteps = 0; ; localSteps++) {
      if (localSteps > localStepCountMax) {
        throw new Error(`client ${c.id} ran ${localStepCountMax} steps without a Redis command or a wait: its program loops`);
      }
      if (c.pc >= program.length) {
        this.end(c, null);
        return;
      }
      const step = program[c.pc];
      if (isRedisStep(step)) {
        if (redisCommandsRun === 1) return;
        redisCommandsRun += 1;
      }
      const stop = this.execute(c, step);
      if (stop) return;
    }
  }

  private end(c: ClientState, pc: number | null): void {
    c.status = 'done';
    c.believesHoldsLock = false;
    c.inCriticalSection = false;
    this.emit(c.id, { kind: 'end', pc });
  }

  private jump(c: ClientState, label: string): void {
    c.pc = this.ctx.labels[c.id][label];
  }

  private resolve(c: ClientState, text: string): string {
    return resolveTemplate(text, c.vars, this.ctx.params);
  }

  private block(c: ClientState, pc: number, reason: 'work' | 'gc' | 'network' | 'retry', durationMs: number): void {
    c.status = 'blocked';
    c.blockReason = reason;
    c.blockedUntilMs = this.world.nowMs + durationMs;
    this.emit(c.id, { kind: 'block', pc, reason, durationMs, untilMs: c.blockedUntilMs });
    if (reason !== 'gc') return;
    // A GC pause stops the world of its process: every other client of it (ClientSpec.process)
    // wakes no earlier than the pause ends. (A timer that fired during the pause runs late.)
    for (const other of this.sameProcess(c)) {
      if (other.status === 'blocked' && other.blockedUntilMs >= c.blockedUntilMs) continue;
      other.status = 'blocked';
      other.blockReason = 'gc';
      other.blockedUntilMs = c.blockedUntilMs;
      this.emit(other.id, { kind: 'block', pc: null, reason: 'gc', durationMs: c.blockedUntilMs - this.world.nowMs, untilMs: c.blockedUntilMs });
    }
  }

  /** Runs one program step. Returns true when the scheduling step ends here. */
  private execute(c: ClientState, step: Step): boolean {
    const pc = c.pc;
    switch (step.op) {
      case 'command':
      case 'eval': {
        const argv = step.op === 'command' ? step.argv.map((a) => this.resolve(c, a)) : this.evalArgv(c, step);
        const before = this.lockNow();
        const result = this.server.execute(argv, this.world.nowMs);
        c.pc += 1;
        this.saveReply(c, step.saveAs, result);
        if (step.releases) c.believesHoldsLock = false;
        this.emit(c.id, { kind: 'command', pc, argv, reply: result, releases: step.releases === true }, before);
        // A script that occupies the server on the virtual clock (redis/lua/busy.ts): its caller
        // waits for the reply until the script ends (or is killed, see stepClient).
        const slow = this.server.scriptBusy.running(this.world.nowMs);
        if (slow !== null && slow.startMs === this.world.nowMs && step.op === 'eval') {
          c.awaitingScript = { startMs: slow.startMs, saveAs: step.saveAs ?? null };
          this.block(c, pc, 'work', slow.endMs - this.world.nowMs);
          return true;
        }
        return false;
      }
      case 'if': {
        const taken = evaluateCondition(step.when, c.vars, c.replyTypes, this.ctx.params);
        if (taken) this.jump(c, step.goto);
        else c.pc += 1;
        this.emit(c.id, { kind: 'branch', pc, taken, goto: step.goto });
        return false;
      }
      case 'goto':
        this.jump(c, step.goto);
        return false;
      case 'set': {
        const base = this.resolve(c, step.value);
        const value = step.add === undefined ? base : addInteger(base, step.add);
        c.vars[step.var] = value;
        c.pc += 1;
        this.emit(c.id, { kind: 'set', pc, var: step.var, value });
        return false;
      }
      case 'work':
        c.pc += 1;
        this.block(c, pc, 'work', step.durationMs);
        return true;
      case 'pause':
        c.pc += 1;
        this.block(c, pc, step.reason, step.durationMs);
        return true;
      case 'crash':
        this.crash(c, pc);
        return true;
      case 'retry': {
        const used = c.attempts[pc] ?? 0;
        if (used >= step.attemptCountMax) {
          c.pc += 1;
          this.emit(c.id, { kind: 'give-up', pc, attempts: used });
          return false;
        }
        c.attempts[pc] = used + 1;
        let waitMs = Math.round(step.afterMs * (step.backoffFactor ?? 1) ** used);
        if (step.jitterMs && step.jitterMs > 0) {
          const [jitter, next] = nextBelow(this.world.rng, step.jitterMs + 1);
          this.world.rng = next;
          waitMs += jitter;
        }
        this.jump(c, step.goto);
        this.block(c, pc, 'retry', waitMs);
        return true;
      }
      case 'enter':
        c.inCriticalSection = true;
        c.believesHoldsLock = true;
        c.pc += 1;
        this.emit(c.id, { kind: 'enter', pc });
        return false;
      case 'leave':
        c.inCriticalSection = false;
        c.pc += 1;
        this.emit(c.id, { kind: 'leave', pc });
        return false;
      case 'write':
        this.write(c, pc, step.resource, this.resolve(c, step.value), step.fencingToken ? this.resolve(c, step.fencingToken) : null);
        c.pc += 1;
        return false;
      case 'mark': {
        const counter = this.world.counters[step.counter];
        if (!counter) throw new Error(`client ${c.id} marks unknown counter "${step.counter}"`);
        counter.sold += 1;
        c.pc += 1;
        this.emit(c.id, { kind: 'mark', pc, counter: step.counter, count: counter.sold });
        return false;
      }
      case 'end':
        c.pc += 1;
        this.end(c, pc);
        return true;
    }
  }

  private evalArgv(c: ClientState, step: Extract<Step, { op: 'eval' }>): string[] {
    const script = this.ctx.scripts[step.script];
    if (!script) throw new Error(`client ${c.id} evaluates unknown script "${step.script}"`);
    const keys = step.keys.map((k) => this.resolve(c, k));
    const args = step.args.map((a) => this.resolve(c, a));
    const head = step.bySha ? ['EVALSHA', sha1Hex(script.source)] : ['EVAL', script.source];
    return [...head, String(keys.length), ...keys, ...args];
  }

  private saveReply(c: ClientState, name: string | undefined, result: Reply): void {
    c.lastReply = result;
    if (name === undefined) return;
    c.vars[name] = replyText(result);
    c.replyTypes[name] = result.type;
  }

  private write(c: ClientState, pc: number, resourceId: string, value: string, fencingToken: string | null): void {
    const resource = this.world.resources[resourceId];
    const spec = resourcesOf(this.ctx.scenario, this.ctx.variant).find((r) => r.id === resourceId);
    if (!resource || !spec) throw new Error(`client ${c.id} writes to unknown resource "${resourceId}"`);
    let accepted = true;
    if (spec.fencing) {
      const token = fencingToken === null || fencingToken === '' ? null : BigInt(fencingToken);
      const max = resource.maxFencingToken === null ? null : BigInt(resource.maxFencingToken);
      accepted = token !== null && (max === null || token >= max);
      if (accepted && token !== null) resource.maxFencingToken = token.toString();
    }
    if (accepted) {
      resource.value = value;
      resource.writeCount += 1;
    }
    this.emit(c.id, { kind: 'write', pc, resource: resourceId, value, fencingToken, accepted });
  }
}
