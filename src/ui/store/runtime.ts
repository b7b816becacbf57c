import { definitionOfScenario, type ScenarioDefinition } from '../../definition';
import type { SchedulingPolicy } from '../../engine/policies';
import type { RunProjection } from '../../engine/projection';
import type { KeyEntry } from '../../engine/redis/keyspace';
import type { Scenario } from '../../engine/scenario';
import type { Choice } from '../../engine/schedule';
import type { Simulation } from '../../engine/simulation';
import type { OutcomeService } from '../worker/protocol';
import type { ScenarioLibrary } from './library';
import type { PlaybackTimers } from './types';

/** Engine-side state of one store: never in React state. */
interface Engine {
  sim: Simulation;
  scenario: Scenario;
  defaultChoices: readonly Choice[];
  /** The run's append-only projection (one generation per timeline). */
  projection: RunProjection;
  /** Inspector snapshots by cursor, for "changed since the previous step". Valid for one timeline. */
  entriesByCursor: Map<number, KeyEntry[]>;
  policy: SchedulingPolicy | null;
  autoplaySteps: number;
  timer: unknown;
  outcomeRequestId: number;
  /** The definition the run's scenario came from (`lockstep.load({ definition })`), or null for a built-in. */
  definition: ScenarioDefinition | null;
}

/** What the slices of one store share: the engine and the outside world it may touch. */
export interface Runtime {
  readonly engine: Engine;
  /** Where scenarios come from (library.ts): all loaded (Node), or some on demand (the page). */
  readonly library: ScenarioLibrary;
  /** The library's first scenario: the default run, always ready. */
  readonly firstScenario: Scenario;
  readonly timers: PlaybackTimers;
  readonly outcomeService: OutcomeService | null;
  /** Runs a user action on the engine and publishes the result (set by the simulation slice). */
  act: (action: (sim: Simulation) => boolean | void) => void;
  /**
   * Runs `then` once the scenario `id` is ready (library.ts): at once if it is; otherwise the store
   * shows `runLoading` while it loads. A later run replaces a pending one (its `then` never runs).
   */
  whenReady: (id: string, then: () => void) => void;
}

/** The definition of the scenario on screen (the edited or loaded one, else the built-in's), or null when it cannot be one (a client runs code outside the engine). */
export function definitionOnScreen(engine: Runtime['engine']): ScenarioDefinition | null {
  if (engine.definition) return engine.definition;
  try {
    return definitionOfScenario(engine.scenario);
  } catch {
    return null;
  }
}
