/**
 * `explore`: let the machine find the race. Searches the schedules of a scenario (every order of
 * the clients' steps, the clock moving to each next due time, and faults within a budget) breadth
 * first, so the first violation found of a kind comes with a shortest schedule that shows it.
 * Async clients are searched by replaying each schedule from time 0 (async/search.ts). Scenarios
 * made of programs alone go to the engine's explorer (src/engine/explore, issue 13).
 */
import { VIOLATION_KINDS, type CheckerKind } from '../engine/trace';
import { BoundsError, explore as exploreEngine, hasNodeFaults, noFaults, resolveBounds, withProperties, type ExploreBounds } from '../engine/explore';
import { findVariant, nodeIdsOf, type FaultBudget, type Scenario } from '../engine/scenario';
import { advanceMsMax } from '../engine/schedule';
import type { RedisClientChoice } from './async/client-links';
import type { AsyncClients } from './async/run';
import { searchAsync, type AsyncSearchResult } from './async/search';
import { ArgumentError } from './errors';
import { exploreInWorkers, workerCountMax } from './explore-workers';
import { checkInvariants, checkProperties, type FindingKind, type Properties } from './findings';
import type { NodeOption } from './nodes';
import { scenarioOf } from './simulate';
import { checkOptions, resolveSeed, resolveVariant, type ScenarioSource } from './source';

export type { AsyncVerdict as ExploreVerdict, FoundViolation } from './async/search';

export interface ExploreFaults {
  /** Stalls (`A~N`, a stop-the-world pause of a client's process) one schedule may contain (default 0). */
  readonly stalls?: number;
  /** The stall lengths tried at every point (ms). */
  readonly stallLengthsMs?: readonly number[];
  /** Crashes (`!A`) one schedule may contain (default 0). */
  readonly crashes?: number;
  /** Only these clients' processes are faulted, and only their links partitioned (default: every client's). */
  readonly clients?: readonly string[];
  // With several nodes (the `nodes` option, or a scenario's): the engine explorer's node faults.
  /** Node crashes (`!@r1`) one schedule may contain; a crashed node may be restarted (`^@r1`) at any later point, free. */
  readonly nodeCrashes?: number;
  /** Promotions of a replica (`@r2^`) one schedule may contain. */
  readonly promotions?: number;
  /** Node clock jumps (`@r3+11000`) one schedule may contain, of the lengths in `clockJumpsMs`. */
  readonly clockJumps?: number;
  /** The clock jumps tried at every point (ms; negative: the clock steps back). */
  readonly clockJumpsMs?: readonly number[];
  /** Client-node partitions (`A/@r1`) one schedule may contain; a partitioned link may be healed (`A|@r1`) later, free. */
  readonly partitions?: number;
  /** Lost messages (`A-@r1` a request, `@r1-A` a reply) one schedule may contain. */
  readonly losses?: number;
  /** Client clock jumps (`A@+2000`) one schedule may contain, of the lengths in `clientClockJumpsMs`. */
  readonly clientClockJumps?: number;
  readonly clientClockJumpsMs?: readonly number[];
  /** Changes of a replica's replication delay (`@r2~3000`) one schedule may contain, to the delays in `replicationDelaysMs`. */
  readonly replicationDelays?: number;
  readonly replicationDelaysMs?: readonly number[];
  /** Only these nodes are faulted (default: every node). */
  readonly nodes?: readonly string[];
}

export interface ExploreOptions {
  readonly scenario?: ScenarioSource;
  readonly variant?: string;
  readonly seed?: number;
  readonly clients?: AsyncClients;
  readonly lockKey?: string;
  /** Redis nodes for your clients, as in simulate (`['r1', 'r2', 'r3']`). */
  readonly nodes?: readonly NodeOption[];
  readonly faults?: ExploreFaults;
  /** Longest schedule searched, in choices (default 12). */
  readonly depthMax?: number;
  /** Schedules run at most, each from time 0 (default 20,000). */
  readonly runCountMax?: number;
  /** Kinds to look for (default: every kind): the checkers' and `client-error` (your clients' code threw). */
  readonly invariants?: readonly Exclude<FindingKind, 'property'>[];
  /** Your own properties, each a function of one trace event (findings.ts), checked at every event. */
  readonly properties?: Properties;
  /** Stop at the first violation found (default), or once every kind looked for is found ('all'). */
  readonly stopAt?: 'first' | 'all';
  /** The client your code gets: `auto` (default: your ioredis 5 when installed), `ioredis` or `lockstep`. */
  readonly redisClient?: RedisClientChoice;
  /**
   * Worker threads for a scenario made of programs (default 1: none): each searches a shard of the
   * breadth-first search, merged into the result one thread gives (explore-workers.ts).
   */
  readonly workers?: number;
}

export type ExploreResult = AsyncSearchResult;

export const exploreBounds = {
  depthMaxDefault: 12,
  depthMaxLimit: 200,
  runCountMaxDefault: 20_000,
  runCountMaxLimit: 1_000_000,
  faultCountMaxLimit: 8,
  stallLengthCountMaxLimit: 8,
} as const;

const OPTIONS = ['scenario', 'variant', 'seed', 'clients', 'lockKey', 'nodes', 'faults', 'depthMax', 'runCountMax', 'invariants', 'properties', 'stopAt', 'redisClient', 'workers'] as const;

function integerIn(path: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new ArgumentError(path, `an integer from ${min} to ${max}, got ${String(value)}`);
  return value;
}

function names(path: string, value: unknown, known: readonly string[], what: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new ArgumentError(path, `a list of ${what} ids`);
  value.forEach((id, i) => {
    if (!known.includes(id as string)) throw new ArgumentError(`${path}[${i}]`, `no ${what} ${JSON.stringify(id)} (${known.join(', ') || 'none'})`);
  });
  return value as string[];
}

function lengths(path: string, value: unknown, min: number, what: string): number[] {
  const list = value ?? [];
  if (!Array.isArray(list) || list.length > exploreBounds.stallLengthCountMaxLimit) throw new ArgumentError(path, `a list of at most ${exploreBounds.stallLengthCountMaxLimit} ${what} (ms)`);
  return [...new Set(list.map((ms, i) => integerIn(`${path}[${i}]`, ms, 0, min, advanceMsMax)))].sort((a, b) => a - b);
}

const FAULT_OPTIONS = [
  'stalls',
  'stallLengthsMs',
  'crashes',
  'clients',
  'nodeCrashes',
  'promotions',
  'clockJumps',
  'clockJumpsMs',
  'partitions',
  'losses',
  'clientClockJumps',
  'clientClockJumpsMs',
  'replicationDelays',
  'replicationDelaysMs',
  'nodes',
];

/** The `faults` option as the engine explorer's fault budget (explore/bounds.ts), each problem named by its path. */
function faultBudgetOf(faults: unknown, clientIds: readonly string[], nodeIds: readonly string[]): FaultBudget {
  if (faults === undefined) return noFaults;
  if (typeof faults !== 'object' || faults === null) throw new ArgumentError('faults', `{ ${FAULT_OPTIONS.map((k) => `${k}?`).join(', ')} }`);
  const f = checkOptions(faults, FAULT_OPTIONS);
  const count = (key: string) => integerIn(`faults.${key}`, f[key], 0, 0, exploreBounds.faultCountMaxLimit);
  const stallCountMax = count('stalls');
  const stallLengthsMs = lengths('faults.stallLengthsMs', f.stallLengthsMs, 1, 'durations');
  if (stallCountMax > 0 && stallLengthsMs.length === 0) throw new ArgumentError('faults.stallLengthsMs', 'stalls need at least one length, e.g. [5000]');
  const node = {
    nodeCrashCountMax: count('nodeCrashes'),
    promoteCountMax: count('promotions'),
    clockJumpCountMax: count('clockJumps'),
    partitionCountMax: count('partitions'),
    lossCountMax: count('losses'),
    clientClockJumpCountMax: count('clientClockJumps'),
    replicationDelayCountMax: count('replicationDelays'),
  };
  const clockJumpsMs = lengths('faults.clockJumpsMs', f.clockJumpsMs, -advanceMsMax, 'clock jumps');
  if (clockJumpsMs.includes(0)) throw new ArgumentError('faults.clockJumpsMs', 'a clock jump of 0 ms changes nothing');
  if (node.clockJumpCountMax > 0 && clockJumpsMs.length === 0) throw new ArgumentError('faults.clockJumpsMs', 'clock jumps need at least one length, e.g. [11000]');
  const clientClockJumpsMs = lengths('faults.clientClockJumpsMs', f.clientClockJumpsMs, -advanceMsMax, 'clock jumps');
  if (clientClockJumpsMs.includes(0)) throw new ArgumentError('faults.clientClockJumpsMs', 'a clock jump of 0 ms changes nothing');
  if (node.clientClockJumpCountMax > 0 && clientClockJumpsMs.length === 0) throw new ArgumentError('faults.clientClockJumpsMs', 'client clock jumps need at least one length, e.g. [2000]');
  const replicationDelaysMs = lengths('faults.replicationDelaysMs', f.replicationDelaysMs, 0, 'delays');
  if (node.replicationDelayCountMax > 0 && replicationDelaysMs.length === 0) throw new ArgumentError('faults.replicationDelaysMs', 'replication delay changes need at least one delay, e.g. [3000]');
  const clients = names('faults.clients', f.clients, clientIds, 'client');
  const nodes = names('faults.nodes', f.nodes, nodeIds, 'node');
  const budget: FaultBudget = {
    stallCountMax,
    stallLengthsMs,
    crashCountMax: count('crashes'),
    ...(clients ? { clients } : {}),
    ...(hasNodeFaults({ ...noFaults, ...node })
      ? {
          ...node,
          ...(clockJumpsMs.length > 0 ? { clockJumpsMs } : {}),
          ...(clientClockJumpsMs.length > 0 ? { clientClockJumpsMs } : {}),
          ...(replicationDelaysMs.length > 0 ? { replicationDelaysMs } : {}),
          ...(nodes ? { nodes } : {}),
        }
      : {}),
  };
  if (hasNodeFaults(budget) && nodeIds.length === 0) throw new ArgumentError('faults', "node faults need several nodes: give the `nodes` option (e.g. ['r1', 'r2', 'r3'])");
  return budget;
}

/**
 * Searches the scenario's schedules for violations. Resolves with what it found (each with a
 * schedule that replays it through `simulate`) and how much it covered; rejects with a
 * LockstepError naming the path of a bad option.
 */
export async function explore(options: ExploreOptions): Promise<ExploreResult> {
  const o = checkOptions(options, OPTIONS);
  const clients = o.clients as AsyncClients | undefined;
  const scenario = scenarioOf(o);
  const variant = resolveVariant(scenario, o.variant);
  const seed = resolveSeed(o.seed);
  const clientIds = [...new Set([...variant.clients.map((c) => c.id), ...Object.keys(clients ?? {})])];
  const invariants = checkInvariants(o.invariants);
  const properties = checkProperties(o.properties);
  if (o.stopAt !== undefined && o.stopAt !== 'first' && o.stopAt !== 'all') throw new ArgumentError('stopAt', "'first' or 'all'");
  const stopAt = o.stopAt as 'first' | 'all' | undefined;
  if (clients === undefined || Object.keys(clients).length === 0) {
    return explorePrograms(scenario, variant.id, seed, o, clientIds, { invariants, properties, stopAt });
  }
  if (o.workers !== undefined && o.workers !== 1) {
    throw new ArgumentError('workers', 'worker threads search scenarios made of programs; async clients are searched on one thread');
  }
  const bounds = {
    faults: faultBudgetOf(o.faults, clientIds, nodeIdsOf(scenario, variant)),
    depthMax: integerIn('depthMax', o.depthMax, exploreBounds.depthMaxDefault, 1, exploreBounds.depthMaxLimit),
    runCountMax: integerIn('runCountMax', o.runCountMax, exploreBounds.runCountMaxDefault, 1, exploreBounds.runCountMaxLimit),
  };
  return searchAsync(scenario, { variantId: variant.id, seed, clients, bounds, invariants, properties, stopAt, redisClient: o.redisClient as RedisClientChoice | undefined });
}

/**
 * A scenario made of programs alone (a built-in lesson, a definition) goes to the engine's explorer
 * (src/engine/explore: snapshots, the partial-order reduction), with the scenario's declared bounds
 * unless the options give others; `runCountMax` bounds its states there. Its result takes this API's
 * shape (`runs` counts transitions: each is one move applied to a restored state).
 */
async function explorePrograms(
  scenario: Scenario,
  variantId: string,
  seed: number,
  o: Record<string, unknown>,
  clientIds: readonly string[],
  looked: { readonly invariants: ReturnType<typeof checkInvariants>; readonly properties: Properties; readonly stopAt: 'first' | 'all' | undefined },
): Promise<ExploreResult> {
  if (Object.keys(looked.properties).length > 0) throw new ArgumentError('properties', 'properties as functions are checked on async clients (`clients`); a scenario made of programs states its properties as data (a definition\'s `properties`)');
  const declared = resolveBounds(scenario);
  let bounds: ExploreBounds;
  try {
    bounds = resolveBounds(scenario, {
      ...(o.faults === undefined ? {} : { faults: faultBudgetOf(o.faults, clientIds, nodeIdsOf(scenario, findVariant(scenario, variantId))) }),
      depthMax: integerIn('depthMax', o.depthMax, declared.depthMax, 1, exploreBounds.depthMaxLimit),
      stateCountMax: integerIn('runCountMax', o.runCountMax, declared.stateCountMax, 1, exploreBounds.runCountMaxLimit),
    });
  } catch (error) {
    if (error instanceof BoundsError) throw new ArgumentError('faults', error.message);
    throw error;
  }
  const kinds = (looked.invariants ?? VIOLATION_KINDS).filter((k): k is CheckerKind => k !== 'client-error');
  const workers = integerIn('workers', o.workers, 1, 1, workerCountMax);
  const options = { variantId, seed, bounds, invariants: kinds, stopAt: looked.stopAt ?? 'first' } as const;
  // A definition's own properties (Scenario.properties) are judged beside the checkers, on workers too.
  const result = workers === 1 ? exploreEngine({ ...options, scenario }) : withProperties(await exploreInWorkers({ scenarioId: null, scenario, options }, workers), { ...options, scenario });
  return {
    scenarioId: result.scenarioId,
    variantId: result.variantId,
    seed: result.seed,
    bounds: { faults: result.bounds.faults, depthMax: result.bounds.depthMax, runCountMax: result.bounds.stateCountMax },
    invariants: kinds,
    properties: (scenario.properties ?? []).map((p) => p.name),
    runs: result.transitionsExplored,
    statesExplored: result.statesExplored,
    depthReached: result.depthReached,
    exhaustive: result.exhaustive,
    cut: { depth: result.cut.depthCutStates > 0 || result.cut.horizonCutMoves > 0, runBudget: result.cut.stateBudget, stoppedAtViolation: result.cut.stoppedAtViolation },
    violations: result.violations,
    verdict: { mode: result.mode, bounds: result.bounds, invariants: result.invariants, statesExplored: result.statesExplored, transitionsExplored: result.transitionsExplored, exhaustive: result.exhaustive, cut: result.cut, violations: result.violations, coverage: result.coverage, ...(result.properties === undefined ? {} : { properties: result.properties }) },
  };
}
