/**
 * The explorer (docs/EXPLORER.md): searches the schedules of a scenario variant for the shortest
 * one that breaks an invariant, or says how far it looked without finding one. Pure and
 * synchronous: it runs in Node, the page and a Web Worker; a caller that must stay responsive runs
 * it in slices (`createExploration(...).run(n)`) and reads `progress()` between them.
 */
import { exploreVerdictLines, type Lang } from '../../i18n';
import type { Scenario } from '../scenario';
import type { ViolationKind } from '../trace';
import { resolveBounds, type BoundsOverrides } from './bounds';
import type { ExploreMode, ExploreProgress, ExploreResult } from './result';
import { BreadthFirstSearch } from './search';
import { RandomWalk } from './walk';

export { BoundsError, formatFaultBudget, hasNodeFaults, noFaults, parseFaultBudget, resolveBounds, type BoundsOverrides, type ExploreBounds } from './bounds';
export type { ExploreMode, ExploreProgress, ExploreResult, FoundViolation, SearchCut, WalkCoverage } from './result';

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
  /** 'bfs' (default): breadth-first, shortest first, exhaustive when it can. 'random': seeded random walks. */
  readonly mode?: ExploreMode;
  /** Partial-order reduction (bfs only; default on). */
  readonly reduce?: boolean;
  /** Stop at the first violation ('first'), once every kind is found ('all', default), or never. */
  readonly stopAt?: 'first' | 'all' | 'never';
  /** Random walks: the walks' seed and how many to take. */
  readonly walkSeed?: number;
  readonly walkCountMax?: number;
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
  return options.mode === 'random'
    ? new RandomWalk({ ...common, walkSeed: options.walkSeed, walkCountMax: options.walkCountMax })
    : new BreadthFirstSearch({ ...common, reduce: options.reduce });
}

/** Runs an exploration to its end (or a bound) and returns what it found. */
export function explore(options: ExploreOptions): ExploreResult {
  const exploration = createExploration(options);
  exploration.run();
  return exploration.result();
}

/** The verdict in words, one line per finding (English for the CLI and traces; the page picks its language). */
export function verdictLines(result: ExploreResult, lang: Lang = 'en'): string[] {
  return exploreVerdictLines(result, lang);
}
