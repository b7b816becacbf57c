import type { FaultBudget } from '../scenario';
import type { Choice } from '../schedule';
import type { CheckerKind, ViolationKind } from '../trace';
import type { ExploreBounds } from './bounds';
import type { PctGuarantee } from './pct';
import type { PropertyVerdict } from './properties';

export type { PctGuarantee } from './pct';

/**
 * A schedule the explorer found that breaks an invariant. `K` is what it breaks: a checker's kind
 * here; the Node API's async search adds its own findings (a client's uncaught error, a property).
 */
export interface FoundViolation<K extends string = ViolationKind> {
  readonly kind: K;
  /** The property's name, for a finding of one of the Node API's properties. */
  readonly property?: string;
  /** The schedule from the start, in choices: replaying it shows the violation at its last choice. */
  readonly choices: readonly Choice[];
  /** The same schedule in canonical text (docs/SCHEDULES.md): what `run --schedule` and links take. */
  readonly schedule: string;
  /** Number of choices (the depth at which it was found). */
  readonly steps: number;
  /** The checker's sentence (English, as in the trace). */
  readonly message: string;
  readonly clients: readonly string[];
  /** Virtual time of the violation. */
  readonly atMs: number;
  /**
   * Random walks: the walk that found it (0-based), its own seed (`--walk-seed <seed> --walks 1`
   * with the same mode replays that walk alone) and the fault budget it ran with (a swarm walk's own).
   */
  readonly walk?: { readonly index: number; readonly seed: number; readonly faults: FaultBudget };
}

/** Why a search ended before it had seen every state within its bounds (empty when exhaustive). */
export interface SearchCut {
  /** States at the depth bound that still had moves (not expanded). */
  readonly depthCutStates: number;
  /** Moves not taken because they would have taken the clock past the horizon. */
  readonly horizonCutMoves: number;
  /** The state budget ran out. */
  readonly stateBudget: boolean;
  /** It stopped once it had found what it looked for. */
  readonly stoppedAtViolation: boolean;
  readonly cancelled: boolean;
  /** Random walks cover a sample, never every state. */
  readonly sampled: boolean;
}

/** Random-walk coverage: how much of the space a sample of walks is likely to have seen. */
export interface WalkCoverage {
  readonly walks: number;
  /** The walks' seed: walk i ran with seed walkSeed + i (walk.ts, seedOfWalk). */
  readonly walkSeed: number;
  /** Distinct states among all states the walks passed through. */
  readonly distinctStates: number;
  /** States the walks passed through (with repeats). */
  readonly visits: number;
  /** Distinct states seen exactly once. */
  readonly seenOnce: number;
  /**
   * Good-Turing sample coverage, 1 - seenOnce / visits: an estimate of the chance that the next
   * state a walk reaches is one already seen. 1 means the walks keep meeting known states.
   */
  readonly goodTuring: number;
}

/** The random modes (walk.ts): uniform walks, PCT (pct.ts), swarm (swarm.ts). */
export type WalkMode = 'random' | 'pct' | 'swarm';
export type ExploreMode = 'bfs' | WalkMode;
export const EXPLORE_MODES: readonly ExploreMode[] = ['bfs', 'random', 'pct', 'swarm'];

export interface ExploreResult {
  readonly scenarioId: string;
  readonly variantId: string;
  readonly seed: number;
  readonly mode: ExploreMode;
  readonly bounds: ExploreBounds;
  /** The violation kinds looked for. */
  readonly invariants: readonly CheckerKind[];
  /** Whether the partial-order reduction was on. */
  readonly reduced: boolean;
  readonly statesExplored: number;
  readonly transitionsExplored: number;
  /** Moves the partial-order reduction skipped (each would have reached a state seen another way). */
  readonly transitionsSkipped: number;
  /** Deepest level of the search reached (choices). */
  readonly depthReached: number;
  /** Every state within the bounds was explored (no cut of any kind). */
  readonly exhaustive: boolean;
  readonly cut: SearchCut;
  /** The first violation found of each kind looked for, shortest first (breadth-first: shortest). */
  readonly violations: readonly FoundViolation[];
  /** Present for random walks. */
  readonly coverage: WalkCoverage | null;
  /** PCT: the bug depth and the probability its walks give (pct.ts); null otherwise. */
  readonly pct: PctGuarantee | null;
  /** The scenario's own properties, each judged by a search of its own (properties.ts); absent when it states none. */
  readonly properties?: readonly PropertyVerdict[];
}

/** Progress of a running search, for a progress display. */
export interface ExploreProgress {
  readonly statesExplored: number;
  readonly transitionsExplored: number;
  /** States waiting to be expanded. */
  readonly frontier: number;
  readonly depth: number;
  readonly violationsFound: number;
}
