import type { Scenario } from '../scenario';
import { formatSchedule, type Choice } from '../schedule';
import { foundAt } from './found';
import { checkedKinds } from '../checkers';
import { propertyKinds } from '../properties/checker';
import type { CheckerKind, ViolationEvent, ViolationKind } from '../trace';
import { BreadthFirstLoop, type LoopRequest, type LoopStep, type SearchSpace, type ShardSpec, type Waiting } from './bfs-loop';
import { validateBounds, type ExploreBounds } from './bounds';
import { MoveTable, noFaultsUsed, usedKey, type FaultsUsed, type RankedMove } from './moves';
import { effectOf, skippable, type Effect } from './por';
import type { ExploreProgress, ExploreResult, FoundViolation } from './result';
import { CheckpointMismatch, type SearchCheckpoint } from './checkpoint';
import type { ShardTally } from './shard';
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

export type { ShardSpec } from './bfs-loop';

/** The live world the search walks, moved between saved states (runner.ts). */
class SnapshotSpace implements SearchSpace<ExploreSnapshot, RankedMove, SnapshotStep> {
  /** The state the last step reached and its key, taken by key() for child(). */
  private reached: ExploreSnapshot | null = null;
  private worldKey = '';

  constructor(
    readonly runner: ExploreRunner,
    private readonly moveTable: MoveTable,
    private readonly targets: ReadonlySet<ViolationKind>,
    private readonly offenders: readonly string[] | undefined,
    private readonly stableKeys: boolean,
  ) {}

  keyOf(worldKey: string, used: FaultsUsed): string {
    return (this.stableKeys ? this.runner.stableHash(worldKey) : worldKey) + usedKey(used);
  }

  enter(entry: Waiting<ExploreSnapshot>): readonly RankedMove[] {
    this.runner.restore(entry.data);
    return this.moveTable.movesAt(this.runner.state, entry.used, (m) => this.runner.refusal(m));
  }

  /** Applies `move` at `entry` (restoring it unless the live state is still there). */
  apply(request: LoopRequest<ExploreSnapshot, RankedMove>, known: (id: string) => boolean): SnapshotStep | null {
    const runner = this.runner;
    if (!request.first) runner.restore(request.entry.data);
    const transition = runner.apply(request.move.move);
    if (transition === null) return null;
    let found: Mutable<SnapshotStep['found']> | null = null;
    for (const event of transition.events) {
      if (event.kind !== 'violation' || !this.targets.has(event.violation) || known(event.violation)) continue;
      if (!byOffenders(event, this.offenders)) continue;
      found ??= [];
      found.push({ id: event.violation, finding: { kind: event.violation, ...(event.property === undefined ? {} : { property: event.property }), message: event.message, clients: event.clients, atMs: event.atMs } });
    }
    return { choice: transition.choice, nowMs: runner.state.nowMs, found: found ?? none, ended: false, events: transition.events };
  }

  skippable(entry: Waiting<ExploreSnapshot>, move: RankedMove): boolean {
    return skippable(move, entry.via, entry.siblings?.get(move.id));
  }

  effect(entry: Waiting<ExploreSnapshot>, move: RankedMove, step: SnapshotStep): Effect {
    return effectOf(move, entry.data.world, this.runner.state, step.events, this.runner.ctx);
  }

  key(used: FaultsUsed): string {
    this.reached = this.runner.snapshot();
    this.worldKey = this.runner.key(this.reached);
    return this.keyOf(this.worldKey, used);
  }

  child(): ExploreSnapshot {
    return this.reached as ExploreSnapshot;
  }

  /** Whether the live state (at the depth bound) could still change: a move, or something due. */
  canGoOn(_data: ExploreSnapshot, used: FaultsUsed): boolean {
    const runner = this.runner;
    const moves = this.moveTable.movesAt(runner.state, used, (m) => runner.refusal(m));
    if (moves.some((m) => m.move.kind !== 'next-due')) return true;
    return runner.nextDueMs() !== null;
  }

  stableKey(used: FaultsUsed): string {
    return this.runner.stableHash(this.worldKey) + usedKey(used);
  }

  rebuild(choices: readonly Choice[]): ExploreSnapshot {
    this.runner.restore(this.runner.root);
    for (const choice of choices) {
      if (this.runner.apply(choice) === null) throw new CheckpointMismatch(`its waiting state ${formatSchedule(choices)} does not replay on this scenario`);
    }
    return this.runner.snapshot();
  }
}

interface SnapshotStep extends LoopStep<ViolationKind> {
  readonly events: Transition['events'];
}

/** A step that found nothing (most): no array made for it. */
const none: SnapshotStep['found'] = [];

type Mutable<T> = T extends readonly (infer E)[] ? E[] : never;

/**
 * Breadth-first search over schedules (docs/EXPLORER.md): from the start of a run, every move
 * (a client's step, the advance to the next due time, a fault within the budget), level by level,
 * each distinct state once. The first violation of a kind is found at the smallest depth at which
 * any schedule within the bounds shows it. Deterministic: the same options give the same result,
 * the same counts and the same schedules.
 *
 * The loop is bfs-loop.ts's; this drives it synchronously over saved states. It runs in slices
 * (`run(transitionCountMax)`), so a worker can report progress and be cancelled between slices;
 * `result()` may be read at any time.
 */
export class BreadthFirstSearch {
  readonly bounds: ExploreBounds;
  readonly invariants: readonly CheckerKind[];
  private readonly runner: ExploreRunner;
  private readonly space: SnapshotSpace;
  private readonly loop: BreadthFirstLoop<ViolationKind, ExploreSnapshot, RankedMove, SnapshotStep>;
  private readonly reduce: boolean;
  private readonly shard: ShardSpec | null;
  private readonly stableKeys: boolean;

  constructor(options: SearchOptions) {
    this.runner = new ExploreRunner(options.scenario, { variantId: options.variantId, seed: options.seed, keyer: options.keyer, canonical: options.reduce ?? true });
    this.bounds = validateBounds(options.bounds, this.runner.ctx.clientIds, this.runner.ctx.nodeIds);
    this.invariants = checkedKinds(options.scenario.checkers, options.invariants);
    const targets = new Set<ViolationKind>([...this.invariants, ...propertyKinds(options.scenario, options.invariants)]);
    this.reduce = options.reduce ?? true;
    this.shard = options.shard ?? null;
    this.stableKeys = options.stableKeys === true || options.resume !== undefined;
    const moves = new MoveTable(this.runner.ctx, this.runner.state, this.bounds.faults);
    this.space = new SnapshotSpace(this.runner, moves, targets, options.offenders, this.stableKeys);
    const rootKey = this.space.keyOf(this.runner.key(), noFaultsUsed);
    this.loop = new BreadthFirstLoop(this.space, rootKey, this.runner.root, { bounds: this.bounds, wanted: targets, stopAt: options.stopAt ?? 'all', reduce: this.reduce, shard: this.shard });
    if (options.resume !== undefined) this.loop.resumeFrom(options.resume);
  }

  /** Asks `run` to return at the next point between two states' expansions (for checkpoint()). */
  pause(): void {
    this.loop.pause();
  }

  /** Whether the search is between two states' expansions (a checkpoint can be taken). */
  get atBoundary(): boolean {
    return this.loop.atBoundary;
  }

  /** The search as plain data, between two expansions (pause, then run until it returns). */
  checkpoint(): SearchCheckpoint {
    if (!this.loop.atBoundary) throw new Error('a checkpoint is taken between two expansions: pause() and run() first');
    if (!this.stableKeys) throw new Error('a checkpoint needs stable keys (the stableKeys option)');
    return this.loop.checkpoint();
  }

  get done(): boolean {
    return this.loop.done;
  }

  cancel(): void {
    this.loop.cancel();
  }

  /** Applies up to `transitionCountMax` moves; returns true when the search has finished. */
  run(transitionCountMax = Number.POSITIVE_INFINITY): boolean {
    const loop = this.loop;
    const space = this.space;
    for (let budget = transitionCountMax; budget > 0 && !loop.done; budget--) {
      const request = loop.next();
      if (request === null) break;
      loop.record(request, space.apply(request, loop.known));
    }
    return loop.done;
  }

  /** Every state visited so far, by key (with the faults spent): for comparing two searches. */
  visitedKeys(): IterableIterator<string> {
    return this.loop.visitedKeys();
  }

  get shardSpec(): ShardSpec | null {
    return this.shard;
  }

  /** What this shard saw (null when the search is not a shard). */
  shardTally(): ShardTally | null {
    return this.loop.shardTally();
  }

  progress(): ExploreProgress {
    return this.loop.progress();
  }

  result(): ExploreResult {
    const ctx = this.runner.ctx;
    const loop = this.loop;
    const c = loop.counts;
    const finished = loop.done && !c.cancelled && !c.stateBudgetHit && !c.stoppedAtViolation;
    const exhaustive = finished && c.depthCutStates === 0 && c.horizonCutMoves === 0;
    return {
      scenarioId: ctx.scenario.id,
      variantId: ctx.variant.id,
      seed: ctx.seed,
      mode: 'bfs',
      bounds: this.bounds,
      invariants: this.invariants,
      reduced: this.reduce,
      statesExplored: loop.statesExplored,
      transitionsExplored: c.transitions,
      transitionsSkipped: c.skipped,
      depthReached: c.depth,
      exhaustive,
      cut: {
        depthCutStates: c.depthCutStates,
        horizonCutMoves: c.horizonCutMoves,
        stateBudget: c.stateBudgetHit,
        stoppedAtViolation: c.stoppedAtViolation,
        cancelled: c.cancelled,
        sampled: false,
      },
      violations: loop.found.list(),
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

