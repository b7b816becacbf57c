import type { Choice } from '../../src/engine/schedule';
import { scenarioById, type EngineSource } from './source';

/**
 * The long run every "at 10,000" figure uses, built by the engine it is measured with:
 * 1. LEAD_IN_ADVANCE_COUNT clock advances of ADVANCE_MS before anybody starts (one clock event
 *    each): a long history of the cheapest kind;
 * 2. the watchdog scenario's `zombie` variant at its default schedule: A takes the lock, starts
 *    its watchdog W and hangs; W renews A's lease every 2 s, up to 1000 times;
 * 3. then each client in turn (A, W, B, A, ...), skipping clients that can no longer step, as a
 *    teacher pressing every Step button would; when no client can step, a clock advance.
 * It stops at the first choice that brings it to `eventCountMin` events, or at `stepCount`
 * choices. The tail is W renewing a lease (an EVAL, a key whose TTL changes) with W still able
 * to step at the end of a 10,000-event run, both in the time model where a hung client can
 * still be stepped (commit 60e7543) and in the one where it cannot.
 */
export const LONG_RUN = { scenarioId: 'watchdog', variantId: 'zombie' } as const;
/** The client whose Step button appends to the long run: W, renewing, in both time models. */
export const LONG_RUN_APPEND_CLIENT = 'W';
const LEAD_IN_ADVANCE_COUNT = 6_000;
const ADVANCE_MS = 1_000;

export interface LongRun {
  readonly scenarioId: string;
  readonly variantId: string;
  readonly schedule: string;
  readonly choices: readonly Choice[];
  readonly stepCount: number;
  readonly eventCount: number;
}

export interface LongRunStop {
  /** Stop at the first choice that brings the run to at least this many events. */
  readonly eventCountMin?: number;
  /** Stop at exactly this many choices. */
  readonly stepCount?: number;
  /** Clock advances before anybody starts (default LEAD_IN_ADVANCE_COUNT; 0: a short run of the same kind, without the history). */
  readonly leadInAdvanceCount?: number;
}

function isRefusal(error: unknown): boolean {
  return error instanceof Error && error.name === 'ChoiceError';
}

export function buildLongRun(engine: EngineSource, stop: LongRunStop): LongRun {
  const scenario = scenarioById(engine, LONG_RUN.scenarioId);
  const sim = new engine.Simulation(scenario, { variantId: LONG_RUN.variantId });
  const done = () => (stop.stepCount !== undefined && sim.length >= stop.stepCount) || (stop.eventCountMin !== undefined && sim.allEvents().length >= stop.eventCountMin);
  const advance: Choice = { kind: 'advance', ms: ADVANCE_MS };
  const leadIn = stop.leadInAdvanceCount ?? LEAD_IN_ADVANCE_COUNT;
  for (let i = 0; i < leadIn; i++) sim.apply(advance);
  sim.applySchedule(scenario.defaultSchedule);
  const turn = sim.clients.map((client) => client.id);
  let next = 0;
  while (!done()) {
    if (turn.length === 0) {
      sim.apply(advance);
      continue;
    }
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
