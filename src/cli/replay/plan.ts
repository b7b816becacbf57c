import { sha1Hex } from '../../engine/redis/lua';
import type { Reply } from '../../engine/redis/reply';
import { SimRedisServer } from '../../engine/redis/server';
import { findVariant, nodesOf, type NodeSpec, type Scenario, type ScriptSpec, type VariantSpec } from '../../engine/scenario';
import { Simulation } from '../../engine/simulation';
import { connectionId } from '../../engine/messages';
import type { Step } from '../../engine/program';
import type { TraceEvent, ViolationEvent } from '../../engine/trace';
import { commandShape, serverWideEffect, type Arg, type CommandShape } from './commands';
import { luaRedisCalls } from './lua-calls';
import { nodeSpecRefusal, RequestArrivals, SINGLE_NODE, traceRefusal, type DropCause, type EmulatedFault, type NodeAction } from './node-plan';

/** Commands that may block a connection (their reply comes later, or at a timeout). */
const BLOCKING_POPS: ReadonlySet<string> = new Set(['blpop', 'brpop', 'blmove', 'bzpopmin', 'bzpopmax']);

/**
 * A replay plan: the simulated run, and for each Redis command it sent (in the trace's order) the
 * command to send to a real server, with the run's key prefix on every key and every duration
 * divided by the time scale. Pure: building a plan runs the simulation and reads scenario data,
 * and refuses (ReplayRefusal) anything it cannot replay faithfully, before any connection exists.
 */

/** Below this many real ms between a command and a key's expiry, a real server's timing is not reliable enough. */
export const timingMarginMinMs = 50;
/** The fastest replay: 1 virtual second in 1 real ms. */
export const timeScaleMax = 1000;

export class ReplayRefusal extends Error {
  override name = 'ReplayRefusal';
}

export interface PlannedCommand {
  /** 0-based position among the replay's commands. */
  readonly index: number;
  /** The schedule choice (0-based) whose step sent it; null for the scenario's setup. */
  readonly step: number | null;
  readonly atMs: number;
  /** The simulated client that sent it; null for the scenario's setup (run on its own connection). */
  readonly clientId: string | null;
  /**
   * The client's connection it goes out on (`A`, or a named one such as `A/pubsub`: a subscribed
   * connection may only run the subscribe family); null for the setup's control connection.
   */
  readonly connection: string | null;
  /** The node it goes to (several nodes), or SINGLE_NODE. */
  readonly node: string;
  /** When it is sent (virtual ms): its `atMs`, except WAIT, sent when its request reached the node. */
  readonly sendAtMs: number;
  /**
   * The simulated request never reached its node (a partition, a lost message, the node down or
   * not serving yet): the replay does not send it, and `simReply` is what the client got instead
   * (its own timeout), or nil when it waits for ever.
   */
  readonly notSent: DropCause | null;
  /** The command ran but its reply was lost on the way back: the real reply is compared, the client saw `clientReply`. */
  readonly replyLost: DropCause | null;
  /** As the simulation sent it. */
  readonly argv: readonly string[];
  /** As the replay sends it: keys prefixed, durations scaled. */
  readonly realArgv: readonly string[];
  /** The (unprefixed) keys it uses, a script's KEYS included. */
  readonly keys: readonly string[];
  readonly simReply: Reply;
  /** The reply is a duration in ms (PTTL, a script's PTTL): compared on the scaled clock. */
  readonly replyIsDurationMs: boolean;
}

/** A trace event a recorded history writes as a mark (docs/HISTORIES.md), with the lock token the client held. */
export interface PlannedMark {
  readonly seq: number;
  readonly atMs: number;
  readonly clientId: string;
  readonly mark: 'enter' | 'leave' | 'write';
  readonly resource?: string;
  readonly token?: string;
}

/** A message the simulation delivered to a subscribed connection (a `message` trace event). */
export interface ExpectedMessage {
  /** The command whose execution published it (a PUBLISH, or a script that publishes). */
  readonly afterCommand: number;
  readonly connection: string;
  /** Unprefixed, as the simulation names them. */
  readonly channel: string;
  readonly pattern: string | null;
  readonly payload: string;
}

/** The smallest distance between a command and the expiry of a key it uses, on the virtual clock. */
export interface TimingMargin {
  readonly virtualMs: number;
  readonly commandIndex: number;
  readonly key: string;
  /** The key's expiry time (virtual ms): it exists while now <= expireAtMs. */
  readonly expireAtMs: number;
  /** Set when the margin is not a key's expiry: a WAIT's timeout against a replica's replication delay. */
  readonly what?: string;
}

/** How a margin reads in messages: a key's expiry, or what else it measures. */
export function marginText(margin: TimingMargin): string {
  return margin.what ?? `key ${margin.key} expiring at ${margin.expireAtMs}`;
}

export interface ReplayPlan {
  readonly scenario: Scenario;
  readonly variant: VariantSpec;
  readonly seed: number;
  readonly schedule: string;
  readonly timeScale: number;
  readonly keyPrefix: string;
  readonly commands: readonly PlannedCommand[];
  /** Every key the replay may write, prefixed: checked absent before and removed after. */
  readonly realKeys: readonly string[];
  /** Clients that send commands, in order of their first command. */
  readonly clientIds: readonly string[];
  /** Connections the replay opens for the clients (`A`, `A/pubsub`), in order of first use. */
  readonly connections: readonly string[];
  /** Pub/Sub messages the simulated clients received, in the trace's order: the real subscribers must receive the same. */
  readonly messages: readonly ExpectedMessage[];
  readonly margin: TimingMargin | null;
  /** A WAIT's timeout against the delay of a replica of its node (several nodes): the scale must leave room for it too. */
  readonly waitMargin: TimingMargin | null;
  /** The variant's nodes (null: one server). */
  readonly nodes: readonly NodeSpec[] | null;
  /** Node faults to cause on the servers, each before its command. */
  readonly nodeActions: readonly NodeAction[];
  /** Client-side faults (partitions, lost messages, client clock jumps): emulated from the recording, shown in the report. */
  readonly emulatedFaults: readonly EmulatedFault[];
  /** The largest --time-scale whose tightest margin is still timingMarginMinMs (null: no expiry matters). */
  readonly timeScaleLimit: number | null;
  readonly simViolations: readonly ViolationEvent[];
  /** seq of each command's trace event (setup commands: -1), to place violations before or after a divergence. */
  readonly commandSeqs: readonly number[];
  /** What the simulated code believed (enter, leave, accepted writes), for `replay --record`: history marks. */
  readonly marks: readonly PlannedMark[];
  readonly finalTimeMs: number;
}

export interface PlanOptions {
  readonly variantId?: string;
  readonly seed: number;
  readonly schedule?: string;
  readonly timeScale: number;
  readonly keyPrefix: string;
  /** Allow commands that act on the whole server (SCRIPT FLUSH): only on a server you own. */
  readonly allowServerWide: boolean;
}

export function buildPlan(scenario: Scenario, options: PlanOptions): ReplayPlan {
  const variant = findVariant(scenario, options.variantId);
  const nodes = nodesOf(scenario, variant);
  const specRefusal = nodeSpecRefusal(scenario, variant);
  if (specRefusal !== null) throw new ReplayRefusal(specRefusal);
  const sim = new Simulation(scenario, { variantId: variant.id, seed: options.seed });
  sim.applySchedule(options.schedule ?? scenario.defaultSchedule);
  const trace = sim.trace();
  const faultRefusal = traceRefusal(trace);
  if (faultRefusal !== null) throw new ReplayRefusal(faultRefusal);
  const scripts = scriptsBySource(scenario, variant);
  const k = options.timeScale;

  type Raw = {
    step: number | null;
    atMs: number;
    sendAtMs: number;
    clientId: string | null;
    connection: string | null;
    node: string;
    argv: readonly string[];
    simReply: Reply | null;
    seq: number;
    notSent: DropCause | null;
    replyLost: DropCause | null;
    pc: number | null;
  };
  // The setup runs on every primary (replicas receive it by replication).
  const setupNodes = nodes === null ? [SINGLE_NODE] : nodes.filter((n) => n.role === 'primary').map((n) => n.id);
  const raws: Raw[] = setupNodes.flatMap((node) =>
    (scenario.setup ?? []).map((argv) => ({ step: null, atMs: 0, sendAtMs: 0, clientId: null, connection: null, node, argv, simReply: null, seq: -1, notSent: null, replyLost: null, pc: null })),
  );
  const messages: ExpectedMessage[] = [];
  const nodeActions: NodeAction[] = [];
  const emulatedFaults: EmulatedFault[] = [];
  const arrivals = new RequestArrivals();
  for (const event of trace.events) {
    const sendAtMs = event.kind === 'command' ? arrivals.sendAtMs(event) : 0;
    arrivals.see(event);
    if (event.kind === 'fault') {
      const at = { beforeCommand: raws.length, step: event.step, atMs: event.atMs };
      if (event.fault === 'node-crash' || event.fault === 'node-restart' || event.fault === 'promote' || event.fault === 'replication-delay') {
        nodeActions.push({ ...at, fault: event.fault, node: event.node as string, ms: event.ms, previous: event.previous });
      } else emulatedFaults.push({ ...at, clientId: event.clientId, fault: event.fault, node: event.node });
      continue;
    }
    if (event.kind === 'drop') {
      if (event.message === 'request') {
        raws.push({
          step: event.step,
          atMs: event.atMs,
          sendAtMs: event.atMs,
          clientId: event.clientId,
          connection: connectionId(event.clientId ?? ''),
          node: event.node,
          argv: event.argv,
          simReply: null,
          seq: event.seq,
          notSent: event.cause,
          replyLost: null,
          pc: null,
        });
      } else {
        const ran = lastOf(raws, (r) => r.clientId === event.clientId && r.node === event.node && r.notSent === null);
        if (ran !== undefined) ran.replyLost = event.cause;
      }
      continue;
    }
    if (event.kind === 'reply' && event.timeout === true) {
      // The client's own timeout: what it got instead of a reply to a request that never arrived.
      const lost = lastOf(raws, (r) => r.clientId === event.clientId && r.node === event.node && r.notSent !== null && r.simReply === null);
      if (lost !== undefined) lost.simReply = event.reply;
      continue;
    }
    if (event.kind === 'message') {
      if (raws.length === 0) throw new Error(`replay plan: a message at seq ${event.seq} before any command`);
      messages.push({ afterCommand: raws.length - 1, connection: event.connection, channel: event.channel, pattern: event.pattern, payload: event.payload });
      continue;
    }
    if (event.kind !== 'command') continue;
    if (event.reply === null && BLOCKING_POPS.has(event.argv[0]?.toLowerCase() ?? '')) {
      throw new ReplayRefusal(
        `step ${event.step + 1}: ${event.clientId}'s ${event.argv[0].toUpperCase()} blocks on the virtual clock until another client's push or its timeout. ` +
          'Replay sends one command at a time and waits for its reply, so a blocked connection cannot be replayed yet.',
      );
    }
    if (event.reply === null) {
      throw new ReplayRefusal(
        `step ${event.step + 1}: ${event.clientId}'s script runs for ${(event.replyAtMs ?? event.atMs) - event.atMs} ms of virtual time (the scenario's scriptTiming). ` +
          "A real server runs a script as fast as its CPU does and answers others BUSY after its own busy-reply-threshold, so that timing cannot be replayed.",
      );
    }
    const connection = connectionOf(sim.ctx.programs[event.clientId ?? ''], event.clientId ?? '', event.pc);
    raws.push({
      step: event.step,
      atMs: event.atMs,
      sendAtMs,
      clientId: event.clientId,
      connection,
      node: event.node ?? SINGLE_NODE,
      argv: event.argv,
      simReply: event.reply,
      seq: event.seq,
      notSent: null,
      replyLost: null,
      pc: event.pc,
    });
  }

  const commands: PlannedCommand[] = [];
  const realKeys = new Set<string>();
  const clientIds: string[] = [];
  const connections: string[] = [];
  for (const raw of raws) {
    const where = raw.step === null ? 'setup' : `step ${raw.step + 1} (${raw.clientId})`;
    const wide = serverWideEffect(raw.argv);
    if (wide !== null && !options.allowServerWide) {
      throw new ReplayRefusal(`${where}: ${wide}. Replay it only on a server of your own, with --allow-server-wide.`);
    }
    const planned = planCommand(raw.argv, scripts, k, options.keyPrefix);
    if ('refusal' in planned) throw new ReplayRefusal(`${where}: ${raw.argv[0]}: ${planned.refusal}`);
    for (const key of planned.keys) realKeys.add(options.keyPrefix + key);
    if (raw.clientId !== null && !clientIds.includes(raw.clientId)) clientIds.push(raw.clientId);
    if (raw.connection !== null && raw.notSent === null && !connections.includes(raw.connection)) connections.push(raw.connection);
    commands.push({
      index: commands.length,
      step: raw.step,
      atMs: raw.atMs,
      clientId: raw.clientId,
      connection: raw.connection,
      node: raw.node,
      sendAtMs: raw.sendAtMs,
      notSent: raw.notSent,
      replyLost: raw.replyLost,
      argv: raw.argv,
      realArgv: planned.realArgv,
      keys: planned.keys,
      simReply: raw.simReply ?? { type: 'nil' },
      replyIsDurationMs: planned.replyIsDurationMs,
    });
  }

  const measured = measureMargins(scenario, commands, nodes === null ? null : { nodes, actions: nodeActions });
  const { margin, setupReplies } = measured;
  const withSetup = commands.map((c) => (c.step === null ? { ...c, simReply: setupReplies[c.index] } : c));
  // The scale must leave room for both; only the keys' margin bounds how late a command may go
  // (a WAIT's race with a replica is between two durations that start together, not with the clock).
  const tightest = measured.waitMargin !== null && (margin === null || measured.waitMargin.virtualMs < margin.virtualMs) ? measured.waitMargin : margin;
  const timeScaleLimit = tightest === null ? null : Math.floor(tightest.virtualMs / timingMarginMinMs);
  if (tightest !== null && tightest.virtualMs / k < timingMarginMinMs) {
    const c = withSetup[tightest.commandIndex];
    const who = c.step === null ? 'the setup' : `step ${c.step + 1}, ${c.clientId}'s ${c.argv[0]}`;
    const advice =
      timeScaleLimit !== null && timeScaleLimit >= 1
        ? `use --time-scale ${timeScaleLimit} or less`
        : 'no time scale can replay it reliably: the simulated run relies on a single millisecond';
    throw new ReplayRefusal(
      `the tightest timing margin is ${tightest.virtualMs} ms of virtual time (${who} at t=${c.atMs}, ${marginText(tightest)}): ` +
        `at --time-scale ${k} that is ${formatMs(tightest.virtualMs / k)} ms on the real server, below the ${timingMarginMinMs} ms a replay needs to be reliable; ${advice}`,
    );
  }
  return {
    scenario,
    variant,
    seed: options.seed,
    schedule: trace.schedule,
    timeScale: k,
    keyPrefix: options.keyPrefix,
    commands: withSetup,
    realKeys: [...realKeys].sort(),
    clientIds,
    connections,
    messages,
    margin,
    waitMargin: measured.waitMargin,
    nodes,
    nodeActions,
    emulatedFaults,
    timeScaleLimit: timeScaleLimit === null ? null : Math.min(timeScaleLimit, timeScaleMax),
    simViolations: trace.violations,
    commandSeqs: raws.map((r) => r.seq),
    marks: marksOf(trace.events),
    finalTimeMs: sim.nowMs,
  };
}

/** enter, leave and accepted writes, each write with the lock value its client last wrote (its token). */
function marksOf(events: readonly TraceEvent[]): PlannedMark[] {
  const tokens = new Map<string, string>();
  const marks: PlannedMark[] = [];
  for (const event of events) {
    const client = event.clientId;
    if (client === null) continue;
    if (event.kind === 'command' && event.lockAfter.holder === client && event.lockAfter.value !== null) tokens.set(client, event.lockAfter.value);
    if (event.kind === 'enter' || event.kind === 'leave') marks.push({ seq: event.seq, atMs: event.atMs, clientId: client, mark: event.kind });
    if (event.kind === 'write' && event.accepted) marks.push({ seq: event.seq, atMs: event.atMs, clientId: client, mark: 'write', resource: event.resource, token: tokens.get(client) ?? '' });
  }
  return marks;
}

function lastOf<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return items[i];
  return undefined;
}

/** The connection a client's command went out on: its own, or the one its program step names (engine/messages.ts). */
function connectionOf(program: readonly Step[] | undefined, clientId: string, pc: number): string {
  const step = program?.[pc];
  return step !== undefined && step.op === 'command' && step.connection !== undefined ? connectionId(clientId, step.connection) : connectionId(clientId);
}

function formatMs(ms: number): string {
  return Number.isInteger(ms) ? String(ms) : ms.toFixed(1);
}

function scriptsBySource(scenario: Scenario, variant: VariantSpec): Map<string, { name: string; spec: ScriptSpec }> {
  const out = new Map<string, { name: string; spec: ScriptSpec }>();
  for (const [name, spec] of Object.entries({ ...(scenario.scripts ?? {}), ...(variant.scripts ?? {}) })) out.set(spec.source, { name, spec });
  return out;
}

type Planned = { realArgv: string[]; keys: string[]; replyIsDurationMs: boolean } | { refusal: string };

function planCommand(argv: readonly string[], scripts: Map<string, { name: string; spec: ScriptSpec }>, k: number, prefix: string): Planned {
  const result = commandShape(argv.map((literal): Arg => ({ literal })));
  if ('refusal' in result) return result;
  const shape: CommandShape = result.shape;
  const realArgv = argv.slice();
  const keys = shape.keys.map((i) => argv[i]);
  for (const i of shape.keys) realArgv[i] = prefix + argv[i];
  const isPattern = /^P(UN)?SUBSCRIBE$/i.test(argv[0]);
  for (const i of shape.channels ?? []) realArgv[i] = (isPattern ? escapeGlob(prefix) : prefix) + argv[i];
  for (const d of shape.durations) {
    const scaled = scaleDuration(argv[d.index], d.unit, k);
    if ('refusal' in scaled) return scaled;
    realArgv[d.index] = scaled.text;
    if (scaled.unit !== d.unit) switchToMs(realArgv, d.index);
  }
  let replyIsDurationMs = shape.replyIsDurationMs;
  if (shape.script) {
    const script = shape.script.bySha ? [...scripts.values()].find((s) => sha1Hex(s.spec.source) === argv[1].toLowerCase()) : scripts.get(argv[1]);
    if (script === undefined) return { refusal: 'a script that is not one of the scenario\'s, so the replay cannot check which keys it uses' };
    const check = checkScript(script.spec, k);
    if (check !== null) return { refusal: `script ${script.name}: ${check}` };
    const argvBase = 3 + shape.script.numkeys;
    for (const position of script.spec.durationsMs?.argv ?? []) {
      const i = argvBase + position - 1;
      if (i >= argv.length) continue;
      const scaled = scaleDuration(argv[i], 'ms', k);
      if ('refusal' in scaled) return scaled;
      realArgv[i] = scaled.text;
    }
    replyIsDurationMs = script.spec.durationsMs?.reply === true;
  }
  return { realArgv, keys, replyIsDurationMs };
}

/** A pattern (PSUBSCRIBE) matches the prefix literally: its glob characters are escaped. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** EX 60 at scale 7 is not whole seconds: the command is sent in its ms form (PX, PEXPIRE, PSETEX). */
function switchToMs(argv: string[], index: number): void {
  const name = argv[0].toUpperCase();
  if (name === 'EXPIRE') argv[0] = 'PEXPIRE';
  else if (name === 'SETEX') argv[0] = 'PSETEX';
  else argv[index - 1] = 'PX';
}

/**
 * A duration on the scaled clock. Only positive whole numbers scale: 0, negative or malformed
 * values go as they are, so the real server gives the same error or immediate expiry.
 */
export function scaleDuration(text: string, unit: 'ms' | 's', k: number): { text: string; unit: 'ms' | 's' } | { refusal: string } {
  if (k === 1 || !/^[1-9][0-9]{0,14}$/.test(text)) return { text, unit };
  const ms = (Number(text) * (unit === 's' ? 1000 : 1)) / k;
  if (unit === 's' && ms % 1000 === 0) return { text: String(ms / 1000), unit: 's' };
  const rounded = Math.round(ms);
  if (rounded < 1) return { refusal: `${text} ${unit} at --time-scale ${k} would be under 1 ms` };
  return { text: String(rounded), unit: 'ms' };
}

const scriptChecks = new Map<string, string | null>();

/**
 * Why a script cannot be replayed with a key prefix and a time scale, or null: every key it uses
 * must come from KEYS, and at a scale other than 1 every duration it passes must be an ARGV
 * position its ScriptSpec marks (durationsMs.argv).
 */
export function checkScript(spec: ScriptSpec, k: number): string | null {
  const cacheKey = `${k === 1 ? 1 : 'k'}\n${JSON.stringify(spec.durationsMs ?? null)}\n${spec.source}`;
  if (scriptChecks.has(cacheKey)) return scriptChecks.get(cacheKey) ?? null;
  const found = findScriptProblem(spec, k);
  scriptChecks.set(cacheKey, found);
  return found;
}

function findScriptProblem(spec: ScriptSpec, k: number): string | null {
  const parsed = luaRedisCalls(spec.source);
  if ('refusal' in parsed) return parsed.refusal;
  const marked = new Set(spec.durationsMs?.argv ?? []);
  for (const call of parsed.calls) {
    const result = commandShape(call);
    const name = 'literal' in call[0] ? call[0].literal : call[0].expr;
    if ('refusal' in result) return result.refusal;
    if (result.shape.script) return 'it calls EVAL from a script';
    for (const i of [...result.shape.keys, ...(result.shape.channels ?? [])]) {
      const arg = call[i];
      if (arg !== undefined && !('expr' in arg && /^KEYS\[[0-9]+\]$/.test(arg.expr))) {
        return `it builds a key name itself (redis.call('${name}', ${'literal' in arg ? JSON.stringify(arg.literal) : arg.expr}, ...)): the key prefix cannot reach it`;
      }
    }
    if (k === 1) continue;
    for (const d of result.shape.durations) {
      const arg = call[d.index];
      if (arg === undefined) continue;
      const position = 'expr' in arg ? /^ARGV\[([0-9]+)\]$/.exec(arg.expr) : null;
      if (position === null || !marked.has(Number(position[1])) || d.unit !== 'ms') {
        return (
          `its ${name} takes a duration (${'literal' in arg ? JSON.stringify(arg.literal) : arg.expr}${d.unit === 's' ? ', in seconds' : ''}) ` +
          'that is not an ARGV position marked in the script\'s durationsMs.argv, so the time scale cannot reach it (use --time-scale 1)'
        );
      }
    }
  }
  return null;
}

/**
 * Replays the plan's commands on a simulated server of its own (same commands, same virtual
 * times) to learn each key's expiry time before each command, and so the tightest margin. The
 * replies must be the trace's: anything else means the plan lost a command. With several nodes,
 * each node's commands run on a server of that node's (a restart without fsync empties it); a
 * replica's copy of a key carries its primary's expiry, which the primary's commands already
 * measure, so replication is not re-run and replies are not compared.
 */
function measureMargins(
  scenario: Scenario,
  commands: readonly PlannedCommand[],
  several: { nodes: readonly NodeSpec[]; actions: readonly NodeAction[] } | null,
): { margin: TimingMargin | null; waitMargin: TimingMargin | null; setupReplies: Reply[] } {
  const servers = new Map<string, SimRedisServer>();
  const serverOf = (node: string) => {
    let server = servers.get(node);
    if (server === undefined) {
      server = new SimRedisServer({ scriptTiming: scenario.scriptTiming, unixEpochMs: scenario.unixEpochMs, cluster: scenario.redisCluster });
      servers.set(node, server);
    }
    return server;
  };
  const expireAt = new Map<string, number>();
  const setupReplies: Reply[] = [];
  let margin: TimingMargin | null = null;
  let waitMargin: TimingMargin | null = null;
  let nextAction = 0;
  // Who replicates from whom, and how late (promotions and delay changes follow the schedule).
  const replicaOf = new Map(several?.nodes.map((n) => [n.id, n.replicaOf ?? null]) ?? []);
  const delayMs = new Map(several?.nodes.map((n) => [n.id, n.replicationDelayMs ?? 0]) ?? []);
  for (const c of commands) {
    for (; several !== null && nextAction < several.actions.length && several.actions[nextAction].beforeCommand <= c.index; nextAction++) {
      const action = several.actions[nextAction];
      if (action.fault === 'replication-delay') delayMs.set(action.node, action.ms ?? 0);
      if (action.fault === 'promote') {
        const previous = replicaOf.get(action.node) ?? null;
        replicaOf.set(action.node, null);
        for (const [other, of] of replicaOf) if (other !== action.node && (of === previous || other === previous)) replicaOf.set(other, action.node);
      }
      if (action.fault !== 'node-restart' || several.nodes.find((n) => n.id === action.node)?.persistence === 'fsync') continue;
      servers.delete(action.node);
      for (const key of [...expireAt.keys()]) if (key.startsWith(`${action.node}\n`)) expireAt.delete(key);
    }
    if (c.notSent !== null) continue;
    // WAIT's answer turns on whether a replica's delayed copy arrives before WAIT's timeout.
    const timeoutMs = (c.argv[0] ?? '').toUpperCase() === 'WAIT' ? Number(c.argv[2]) : 0;
    if (timeoutMs > 0) {
      for (const [replica, of] of replicaOf) {
        if (of !== c.node) continue;
        const distance = Math.abs(timeoutMs - (delayMs.get(replica) ?? 0));
        if (waitMargin === null || distance < waitMargin.virtualMs) {
          const what = `its WAIT timeout of ${timeoutMs} ms against ${replica}'s replication delay of ${delayMs.get(replica) ?? 0} ms`;
          waitMargin = { virtualMs: distance, commandIndex: c.index, key: '', expireAtMs: c.sendAtMs + timeoutMs, what };
        }
      }
    }
    const at = (key: string) => `${c.node}\n${key}`;
    for (const key of c.keys) {
      const e = expireAt.get(at(key));
      if (e === undefined) continue;
      const distance = Math.abs(c.atMs - e);
      if (margin === null || distance < margin.virtualMs) margin = { virtualMs: distance, commandIndex: c.index, key, expireAtMs: e };
    }
    const server = serverOf(c.node);
    // Each on its own connection, as sent: MULTI and WATCH keep state per connection.
    const got = server.execute(c.argv, c.atMs, c.connection ?? 'setup');
    server.takePushes();
    if (c.step === null) setupReplies[c.index] = got;
    else if (several === null && JSON.stringify(got) !== JSON.stringify(c.simReply)) {
      throw new Error(`replay plan: command ${c.index + 1} (${c.argv[0]}) answers differently when replayed alone: the recording lost a command`);
    }
    for (const key of c.keys) {
      const pttl = server.keyspace.pttl(key, c.atMs);
      if (pttl >= 0) expireAt.set(at(key), c.atMs + pttl);
      else if (pttl === -1) expireAt.delete(at(key));
      else if ((expireAt.get(at(key)) ?? -Infinity) >= c.atMs) expireAt.delete(at(key));
    }
  }
  return { margin, waitMargin, setupReplies };
}
