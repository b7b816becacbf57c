import type { Choice } from '../schedule';
import type { ExploreBounds } from './bounds';
import type { CheckpointEntry, SearchCheckpoint } from './checkpoint';
import { FirstFound, foundAt } from './found';
import { MoveTable, noFaultsUsed, type FaultsUsed } from './moves';
import type { Effect } from './por';
import type { ExploreProgress, FoundViolation } from './result';
import type { Move } from './runner';
import type { ShardState, ShardTally } from './shard';

/** A move as the loop sees it: what it does, its id (POR's effects) and its position (moves.ts; shards). */
export interface LoopMove {
  readonly move: Move;
  readonly id: string;
  readonly position: number;
}

/** What one applied move reached (null from the driver: it did not apply). */
export interface LoopStep<K extends string> {
  /** The choice the move became (a `next-due` move becomes its `+N`). */
  readonly choice: Choice;
  /** Virtual time after it. */
  readonly nowMs: number;
  /** What it found not known yet, each by id (a kind, or the Node API's `property:<name>`). */
  readonly found: readonly { readonly id: string; readonly finding: Omit<FoundViolation<K>, 'choices' | 'schedule' | 'steps'> }[];
  /** The run ended there (async code threw): nothing follows it. */
  readonly ended: boolean;
}

/** One state waiting to be expanded; `data` is the space's (a snapshot, or the moves there). */
export interface Waiting<D> {
  readonly node: number;
  readonly data: D;
  readonly used: FaultsUsed;
  readonly depth: number;
  /** What the move that first reached this state did at its parent (for the reduction). */
  readonly via: Effect | null;
  /** What every move applied at the parent did there, by move id. */
  readonly siblings: ReadonlyMap<string, Effect> | null;
}

/**
 * The world a breadth-first search walks. Applying a move is the driver's (synchronous with
 * snapshots, or asynchronous by replay); the rest is asked right after, of the state it reached.
 */
export interface SearchSpace<D, M extends LoopMove, S extends LoopStep<string>> {
  /** The moves at a waiting state, in the order to try them. */
  enter(entry: Waiting<D>): readonly M[];
  /** Whether partial-order reduction may skip `move` at `entry` (por.ts). */
  skippable(entry: Waiting<D>, move: M): boolean;
  /** What the move just applied did (partial-order reduction); null when the space has none. */
  effect(entry: Waiting<D>, move: M, step: S): Effect | null;
  /** The key of the state reached, with `used` of the fault budget spent (equal keys, equal futures). */
  key(used: FaultsUsed): string;
  /** What the loop keeps of the state reached, to expand it later. */
  child(used: FaultsUsed): D;
  /** At the depth bound: whether the state reached could still change. */
  canGoOn(data: D, used: FaultsUsed): boolean;
  /** The process-independent key of the state reached (shards only). */
  stableKey?(used: FaultsUsed): string;
  /** The state at the end of a checkpoint's path (resume only). */
  rebuild?(choices: readonly Choice[]): D;
}

/** One part of a search split across processes (shard.ts). */
export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

export interface LoopOptions {
  readonly bounds: ExploreBounds;
  /** What may be found, by id. */
  readonly wanted: ReadonlySet<string>;
  readonly stopAt: 'first' | 'all' | 'never';
  /** Skip moves independent of the one that led here (por.ts; needs the space's effects). */
  readonly reduce: boolean;
  /** Moves applied at most, then the search is cut as by the state budget (the replaying space's runs). */
  readonly transitionCountMax?: number;
  /**
   * Stop as soon as enough is found, looked at after every step (the replaying search's rule);
   * otherwise only after a step that found something (the snapshot search's).
   */
  readonly enoughAtEveryStep?: boolean;
  readonly shard?: ShardSpec | null;
}

/** A shard splits at the first level with at least this many states per shard (or the last level). */
const splitWidthPerShard = 8;

/** What the search did so far (the result's counts and cut). */
export interface LoopCounts {
  transitions: number;
  skipped: number;
  /** Levels started (the snapshot search's depth reached). */
  depth: number;
  /** The longest path applied within the horizon (the replaying search's depth reached). */
  deepest: number;
  depthCutStates: number;
  horizonCutMoves: number;
  stateBudgetHit: boolean;
  cancelled: boolean;
  stoppedAtViolation: boolean;
}

interface Expanding<D, M> {
  readonly entry: Waiting<D>;
  readonly moves: readonly M[];
  index: number;
  readonly effects: Map<string, Effect>;
  fresh: boolean;
}

/** The next move to apply: at `entry`, `first` when the space is still at `entry` (nothing applied since enter). */
export interface LoopRequest<D, M> {
  readonly entry: Waiting<D>;
  readonly move: M;
  readonly first: boolean;
}

/**
 * The breadth-first search over schedules (docs/EXPLORER.md), written once: level by level, each
 * distinct state (its key with the fault budget spent) expanded once, the first finding of an id
 * kept (a shortest one, FirstFound), cut by the bounds. A driver asks `next()` for a move, applies
 * it in its space, and hands the outcome to `record()`: search.ts drives it synchronously with
 * snapshots (slices, POR, shards, checkpoints), replay.ts asynchronously by replaying each path.
 */
export class BreadthFirstLoop<K extends string, D, M extends LoopMove, S extends LoopStep<K>> {
  readonly found: FirstFound<K>;
  /** Whether an id was found already (for the driver's apply). */
  readonly known = (id: string): boolean => this.found.has(id);
  private readonly bounds: ExploreBounds;
  private readonly reduce: boolean;
  private readonly transitionCountMax: number;
  private readonly enoughAtEveryStep: boolean;
  private readonly visited = new Map<string, number>();
  /** Per visited state: its parent node and the choice from there (the path back to the start). */
  private readonly parents: number[] = [];
  private readonly choices: (Choice | null)[] = [];
  /** Per visited state: the position (moves.ts) of the move from its parent. */
  private readonly positions: number[] = [];
  private readonly shard: ShardSpec | null;
  private splitDepth: number | null = null;
  private prefix: ShardTally['prefix'] | null = null;
  private readonly frontier = { horizonCutMoves: 0, transitions: 0, skipped: 0 };
  /** States visited past the split level, by node. */
  private readonly beyond = new Map<number, ShardState>();
  private readonly orders = new Map<string, number[]>();
  /** Nodes restored from a checkpoint: their paths from the start. */
  private readonly restored = new Map<number, { readonly choices: readonly Choice[]; readonly positions: readonly number[] }>();
  private pauseRequested = false;
  private level: Waiting<D>[] = [];
  private nextLevel: Waiting<D>[] = [];
  private position = 0;
  /** The state being expanded: its remaining moves (resumable between slices). */
  private expanding: Expanding<D, M> | null = null;
  private readonly c: LoopCounts = { transitions: 0, skipped: 0, depth: 0, deepest: 0, depthCutStates: 0, horizonCutMoves: 0, stateBudgetHit: false, cancelled: false, stoppedAtViolation: false };

  constructor(
    private readonly space: SearchSpace<D, M, S>,
    rootKey: string,
    rootData: D,
    options: LoopOptions,
  ) {
    this.bounds = options.bounds;
    this.reduce = options.reduce;
    this.transitionCountMax = options.transitionCountMax ?? Number.POSITIVE_INFINITY;
    this.enoughAtEveryStep = options.enoughAtEveryStep ?? false;
    this.shard = options.shard ?? null;
    if (this.shard !== null && space.stableKey === undefined) throw new Error('this search space cannot be sharded');
    this.found = new FirstFound<K>(options.wanted, options.stopAt);
    this.visit(rootKey, -1, null, -1);
    this.level.push({ node: 0, data: rootData, used: noFaultsUsed, depth: 0, via: null, siblings: null });
  }

  /** Takes up a checkpoint: its counts and visited states, and its waiting states rebuilt by replaying their paths. */
  resumeFrom(c: SearchCheckpoint): void {
    const rebuildOf = this.space.rebuild;
    if (rebuildOf === undefined) throw new Error('this search space cannot resume from a checkpoint');
    this.visited.clear();
    for (const key of c.visited) this.visited.set(key, 0);
    this.c.depth = c.depth;
    this.c.transitions = c.transitions;
    this.c.skipped = c.skipped;
    this.c.depthCutStates = c.depthCutStates;
    this.c.horizonCutMoves = c.horizonCutMoves;
    for (const v of c.found) this.found.note(v.kind, v as FoundViolation<K>);
    const rebuild = (e: CheckpointEntry): Waiting<D> => {
      const data = rebuildOf.call(this.space, e.choices);
      const node = this.parents.length;
      this.parents.push(0);
      this.choices.push(e.choices[e.choices.length - 1] ?? null);
      this.positions.push(e.positions[e.positions.length - 1] ?? -1);
      this.restored.set(node, { choices: e.choices, positions: e.positions });
      const siblings = e.siblings === null ? null : new Map(e.siblings);
      return { node, data, used: e.used, depth: e.depth, via: e.via, siblings };
    };
    this.level = c.level.map(rebuild);
    this.nextLevel = c.next.map(rebuild);
  }

  /** Asks `next` to return null at the next point between two states' expansions (for checkpoint()). */
  pause(): void {
    this.pauseRequested = true;
  }

  get atBoundary(): boolean {
    return this.expanding === null;
  }

  /** The search as plain data, between two expansions. */
  checkpoint(): SearchCheckpoint {
    if (this.expanding !== null) throw new Error('a checkpoint is taken between two expansions: pause() and run() first');
    const entry = (e: Waiting<D>): CheckpointEntry => ({
      choices: this.pathTo(e.node),
      positions: this.positionsTo(e.node),
      used: e.used,
      depth: e.depth,
      via: e.via,
      siblings: e.siblings === null ? null : [...e.siblings],
    });
    return {
      depth: this.c.depth,
      transitions: this.c.transitions,
      skipped: this.c.skipped,
      depthCutStates: this.c.depthCutStates,
      horizonCutMoves: this.c.horizonCutMoves,
      visited: [...this.visited.keys()],
      level: this.level.slice(this.position).map(entry),
      next: this.nextLevel.map(entry),
      found: this.found.list() as SearchCheckpoint['found'],
    };
  }

  get done(): boolean {
    return this.c.cancelled || this.c.stoppedAtViolation || this.c.stateBudgetHit || (this.expanding === null && this.position >= this.level.length && this.nextLevel.length === 0);
  }

  cancel(): void {
    this.c.cancelled = true;
  }

  /** The next move to apply; null when the search is done or pauses here. */
  next(): LoopRequest<D, M> | null {
    // Each round takes a waiting state or one of its moves: bounded by the frontier and the state budget.
    while (!this.done) {
      if (this.expanding === null && this.pauseRequested) {
        this.pauseRequested = false;
        return null;
      }
      if (this.expanding === null && !this.startNext()) continue;
      const x = this.expanding as Expanding<D, M>;
      if (x.index >= x.moves.length) {
        this.expanding = null;
        continue;
      }
      const move = x.moves[x.index++];
      if (this.reduce && this.space.skippable(x.entry, move)) {
        this.c.skipped += 1;
        const tally = this.tallyOf(x.entry);
        if (tally !== null) tally.skipped += 1;
        continue;
      }
      if (this.c.transitions >= this.transitionCountMax) {
        this.c.stateBudgetHit = true;
        return null;
      }
      const first = x.fresh;
      x.fresh = false;
      return { entry: x.entry, move, first };
    }
    return null;
  }

  /** Takes the next state of this level (or starts the next level). False when there was none. */
  private startNext(): boolean {
    if (this.position >= this.level.length) {
      this.level = this.nextLevel;
      this.nextLevel = [];
      this.position = 0;
      if (this.level.length === 0) return false;
      this.c.depth += 1;
      if (this.shard !== null && this.splitDepth === null && (this.level.length >= splitWidthPerShard * this.shard.count || this.c.depth >= this.bounds.depthMax - 1)) this.split(this.shard);
      if (this.position >= this.level.length) return false;
    }
    const entry = this.level[this.position];
    this.level[this.position++] = undefined as unknown as Waiting<D>;
    const moves = this.space.enter(entry);
    this.expanding = { entry, moves, index: 0, effects: new Map(), fresh: true };
    return true;
  }

  /**
   * Splits the search at the level starting now: every shard has searched the same levels so far
   * (the prefix); from here each expands only every count-th state of this level, by position.
   */
  private split(shard: ShardSpec): void {
    this.splitDepth = this.c.depth;
    this.prefix = { states: this.visited.size, transitions: this.c.transitions, skipped: this.c.skipped, horizonCutMoves: this.c.horizonCutMoves };
    this.level = this.level.filter((_, i) => i % shard.count === shard.index);
  }

  /** Records what the move of `request` reached (null: it did not apply). */
  record(request: LoopRequest<D, M>, step: S | null): void {
    const { entry, move } = request;
    const effects = (this.expanding as Expanding<D, M>).effects;
    this.c.transitions += 1;
    const tally = this.tallyOf(entry);
    if (tally !== null) tally.transitions += 1;
    if (step === null) return;
    if (this.bounds.horizonMs !== null && step.nowMs > this.bounds.horizonMs) {
      this.c.horizonCutMoves += 1;
      if (tally !== null) tally.horizonCutMoves += 1;
      return;
    }
    const depth = entry.depth + 1;
    if (depth > this.c.deepest) this.c.deepest = depth;
    if (this.reduce) {
      const effect = this.space.effect(entry, move, step);
      if (effect !== null) effects.set(move.id, effect);
    }
    const used = MoveTable.spend(entry.used, move.move);
    if (this.noteFound(entry.node, step, move.position) || this.enoughAtEveryStep) {
      if (this.found.enough) this.c.stoppedAtViolation = true;
    }
    if (this.c.stoppedAtViolation || step.ended) return;
    const key = this.space.key(used);
    if (this.visited.has(key)) return;
    if (this.visited.size >= this.bounds.stateCountMax) {
      this.c.stateBudgetHit = true;
      return;
    }
    const node = this.visit(key, entry.node, step.choice, move.position);
    const data = this.space.child(used);
    const past: ShardState | null = this.splitDepth === null ? null : { hash: this.shardKey(used), depth, cut: false, horizonCutMoves: 0, transitions: 0, skipped: 0, order: this.positionsTo(node).join(',') };
    if (past !== null) this.beyond.set(node, past);
    if (depth >= this.bounds.depthMax) {
      if (this.space.canGoOn(data, used)) {
        this.c.depthCutStates += 1;
        if (past !== null) past.cut = true;
      }
      return;
    }
    this.nextLevel.push({ node, data, used, depth, via: this.reduce ? (effects.get(move.id) ?? null) : null, siblings: this.reduce ? effects : null });
  }

  /** The key a shard file keeps of the state reached. */
  private shardKey(used: FaultsUsed): string {
    if (this.space.stableKey === undefined) throw new Error('this search space cannot be sharded');
    return this.space.stableKey(used);
  }

  /** Notes what a step found; true when it noted anything. */
  private noteFound(parent: number, step: S, position: number): boolean {
    let noted = false;
    for (const { id, finding } of step.found) {
      if (this.found.has(id)) continue;
      const choices = [...this.pathTo(parent), step.choice];
      if (!this.found.note(id, foundAt(finding, choices))) continue;
      noted = true;
      if (this.shard !== null) this.orders.set(id, [...this.positionsTo(parent), position]);
    }
    return noted;
  }

  /** Where a shard counts the expansion of `entry`: its split-level tally or its own state's, else null. */
  private tallyOf(entry: Waiting<D>): { horizonCutMoves: number; transitions: number; skipped: number } | null {
    if (this.splitDepth === null || entry.depth < this.splitDepth) return null;
    return entry.depth === this.splitDepth ? this.frontier : (this.beyond.get(entry.node) ?? null);
  }

  private visit(key: string, parent: number, choice: Choice | null, position: number): number {
    const node = this.parents.length;
    this.visited.set(key, node);
    this.parents.push(parent);
    this.choices.push(choice);
    this.positions.push(position);
    return node;
  }

  positionsTo(node: number): number[] {
    const path: number[] = [];
    for (let n = node; n > 0; n = this.parents[n]) {
      const restored = this.restored.get(n);
      if (restored !== undefined) return [...restored.positions, ...path.reverse()];
      path.push(this.positions[n]);
    }
    return path.reverse();
  }

  pathTo(node: number): Choice[] {
    const path: Choice[] = [];
    for (let n = node; n > 0; n = this.parents[n]) {
      const restored = this.restored.get(n);
      if (restored !== undefined) return [...restored.choices, ...path.reverse()];
      path.push(this.choices[n] as Choice);
    }
    return path.reverse();
  }

  visitedKeys(): IterableIterator<string> {
    return this.visited.keys();
  }

  get counts(): Readonly<LoopCounts> {
    return this.c;
  }

  get statesExplored(): number {
    return this.visited.size;
  }

  shardTally(): ShardTally | null {
    if (this.shard === null) return null;
    const prefix = this.prefix ?? { states: this.visited.size, transitions: this.c.transitions, skipped: this.c.skipped, horizonCutMoves: this.c.horizonCutMoves };
    return { splitDepth: this.splitDepth, prefix, frontier: { ...this.frontier }, states: [...this.beyond.values()], orders: this.orders as ShardTally['orders'] };
  }

  progress(): ExploreProgress {
    return {
      statesExplored: this.visited.size,
      transitionsExplored: this.c.transitions,
      frontier: this.level.length - this.position + this.nextLevel.length + (this.expanding ? 1 : 0),
      depth: this.c.depth,
      violationsFound: this.found.size,
    };
  }
}
