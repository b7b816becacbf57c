/**
 * `simulate`: one run of a scenario (built-in, definition, or your own async clients) under a
 * schedule, with its trace, its violations and its verdict (expected against got). Pure: no page,
 * no wall clock; the same options give the same trace.
 */
import { ChoiceError } from '../engine/engine';
import type { KeyEntry } from '../engine/redis/keyspace';
import type { Scenario } from '../engine/scenario';
import { Simulation } from '../engine/simulation';
import type { Trace, ViolationKind } from '../engine/trace';
import { AsyncRun, type AsyncClients } from './async/run';
import { withVirtualGlobals } from './async/virtual-globals';
import { ArgumentError, ScheduleDoesNotFitError } from './errors';
import type { RedisClientChoice } from './async/client-links';
import { checkProperties, failedProperties, type Properties } from './findings';
import { withNodes, type NodeOption } from './nodes';
import { rememberRecording } from './recording';
import { checkOptions, resolveExpect, resolveScenario, resolveSchedule, resolveSeed, resolveVariant, type ExpectedVerdict, type ScenarioSource } from './source';

export interface SimulateOptions {
  /** A built-in scenario's id, or a scenario definition (JSON data). Absent: an empty scenario for `clients`. */
  readonly scenario?: ScenarioSource;
  /** The variant to run (default: the scenario's default variant). */
  readonly variant?: string;
  /** The run's seed: tokens and jitter come from it (default 1). */
  readonly seed?: number;
  /** Schedule text, docs/SCHEDULES.md (default: the scenario's default schedule). */
  readonly schedule?: string;
  /** Your own async code as clients, replacing (or added beside) the variant's clients of those ids. */
  readonly clients?: AsyncClients;
  /** The verdict expected (default: the variant's `expect`). */
  readonly expect?: ExpectedVerdict;
  /** The lock's key when no scenario is given (default `lock`). */
  readonly lockKey?: string;
  /**
   * Redis nodes for your clients (`['r1', 'r2', 'r3']`: independent primaries, as Redlock
   * assumes): each client gets one connection per node as `ctx.nodes`, and the schedule may
   * crash, restart, partition and jump the clocks of nodes (docs/SCHEDULES.md, "Many nodes").
   */
  readonly nodes?: readonly NodeOption[];
  /** Your own properties, each a function of one trace event (findings.ts); those that fail are in `failedProperties`. */
  readonly properties?: Properties;
  /** The client your code gets: `auto` (default: your ioredis 5 when installed), `ioredis` or `lockstep`. */
  readonly redisClient?: RedisClientChoice;
}

/** A property of yours that did not hold: where it first failed. */
export interface FailedProperty {
  readonly property: string;
  readonly step: number;
  readonly atMs: number;
  readonly message: string;
  readonly clients: readonly string[];
}

export interface ViolationSummary {
  readonly kind: ViolationKind;
  /** The schedule choice (0-based) during which it happened. */
  readonly step: number;
  readonly atMs: number;
  readonly message: string;
  /** Clients involved, offender first. */
  readonly clients: readonly string[];
}

export interface Verdict {
  readonly expected: { readonly violations: readonly ViolationKind[]; readonly absent: readonly ViolationKind[] };
  /** Kinds seen, in the order they first appeared. */
  readonly got: readonly ViolationKind[];
  /** Expected kinds that did not appear. */
  readonly missing: readonly ViolationKind[];
  /** Kinds that appeared though expected absent. */
  readonly unexpected: readonly ViolationKind[];
  readonly ok: boolean;
}

export interface SimulateResult {
  readonly scenario: string;
  readonly variant: string;
  readonly seed: number;
  /** The schedule that ran, in canonical text. */
  readonly schedule: string;
  readonly trace: Trace;
  readonly violations: readonly ViolationSummary[];
  readonly verdict: Verdict;
  /** Virtual time at the end of the run. */
  readonly finalTimeMs: number;
  /** Every live key at the end. */
  readonly keys: readonly KeyEntry[];
  /** Each of your properties that failed, at its first failing event. */
  readonly failedProperties: readonly FailedProperty[];
}

const OPTIONS = ['scenario', 'variant', 'seed', 'schedule', 'clients', 'expect', 'lockKey', 'nodes', 'properties', 'redisClient'] as const;

export function verdictOf(expected: Verdict['expected'], kinds: readonly ViolationKind[]): Verdict {
  const got = [...new Set(kinds)];
  const missing = expected.violations.filter((k) => !got.includes(k));
  const unexpected = expected.absent.filter((k) => got.includes(k));
  return { expected, got, missing, unexpected, ok: missing.length === 0 && unexpected.length === 0 };
}

function resultOf(sim: Simulation, expected: Verdict['expected'], properties: Properties = {}): SimulateResult {
  const trace = sim.trace();
  const failedProps = failedProperties(properties, trace.events).map((f) => ({
    property: f.property,
    step: f.event.step,
    atMs: f.event.atMs,
    message: f.message,
    clients: f.event.clientId === null ? [] : [f.event.clientId],
  }));
  const violations = trace.violations.map((v) => ({ kind: v.violation, step: v.step, atMs: v.atMs, message: v.message, clients: v.clients }));
  return {
    scenario: trace.scenario,
    variant: trace.variant,
    seed: trace.seed,
    schedule: trace.schedule,
    trace,
    violations,
    verdict: verdictOf(expected, violations.map((v) => v.kind)),
    finalTimeMs: sim.nowMs,
    keys: sim.inspect(),
    failedProperties: failedProps,
  };
}

function fitError(error: unknown): unknown {
  return error instanceof ChoiceError ? new ScheduleDoesNotFitError(error.message, error.stepIndex) : error;
}

async function runVariant(scenario: Scenario, variantId: string, options: Record<string, unknown>): Promise<SimulateResult> {
  const variant = resolveVariant(scenario, variantId);
  const seed = resolveSeed(options.seed);
  const expected = resolveExpect(options.expect, variant);
  const clients = options.clients as AsyncClients | undefined;
  if (clients !== undefined && (typeof clients !== 'object' || clients === null || Array.isArray(clients))) throw new ArgumentError('clients', 'an object of async clients: { A: async (redis, ctx) => { ... } }');
  if (clients === undefined || Object.keys(clients).length === 0) {
    const sim = new Simulation(scenario, { variantId: variant.id, seed });
    const choices = resolveSchedule(options.schedule, scenario.defaultSchedule, sim.ctx.clientIds, sim.ctx.nodeIds);
    try {
      for (const choice of choices) sim.apply(choice);
    } catch (error) {
      throw fitError(error);
    }
    return resultOf(sim, expected, checkProperties(options.properties));
  }
  // The clients' timers, clock and randomness are virtual while they run (async/virtual-globals.ts).
  return withVirtualGlobals(async () => {
    const properties = checkProperties(options.properties);
    const run = new AsyncRun(scenario, { variantId: variant.id, seed, clients, redisClient: options.redisClient as RedisClientChoice | undefined });
    if (options.schedule === undefined && scenario.defaultSchedule === '') throw new ArgumentError('schedule', 'give the schedule to run your clients under, e.g. "A B +10000" (docs/SCHEDULES.md)');
    const choices = resolveSchedule(options.schedule, scenario.defaultSchedule, run.sim.ctx.clientIds, run.sim.ctx.nodeIds);
    try {
      for (const choice of choices) await run.apply(choice);
    } catch (error) {
      throw fitError(error);
    }
    await run.finish();
    const result = resultOf(run.sim, expected, properties);
    // What the code reached, for runFileOf (run-file.ts).
    rememberRecording(result, run.recording());
    return result;
  });
}

/** The scenario the options name, with the `nodes` option as its nodes. */
export function scenarioOf(o: Record<string, unknown>): Scenario {
  const scenario = resolveScenario(o.scenario as ScenarioSource | undefined, o.lockKey, o.clients !== undefined);
  const clients = typeof o.clients === 'object' && o.clients !== null ? Object.keys(o.clients) : [];
  return withNodes(scenario, o.nodes, [...scenario.variants.flatMap((v) => v.clients.map((c) => c.id)), ...clients]);
}

/**
 * Runs one variant of a scenario under a schedule. Rejects with a LockstepError naming the path of
 * a bad option, definition or schedule; a violation is a result, not an error.
 */
export async function simulate(options: SimulateOptions): Promise<SimulateResult> {
  const o = checkOptions(options, OPTIONS);
  const scenario = scenarioOf(o);
  return runVariant(scenario, resolveVariant(scenario, o.variant).id, o);
}

/** Runs every variant of a scenario under the same schedule (each with its own verdict). */
export async function simulateAll(options: Omit<SimulateOptions, 'variant'>): Promise<SimulateResult[]> {
  const o = checkOptions(options, OPTIONS.filter((k) => k !== 'variant'));
  const scenario = scenarioOf(o);
  const results: SimulateResult[] = [];
  for (const variant of scenario.variants) results.push(await runVariant(scenario, variant.id, o));
  return results;
}
