import { SeededRandom } from '../rng';
import type { Choice } from '../schedule';
import { checkedKinds } from '../checkers';
import type { ViolationKind } from '../trace';
import { validateBounds, type ExploreBounds } from './bounds';
import { MoveTable, noFaultsUsed, usedKey, type FaultsUsed } from './moves';
import type { ExploreProgress, ExploreResult, FoundViolation } from './result';
import { ExploreRunner } from './runner';
import { byOffenders, foundViolation, type ExploreTarget } from './search';

export interface WalkOptions extends ExploreTarget {
  /** Seed of the walks' own random stream (independent of the run's seed). */
  readonly walkSeed?: number;
  /** Walks to take (each from the start, until nothing can move or a bound stops it). */
  readonly walkCountMax?: number;
  /** 'first': stop at the first violation found; 'all' (default): once every kind was found; 'never'. */
  readonly stopAt?: 'first' | 'all' | 'never';
}

export const defaultWalkCountMax = 1_000;

/**
 * Seeded random walks over the same moves as the breadth-first search, for spaces too large to
 * exhaust: each walk starts over and picks uniformly among the moves that apply, until none does
 * or a bound stops it. Never exhaustive; the coverage figure says how much of what the walks
 * meet is already known (result.ts, WalkCoverage). Deterministic for a given walk seed.
 */
export class RandomWalk {
  readonly bounds: ExploreBounds;
  readonly invariants: readonly ViolationKind[];
  private readonly runner: ExploreRunner;
  private readonly moves: MoveTable;
  private readonly random: SeededRandom;
  private readonly walkCountMax: number;
  private readonly stopAt: 'first' | 'all' | 'never';
  private readonly targets: ReadonlySet<ViolationKind>;
  private readonly offenders: readonly string[] | undefined;
  private readonly seen = new Map<string, number>();
  private seenOnce = 0;
  private visits = 0;
  private walks = 0;
  private transitions = 0;
  private depthReached = 0;
  private stateBudgetHit = false;
  private cancelled = false;
  private stopped = false;
  private readonly found = new Map<ViolationKind, FoundViolation>();
  /** The walk in progress: its choices so far and its fault budget spent. */
  private walk: { choices: Choice[]; used: FaultsUsed } | null = null;

  constructor(options: WalkOptions) {
    this.runner = new ExploreRunner(options.scenario, { variantId: options.variantId, seed: options.seed });
    this.bounds = validateBounds(options.bounds, this.runner.ctx.clientIds, this.runner.ctx.nodeIds);
    this.invariants = checkedKinds(options.scenario.checkers, options.invariants);
    this.targets = new Set(this.invariants);
    this.offenders = options.offenders;
    this.random = SeededRandom.fromSeed(options.walkSeed ?? 1);
    this.walkCountMax = options.walkCountMax ?? defaultWalkCountMax;
    this.stopAt = options.stopAt ?? 'all';
    this.moves = new MoveTable(this.runner.ctx, this.runner.state, this.bounds.faults);
    this.see(this.runner.key(), noFaultsUsed);
  }

  get done(): boolean {
    return this.cancelled || this.stopped || this.stateBudgetHit || (this.walk === null && this.walks >= this.walkCountMax);
  }

  cancel(): void {
    this.cancelled = true;
  }

  /** Applies up to `transitionCountMax` moves; returns true when the walks are over. */
  run(transitionCountMax = Number.POSITIVE_INFINITY): boolean {
    let budget = transitionCountMax;
    while (!this.done && budget > 0) {
      if (this.walk === null) {
        this.walk = { choices: [], used: noFaultsUsed };
        this.walks += 1;
        this.runner.restore(this.runner.root);
      }
      budget -= 1;
      if (!this.stepWalk(this.walk)) this.walk = null;
    }
    return this.done;
  }

  /** One random move of the current walk. False when the walk is over. */
  private stepWalk(walk: { choices: Choice[]; used: FaultsUsed }): boolean {
    if (walk.choices.length >= this.bounds.depthMax) return false;
    const runner = this.runner;
    const candidates = this.moves.movesAt(runner.state, walk.used, (m) => runner.refusal(m));
    const start = runner.copy();
    while (candidates.length > 0) {
      const [picked] = candidates.splice(this.random.below(candidates.length), 1);
      const transition = runner.apply(picked.move);
      this.transitions += 1;
      const pastHorizon = transition !== null && this.bounds.horizonMs !== null && runner.state.nowMs > this.bounds.horizonMs;
      if (transition === null || pastHorizon) {
        // The move did not apply (nothing due, refused on the way): try another from the same state.
        runner.restore(start);
        continue;
      }
      walk.choices.push(transition.choice);
      walk.used = MoveTable.spend(walk.used, picked.move);
      this.depthReached = Math.max(this.depthReached, walk.choices.length);
      for (const event of transition.events) {
        if (event.kind !== 'violation' || !this.targets.has(event.violation) || !byOffenders(event, this.offenders)) continue;
        const known = this.found.get(event.violation);
        if (known === undefined || known.steps > walk.choices.length) this.found.set(event.violation, foundViolation(event, walk.choices.slice()));
        if (this.stopAt === 'first' || (this.stopAt === 'all' && this.found.size === this.targets.size)) this.stopped = true;
      }
      this.see(runner.key(), walk.used);
      return !this.stopped && !this.stateBudgetHit;
    }
    return false;
  }

  private see(key: string, used: FaultsUsed): void {
    const full = key + usedKey(used);
    const count = this.seen.get(full) ?? 0;
    if (count === 0 && this.seen.size >= this.bounds.stateCountMax) {
      this.stateBudgetHit = true;
      return;
    }
    this.seen.set(full, count + 1);
    this.visits += 1;
    if (count === 0) this.seenOnce += 1;
    else if (count === 1) this.seenOnce -= 1;
  }

  progress(): ExploreProgress {
    return {
      statesExplored: this.seen.size,
      transitionsExplored: this.transitions,
      frontier: Math.max(0, this.walkCountMax - this.walks),
      depth: this.depthReached,
      violationsFound: this.found.size,
    };
  }

  result(): ExploreResult {
    const ctx = this.runner.ctx;
    return {
      scenarioId: ctx.scenario.id,
      variantId: ctx.variant.id,
      seed: ctx.seed,
      mode: 'random',
      bounds: this.bounds,
      invariants: this.invariants,
      reduced: false,
      statesExplored: this.seen.size,
      transitionsExplored: this.transitions,
      transitionsSkipped: 0,
      depthReached: this.depthReached,
      exhaustive: false,
      cut: { depthCutStates: 0, horizonCutMoves: 0, stateBudget: this.stateBudgetHit, stoppedAtViolation: this.stopped, cancelled: this.cancelled, sampled: true },
      violations: [...this.found.values()].sort((a, b) => a.steps - b.steps),
      coverage: {
        walks: this.walks,
        distinctStates: this.seen.size,
        visits: this.visits,
        seenOnce: this.seenOnce,
        goodTuring: this.visits === 0 ? 0 : 1 - this.seenOnce / this.visits,
      },
    };
  }
}
