import type { Choice } from '../../src/engine/schedule';
import { scenarioById, type EngineSource } from './source';

/**
 * The long run every "at 10,000" figure uses: the watchdog scenario's `zombie` variant (A hangs
 * in a loop that never ends while its watchdog W renews the lease up to 1000 times), its default
 * schedule, then each client in turn (A, W, B, A, ...), skipping clients that can no longer step,
 * as a teacher pressing every Step button in turn would. It mixes Redis commands, renewals of a
 * key with a TTL, clock moves and a violation, and never runs out of steps (A loops forever).
 */
export const LONG_RUN = { scenarioId: 'watchdog', variantId: 'zombie' } as const;

export interface LongRun {
  readonly scenarioId: string;
  readonly variantId: string;
  readonly schedule: string;
  readonly choices: readonly Choice[];
  readonly stepCount: number;
  readonly eventCount: number;
}

export interface LongRunStop {
  /** Stop at the first step that brings the run to at least this many events. */
  readonly eventCountMin?: number;
  /** Stop at exactly this many steps. */
  readonly stepCount?: number;
}

function isRefusal(error: unknown): boolean {
  return error instanceof Error && error.name === 'ChoiceError';
}

export function buildLongRun(engine: EngineSource, stop: LongRunStop): LongRun {
  const scenario = scenarioById(engine, LONG_RUN.scenarioId);
  const sim = new engine.Simulation(scenario, { variantId: LONG_RUN.variantId });
  sim.applySchedule(scenario.defaultSchedule);
  const done = () => (stop.stepCount !== undefined && sim.length >= stop.stepCount) || (stop.eventCountMin !== undefined && sim.allEvents().length >= stop.eventCountMin);
  const turn = sim.clients.map((client) => client.id);
  let next = 0;
  while (!done()) {
    if (turn.length === 0) throw new Error(`${LONG_RUN.scenarioId}/${LONG_RUN.variantId}: every client stopped after ${sim.length} steps`);
    next %= turn.length;
    try {
      sim.apply({ kind: 'step', clientId: turn[next] });
      next += 1;
    } catch (error) {
      if (!isRefusal(error)) throw error;
      turn.splice(next, 1);
    }
  }
  return {
    ...LONG_RUN,
    schedule: sim.schedule,
    choices: [...sim.timeline],
    stepCount: sim.length,
    eventCount: sim.allEvents().length,
  };
}
