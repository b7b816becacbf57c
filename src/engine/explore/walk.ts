import { SeededRandom } from '../rng';
import type { FaultBudget } from '../scenario';
import type { Choice } from '../schedule';
import { checkedKinds } from '../checkers';
import { propertyKinds } from '../properties/checker';
import type { CheckerKind, ViolationKind } from '../trace';
import { validateBounds, type ExploreBounds } from './bounds';
import { MoveTable, noFaultsUsed, usedKey, type FaultsUsed } from './moves';
import { defaultBugDepth, faultSlotsOf, PctPolicy, pctGuarantee } from './pct';
import type { ExploreProgress, ExploreResult, FoundViolation, WalkMode } from './result';
import { ExploreRunner } from './runner';
import { byOffenders, foundViolation, type ExploreTarget } from './search';
import { swarmPolicy } from './swarm';
import { isFaultMove, uniformPolicy, type WalkPolicy } from './walk-policy';

export interface WalkOptions extends ExploreTarget {
  /** 'random' (default): uniform; 'pct': probabilistic concurrency testing (pct.ts); 'swarm': a fault budget per walk (swarm.ts). */
  readonly mode?: WalkMode;
  /** Seed of the walks' own random stream (independent of the run's seed): walk i uses walkSeed + i. */
  readonly walkSeed?: number;
  /** Walks to take (each from the start, until nothing can move or a bound stops it). */
  readonly walkCountMax?: number;
  /** PCT's bug depth d (default 2): d - 1 priority change points per walk. */
  readonly bugDepth?: number;
  /** 'first': stop at the first violation found; 'all' (default): once every kind was found; 'never'. */
  readonly stopAt?: 'first' | 'all' | 'never';
}

export const defaultWalkCountMax = 1_000;

/** The seed of walk `index` of an exploration with `walkSeed`: `--walk-seed <it> --walks 1` replays that walk alone. */
export function seedOfWalk(walkSeed: number, index: number): number {
  return (walkSeed + index) >>> 0;
}

/**
 * Seeded random walks over the same moves as the breadth-first search, for spaces too large to
 * exhaust: each walk starts over and picks among the moves that apply (uniformly, by PCT's
 * priorities, or uniformly within a swarm budget), until none does or a bound stops it. Never
 * exhaustive; the coverage figure says how much of what the walks meet is already known
 * (result.ts, WalkCoverage). Each walk has its own seed (seedOfWalk), printed with what it found.
 */
export class RandomWalk {
  readonly bounds: ExploreBounds;
  readonly invariants: readonly CheckerKind[];
  private readonly mode: WalkMode;
  private readonly runner: ExploreRunner;
  private readonly policy: WalkPolicy;
  private readonly walkSeed: number;
  private readonly bugDepth: number | null;
  private readonly walkCountMax: number;
  private readonly stopAt: 'first' | 'all' | 'never';
  private readonly targets: ReadonlySet<ViolationKind>;
  private readonly offenders: readonly string[] | undefined;
  private readonly fullMoves: MoveTable;
  /** PCT's k: the choices a walk is expected to take (faultFreeLength plus a fault point per fault). */
  private readonly stepEstimate: number;
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
  /** The walk in progress: its choices so far, fault budget spent, moves, random stream and seed. */
  private walk: { choices: Choice[]; used: FaultsUsed; moves: MoveTable; random: SeededRandom; seed: number; budget: FaultBudget } | null = null;

  constructor(options: WalkOptions) {
    this.runner = new ExploreRunner(options.scenario, { variantId: options.variantId, seed: options.seed });
    this.bounds = validateBounds(options.bounds, this.runner.ctx.clientIds, this.runner.ctx.nodeIds);
    this.invariants = checkedKinds(options.scenario.checkers, options.invariants);
    this.targets = new Set([...this.invariants, ...propertyKinds(options.scenario, options.invariants)]);
    this.offenders = options.offenders;
    this.mode = options.mode ?? 'random';
    this.walkSeed = options.walkSeed ?? 1;
    this.walkCountMax = options.walkCountMax ?? defaultWalkCountMax;
    this.stopAt = options.stopAt ?? 'all';
    this.fullMoves = new MoveTable(this.runner.ctx, this.runner.state, this.bounds.faults);
    const clientIds = this.runner.ctx.clientIds;
    this.bugDepth = this.mode === 'pct' ? (options.bugDepth ?? defaultBugDepth) : null;
    this.stepEstimate = this.mode === 'pct' ? Math.min(this.bounds.depthMax, this.faultFreeLength() + faultSlotsOf(this.bounds.faults)) : this.bounds.depthMax;
    this.policy = this.mode === 'pct' ? new PctPolicy(clientIds, this.bugDepth as number, this.stepEstimate) : this.mode === 'swarm' ? swarmPolicy(clientIds) : uniformPolicy;
    this.see(this.runner.key(), noFaultsUsed);
  }

  /**
   * The length of one run without faults, in choices: the first move that applies in the search's
   * order each time (steps in client order, then the clock), up to the depth bound. Computed
   * once from the start, so every PCT walk is replayed from its own seed alone.
   */
  private faultFreeLength(): number {
    const runner = this.runner;
    // The live world is the root snapshot's own object until the first restore: never move it.
    runner.restore(runner.root);
    let length = 0;
    while (length < this.bounds.depthMax) {
      const start = runner.copy();
      const applied = this.fullMoves.movesAt(runner.state, noFaultsUsed, (m) => runner.refusal(m)).filter((m) => !isFaultMove(m)).some((m) => {
        const t = runner.apply(m.move);
        if (t !== null && (this.bounds.horizonMs === null || runner.state.nowMs <= this.bounds.horizonMs)) return true;
        runner.restore(start);
        return false;
      });
      if (!applied) break;
      length += 1;
    }
    runner.restore(runner.root);
    return Math.max(1, length);
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
      if (this.walk === null) this.walk = this.beginWalk();
      budget -= 1;
      if (!this.stepWalk(this.walk)) this.walk = null;
    }
    return this.done;
  }

  private beginWalk(): NonNullable<typeof this.walk> {
    const seed = seedOfWalk(this.walkSeed, this.walks);
    this.walks += 1;
    this.runner.restore(this.runner.root);
    const random = SeededRandom.fromSeed(seed);
    const budget = this.policy.begin(random, this.bounds.faults);
    const moves = budget === this.bounds.faults ? this.fullMoves : new MoveTable(this.runner.ctx, this.runner.root.world, budget);
    return { choices: [], used: noFaultsUsed, moves, random, seed, budget };
  }

  /** One move of the current walk, as its policy picks it. False when the walk is over. */
  private stepWalk(walk: NonNullable<typeof this.walk>): boolean {
    if (walk.choices.length >= this.bounds.depthMax) return false;
    const runner = this.runner;
    const candidates = walk.moves.movesAt(runner.state, walk.used, (m) => runner.refusal(m));
    const start = runner.copy();
    const stepIndex = walk.choices.length;
    while (candidates.length > 0) {
      const index = this.policy.pick(candidates, stepIndex, walk.random);
      if (index < 0) return false;
      const [picked] = candidates.splice(index, 1);
      const transition = runner.apply(picked.move);
      this.transitions += 1;
      const pastHorizon = transition !== null && this.bounds.horizonMs !== null && runner.state.nowMs > this.bounds.horizonMs;
      if (transition === null || pastHorizon) {
        // The move did not apply (nothing due, refused on the way): try another from the same state.
        runner.restore(start);
        continue;
      }
      this.policy.taken(picked, stepIndex);
      walk.choices.push(transition.choice);
      walk.used = MoveTable.spend(walk.used, picked.move);
      this.depthReached = Math.max(this.depthReached, walk.choices.length);
      for (const event of transition.events) {
        if (event.kind !== 'violation' || !this.targets.has(event.violation) || !byOffenders(event, this.offenders)) continue;
        const known = this.found.get(event.violation);
        if (known === undefined || known.steps > walk.choices.length) {
          this.found.set(event.violation, { ...foundViolation(event, walk.choices.slice()), walk: { index: this.walks - 1, seed: walk.seed, faults: walk.budget } });
        }
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
    const faultMoves = this.fullMoves.faultMoveCount;
    return {
      scenarioId: ctx.scenario.id,
      variantId: ctx.variant.id,
      seed: ctx.seed,
      mode: this.mode,
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
        walkSeed: this.walkSeed,
        distinctStates: this.seen.size,
        visits: this.visits,
        seenOnce: this.seenOnce,
        goodTuring: this.visits === 0 ? 0 : 1 - this.seenOnce / this.visits,
      },
      pct: this.bugDepth === null ? null : pctGuarantee(this.bugDepth, ctx.clientIds.length, this.stepEstimate, faultMoves, this.walks),
    };
  }
}
