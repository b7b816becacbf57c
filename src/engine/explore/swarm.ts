import type { SeededRandom } from '../rng';
import type { FaultBudget } from '../scenario';
import { uniformPolicy, type WalkPolicy } from './walk-policy';

/** A count from 0 to max: none half the time (the kind is off for this walk), else 1..max. */
function drawCount(random: SeededRandom, max: number): number {
  if (max <= 0) return 0;
  return random.below(2) === 0 ? 0 : 1 + random.below(max);
}

/** A non-empty random subset of `items`, in their order (each kept with probability 1/2). */
function drawSubset<T>(random: SeededRandom, items: readonly T[]): T[] {
  if (items.length <= 1) return [...items];
  const kept = items.filter(() => random.below(2) === 1);
  return kept.length > 0 ? kept : [items[random.below(items.length)]];
}

/**
 * Swarm testing (Groce, Zhang, Eide, Chen, Regehr, "Swarm Testing", ISSTA 2012): each walk runs
 * with its own random configuration, here a fault budget drawn within the exploration's: each
 * fault kind off or on with a random count up to its maximum, a random subset of the stall and
 * clock jump lengths, and of the clients faulted. Walks without some fault kinds go deeper into
 * what the other kinds allow, where a uniform walk spends its steps on every kind at once.
 */
export function drawSwarmBudget(random: SeededRandom, budget: FaultBudget, clientIds: readonly string[]): FaultBudget {
  const stallCountMax = drawCount(random, budget.stallCountMax);
  const crashCountMax = drawCount(random, budget.crashCountMax);
  const nodeCrashCountMax = drawCount(random, budget.nodeCrashCountMax ?? 0);
  const promoteCountMax = drawCount(random, budget.promoteCountMax ?? 0);
  const clockJumpCountMax = drawCount(random, budget.clockJumpCountMax ?? 0);
  const partitionCountMax = drawCount(random, budget.partitionCountMax ?? 0);
  const clients = drawSubset(random, budget.clients ?? clientIds);
  // Drawn after the others (and only when allowed), so budgets without them draw as before.
  const lossCountMax = drawCount(random, budget.lossCountMax ?? 0);
  const clientClockJumpCountMax = drawCount(random, budget.clientClockJumpCountMax ?? 0);
  const replicationDelayCountMax = drawCount(random, budget.replicationDelayCountMax ?? 0);
  const drawn: FaultBudget = {
    stallCountMax,
    stallLengthsMs: stallCountMax > 0 ? drawSubset(random, budget.stallLengthsMs) : [],
    crashCountMax,
    clients,
    nodeCrashCountMax,
    promoteCountMax,
    clockJumpCountMax,
    ...(clockJumpCountMax > 0 ? { clockJumpsMs: drawSubset(random, budget.clockJumpsMs ?? []) } : {}),
    partitionCountMax,
    ...(lossCountMax > 0 ? { lossCountMax } : {}),
    ...(clientClockJumpCountMax > 0 ? { clientClockJumpCountMax, clientClockJumpsMs: drawSubset(random, budget.clientClockJumpsMs ?? []) } : {}),
    ...(replicationDelayCountMax > 0 ? { replicationDelayCountMax, replicationDelaysMs: drawSubset(random, budget.replicationDelaysMs ?? []) } : {}),
    ...(budget.nodes ? { nodes: budget.nodes } : {}),
  };
  return drawn;
}

/** Swarm walks: a fault budget drawn per walk (drawSwarmBudget), then a uniform random walk within it. */
export function swarmPolicy(clientIds: readonly string[]): WalkPolicy {
  return {
    begin: (random, budget) => drawSwarmBudget(random, budget, clientIds),
    pick: uniformPolicy.pick,
    taken: uniformPolicy.taken,
  };
}
