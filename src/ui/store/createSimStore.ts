/**
 * One store per simulator instance (xyflow's pattern): a factory, three slices (simulation,
 * playback, ui prefs) and actions that delegate to the engine. The `Simulation` lives outside the
 * reactive state; after each action the store publishes plain derived data. Derivations keep the
 * previous object when nothing changed, so a step re-renders only the components whose data moved.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Scenario } from '../../engine/scenario';
import type { Choice } from '../../engine/schedule';
import { Simulation } from '../../engine/simulation';
import type { LockView, TraceEvent, ViolationEvent } from '../../engine/trace';
import { SCENARIOS } from '../../scenarios';
import type { Lang } from '../i18n';
import type { LinkError } from '../share/link';
import type { Theme } from '../share/persist';
import type { Runtime } from './runtime';
import { createPlaybackSlice } from './slices/playback';
import { createSimulationSlice } from './slices/simulation';
import { createUiSlice } from './slices/ui';
import type { ClientView, KeyView, Notice, OutcomeReport, OutcomeService, PlaybackTimers } from './types';

export interface RunSpec {
  readonly scenarioId: string;
  readonly variantId?: string;
  readonly seed?: number;
  /** Schedule text or choices; the scenario's default schedule when absent. */
  readonly schedule?: string | readonly Choice[];
  /** Step to show; the start (0) when absent, null for the end. */
  readonly cursor?: number | null;
}

export type LoadResult = { readonly ok: true } | { readonly ok: false; readonly error: LinkError };

export type ViewTab = 'timeline' | 'sequence' | 'events';

export { SPEEDS_STEPS_PER_S, defaultAutoplayStepCountMax } from './slices/playback';

export interface SimulationSlice {
  readonly scenarioId: string;
  readonly variantId: string;
  readonly seed: number;
  readonly clientIds: readonly string[];
  /** Bumps whenever the timeline itself (not just the cursor) changes. */
  readonly timelineVersion: number;
  readonly cursor: number;
  readonly length: number;
  readonly nowMs: number;
  readonly clients: readonly ClientView[];
  /** Every event of the whole timeline (past and future of the cursor). */
  readonly events: readonly TraceEvent[];
  readonly eventCountToCursor: number;
  /** Events of the step just before the cursor (what just happened). */
  readonly lastStepEvents: readonly TraceEvent[];
  readonly keys: readonly KeyView[];
  readonly lock: LockView;
  readonly violations: readonly ViolationEvent[];
  readonly schedule: string;
  /** clientId -> token, and token -> clientId. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly tokenOwners: Readonly<Record<string, string>>;
  readonly onDefaultPath: boolean;
  readonly finished: boolean;
  /** Earliest expiry time of a live key at or after now, or null. */
  readonly nextExpiryAtMs: number | null;
  readonly notice: Notice | null;
  readonly outcomes: OutcomeReport | null;
  readonly outcomesPending: boolean;
  /** False after a refused link until the user acts: a broken link must not overwrite saved work. */
  readonly persistRun: boolean;

  loadRun(spec: RunSpec): LoadResult;
  selectScenario(scenarioId: string): void;
  selectVariant(variantId: string): void;
  setSeed(seed: number): void;
  stepClient(clientId: string): void;
  runToNextCommand(clientId: string): void;
  stallClient(clientId: string, ms: number): void;
  crashClient(clientId: string): void;
  advanceClock(ms: number): void;
  jumpToNextExpiry(): void;
  stepBack(): void;
  stepForward(): void;
  seek(cursor: number): void;
  dismissNotice(): void;
}

export interface PlaybackSlice {
  readonly playing: boolean;
  readonly speedStepsPerS: number;
  readonly autoplayStepCountMax: number;
  play(): void;
  pause(): void;
  togglePlay(): void;
  setSpeed(stepsPerS: number): void;
  /** One autoplay tick (the driver calls it; exposed for tests). Returns false when playback stopped. */
  tick(): boolean;
}

export interface UiSlice {
  readonly lang: Lang;
  readonly theme: Theme;
  readonly presentation: boolean;
  readonly embed: boolean;
  readonly view: ViewTab;
  readonly shortcutsOpen: boolean;
  readonly linkError: LinkError | null;
  setLang(lang: Lang): void;
  setTheme(theme: Theme): void;
  togglePresentation(): void;
  setView(view: ViewTab): void;
  setShortcutsOpen(open: boolean): void;
  dismissLinkError(): void;
}

export type SimState = SimulationSlice & PlaybackSlice & UiSlice;
export type SimStore = StoreApi<SimState> & {
  /** The engine instance behind the store: read-only access for the test API and views. */
  readonly simulation: () => Simulation;
  readonly scenario: () => Scenario;
  readonly dispose: () => void;
};

export interface SimStoreInit {
  readonly run?: RunSpec;
  readonly lang?: Lang;
  readonly theme?: Theme;
  readonly presentation?: boolean;
  readonly embed?: boolean;
  /** A link refused before the store existed (shape, scenario...), shown with the default run. */
  readonly linkError?: LinkError | null;
  readonly outcomes?: OutcomeService | null;
  readonly timers?: PlaybackTimers;
  readonly autoplayStepCountMax?: number;
  readonly scenarios?: readonly Scenario[];
}

export function createSimStore(init: SimStoreInit = {}): SimStore {
  const scenarios = init.scenarios ?? SCENARIOS;
  const firstScenario = scenarios[0];
  const rt: Runtime = {
    // The default run always exists; a requested run replaces it below if it loads.
    engine: {
      sim: new Simulation(firstScenario, {}),
      scenario: firstScenario,
      defaultChoices: [],
      allViolations: [],
      entriesByCursor: new Map(),
      policy: null,
      autoplaySteps: 0,
      timer: null,
      outcomeRequestId: 0,
    },
    scenarios,
    timers: init.timers ?? {
      setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
      clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
    },
    outcomeService: init.outcomes ?? null,
    act: () => {
      throw new Error('createSimStore: the simulation slice has not been created');
    },
  };

  const api = createStore<SimState>()((...a) => ({
    ...createSimulationSlice(rt, init)(...a),
    ...createPlaybackSlice(rt, init)(...a),
    ...createUiSlice(init)(...a),
  }));
  // Load the requested run; if its schedule does not fit, show why and load the default instead.
  const requested = init.run ?? { scenarioId: firstScenario.id };
  const result = api.getState().loadRun(requested);
  if (!result.ok) {
    api.getState().loadRun({ scenarioId: firstScenario.id });
    api.setState({ linkError: result.error, persistRun: false });
  }
  return Object.assign(api, {
    simulation: () => rt.engine.sim,
    scenario: () => rt.engine.scenario,
    dispose: () => {
      api.getState().pause();
      rt.outcomeService?.dispose();
    },
  });
}
