/**
 * `explore`: let the machine find the race. Searches the schedules of a scenario (every order of
 * the clients' steps, the clock moving to each next due time, and faults within a budget) breadth
 * first, so the first violation found of a kind comes with a shortest schedule that shows it.
 * Async clients are searched by replaying each schedule from time 0 (async/search.ts). Scenarios
 * made of programs alone go to the engine's explorer (src/engine/explore, issue 13).
 */
import type { ViolationKind } from '../engine/trace';
import { VIOLATION_KINDS } from '../engine/trace';
import { advanceMsMax } from '../engine/schedule';
import type { AsyncClients } from './async/run';
import { searchAsync, type AsyncSearchResult, type FaultBudget } from './async/search';
import { ArgumentError, ExplorerUnavailableError } from './errors';
import { checkOptions, resolveScenario, resolveSeed, resolveVariant, type ScenarioSource } from './source';

export type { FoundViolation } from './async/search';

export interface ExploreFaults {
  /** Stalls (`A~N`, a stop-the-world pause of a client's process) one schedule may contain (default 0). */
  readonly stalls?: number;
  /** The stall lengths tried at every point (ms). */
  readonly stallLengthsMs?: readonly number[];
  /** Crashes (`!A`) one schedule may contain (default 0). */
  readonly crashes?: number;
  /** Only these clients' processes are faulted (default: every client's). */
  readonly clients?: readonly string[];
}

export interface ExploreOptions {
  readonly scenario?: ScenarioSource;
  readonly variant?: string;
  readonly seed?: number;
  readonly clients?: AsyncClients;
  readonly lockKey?: string;
  readonly faults?: ExploreFaults;
  /** Longest schedule searched, in choices (default 12). */
  readonly depthMax?: number;
  /** Schedules run at most, each from time 0 (default 20,000). */
  readonly runCountMax?: number;
  /** Violation kinds to look for (default: every kind). */
  readonly invariants?: readonly ViolationKind[];
  /** Stop at the first violation found (default), or once every kind looked for is found ('all'). */
  readonly stopAt?: 'first' | 'all';
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

const OPTIONS = ['scenario', 'variant', 'seed', 'clients', 'lockKey', 'faults', 'depthMax', 'runCountMax', 'invariants', 'stopAt'] as const;

function integerIn(path: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new ArgumentError(path, `an integer from ${min} to ${max}, got ${String(value)}`);
  return value;
}

function faultBudgetOf(faults: unknown, clientIds: readonly string[]): FaultBudget {
  if (faults === undefined) return { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 0 };
  if (typeof faults !== 'object' || faults === null) throw new ArgumentError('faults', '{ stalls?, stallLengthsMs?, crashes?, clients? }');
  const f = checkOptions(faults, ['stalls', 'stallLengthsMs', 'crashes', 'clients']);
  const stallCountMax = integerIn('faults.stalls', f.stalls, 0, 0, exploreBounds.faultCountMaxLimit);
  const crashCountMax = integerIn('faults.crashes', f.crashes, 0, 0, exploreBounds.faultCountMaxLimit);
  const lengths = f.stallLengthsMs ?? [];
  if (!Array.isArray(lengths) || lengths.length > exploreBounds.stallLengthCountMaxLimit) throw new ArgumentError('faults.stallLengthsMs', `a list of at most ${exploreBounds.stallLengthCountMaxLimit} durations (ms)`);
  const stallLengthsMs = [...new Set(lengths.map((ms, i) => integerIn(`faults.stallLengthsMs[${i}]`, ms, 0, 1, advanceMsMax)))].sort((a, b) => a - b);
  if (stallCountMax > 0 && stallLengthsMs.length === 0) throw new ArgumentError('faults.stallLengthsMs', 'stalls need at least one length, e.g. [5000]');
  let clients: string[] | undefined;
  if (f.clients !== undefined) {
    if (!Array.isArray(f.clients)) throw new ArgumentError('faults.clients', 'a list of client ids');
    f.clients.forEach((id, i) => {
      if (!clientIds.includes(id as string)) throw new ArgumentError(`faults.clients[${i}]`, `no client ${JSON.stringify(id)} (${clientIds.join(', ')})`);
    });
    clients = f.clients as string[];
  }
  return { stallCountMax, stallLengthsMs, crashCountMax, ...(clients ? { clients } : {}) };
}

/**
 * Searches the scenario's schedules for violations. Resolves with what it found (each with a
 * schedule that replays it through `simulate`) and how much it covered; rejects with a
 * LockstepError naming the path of a bad option.
 */
export async function explore(options: ExploreOptions): Promise<ExploreResult> {
  const o = checkOptions(options, OPTIONS);
  const clients = o.clients as AsyncClients | undefined;
  const scenario = resolveScenario(o.scenario as ScenarioSource | undefined, o.lockKey, clients !== undefined);
  const variant = resolveVariant(scenario, o.variant);
  const seed = resolveSeed(o.seed);
  const clientIds = [...new Set([...variant.clients.map((c) => c.id), ...Object.keys(clients ?? {})])];
  const bounds = {
    faults: faultBudgetOf(o.faults, clientIds),
    depthMax: integerIn('depthMax', o.depthMax, exploreBounds.depthMaxDefault, 1, exploreBounds.depthMaxLimit),
    runCountMax: integerIn('runCountMax', o.runCountMax, exploreBounds.runCountMaxDefault, 1, exploreBounds.runCountMaxLimit),
  };
  if (o.invariants !== undefined && (!Array.isArray(o.invariants) || o.invariants.some((k) => !VIOLATION_KINDS.includes(k as ViolationKind)))) {
    throw new ArgumentError('invariants', `a list of violation kinds (${VIOLATION_KINDS.join(', ')})`);
  }
  if (o.stopAt !== undefined && o.stopAt !== 'first' && o.stopAt !== 'all') throw new ArgumentError('stopAt', "'first' or 'all'");
  if (clients === undefined || Object.keys(clients).length === 0) {
    throw new ExplorerUnavailableError(
      "the explorer for scenarios made of programs (src/engine/explore, issue 13) has not landed yet; explore with async clients ('clients') works today",
    );
  }
  return searchAsync(scenario, {
    variantId: variant.id,
    seed,
    clients,
    bounds,
    invariants: o.invariants as ViolationKind[] | undefined,
    stopAt: o.stopAt as 'first' | 'all' | undefined,
  });
}
