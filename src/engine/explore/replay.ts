import type { Choice } from '../schedule';
import type { ExploreBounds } from './bounds';
import { BreadthFirstLoop, type LoopMove, type SearchSpace, type Waiting } from './bfs-loop';
import { noFaultsUsed, usedKey, type FaultsUsed } from './moves';
import type { FoundViolation, SearchCut } from './result';
import type { Move } from './runner';

/** What one replay of a path reached. */
export interface Replayed<K extends string> {
  /** The choice the last move became (a `next-due` move becomes its `+N`). */
  readonly choice: Choice;
  /** What it found at that choice, each by id (a kind, or the Node API's `property:<name>`). */
  readonly found: readonly { readonly id: string; readonly finding: Omit<FoundViolation<K>, 'choices' | 'schedule' | 'steps'> }[];
  /** The run ended there (its code threw): nothing follows it. */
  readonly ended: boolean;
  /** Virtual time after the choice. */
  readonly nowMs: number;
}

/**
 * A world the search cannot snapshot (async code: a suspended function cannot be copied), so it
 * reaches every state by running its path again from time 0. The async explorer (src/api/async)
 * is one. It starts at time 0, where `key` and `moves` describe the start.
 */
export interface ReplaySpace<K extends string> {
  /**
   * Runs `path` from time 0, then `move`. Null when one of them does not apply. `known` tells
   * what was found already (a finding costly to look for need not be looked for again).
   */
  replay(path: readonly Choice[], move: Move, known: (id: string) => boolean): Promise<Replayed<K> | null>;
  /** The key of the state reached (equal keys, equal futures). */
  key(): string;
  /** The moves there in the engine's order (moves.ts), with `used` of the fault budget spent. */
  moves(used: FaultsUsed): readonly Move[];
}

export interface ReplaySearchOptions {
  readonly bounds: ExploreBounds;
  /** What may be found, by id (see Replayed.found). */
  readonly wanted: readonly string[];
  readonly stopAt: 'first' | 'all' | 'never';
  /** Replays at most: each runs from time 0, so this, not states, is the work done. */
  readonly replayCountMax: number;
}

export interface ReplaySearchResult<K extends string> {
  readonly statesExplored: number;
  /** Replays run (each a path from time 0 and one move). */
  readonly transitionsExplored: number;
  readonly depthReached: number;
  readonly exhaustive: boolean;
  /** As the engine search's (`stateBudget`: the replay or the state budget ran out). */
  readonly cut: Omit<SearchCut, 'sampled'>;
  /** The first found of each id, shortest first. */
  readonly violations: readonly FoundViolation<K>[];
}

/** The replaying space as the loop asks it: each waiting state keeps its moves (the space is elsewhere by then). */
class ReplayLoopSpace<K extends string> implements SearchSpace<readonly LoopMove[], LoopMove, Replayed<K>> {
  constructor(private readonly space: ReplaySpace<K>) {}

  /** Its moves have no rank, id or position: no reduction, no shards. */
  movesAt(used: FaultsUsed): readonly LoopMove[] {
    return this.space.moves(used).map((move) => ({ move, id: '', position: -1 }));
  }

  enter(entry: Waiting<readonly LoopMove[]>): readonly LoopMove[] {
    return entry.data;
  }

  skippable(): boolean {
    return false;
  }

  effect(): null {
    return null;
  }

  key(used: FaultsUsed): string {
    return this.space.key() + usedKey(used);
  }

  child(used: FaultsUsed): readonly LoopMove[] {
    return this.movesAt(used);
  }

  canGoOn(moves: readonly LoopMove[]): boolean {
    return moves.length > 0;
  }
}

/**
 * The breadth-first search of bfs-loop.ts (the one search.ts drives over snapshots) for a world
 * that can only be replayed: each move is a run of its path from time 0 and the move. Without
 * snapshots it has no partial-order reduction, shards or checkpoints: each would replay more than
 * it saves. Its depth reached is the longest path applied within the horizon.
 */
export async function searchByReplay<K extends string>(space: ReplaySpace<K>, options: ReplaySearchOptions): Promise<ReplaySearchResult<K>> {
  const loopSpace = new ReplayLoopSpace(space);
  const loop = new BreadthFirstLoop<K, readonly LoopMove[], LoopMove, Replayed<K>>(loopSpace, loopSpace.key(noFaultsUsed), loopSpace.movesAt(noFaultsUsed), {
    bounds: options.bounds,
    wanted: new Set(options.wanted),
    stopAt: options.stopAt,
    reduce: false,
    transitionCountMax: options.replayCountMax,
    enoughAtEveryStep: true,
  });
  // Each round applies one move: the loop ends within the bounds' states times their moves, or the replay budget.
  for (let request = loop.next(); request !== null; request = loop.next()) {
    loop.record(request, await space.replay(loop.pathTo(request.entry.node), request.move.move, loop.known));
  }
  const c = loop.counts;
  const cut = { depthCutStates: c.depthCutStates, horizonCutMoves: c.horizonCutMoves, stateBudget: c.stateBudgetHit, stoppedAtViolation: c.stoppedAtViolation, cancelled: false };
  return {
    statesExplored: loop.statesExplored,
    transitionsExplored: c.transitions,
    depthReached: c.deepest,
    exhaustive: !cut.stateBudget && !cut.stoppedAtViolation && cut.depthCutStates === 0 && cut.horizonCutMoves === 0,
    cut,
    violations: loop.found.list(),
  };
}
