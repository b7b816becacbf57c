import { ProgramError } from './choice-error';
import type { Emitter } from './emit';
import { HostPending } from './host';
import { addInteger, evaluateCondition, isRedisStep, resolveTemplate, type Step } from './program';
import { reply as replies, type Reply } from './redis/reply';
import type { SimRedisServer } from './redis/server';
import { sha1Hex } from './redis/lua/sha1';
import { connectionId, deliverPushes } from './messages';
import { nextBelow } from './rng';
import type { ClusterRun } from './nodes/cluster';
import { localTimeMs } from './nodes/clock';
import { resourcesOf } from './scenario';
import { activityOwner } from './activity';
import { isHosted, programOf, saveReply, type BlockReason, type ClientState, type RunContext, type WorldState } from './world';

/** Bound on program steps one scheduling step may run without reaching a Redis command or a wait. */
export const localStepCountMax = 1_000;

/** What the step rule may touch: the world, the server, the event stream, and the world's timers. */
export interface StepEnv {
  readonly world: WorldState;
  readonly server: SimRedisServer;
  readonly ctx: RunContext;
  readonly emit: Emitter;
  /** Blocks a client for `durationMs` (null: until something else ends the wait). */
  block(c: ClientState, reason: BlockReason, durationMs: number | null, pc: number | null): void;
  /** Starts an idle helper client (a `start` step), waiting `delayMs` before its first step when given. */
  start(helper: ClientState, by: string, delayMs?: number): void;
  /** A hosted client's code created activity `id` of its process, due in `delayMs` (a `spawn` step). */
  spawn(creator: ClientState, id: string, delayMs: number): void;
  /** Ends activity `target` before its callback ran (a `cancel` step). */
  cancel(target: ClientState, by: ClientState): void;
  /** Several Redis nodes: commands travel to them (null: the single-node engine). */
  readonly cluster?: ClusterRun | null;
}

/**
 * One scheduling step of a ready client (the step rule, docs/SCHEDULES.md): it runs program
 * steps until it has sent one Redis command and reached the next one, or until it starts
 * waiting (work, sleep, retry, a hang, a slow script's reply, Redis busy with another script) or
 * ends. Local steps (branches, assignments, entering and leaving the critical section, writes to
 * a protected resource, marks, starting a helper) run as they come.
 */
export function runClientStep(c: ClientState, env: StepEnv): void {
  const program = programOf(env.ctx, c);
  let redisCommandsRun = 0;
  for (let localSteps = 0; ; localSteps++) {
    if (localSteps > localStepCountMax) {
      throw new Error(`client ${c.id} ran ${localStepCountMax} steps without a Redis command or a wait: its program loops`);
    }
    if (c.pc >= program.length) {
      // A hosted client's code has not written its next action yet: the host runs it, then the choice again.
      if (isHosted(env.ctx, c)) throw new HostPending(c.id, c.pc, env.world.nowMs);
      end(c, null, env);
      return;
    }
    const step = program[c.pc];
    if (isRedisStep(step)) {
      if (redisCommandsRun === 1) return;
      redisCommandsRun += 1;
    }
    if (execute(c, step, env)) return;
  }
}

/** `${name}` templates of a program; a hosted client's steps are literal values. */
function templateResolver(c: ClientState, env: StepEnv): (text: string) => string {
  if (isHosted(env.ctx, c)) return (text) => text;
  return (text) => resolveTemplate(text, c.vars, env.ctx.params);
}

export { saveReply };

function end(c: ClientState, pc: number | null, env: StepEnv): void {
  c.status = 'done';
  c.believesHoldsLock = false;
  c.inCriticalSection = false;
  env.emit.event(c.id, { kind: 'end', pc });
}

/** Runs one program step. Returns true when the scheduling step ends here. */
function execute(c: ClientState, step: Step, env: StepEnv): boolean {
  const { world, ctx, emit } = env;
  const pc = c.pc;
  const resolve = templateResolver(c, env);
  const jump = (label: string) => {
    c.pc = ctx.labels[c.id][label];
  };
  switch (step.op) {
    case 'command':
    case 'eval':
      return runRedisStep(c, step, env);
    case 'transaction':
      return runTransaction(c, step, env);
    case 'waitMessage': {
      const timeoutText = resolve(String(step.timeoutMs));
      if (!/^(0|[1-9][0-9]*)$/.test(timeoutText)) {
        throw new Error(`client ${c.id}: waitMessage timeout "${timeoutText}" is not a whole number of ms`);
      }
      const channel = step.channel === undefined ? null : resolve(step.channel);
      c.pc += 1;
      c.awaitingMessage = { channel, saveAs: step.saveAs ?? null, pc };
      // At least the clock's 1 ms: commands take no virtual time, so a 0 ms wait in a loop would spin at one instant.
      env.block(c, 'message', Math.max(1, Number(timeoutText)), pc);
      // A message already in the connection's buffer ends the wait at once.
      if (c.inbox.some((m) => channel === null || m.channel === channel)) c.blockedUntilMs = world.nowMs;
      return true;
    }
    case 'if': {
      const taken = evaluateCondition(step.when, c.vars, c.replyTypes, ctx.params);
      if (taken) jump(step.goto);
      else c.pc += 1;
      emit.event(c.id, { kind: 'branch', pc, taken, goto: step.goto });
      return false;
    }
    case 'goto':
      jump(step.goto);
      return false;
    case 'set': {
      let base = resolve(step.value);
      for (const term of step.subtract ?? []) base = subtractInteger(base, resolve(term));
      let value = step.add === undefined ? base : addInteger(base, step.add);
      if (step.jitterMax !== undefined && step.jitterMax > 0) {
        const [jitter, next] = nextBelow(world.rng, step.jitterMax + 1);
        world.rng = next;
        value = addInteger(value, jitter);
      }
      c.vars[step.var] = value;
      c.pc += 1;
      emit.event(c.id, { kind: 'set', pc, var: step.var, value });
      return false;
    }
    case 'clock': {
      // An activity reads the clock of the client that owns its process.
      const clock = world.cluster?.clientClocks[activityOwner(c.id)];
      const value = String(clock === undefined ? world.nowMs : localTimeMs(clock, world.nowMs));
      c.vars[step.saveAs] = value;
      c.pc += 1;
      emit.event(c.id, { kind: 'set', pc, var: step.saveAs, value });
      return false;
    }
    case 'work': {
      let durationMs = step.durationMs;
      if (step.samplesMs && step.samplesMs.length > 0) {
        const [index, next] = nextBelow(world.rng, step.samplesMs.length);
        world.rng = next;
        durationMs = step.samplesMs[index];
      }
      c.pc += 1;
      env.block(c, 'work', durationMs, pc);
      return true;
    }
    case 'sleep':
      c.pc += 1;
      env.block(c, 'sleep', step.durationMs, pc);
      return true;
    case 'hang':
      c.pc += 1;
      env.block(c, 'hang', null, pc);
      return true;
    case 'start': {
      const helper = world.clients.find((x) => x.id === step.client);
      if (!helper) throw new Error(`client ${c.id} starts unknown client "${step.client}"`);
      c.pc += 1;
      env.start(helper, c.id, step.delayMs);
      return false;
    }
    case 'retry': {
      const used = c.attempts[pc] ?? 0;
      let waitMs = Math.round(step.afterMs * (step.backoffFactor ?? 1) ** used);
      if (used < step.attemptCountMax && step.jitterMs && step.jitterMs > 0) {
        const [jitter, next] = nextBelow(world.rng, step.jitterMs + 1);
        world.rng = next;
        waitMs += jitter;
      }
      const sinceMs = c.retrySinceMs[pc] ?? world.nowMs;
      const pastDeadline = step.deadlineMs !== undefined && world.nowMs + waitMs - sinceMs > step.deadlineMs;
      if (used >= step.attemptCountMax || pastDeadline) {
        c.pc += 1;
        emit.event(c.id, { kind: 'give-up', pc, attempts: used, reason: used >= step.attemptCountMax ? 'attempts' : 'deadline' });
        return false;
      }
      c.attempts[pc] = used + 1;
      c.retrySinceMs[pc] = sinceMs;
      jump(step.goto);
      env.block(c, 'retry', waitMs, pc);
      return true;
    }
    case 'enter':
      c.inCriticalSection = true;
      c.believesHoldsLock = true;
      c.pc += 1;
      emit.event(c.id, { kind: 'enter', pc });
      return false;
    case 'leave':
      c.inCriticalSection = false;
      c.pc += 1;
      emit.event(c.id, { kind: 'leave', pc });
      return false;
    case 'write':
      write(c, pc, step.resource, resolve(step.value), step.fencingToken ? resolve(step.fencingToken) : null, env);
      c.pc += 1;
      return false;
    case 'mark': {
      const counter = world.counters[step.counter];
      if (!counter) throw new Error(`client ${c.id} marks unknown counter "${step.counter}"`);
      counter.sold += 1;
      c.pc += 1;
      emit.event(c.id, { kind: 'mark', pc, counter: step.counter, count: counter.sold });
      return false;
    }
    case 'end':
      c.pc += 1;
      end(c, pc, env);
      return true;
    case 'spawn':
      c.pc += 1;
      env.spawn(c, step.client, step.delayMs);
      return false;
    case 'cancel': {
      const target = world.clients.find((x) => x.id === step.client);
      if (!target) throw new Error(`client ${c.id} cancels unknown activity "${step.client}"`);
      c.pc += 1;
      env.cancel(target, c);
      return false;
    }
    case 'await':
      c.pc += 1;
      env.block(c, 'await', null, pc);
      return true;
  }
}

/**
 * Redis is single-threaded: while another client's slow script runs, a command waits its turn
 * (until the script ends, or until the busy threshold, from when Redis answers BUSY). True when
 * the client now waits.
 */
function waitsBehindScript(c: ClientState, env: StepEnv): boolean {
  const running = env.server.scriptBusy.running(env.world.nowMs);
  if (running === null || env.world.nowMs >= running.busyFromMs) return false;
  env.block(c, 'busy', Math.min(running.endMs, running.busyFromMs) - env.world.nowMs, c.pc);
  return true;
}

/**
 * One Redis command. Redis is single-threaded: while another client's slow script runs, the
 * command waits its turn (until the script ends, or until the busy threshold, from when Redis
 * answers BUSY). A slow script's own caller waits for the reply until the script ends.
 */
function runRedisStep(c: ClientState, step: Extract<Step, { op: 'command' | 'eval' }>, env: StepEnv): boolean {
  const { world, server, ctx, emit } = env;
  const pc = c.pc;
  if (env.cluster) return sendToNode(c, step, env.cluster, env);
  if (waitsBehindScript(c, env)) return true;
  const resolve = templateResolver(c, env);
  const argv = step.op === 'command' ? step.argv.map(resolve) : evalArgv(c, step, env);
  const before = emit.lockNow();
  // Each client on its own connection, as real clients are: one's MULTI, WATCH or SUBSCRIBE is not another's.
  const connection = connectionId(c.id, step.op === 'command' ? step.connection : undefined);
  const result = server.execute(argv, world.nowMs, connection);
  c.pc += 1;
  if (step.releases) c.believesHoldsLock = false;
  if (server.isBlocked(connection)) {
    // A blocking pop with nothing to pop: the reply comes when another client's push serves it
    // (deliverPushes) or at the timeout (the wake), each on the virtual clock.
    const timeoutMs = server.blockedTimeoutMs(connection) ?? 0;
    emit.event(c.id, { kind: 'command', pc, argv, reply: null, releases: step.releases === true }, before);
    c.awaitingPop = { connection, saveAs: step.saveAs ?? null, pc, reply: null };
    env.block(c, 'pop', timeoutMs === 0 ? null : timeoutMs, pc);
    deliverPushes(world, server, ctx, emit);
    return true;
  }
  const slow = server.scriptBusy.running(world.nowMs);
  const isSlowScript = step.op === 'eval' && slow !== null && slow.startMs === world.nowMs;
  if (isSlowScript) {
    emit.event(c.id, { kind: 'command', pc, argv, reply: null, replyAtMs: slow.endMs, releases: step.releases === true }, before);
    c.awaitingScript = { startMs: slow.startMs, saveAs: step.saveAs ?? null, pc };
    env.block(c, 'reply', slow.endMs - world.nowMs, pc);
    return true;
  }
  saveReply(c, step.saveAs, result);
  if (isHosted(ctx, c)) ctx.host?.reply(c.id, pc, result, world.nowMs);
  emit.event(c.id, { kind: 'command', pc, argv, reply: result, releases: step.releases === true }, before);
  deliverPushes(world, server, ctx, emit);
  wakeKilledScriptCaller(env);
  return false;
}

/**
 * Several nodes: the command goes to its node (the step's `node`, else the current primary) as a
 * request. A reply that comes back at once is saved as on one node; otherwise the client waits
 * for it, until its timeout or for ever (the scheduling step ends).
 */
function sendToNode(c: ClientState, step: Extract<Step, { op: 'command' | 'eval' }>, cluster: ClusterRun, env: StepEnv): boolean {
  const resolve = templateResolver(c, env);
  const pc = c.pc;
  const argv = step.op === 'command' ? step.argv.map(resolve) : evalArgv(c, step, env);
  const nodeId = step.node === undefined ? cluster.state.primary : resolve(step.node);
  c.pc += 1;
  if (step.releases) c.believesHoldsLock = false;
  const result = cluster.send(c, nodeId, argv, pc, step.saveAs ?? null, step.releases === true, step.op === 'command' ? step.connection : undefined);
  if (result !== null) {
    saveReply(c, step.saveAs, result);
    cluster.replyToHost(c, pc, result);
    return false;
  }
  env.block(c, 'network', step.timeoutMs ?? null, pc);
  return true;
}

function subtractInteger(value: string, minus: string): string {
  if (!/^-?(0|[1-9][0-9]*)$/.test(minus)) throw new ProgramError(`set: "${minus}" is not an integer`);
  return addInteger(value, 0, -BigInt(minus));
}

/**
 * MULTI, the queued commands and EXEC, sent back to back on the client's connection: one
 * scheduling step, a command event each. Redis runs the queue at EXEC, in one go.
 */
function runTransaction(c: ClientState, step: Extract<Step, { op: 'transaction' }>, env: StepEnv): boolean {
  const { world, server, ctx, emit } = env;
  const pc = c.pc;
  if (waitsBehindScript(c, env)) return true;
  const resolve = (text: string) => resolveTemplate(text, c.vars, ctx.params);
  const lines = [['MULTI'], ...step.commands.map((argv) => argv.map(resolve)), ['EXEC']];
  let result: Reply = replies.nil();
  for (const argv of lines) {
    const before = emit.lockNow();
    result = server.execute(argv, world.nowMs, connectionId(c.id));
    emit.event(c.id, { kind: 'command', pc, argv, reply: result, releases: false }, before);
    deliverPushes(world, server, ctx, emit);
  }
  c.pc += 1;
  saveReply(c, step.saveAs, result);
  return false;
}

/** SCRIPT KILL ends a slow script now: its caller's wait for the reply ends now too. */
export function wakeKilledScriptCaller(env: Pick<StepEnv, 'world' | 'server'>): void {
  const script = env.server.scriptBusy.last();
  if (script === null || script.killedAtMs === null) return;
  for (const x of env.world.clients) {
    if (x.status !== 'blocked' || x.awaitingScript === null || x.awaitingScript.startMs !== script.startMs) continue;
    if (x.blockedUntilMs !== null && x.blockedUntilMs > script.killedAtMs) x.blockedUntilMs = script.killedAtMs;
  }
}

function evalArgv(c: ClientState, step: Extract<Step, { op: 'eval' }>, env: StepEnv): string[] {
  const script = env.ctx.scripts[step.script];
  if (!script) throw new Error(`client ${c.id} evaluates unknown script "${step.script}"`);
  const resolve = (text: string) => resolveTemplate(text, c.vars, env.ctx.params);
  const keys = step.keys.map(resolve);
  const args = step.args.map(resolve);
  const head = step.bySha ? ['EVALSHA', sha1Hex(script.source)] : ['EVAL', script.source];
  return [...head, String(keys.length), ...keys, ...args];
}

function write(c: ClientState, pc: number, resourceId: string, value: string, fencingToken: string | null, env: StepEnv): void {
  const resource = env.world.resources[resourceId];
  const spec = resourcesOf(env.ctx.scenario, env.ctx.variant).find((r) => r.id === resourceId);
  if (!resource || !spec) throw new Error(`client ${c.id} writes to unknown resource "${resourceId}"`);
  let accepted = true;
  if (spec.fencing) {
    // The storage takes integers only: anything else (a client timeout's text saved as the token, say) is refused, not a crash.
    const token = fencingToken !== null && /^-?[0-9]+$/.test(fencingToken) ? BigInt(fencingToken) : null;
    const max = resource.maxFencingToken === null ? null : BigInt(resource.maxFencingToken);
    accepted = token !== null && (max === null || token >= max);
    if (accepted && token !== null) resource.maxFencingToken = token.toString();
  }
  if (accepted) {
    resource.value = value;
    resource.writeCount += 1;
  }
  env.emit.event(c.id, { kind: 'write', pc, resource: resourceId, value, fencingToken, accepted });
}
