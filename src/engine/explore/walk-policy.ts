import type { SeededRandom } from '../rng';
import type { FaultBudget } from '../scenario';
import type { RankedMove } from './moves';

/**
 * How a walk picks its moves (walk.ts). One policy object serves every walk of an exploration;
 * `begin` starts a walk with that walk's own random stream, so a walk is replayed from its seed
 * alone (docs/EXPLORER.md, "Random walks").
 */
export interface WalkPolicy {
  /** Starts a walk: returns the fault budget this walk may spend (swarm draws its own). */
  begin(random: SeededRandom, budget: FaultBudget): FaultBudget;
  /**
   * Which of `candidates` (the moves left to try at this point) to try next, or -1 to end the
   * walk. `stepIndex` is the 0-based index of the choice being made. Called again with the
   * picked move removed when it did not apply.
   */
  pick(candidates: readonly RankedMove[], stepIndex: number, random: SeededRandom): number;
  /** The move taken as choice `stepIndex`. */
  taken(move: RankedMove, stepIndex: number): void;
}

/** Uniform random walk: every move that applies is equally likely. */
export const uniformPolicy: WalkPolicy = {
  begin: (_random, budget) => budget,
  pick: (candidates, _stepIndex, random) => (candidates.length === 0 ? -1 : random.below(candidates.length)),
  taken: () => undefined,
};

/** A move that spends or undoes a fault (anything but a client's step and the clock's advance). */
export function isFaultMove(m: RankedMove): boolean {
  return m.move.kind !== 'step' && m.move.kind !== 'next-due';
}
