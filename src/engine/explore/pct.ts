import type { SeededRandom } from '../rng';
import type { FaultBudget } from '../scenario';
import type { RankedMove } from './moves';
import { isFaultMove, type WalkPolicy } from './walk-policy';

/** Largest bug depth accepted (PCT's d): beyond a few, its guarantee is too small to state. */
export const bugDepthMax = 10;
export const defaultBugDepth = 2;

/**
 * What PCT promises for its walks (Burckhardt, Kothari, Musuvathi, Nagarakatte, "A Randomized
 * Scheduler with Probabilistic Guarantees of Finding Bugs", ASPLOS 2010, Theorem 1): one walk finds
 * a given bug of depth at most d with probability at least 1 / (n * k^(d-1)), n the schedulable
 * entities, k the steps of a walk. Here the entities are the clients (the clock advances when no
 * client can step, as in a discrete-event simulator), k the length of a walk estimated before
 * the walks (walk.ts: a run without faults, plus one choice per fault point; at most the depth
 * bound; as Coyote's PCT, which takes k from a run, not from the bound), and a bug
 * that also needs f faults at given points multiplies the bound by at least 1 / (2 * k * F) per
 * fault (F fault moves; a fault point lands on a given step with probability at least 1/k, and
 * picks a given fault with probability at least 1/(2F): half the time among all faults).
 */
export interface PctGuarantee {
  readonly bugDepth: number;
  /** n: the clients. */
  readonly entities: number;
  /** k: the estimated length of a walk, in choices (change points and fault points fall among the first k). */
  readonly stepCountMax: number;
  /** F: the fault moves a walk may pick at a fault point. */
  readonly faultMoves: number;
  /** 1 / (n * k^(d-1)): one walk, a bug needing no fault. */
  readonly perWalkProbability: number;
  /** 1 - (1 - p)^walks: the walks taken. */
  readonly walks: number;
  readonly foundProbability: number;
}

export function pctGuarantee(bugDepth: number, entities: number, stepCountMax: number, faultMoves: number, walks: number): PctGuarantee {
  const perWalkProbability = 1 / (entities * stepCountMax ** (bugDepth - 1));
  // 1 - (1-p)^w without losing a small p to rounding.
  const foundProbability = -Math.expm1(walks * Math.log1p(-Math.min(perWalkProbability, 1 - 1e-15)));
  return { bugDepth, entities, stepCountMax, faultMoves, perWalkProbability, walks, foundProbability };
}

/** Fault points a walk gets: one per fault the budget allows, and one per restart or heal that undoes one. */
export function faultSlotsOf(budget: FaultBudget): number {
  const nodeCrashes = budget.nodeCrashCountMax ?? 0;
  const partitions = budget.partitionCountMax ?? 0;
  const more = (budget.lossCountMax ?? 0) + (budget.clientClockJumpCountMax ?? 0) + (budget.replicationDelayCountMax ?? 0);
  return budget.stallCountMax + budget.crashCountMax + 2 * nodeCrashes + (budget.promoteCountMax ?? 0) + (budget.clockJumpCountMax ?? 0) + 2 * partitions + more;
}

/** k distinct integers drawn from [0, range) in the order drawn (range >= count). */
function distinct(random: SeededRandom, count: number, range: number): number[] {
  const out: number[] = [];
  for (let guard = 0; out.length < Math.min(count, range) && guard < 64 * (count + 1); guard++) {
    const x = random.below(range);
    if (!out.includes(x)) out.push(x);
  }
  return out;
}

/** The clock's priority: it advances only when no client can step (time passes when nobody is ready). */
const clockPriority = Number.NEGATIVE_INFINITY;

/**
 * PCT, probabilistic concurrency testing: each walk gives the clients random distinct priorities
 * d..d+n-1 and draws d-1 change points among the first k steps; at every step the client of the
 * highest priority that can step steps (the clock's advance is taken only when none can); at the
 * i-th change point the client that just moved drops to priority i (below every initial one).
 *
 * Faults extend it the way a preemption would: each fault the budget allows gets a fault point,
 * a random step among the first k, where a fault is taken instead of a step (half the time one of
 * the process about to move, else any fault that applies) and the client that was about to move
 * drops below every other (a paused process is one the scheduler preempted).
 */
export class PctPolicy implements WalkPolicy {
  private readonly priority = new Map<string, number>();
  private readonly changeAt = new Map<number, number>();
  private readonly faultAt = new Set<number>();
  /** The client a fault point preempted (the one about to move), for `taken`. */
  private preempted: string | null = null;
  private faultDrops = 0;

  constructor(
    private readonly clientIds: readonly string[],
    readonly bugDepth: number,
    readonly stepCountMax: number,
  ) {}

  begin(random: SeededRandom, budget: FaultBudget): FaultBudget {
    this.priority.clear();
    this.changeAt.clear();
    this.faultAt.clear();
    this.faultDrops = 0;
    const order = [...this.clientIds];
    for (let i = order.length - 1; i > 0; i--) {
      const j = random.below(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    order.forEach((id, i) => this.priority.set(id, this.bugDepth + i));
    distinct(random, this.bugDepth - 1, this.stepCountMax).forEach((step, i) => this.changeAt.set(step, i + 1));
    const slots = faultSlotsOf(budget);
    for (let i = 0; i < slots; i++) this.faultAt.add(random.below(this.stepCountMax));
    return budget;
  }

  pick(candidates: readonly RankedMove[], stepIndex: number, random: SeededRandom): number {
    const next = this.highest(candidates);
    this.preempted = null;
    if (!this.faultAt.has(stepIndex)) return next;
    const faults: number[] = [];
    const own: number[] = [];
    candidates.forEach((m, i) => {
      if (!isFaultMove(m)) return;
      faults.push(i);
      if (next >= 0 && m.process !== null && m.process === candidates[next].process) own.push(i);
    });
    if (faults.length === 0) return next;
    this.preempted = next >= 0 ? entityOf(candidates[next]) : null;
    // Half the time a fault of the process about to move, else any fault: each fault stays at
    // least 1/(2F) likely at its point.
    if (own.length > 0 && random.below(2) === 0) return own[random.below(own.length)];
    return faults[random.below(faults.length)];
  }

  taken(move: RankedMove, stepIndex: number): void {
    const mover = isFaultMove(move) ? this.preempted : entityOf(move);
    if (isFaultMove(move) && this.preempted !== null) this.priority.set(this.preempted, -++this.faultDrops);
    const lowered = this.changeAt.get(stepIndex);
    if (lowered !== undefined && mover !== null && mover !== '+') this.priority.set(mover, isFaultMove(move) ? -++this.faultDrops : lowered);
  }

  /** The client step of the highest priority among `candidates`, else the clock's advance, or -1. */
  private highest(candidates: readonly RankedMove[]): number {
    let best = -1;
    let bestPriority = Number.NEGATIVE_INFINITY;
    candidates.forEach((m, i) => {
      if (isFaultMove(m)) return;
      const p = m.move.kind === 'step' ? (this.priority.get(m.move.clientId) ?? 0) : clockPriority;
      if (best < 0 || p > bestPriority) {
        best = i;
        bestPriority = p;
      }
    });
    return best;
  }
}

/** The entity a client step or the clock's advance belongs to. */
function entityOf(m: RankedMove): string {
  return m.move.kind === 'step' ? m.move.clientId : '+';
}
