import { SeededRandom } from './rng';
import type { Choice } from './schedule';
import type { Simulation } from './simulation';
import { isLive } from './world';

/**
 * Who runs next, as a parameter (fast-check's scheduler idea). The user's click is a policy too:
 * the UI simply calls `sim.apply` with the clicked choice.
 */
export interface SchedulingPolicy {
  /** The next choice, or null when the policy has nothing more to do. */
  next(sim: Simulation): Choice | null;
}

/** Steps a uniformly random steppable client, from its own seeded stream (independent of the world's RNG). */
export function randomPolicy(seed: number): SchedulingPolicy {
  const random = SeededRandom.fromSeed(seed);
  return {
    next(sim) {
      const live = sim.clients.filter((c) => isLive(c) && sim.refusal({ kind: 'step', clientId: c.id }) === null);
      if (live.length === 0) return null;
      return { kind: 'step', clientId: live[random.below(live.length)].id };
    },
  };
}

/** Replays recorded choices in order; the simulation refuses (ChoiceError) any that do not fit. */
export function replayPolicy(choices: readonly Choice[]): SchedulingPolicy {
  let index = 0;
  return {
    next() {
      return index < choices.length ? choices[index++] : null;
    },
  };
}

/** Applies choices from `policy` until it stops, every client is finished, or `stepCountMax` steps ran. */
export function runPolicy(sim: Simulation, policy: SchedulingPolicy, stepCountMax: number): number {
  let steps = 0;
  while (steps < stepCountMax) {
    const choice = policy.next(sim);
    if (choice === null) break;
    sim.apply(choice);
    steps += 1;
  }
  return steps;
}
