/**
 * The explorer (docs/EXPLORER.md): searches the schedules of a scenario variant for the shortest
 * one that breaks an invariant, or says how far it looked without finding one. Pure and
 * synchronous: it runs in Node, the page and a Web Worker; a caller that must stay responsive runs
 * it in slices (`createExploration(...).run(n)`) and reads `progress()` between them.
 */
import { exploreVerdictLines, type Lang } from '../../i18n';
import type { Scenario } from '../scenario';
import { PROPERTY_VIOLATION_KIND, type ViolationKind } from '../trace';
import { judgeProperties } from './properties';
import { BoundsError, resolveBounds, type BoundsOverrides } from './bounds';
import { bugDepthMax } from './pct';
import type { ExploreMode, ExploreProgress, ExploreResult } from './result';
import { checkpointFile, CheckpointError, CheckpointMismatch, readCheckpoint, type CheckpointFile } from './checkpoint';
import { BreadthFirstSearch, type ShardSpec } from './search';
import { scenarioHash, shardFile, type ShardFile, type ShardIdentity } from './shard';
import { RandomWalk } from './walk';

export { BoundsError, formatFaultBudget, hasNodeFaults, noFaults, parseFaultBudget, resolveBounds, type BoundsOverrides, type ExploreBounds } from './bounds';
export { propertyScenario, propertyVerdict, type PropertyVerdict } from './properties';
export { EXPLORE_MODES, type ExploreMode, type ExploreProgress, type ExploreResult, type FoundViolation, type PctGuarantee, type SearchCut, type WalkCoverage, type WalkMode } from './result';
export { bugDepthMax, defaultBugDepth } from './pct';
export { seedOfWalk } from './walk';
export { mergeShards, parseShardSpec, ShardError, type ShardFile, type ShardTally } from './shard';
export type { ShardSpec } from './search';
export { CheckpointError, type CheckpointFile } from './checkpoint';

export interface ExploreOptions {
  readonly scenario: Scenario;
  readonly variantId?: string;
  /** The run's seed (tokens, jitter): part of the world being searched. */
  readonly seed?: number;
  /** Bounds over the scenario's declared ones (`scenario.explore`), which are over the defaults. */
  readonly bounds?: BoundsOverrides;
  /** Violation kinds to look for (default: every kind). */
  readonly invariants?: readonly ViolationKind[];
  /** Only violations whose clients start with these, offender first (a challenge's "make A delete B's lock"). */
  readonly offenders?: readonly string[];
  /**
   * 'bfs' (default): breadth-first, shortest first, exhaustive when it can. Seeded random walks:
   * 'random' (uniform), 'pct' (probabilistic concurrency testing, `bugDepth`), 'swarm' (a fault
   * budget drawn per walk).
   */
  readonly mode?: ExploreMode;
  /** The reductions (bfs only; default on): partial-order reduction and the canonical state key (search.ts). */
  readonly reduce?: boolean;
  /** Stop at the first violation ('first'), once every kind is found ('all', default), or never. */
  readonly stopAt?: 'first' | 'all' | 'never';
  /** Random walks: the walks' seed and how many to take. */
  readonly walkSeed?: number;
  readonly walkCountMax?: number;
  /** PCT's bug depth d (1 to 10, default 2). */
  readonly bugDepth?: number;
}

/** A search that runs in slices: `run(n)` applies at most n moves and returns true when done. */
export interface Exploration {
  run(transitionCountMax?: number): boolean;
  readonly done: boolean;
  cancel(): void;
  progress(): ExploreProgress;
  result(): ExploreResult;
}

export function createExploration(options: ExploreOptions): Exploration {
  const bounds = resolveBounds(options.scenario, options.bounds);
  const common = { scenario: options.scenario, variantId: options.variantId, seed: options.seed, bounds, invariants: options.invariants, offenders: options.offenders, stopAt: options.stopAt };
  const mode = options.mode ?? 'bfs';
  if (options.bugDepth !== undefined && mode !== 'pct') throw new BoundsError('a bug depth is for PCT walks (mode pct)');
  if (options.bugDepth !== undefined && (!Number.isSafeInteger(options.bugDepth) || options.bugDepth < 1 || options.bugDepth > bugDepthMax)) {
    throw new BoundsError(`bugDepth must be an integer from 1 to ${bugDepthMax}, got ${options.bugDepth}`);
  }
  return mode === 'bfs'
    ? new BreadthFirstSearch({ ...common, reduce: options.reduce })
    : new RandomWalk({ ...common, mode, walkSeed: options.walkSeed, walkCountMax: options.walkCountMax, bugDepth: options.bugDepth });
}

/** One shard of a breadth-first search (shard.ts): runs it and returns its file for the merge. */
export function exploreShard(options: ExploreOptions & { readonly shard: ShardSpec }): ShardFile {
  const shard = createShardExploration(options);
  shard.search.run();
  return shard.file();
}

/**
 * One shard of a breadth-first search that runs in slices (the page's workers): `search` is an
 * Exploration; `file()` is its shard file for the merge once it is done or cancelled.
 */
export function createShardExploration(options: ExploreOptions & { readonly shard: ShardSpec }): { readonly search: BreadthFirstSearch; file(): ShardFile } {
  if ((options.mode ?? 'bfs') !== 'bfs') throw new BoundsError('only the breadth-first search is sharded (random walks split by walk seed instead)');
  const bounds = resolveBounds(options.scenario, options.bounds);
  const search = new BreadthFirstSearch({ scenario: options.scenario, variantId: options.variantId, seed: options.seed, bounds, invariants: options.invariants, offenders: options.offenders, stopAt: options.stopAt, reduce: options.reduce, shard: options.shard });
  return { search, file: () => shardFile(search, identityOf(search, options)) };
}

/** What makes a search this search (for shard and checkpoint files). */
function identityOf(search: BreadthFirstSearch, options: ExploreOptions): ShardIdentity {
  const result = search.result();
  return {
    scenario: result.scenarioId,
    scenarioHash: scenarioHash(options.scenario),
    variant: result.variantId,
    seed: result.seed,
    bounds: result.bounds,
    invariants: result.invariants,
    offenders: options.offenders ?? null,
    reduce: result.reduced,
    stopAt: options.stopAt ?? 'all',
  };
}

/**
 * A breadth-first search that can stop between two expansions and be written to a checkpoint
 * (checkpoint.ts): from the start, or from `checkpoint` (a parsed file, named `name` in errors),
 * which must be a checkpoint of this very search (CheckpointError otherwise).
 */
export function createCheckpointedSearch(options: ExploreOptions, checkpoint?: { readonly name: string; readonly data: unknown }): { readonly search: BreadthFirstSearch; write(): CheckpointFile } {
  if ((options.mode ?? 'bfs') !== 'bfs') throw new BoundsError('only the breadth-first search takes checkpoints');
  const bounds = resolveBounds(options.scenario, options.bounds);
  const base = { scenario: options.scenario, variantId: options.variantId, seed: options.seed, bounds, invariants: options.invariants, offenders: options.offenders, stopAt: options.stopAt, reduce: options.reduce, stableKeys: true };
  let search = new BreadthFirstSearch(base);
  const identity = identityOf(search, options);
  if (checkpoint !== undefined) {
    const resume = readCheckpoint(checkpoint.data, checkpoint.name, identity);
    try {
      search = new BreadthFirstSearch({ ...base, resume });
    } catch (error) {
      if (error instanceof CheckpointMismatch) throw new CheckpointError(`${checkpoint.name}: ${error.message}`);
      throw error;
    }
  }
  return { search, write: () => checkpointFile(search, identity) };
}

/** Runs an exploration to its end (or a bound) and returns what it found. */
export function explore(options: ExploreOptions): ExploreResult {
  const exploration = createExploration(options);
  exploration.run();
  return withProperties(exploration.result(), options);
}

/**
 * The result with the scenario's own properties judged (`properties`), each by a search of its own
 * in the same mode and bounds (properties.ts); unchanged when the scenario states none. A caller
 * whose main search ran elsewhere (on workers) adds them with this.
 */
export function withProperties(result: ExploreResult, options: ExploreOptions): ExploreResult {
  if ((options.scenario.properties ?? []).length === 0) return result;
  const properties = judgeProperties(options.scenario, (scenario) => {
    const search = createExploration({ ...options, scenario, invariants: [PROPERTY_VIOLATION_KIND], offenders: undefined, stopAt: 'first' });
    search.run();
    return search.result();
  });
  return { ...result, properties };
}

/** The verdict in words, one line per finding (English for the CLI and traces; the page picks its language). */
export function verdictLines(result: ExploreResult, lang: Lang = 'en'): string[] {
  return exploreVerdictLines(result, lang);
}
