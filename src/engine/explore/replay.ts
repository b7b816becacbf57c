import type { Choice } from '../schedule';
import type { ExploreBounds } from './bounds';
import { FirstFound, foundAt } from './found';
import { MoveTable, noFaultsUsed, usedKey, type FaultsUsed } from './moves';
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

interface Entry {
  readonly path: readonly Choice[];
  readonly used: FaultsUsed;
  readonly moves: readonly Move[];
}

/**
 * The breadth-first search of search.ts for a world that can only be replayed: level by level,
 * each distinct state (its key with the fault budget left) expanded once, the first finding of an
 * id kept (a shortest one, FirstFound), cut by the same bounds. Without snapshots it has no
 * partial-order reduction, shards or checkpoints: each would replay more than it saves.
 */
export async function searchByReplay<K extends string>(space: ReplaySpace<K>, options: ReplaySearchOptions): Promise<ReplaySearchResult<K>> {
  const { bounds } = options;
  const found = new FirstFound<K>(new Set(options.wanted), options.stopAt);
  const visited = new Set<string>([space.key() + usedKey(noFaultsUsed)]);
  let level: Entry[] = [{ path: [], used: noFaultsUsed, moves: space.moves(noFaultsUsed) }];
  let replays = 0;
  let depthReached = 0;
  let depthCutStates = 0;
  let horizonCutMoves = 0;
  let budget = false;
  let stopped = false;
  search: for (let depth = 0; depth < bounds.depthMax && level.length > 0; depth++) {
    const next: Entry[] = [];
    for (const entry of level) {
      for (const move of entry.moves) {
        if (replays >= options.replayCountMax) {
          budget = true;
          break search;
        }
        replays += 1;
        const reached = await space.replay(entry.path, move, (id) => found.has(id));
        if (reached === null) continue;
        if (bounds.horizonMs !== null && reached.nowMs > bounds.horizonMs) {
          horizonCutMoves += 1;
          continue;
        }
        const path = [...entry.path, reached.choice];
        depthReached = Math.max(depthReached, path.length);
        for (const { id, finding } of reached.found) found.note(id, foundAt(finding, path));
        if (found.enough) {
          stopped = true;
          break search;
        }
        if (reached.ended) continue;
        // The same state with more of the fault budget left can do more: it is another state.
        const used = MoveTable.spend(entry.used, move);
        const key = space.key() + usedKey(used);
        if (visited.has(key)) continue;
        if (visited.size >= bounds.stateCountMax) {
          budget = true;
          break search;
        }
        visited.add(key);
        const moves = space.moves(used);
        if (path.length >= bounds.depthMax) {
          if (moves.length > 0) depthCutStates += 1;
          continue;
        }
        next.push({ path, used, moves });
      }
    }
    level = next;
  }
  const cut = { depthCutStates, horizonCutMoves, stateBudget: budget, stoppedAtViolation: stopped, cancelled: false };
  return {
    statesExplored: visited.size,
    transitionsExplored: replays,
    depthReached,
    exhaustive: !budget && !stopped && depthCutStates === 0 && horizonCutMoves === 0,
    cut,
    violations: found.list(),
  };
}
