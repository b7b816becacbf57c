import type { Scenario } from '../scenario';
import { formatSchedule, type Choice } from '../schedule';
import { FirstFound, foundAt } from './found';
import { checkedKinds } from '../checkers';
import { propertyKinds } from '../properties/checker';
import type { CheckerKind, ViolationEvent, ViolationKind } from '../trace';
import { validateBounds, type ExploreBounds } from './bounds';
import { MoveTable, noFaultsUsed, usedKey, type FaultsUsed, type RankedMove } from './moves';
import { effectOf, skippable, type Effect } from './por';
import type { ExploreProgress, ExploreResult, FoundViolation } from './result';
import { CheckpointMismatch, type CheckpointEntry, type SearchCheckpoint } from './checkpoint';
import type { ShardState, ShardTally } from './shard';
import type { StateKeyer } from './state-key';
import { ExploreRunner, type ExploreSnapshot, type Transition } from './runner';

/** What a search and a random walk both look at, and for what. */
export interface ExploreTarget {
  readonly scenario: Scenario;
  readonly variantId?: string;
  readonly seed?: number;
  readonly bounds: ExploreBounds;
  /** Violation kinds to look for (default: every kind). */
  readonly invariants?: readonly ViolationKind[];
  /** Only violations whose clients start with these, offender first (default: any clients). */
  readonly offenders?: readonly string[];
}

export interface SearchOptions extends ExploreTarget {
  /**
   * The reductions (default on): partial-order reduction (por.ts) and, unless a keyer is given,
   * the canonical state key (state-key.ts: message ids renumbered).
   */
  readonly reduce?: boolean;
  /**
   * When to stop early: 'first' at the first violation of any kind looked for (it is a shortest
   * one), 'all' once every kind has been found (default), 'never' (explore everything).
   */
  readonly stopAt?: 'first' | 'all' | 'never';
  /** The key maker, when two searches' keys must be comparable (by default each has its own). */
  readonly keyer?: StateKeyer;
  /** Search only this shard's part (shard.ts): 0-based index of count. */
  readonly shard?: ShardSpec;
  /**
   * Key visited states by their process-independent hash (StateKeyer.stableHash), so that the
   * search can be written to a checkpoint and resumed in another process (checkpoint.ts).
   */
  readonly stableKeys?: boolean;
  /** Go on from a checkpoint of this very search (checkpoint.ts checks that it is). */
  readonly resume?: SearchCheckpoint;
}

/** One part of a search split across processes (shard.ts). */
export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

/** A shard splits at the first level with at least this many states per shard (or the last level). */
const splitWidthPerShard = 8;

/** One state waiting to be expanded. */
interface FrontierEntry {
  readonly node: number;
  readonly snapshot: ExploreSnapshot;
  readonly used: FaultsUsed;
  readonly depth: number;
  /** What the move that first reached this state did at its parent (for the reduction). */
  readonly via: Effect | null;
  /** What every move applied at the parent did there, by move id. */
  readonly siblings: ReadonlyMap<string, Effect> | null;
}

/**
 * Breadth-first search over schedules (docs/EXPLORER.md): from the start of a run, every move
 * (a client's step, the advance to the next due time, a fault within the budget), level by level,
 * each distinct state once. The first violation of a kind is found at the smallest depth at which
 * any schedule within the bounds shows it. Deterministic: the same options give the same result,
 * the same counts and the same schedules.
 *
 * It runs in slices (`run(transitionCountMax)`), so a worker can report progress and be
 * cancelled between slices; `result()` may be read at any time.
 */
export class BreadthFirstSearch {
  readonly bounds: ExploreBounds;
  readonly invariants: readonly CheckerKind[];
  private readonly runner: ExploreRunner;
  private readonly moves: MoveTable;
  private readonly reduce: boolean;
  private readonly targets: ReadonlySet<ViolationKind>;
  private readonly offenders: readonly string[] | undefined;
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
  private readonly orders = new Map<ViolationKind, number[]>();
  private readonly stableKeys: boolean;
  /** Nodes restored from a checkpoint: their paths from the start. */
  private readonly restored = new Map<number, { readonly choices: readonly Choice[]; readonly positions: readonly number[] }>();
  private pauseRequested = false;
  private level: FrontierEntry[] = [];
  private next: FrontierEntry[] = [];
  private position = 0;
  /** The state being expanded: its remaining moves (resumable between slices). */
  private expanding: { entry: FrontierEntry; moves: RankedMove[]; index: number; effects: Map<string, Effect>; fresh: boolean } | null = null;
  private transitions = 0;
  private skipped = 0;
  private depth = 0;
  private depthCutStates = 0;
  private horizonCutMoves = 0;
  private stateBudgetHit = false;
  private cancelled = false;
  private stoppedAtViolation = false;
  private readonly found: FirstFound<ViolationKind>;

  constructor(options: SearchOptions) {
    this.runner = new ExploreRunner(options.scenario, { variantId: options.variantId, seed: options.seed, keyer: options.keyer, canonical: options.reduce ?? true });
    this.bounds = validateBounds(options.bounds, this.runner.ctx.clientIds, this.runner.ctx.nodeIds);
    this.invariants = checkedKinds(options.scenario.checkers, options.invariants);
    this.targets = new Set([...this.invariants, ...propertyKinds(options.scenario, options.invariants)]);
    this.offenders = options.offenders;
    this.reduce = options.reduce ?? true;
    this.found = new FirstFound(this.targets, options.stopAt ?? 'all');
    this.moves = new MoveTable(this.runner.ctx, this.runner.state, this.bounds.faults);
    this.shard = options.shard ?? null;
    this.stableKeys = options.stableKeys === true || options.resume !== undefined;
    const root = this.runner.root;
    this.visit(this.keyOf(this.runner.key(), noFaultsUsed), -1, null, -1);
    if (options.resume !== undefined) this.resumeFrom(options.resume);
    else this.level.push({ node: 0, snapshot: root, used: noFaultsUsed, depth: 0, via: null, siblings: null });
  }

  private keyOf(worldKey: string, used: FaultsUsed): string {
    return (this.stableKeys ? this.runner.stableHash(worldKey) : worldKey) + usedKey(used);
  }

  /** Takes up a checkpoint: its counts and visited states, and its waiting states rebuilt by replaying their paths. */
  private resumeFrom(c: SearchCheckpoint): void {
    this.visited.clear();
    for (const key of c.visited) this.visited.set(key, 0);
    this.depth = c.depth;
    this.transitions = c.transitions;
    this.skipped = c.skipped;
    this.depthCutStates = c.depthCutStates;
    this.horizonCutMoves = c.horizonCutMoves;
    for (const v of c.found) this.found.note(v.kind, v);
    const rebuild = (e: CheckpointEntry): FrontierEntry => {
      this.runner.restore(this.runner.root);
      for (const choice of e.choices) {
        if (this.runner.apply(choice) === null) throw new CheckpointMismatch(`its waiting state ${formatSchedule(e.choices)} does not replay on this scenario`);
      }
      const node = this.parents.length;
      this.parents.push(0);
      this.choices.push(e.choices[e.choices.length - 1] ?? null);
      this.positions.push(e.positions[e.positions.length - 1] ?? -1);
      this.restored.set(node, { choices: e.choices, positions: e.positions });
      const siblings = e.siblings === null ? null : new Map(e.siblings);
      return { node, snapshot: this.runner.snapshot(), used: e.used, depth: e.depth, via: e.via, siblings };
    };
    this.level = c.level.map(rebuild);
    this.next = c.next.map(rebuild);
  }

  /** Asks `run` to return at the next point between two states' expansions (for checkpoint()). */
  pause(): void {
    this.pauseRequested = true;
  }

  /** Whether the search is between two states' expansions (a checkpoint can be taken). */
  get atBoundary(): boolean {
    return this.expanding === null;
  }

  /** The search as plain data, between two expansions (pause, then run until it returns). */
  checkpoint(): SearchCheckpoint {
    if (this.expanding !== null) throw new Error('a checkpoint is taken between two expansions: pause() and run() first');
    if (!this.stableKeys) throw new Error('a checkpoint needs stable keys (the stableKeys option)');
    const entry = (e: FrontierEntry): CheckpointEntry => ({
      choices: this.pathTo(e.node),
      positions: this.positionsTo(e.node),
      used: e.used,
      depth: e.depth,
      via: e.via,
      siblings: e.siblings === null ? null : [...e.siblings],
    });
    return {
      depth: this.depth,
      transitions: this.transitions,
      skipped: this.skipped,
      depthCutStates: this.depthCutStates,
      horizonCutMoves: this.horizonCutMoves,
      visited: [...this.visited.keys()],
      level: this.level.slice(this.position).map(entry),
      next: this.next.map(entry),
      found: this.found.list(),
    };
  }

  get done(): boolean {
    return this.cancelled || this.stoppedAtViolation || this.stateBudgetHit || (this.expanding === null && this.position >= this.level.length && this.next.length === 0);
  }

  cancel(): void {
    this.cancelled = true;
  }

  /** Applies up to `transitionCountMax` moves; returns true when the search has finished. */
  run(transitionCountMax = Number.POSITIVE_INFINITY): boolean {
    let budget = transitionCountMax;
    while (!this.done && budget > 0) {
      if (this.expanding === null && this.pauseRequested) {
        this.pauseRequested = false;
        break;
      }
      if (this.expanding === null && !this.startNext()) continue;
      const x = this.expanding as NonNullable<typeof this.expanding>;
      if (x.index >= x.moves.length) {
        this.expanding = null;
        continue;
      }
      const ranked = x.moves[x.index++];
      if (this.reduce && skippable(ranked, x.entry.via, x.entry.siblings?.get(ranked.id))) {
        this.skipped += 1;
        const tally = this.tallyOf(x.entry);
        if (tally !== null) tally.skipped += 1;
        continue;
      }
      budget -= 1;
      if (!x.fresh) this.runner.restore(x.entry.snapshot);
      x.fresh = false;
      this.expand(x.entry, ranked, x.effects);
    }
    return this.done;
  }

  /** Takes the next state of this level (or starts the next level). False when there was none. */
  private startNext(): boolean {
    if (this.position >= this.level.length) {
      this.level = this.next;
      this.next = [];
      this.position = 0;
      if (this.level.length === 0) return false;
      this.depth += 1;
      if (this.shard !== null && this.splitDepth === null && (this.level.length >= splitWidthPerShard * this.shard.count || this.depth >= this.bounds.depthMax - 1)) this.split(this.shard);
      if (this.position >= this.level.length) return false;
    }
    const entry = this.level[this.position];
    this.level[this.position++] = undefined as unknown as FrontierEntry;
    this.runner.restore(entry.snapshot);
    const moves = this.moves.movesAt(this.runner.state, entry.used, (m) => this.runner.refusal(m));
    this.expanding = { entry, moves, index: 0, effects: new Map(), fresh: true };
    return true;
  }

  /**
   * Splits the search at the level starting now: every shard has searched the same levels so far
   * (the prefix); from here each expands only every count-th state of this level, by position.
   */
  private split(shard: ShardSpec): void {
    this.splitDepth = this.depth;
    this.prefix = { states: this.visited.size, transitions: this.transitions, skipped: this.skipped, horizonCutMoves: this.horizonCutMoves };
    this.level = this.level.filter((_, i) => i % shard.count === shard.index);
  }

  /** Applies one move to the live state (at `entry`) and records what it reached. */
  private expand(entry: FrontierEntry, ranked: RankedMove, effects: Map<string, Effect>): void {
    const runner = this.runner;
    const transition = runner.apply(ranked.move);
    this.transitions += 1;
    const tally = this.tallyOf(entry);
    if (tally !== null) tally.transitions += 1;
    if (transition === null) return;
    if (this.bounds.horizonMs !== null && runner.state.nowMs > this.bounds.horizonMs) {
      this.horizonCutMoves += 1;
      if (tally !== null) tally.horizonCutMoves += 1;
      return;
    }
    if (this.reduce) effects.set(ranked.id, effectOf(ranked, entry.snapshot.world, runner.state, transition.events, runner.ctx));
    const used = MoveTable.spend(entry.used, ranked.move);
    this.noteViolations(entry.node, transition, ranked.position);
    if (this.stoppedAtViolation) return;
    const snapshot = runner.snapshot();
    const worldKey = runner.key(snapshot);
    const key = this.keyOf(worldKey, used);
    if (this.visited.has(key)) return;
    if (this.visited.size >= this.bounds.stateCountMax) {
      this.stateBudgetHit = true;
      return;
    }
    const node = this.visit(key, entry.node, transition.choice, ranked.position);
    const depth = entry.depth + 1;
    const past: ShardState | null = this.splitDepth === null ? null : { hash: runner.stableHash(worldKey) + usedKey(used), depth, cut: false, horizonCutMoves: 0, transitions: 0, skipped: 0, order: this.positionsTo(node).join(',') };
    if (past !== null) this.beyond.set(node, past);
    if (depth >= this.bounds.depthMax) {
      if (this.hasMoves(used)) {
        this.depthCutStates += 1;
        if (past !== null) past.cut = true;
      }
      return;
    }
    this.next.push({ node, snapshot, used, depth, via: this.reduce ? (effects.get(ranked.id) ?? null) : null, siblings: this.reduce ? effects : null });
  }

  /** Where a shard counts the expansion of `entry`: its split-level tally or its own state's, else null. */
  private tallyOf(entry: FrontierEntry): { horizonCutMoves: number; transitions: number; skipped: number } | null {
    if (this.splitDepth === null || entry.depth < this.splitDepth) return null;
    return entry.depth === this.splitDepth ? this.frontier : (this.beyond.get(entry.node) ?? null);
  }

  /** Whether the live state (at the depth bound) could still change: a move, or something due. */
  private hasMoves(used: FaultsUsed): boolean {
    const runner = this.runner;
    const moves = this.moves.movesAt(runner.state, used, (m) => runner.refusal(m));
    if (moves.some((m) => m.move.kind !== 'next-due')) return true;
    return runner.nextDueMs() !== null;
  }

  private visit(key: string, parent: number, choice: Choice | null, position: number): number {
    const node = this.parents.length;
    this.visited.set(key, node);
    this.parents.push(parent);
    this.choices.push(choice);
    this.positions.push(position);
    return node;
  }

  private positionsTo(node: number): number[] {
    const path: number[] = [];
    for (let n = node; n > 0; n = this.parents[n]) {
      const restored = this.restored.get(n);
      if (restored !== undefined) return [...restored.positions, ...path.reverse()];
      path.push(this.positions[n]);
    }
    return path.reverse();
  }

  private pathTo(node: number): Choice[] {
    const path: Choice[] = [];
    for (let n = node; n > 0; n = this.parents[n]) {
      const restored = this.restored.get(n);
      if (restored !== undefined) return [...restored.choices, ...path.reverse()];
      path.push(this.choices[n] as Choice);
    }
    return path.reverse();
  }

  private noteViolations(parent: number, transition: Transition, position: number): void {
    for (const event of transition.events) {
      if (event.kind !== 'violation' || !this.targets.has(event.violation) || this.found.has(event.violation)) continue;
      if (!byOffenders(event, this.offenders)) continue;
      const choices = [...this.pathTo(parent), transition.choice];
      this.found.note(event.violation, foundViolation(event, choices));
      if (this.shard !== null) this.orders.set(event.violation, [...this.positionsTo(parent), position]);
      if (this.found.enough) this.stoppedAtViolation = true;
    }
  }

  /** Every state visited so far, by key (with the faults spent): for comparing two searches. */
  visitedKeys(): IterableIterator<string> {
    return this.visited.keys();
  }

  get shardSpec(): ShardSpec | null {
    return this.shard;
  }

  /** What this shard saw (null when the search is not a shard). */
  shardTally(): ShardTally | null {
    if (this.shard === null) return null;
    const prefix = this.prefix ?? { states: this.visited.size, transitions: this.transitions, skipped: this.skipped, horizonCutMoves: this.horizonCutMoves };
    return { splitDepth: this.splitDepth, prefix, frontier: { ...this.frontier }, states: [...this.beyond.values()], orders: this.orders };
  }

  progress(): ExploreProgress {
    return {
      statesExplored: this.visited.size,
      transitionsExplored: this.transitions,
      frontier: this.level.length - this.position + this.next.length + (this.expanding ? 1 : 0),
      depth: this.depth,
      violationsFound: this.found.size,
    };
  }

  result(): ExploreResult {
    const ctx = this.runner.ctx;
    const finished = this.done && !this.cancelled && !this.stateBudgetHit && !this.stoppedAtViolation;
    const exhaustive = finished && this.depthCutStates === 0 && this.horizonCutMoves === 0;
    return {
      scenarioId: ctx.scenario.id,
      variantId: ctx.variant.id,
      seed: ctx.seed,
      mode: 'bfs',
      bounds: this.bounds,
      invariants: this.invariants,
      reduced: this.reduce,
      statesExplored: this.visited.size,
      transitionsExplored: this.transitions,
      transitionsSkipped: this.skipped,
      depthReached: this.depth,
      exhaustive,
      cut: {
        depthCutStates: this.depthCutStates,
        horizonCutMoves: this.horizonCutMoves,
        stateBudget: this.stateBudgetHit,
        stoppedAtViolation: this.stoppedAtViolation,
        cancelled: this.cancelled,
        sampled: false,
      },
      violations: this.found.list(),
      coverage: null,
      pct: null,
    };
  }
}

/** Whether a violation's clients start with `offenders` (offender first); any clients when absent. */
export function byOffenders(event: ViolationEvent, offenders: readonly string[] | undefined): boolean {
  return offenders === undefined || offenders.every((id, i) => event.clients[i] === id);
}

export function foundViolation(event: ViolationEvent, choices: readonly Choice[]): FoundViolation {
  return foundAt({ kind: event.violation, property: event.property, message: event.message, clients: event.clients, atMs: event.atMs }, choices);
}

