/**
 * One store per simulator instance (xyflow's pattern): a factory, three slices (simulation,
 * playback, ui prefs) and actions that delegate to the engine. The `Simulation` lives outside the
 * reactive state; after each action the store publishes plain derived data. Derivations keep the
 * previous object when nothing changed, so a step re-renders only the components whose data moved.
 */
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import { ChoiceError } from '../../engine/engine';
import { randomPolicy, type SchedulingPolicy } from '../../engine/policies';
import type { KeyEntry } from '../../engine/redis/keyspace';
import { findVariant, ScenarioError, type Scenario } from '../../engine/scenario';
import { parseSchedule, type Choice } from '../../engine/schedule';
import { Simulation } from '../../engine/simulation';
import type { LockView, TraceEvent, ViolationEvent } from '../../engine/trace';
import { SCENARIOS } from '../../scenarios';
import type { Lang } from '../i18n';
import type { LinkError } from '../share/link';
import type { Theme } from '../share/persist';
import { clientViews, firstEventAtOrAfter, isOnDefaultPath, keyViews } from './derive';
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

export const SPEEDS_STEPS_PER_S = [0.5, 1, 2, 4, 8] as const;
export const defaultAutoplayStepCountMax = 500;
/** Steps "run to next command" may take before it gives up (a client that never sends one). */
const runToCommandStepCountMax = 100;
const keyCacheCapacity = 256;

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

/** Engine-side state of one store: never in React state. */
interface Engine {
  sim: Simulation;
  scenario: Scenario;
  defaultChoices: readonly Choice[];
  allViolations: readonly ViolationEvent[];
  /** Inspector snapshots by cursor, for "changed since the previous step". Valid for one timeline. */
  entriesByCursor: Map<number, KeyEntry[]>;
  policy: SchedulingPolicy | null;
  autoplaySteps: number;
  timer: unknown;
  outcomeRequestId: number;
}

type Set = StoreApi<SimState>['setState'];
type Get = StoreApi<SimState>['getState'];

function choicesOf(scenario: Scenario, variantId: string | undefined, schedule: RunSpec['schedule']): readonly Choice[] {
  const clientIds = findVariant(scenario, variantId).clients.map((c) => c.id);
  if (schedule === undefined) return parseSchedule(scenario.defaultSchedule, clientIds);
  return typeof schedule === 'string' ? parseSchedule(schedule, clientIds) : schedule;
}

function sameLock(a: LockView, b: LockView): boolean {
  return a.value === b.value && a.pttlMs === b.pttlMs && a.holder === b.holder;
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Replays choices on a fresh simulation. Returns the simulation and, if a choice did not fit,
 * the ChoiceError (the simulation keeps the choices that did).
 */
function replay(scenario: Scenario, variantId: string | undefined, seed: number, choices: readonly Choice[]): { sim: Simulation; error: ChoiceError | null } {
  const sim = new Simulation(scenario, { variantId, seed });
  for (const choice of choices) {
    try {
      sim.apply(choice);
    } catch (error) {
      if (error instanceof ChoiceError) return { sim, error };
      throw error;
    }
  }
  return { sim, error: null };
}

export function createSimStore(init: SimStoreInit = {}): SimStore {
  const scenarios = init.scenarios ?? SCENARIOS;
  const timers: PlaybackTimers = init.timers ?? {
    setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
    clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
  };
  const outcomeService = init.outcomes ?? null;

  const findScenario = (id: string): Scenario => {
    const scenario = scenarios.find((s) => s.id === id);
    if (!scenario) throw new ScenarioError(`unknown scenario "${id}"`);
    return scenario;
  };

  // The default run always exists; a requested run replaces it below if it loads.
  const firstScenario = scenarios[0];
  const engine: Engine = {
    sim: new Simulation(firstScenario, {}),
    scenario: firstScenario,
    defaultChoices: [],
    allViolations: [],
    entriesByCursor: new Map(),
    policy: null,
    autoplaySteps: 0,
    timer: null,
    outcomeRequestId: 0,
  };

  /** The inspector snapshot at `cursor`, from the cache or by a round trip of the live world. */
  const entriesAt = (cursor: number): KeyEntry[] => {
    const cached = engine.entriesByCursor.get(cursor);
    if (cached) return cached;
    const sim = engine.sim;
    const here = sim.cursor;
    if (here !== cursor) sim.seek(cursor);
    const entries = sim.inspect();
    if (here !== cursor) sim.seek(here);
    remember(cursor, entries);
    return entries;
  };
  const remember = (cursor: number, entries: KeyEntry[]) => {
    if (engine.entriesByCursor.size >= keyCacheCapacity) {
      const oldest = engine.entriesByCursor.keys().next().value;
      if (oldest !== undefined) engine.entriesByCursor.delete(oldest);
    }
    engine.entriesByCursor.set(cursor, entries);
  };

  const creator: StateCreator<SimState> = (set, get) => {
    /** Publishes the engine's state as plain data. `timelineChanged` when choices were added, cut or replaced. */
    const publish = (timelineChanged: boolean, extra: Partial<SimState> = {}, fresh = false) => {
      const s = get();
      const tokens = extra.tokens ?? s.tokens;
      const previousClients = fresh ? [] : s.clients;
      const sim = engine.sim;
      const cursor = sim.cursor;
      if (timelineChanged) {
        for (const key of [...engine.entriesByCursor.keys()]) if (key > cursor || key > sim.length) engine.entriesByCursor.delete(key);
      }
      const events = timelineChanged ? sim.allEvents().slice() : s.events;
      if (timelineChanged) engine.allViolations = events.filter((e): e is ViolationEvent => e.kind === 'violation');
      const violationsNow = engine.allViolations.filter((v) => v.step < cursor);
      const entries = sim.inspect();
      remember(cursor, entries);
      const previous = cursor > 0 ? entriesAt(cursor - 1) : null;
      const lock = sim.lock();
      const firstOfLast = cursor > 0 ? firstEventAtOrAfter(events, cursor - 1) : 0;
      const endOfLast = firstEventAtOrAfter(events, cursor);
      const lastStepEvents = events.slice(firstOfLast, endOfLast);
      let nextExpiryAtMs: number | null = null;
      for (const entry of entries) {
        if (entry.expireAtMs !== null && entry.expireAtMs >= sim.nowMs && (nextExpiryAtMs === null || entry.expireAtMs < nextExpiryAtMs)) {
          nextExpiryAtMs = entry.expireAtMs;
        }
      }
      const onDefaultPath =
        cursor <= engine.defaultChoices.length && isOnDefaultPath(sim.timeline.slice(0, cursor), engine.defaultChoices);
      set({
        scenarioId: sim.scenarioId,
        variantId: sim.variantId,
        seed: sim.seed,
        clientIds: sameList(s.clientIds, sim.ctx.clientIds) ? s.clientIds : sim.ctx.clientIds.slice(),
        timelineVersion: timelineChanged ? s.timelineVersion + 1 : s.timelineVersion,
        cursor,
        length: sim.length,
        nowMs: sim.nowMs,
        clients: clientViews(sim.clients, previousClients),
        events,
        eventCountToCursor: endOfLast,
        lastStepEvents: !fresh && sameList(lastStepEvents, s.lastStepEvents) ? s.lastStepEvents : lastStepEvents,
        keys: keyViews(entries, previous, sim.nowMs, tokens),
        lock: sameLock(lock, s.lock) ? s.lock : lock,
        violations: !fresh && sameList(violationsNow, s.violations) ? s.violations : violationsNow,
        // Formatting a 10,000-choice schedule is O(n): only when the timeline changed.
        schedule: timelineChanged ? sim.schedule : s.schedule,
        onDefaultPath,
        finished: sim.isFinished,
        nextExpiryAtMs,
        ...extra,
      });
      if (timelineChanged) requestOutcomes();
    };

    const requestOutcomes = () => {
      if (!outcomeService) return;
      const s = get();
      engine.outcomeRequestId += 1;
      const request = { id: engine.outcomeRequestId, scenarioId: s.scenarioId, seed: s.seed, schedule: s.schedule, baseVariantId: s.variantId };
      set({ outcomesPending: true });
      outcomeService.request(request, (report) => {
        const now = get();
        if (report.id !== engine.outcomeRequestId) return;
        if (report.scenarioId !== now.scenarioId || report.seed !== now.seed || report.schedule !== now.schedule) return;
        set({ outcomes: report, outcomesPending: false });
      });
    };

    /** Installs a new simulation (new scenario, variant, seed or loaded run) and publishes everything. */
    const install = (scenario: Scenario, sim: Simulation, cursor: number | null, extra: Partial<SimState> = {}) => {
      engine.sim = sim;
      engine.scenario = scenario;
      engine.defaultChoices = parseSchedule(scenario.defaultSchedule, sim.ctx.clientIds);
      engine.entriesByCursor = new Map();
      engine.policy = null;
      sim.seek(cursor === null ? sim.length : Math.min(cursor, sim.length));
      const tokens: Record<string, string> = {};
      const tokenOwners: Record<string, string> = {};
      for (const c of sim.clients) {
        const token = c.vars.token ?? '';
        tokens[c.id] = token;
        if (token !== '') tokenOwners[token] = c.id;
      }
      publish(true, { tokens, tokenOwners, ...extra }, true);
    };

    /** Runs a user action on the engine; a choice that does not fit becomes a notice, not a crash. */
    const act = (action: (sim: Simulation) => boolean | void) => {
      const sim = engine.sim;
      const lengthBefore = sim.length;
      const timelineBefore = sim.timeline;
      const lastBefore = timelineBefore[lengthBefore - 1];
      let notice: Notice | null = null;
      try {
        action(sim);
      } catch (error) {
        if (!(error instanceof ChoiceError)) throw error;
        notice = { key: 'actionRefused', params: { detail: error.message }, tone: 'warning' };
      }
      const timelineChanged = sim.length !== lengthBefore || sim.timeline[lengthBefore - 1] !== lastBefore;
      publish(timelineChanged, { notice, persistRun: true });
    };

    const stopTimer = () => {
      if (engine.timer !== null) timers.clearInterval(engine.timer);
      engine.timer = null;
    };
    const startTimer = () => {
      stopTimer();
      engine.timer = timers.setInterval(() => {
        get().tick();
      }, 1000 / get().speedStepsPerS);
    };

    const loadRun = (spec: RunSpec): LoadResult => {
      let scenario: Scenario;
      try {
        scenario = findScenario(spec.scenarioId);
        findVariant(scenario, spec.variantId);
      } catch (error) {
        const reason = error instanceof ScenarioError && /variant/.test(error.message) ? 'unknown-variant' : 'unknown-scenario';
        return { ok: false, error: { reason, detail: reason === 'unknown-variant' ? String(spec.variantId) : spec.scenarioId } };
      }
      const seed = spec.seed ?? 1;
      if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffff_ffff) return { ok: false, error: { reason: 'bad-seed', detail: String(seed) } };
      let choices: readonly Choice[];
      try {
        choices = choicesOf(scenario, spec.variantId, spec.schedule);
      } catch (error) {
        return { ok: false, error: { reason: 'bad-schedule', detail: error instanceof Error ? error.message : String(error) } };
      }
      const cursor = spec.cursor === undefined ? 0 : spec.cursor;
      if (cursor !== null && (!Number.isInteger(cursor) || cursor < 0 || cursor > choices.length)) {
        return { ok: false, error: { reason: 'bad-cursor', detail: String(cursor) } };
      }
      const { sim, error } = replay(scenario, spec.variantId, seed, choices);
      if (error) return { ok: false, error: { reason: 'schedule-does-not-fit', detail: error.message } };
      get().pause();
      install(scenario, sim, cursor, { notice: null });
      return { ok: true };
    };

    /** Rebuilds the run under another variant or seed, keeping as much of the schedule as fits. */
    const rebuild = (variantId: string, seed: number, noticeKey: 'variantReplayed' | null) => {
      const old = engine.sim;
      const { sim, error } = replay(engine.scenario, variantId, seed, old.timeline);
      get().pause();
      const variant = findVariant(engine.scenario, variantId);
      const notice: Notice | null = error
        ? { key: 'variantScheduleCut', params: { step: sim.length, reason: error.message }, tone: 'warning' }
        : noticeKey
          ? { key: noticeKey, params: { variant: variant.title[get().lang] }, tone: 'info' }
          : null;
      install(engine.scenario, sim, Math.min(old.cursor, sim.length), { notice, persistRun: true });
    };

    const simulation: SimulationSlice = {
      scenarioId: firstScenario.id,
      variantId: firstScenario.defaultVariant,
      seed: 1,
      clientIds: [],
      timelineVersion: 0,
      cursor: 0,
      length: 0,
      nowMs: 0,
      clients: [],
      events: [],
      eventCountToCursor: 0,
      lastStepEvents: [],
      keys: [],
      lock: { value: null, pttlMs: -2, holder: null },
      violations: [],
      schedule: '',
      tokens: {},
      tokenOwners: {},
      onDefaultPath: true,
      finished: false,
      nextExpiryAtMs: null,
      notice: null,
      outcomes: null,
      outcomesPending: false,
      persistRun: init.linkError == null,

      loadRun,
      selectScenario(scenarioId) {
        const result = loadRun({ scenarioId });
        if (result.ok) set({ persistRun: true });
      },
      selectVariant(variantId) {
        if (variantId === engine.sim.variantId) return;
        rebuild(variantId, engine.sim.seed, 'variantReplayed');
      },
      setSeed(seed) {
        if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffff_ffff || seed === engine.sim.seed) return;
        rebuild(engine.sim.variantId, seed, null);
      },
      stepClient(clientId) {
        act((sim) => void sim.apply({ kind: 'step', clientId }));
      },
      runToNextCommand(clientId) {
        act((sim) => {
          for (let steps = 0; steps < runToCommandStepCountMax; steps++) {
            const produced = sim.apply({ kind: 'step', clientId });
            const client = sim.clients.find((c) => c.id === clientId);
            if (produced.some((e) => e.kind === 'command' && e.clientId === clientId)) return;
            if (!client || client.status === 'done' || client.status === 'crashed') return;
          }
        });
      },
      stallClient(clientId, ms) {
        act((sim) => void sim.apply({ kind: 'stall', clientId, ms }));
      },
      crashClient(clientId) {
        act((sim) => void sim.apply({ kind: 'crash', clientId }));
      },
      advanceClock(ms) {
        act((sim) => void sim.apply({ kind: 'advance', ms }));
      },
      jumpToNextExpiry() {
        const at = get().nextExpiryAtMs;
        if (at === null) return;
        // A key with expiry time T still exists at T (Redis: expired once now > T).
        act((sim) => void sim.apply({ kind: 'advance', ms: at - sim.nowMs + 1 }));
      },
      stepBack() {
        act((sim) => sim.stepBack());
      },
      stepForward() {
        act((sim) => sim.stepForward());
      },
      seek(cursor) {
        const sim = engine.sim;
        const target = Math.max(0, Math.min(sim.length, Math.trunc(cursor)));
        if (target === sim.cursor) return;
        act((s) => s.seek(target));
      },
      dismissNotice() {
        set({ notice: null });
      },
    };

    const playback: PlaybackSlice = {
      playing: false,
      speedStepsPerS: 2,
      autoplayStepCountMax: init.autoplayStepCountMax ?? defaultAutoplayStepCountMax,
      play() {
        if (get().playing) return;
        const sim = engine.sim;
        if (sim.cursor >= sim.length && sim.isFinished) {
          set({ notice: { key: 'runFinished', tone: 'info' } });
          return;
        }
        // A seeded random policy per play: the same run, seed and position give the same continuation.
        engine.policy = randomPolicy((sim.seed * 1_000_003 + sim.cursor) >>> 0);
        engine.autoplaySteps = 0;
        set({ playing: true, notice: null });
        startTimer();
      },
      pause() {
        stopTimer();
        if (get().playing) set({ playing: false });
      },
      togglePlay() {
        if (get().playing) get().pause();
        else get().play();
      },
      setSpeed(stepsPerS) {
        if (!SPEEDS_STEPS_PER_S.includes(stepsPerS as (typeof SPEEDS_STEPS_PER_S)[number])) return;
        set({ speedStepsPerS: stepsPerS });
        if (get().playing) startTimer();
      },
      tick() {
        if (!get().playing) return false;
        const sim = engine.sim;
        if (engine.autoplaySteps >= get().autoplayStepCountMax) {
          get().pause();
          set({ notice: { key: 'autoplayBound', params: { n: engine.autoplaySteps }, tone: 'info' } });
          return false;
        }
        if (sim.cursor < sim.length) {
          engine.autoplaySteps += 1;
          act((s) => s.stepForward());
          return true;
        }
        const choice = engine.policy?.next(sim) ?? null;
        if (choice === null) {
          get().pause();
          set({ notice: { key: 'runFinished', tone: 'info' } });
          return false;
        }
        engine.autoplaySteps += 1;
        act((s) => void s.apply(choice));
        return true;
      },
    };

    const ui: UiSlice = {
      lang: init.lang ?? 'en',
      theme: init.theme ?? 'light',
      presentation: init.presentation ?? false,
      embed: init.embed ?? false,
      view: 'timeline',
      shortcutsOpen: false,
      linkError: init.linkError ?? null,
      setLang(lang) {
        set({ lang });
      },
      setTheme(theme) {
        set({ theme });
      },
      togglePresentation() {
        set({ presentation: !get().presentation });
      },
      setView(view) {
        set({ view });
      },
      setShortcutsOpen(open) {
        set({ shortcutsOpen: open });
      },
      dismissLinkError() {
        set({ linkError: null });
      },
    };

    return { ...simulation, ...playback, ...ui };
  };

  const api = createStore<SimState>()(creator);
  // Load the requested run; if its schedule does not fit, show why and load the default instead.
  const requested = init.run ?? { scenarioId: firstScenario.id };
  const result = api.getState().loadRun(requested);
  if (!result.ok) {
    api.getState().loadRun({ scenarioId: firstScenario.id });
    api.setState({ linkError: result.error, persistRun: false });
  }
  return Object.assign(api, {
    simulation: () => engine.sim,
    scenario: () => engine.scenario,
    dispose: () => {
      api.getState().pause();
      outcomeService?.dispose();
    },
  });
}
