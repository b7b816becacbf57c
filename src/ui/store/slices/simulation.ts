/**
 * The simulation slice: the run as plain data, and the actions that change it. Every action
 * delegates to the engine (`Simulation`), which lives in the runtime, outside React state.
 */
import type { StateCreator } from 'zustand/vanilla';
import { ChoiceError } from '../../../engine/engine';
import type { KeyEntry } from '../../../engine/redis/keyspace';
import { findVariant, nodeIdsOf, ScenarioError, type Scenario } from '../../../engine/scenario';
import { canRun } from '../library';
import { parseSchedule, ScheduleSyntaxError, type Choice } from '../../../engine/schedule';
import { defaultSeed, Simulation } from '../../../engine/simulation';
import { RunProjection } from '../../../engine/projection';
import type { LockView } from '../../../engine/trace';
import type { LoadResult, RunSpec, SimState, SimStoreInit, SimulationSlice } from '../createSimStore';
import { clientViews, isOnDefaultPath, keyViews } from '../derive';
import { nodeStatuses } from '../node-status';
import { runInfo } from '../run-info';
import type { Runtime } from '../runtime';
import type { Notice, RunLog } from '../types';

const emptyProjection = new RunProjection(0);
const emptyRunLog: RunLog = { generation: 0, events: emptyProjection.events, eventCount: 0, stepCount: 0, projection: emptyProjection };

/** Steps "run to next command" may take before it gives up (a client that never sends one). */
const runToCommandStepCountMax = 100;
const keyCacheCapacity = 256;

function choicesOf(scenario: Scenario, variantId: string | undefined, schedule: RunSpec['schedule']): readonly Choice[] {
  const variant = findVariant(scenario, variantId);
  const clientIds = variant.clients.map((c) => c.id);
  const nodeIds = nodeIdsOf(scenario, variant);
  if (schedule === undefined) return parseSchedule(scenario.defaultSchedule, clientIds, nodeIds);
  return typeof schedule === 'string' ? parseSchedule(schedule, clientIds, nodeIds) : schedule;
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

export function createSimulationSlice(rt: Runtime, init: SimStoreInit): StateCreator<SimState, [], [], SimulationSlice> {
  const { engine, outcomeService, library } = rt;
  const firstScenario = rt.firstScenario;
  /** Counts requests to load a scenario: a pending load whose ticket is no longer the last is dropped. */
  let loadTicket = 0;

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

  return (set, get) => {
    /**
     * Publishes the engine's state as plain data. `timelineChanged` when choices were added, cut or
     * replaced. The run's projection is extended by what the step appended (O(step)); only a cut or
     * replaced timeline starts a new generation, rebuilt from its events once.
     */
    const publish = (timelineChanged: boolean, extra: Partial<SimState> = {}, fresh = false) => {
      const s = get();
      const tokens = extra.tokens ?? s.tokens;
      const previousClients = fresh ? [] : s.clients;
      const sim = engine.sim;
      const cursor = sim.cursor;
      if (timelineChanged) {
        for (const key of [...engine.entriesByCursor.keys()]) if (key > cursor || key > sim.length) engine.entriesByCursor.delete(key);
      }
      if (fresh || engine.projection.sync(sim.allEvents(), sim.timeline) === 'replaced') {
        engine.projection = new RunProjection(engine.projection.generation + 1);
        engine.projection.sync(sim.allEvents(), sim.timeline);
      }
      const log = engine.projection;
      const runLog =
        s.runLog.generation === log.generation && s.runLog.eventCount === log.eventCount && s.runLog.stepCount === log.stepCount
          ? s.runLog
          : { generation: log.generation, events: log.events, eventCount: log.eventCount, stepCount: log.stepCount, projection: log };
      const violationsNow = log.violations.slice(0, log.violationCountBefore(cursor));
      const entries = sim.inspect();
      remember(cursor, entries);
      const previous = cursor > 0 ? entriesAt(cursor - 1) : null;
      const lock = sim.lock();
      const endOfLast = log.firstEventOfStep(cursor);
      const lastStepEvents = cursor > 0 ? log.eventsOfStep(cursor - 1) : [];
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
        clients: clientViews(sim.clients, sim.state.processes, sim.nowMs, previousClients),
        runLog,
        events: log.events,
        eventCountToCursor: endOfLast,
        lastStepEvents: !fresh && sameList(lastStepEvents, s.lastStepEvents) ? s.lastStepEvents : lastStepEvents,
        keys: keyViews(entries, previous, sim.nowMs, tokens),
        lock: sameLock(lock, s.lock) ? s.lock : lock,
        violations: !fresh && sameList(violationsNow, s.violations) ? s.violations : violationsNow,
        // Extended per choice by the projection, never formatted over the whole timeline per step.
        schedule: log.schedule,
        nodes: nodeStatuses(sim, extra.tokenOwners ?? s.tokenOwners, fresh ? [] : s.nodes),
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
      const request = {
        id: engine.outcomeRequestId,
        scenarioId: s.scenarioId,
        seed: s.seed,
        schedule: s.schedule,
        baseVariantId: s.variantId,
        ...(engine.definition ? { definition: engine.definition } : {}),
      };
      set({ outcomesPending: true });
      outcomeService.request(request, (report) => {
        const now = get();
        if (report.id !== engine.outcomeRequestId) return;
        if (report.scenarioId !== now.scenarioId || report.seed !== now.seed || report.schedule !== now.schedule) return;
        set({ outcomes: report, outcomesPending: false });
      });
    };

    /** Installs a new simulation (new scenario, variant, seed or loaded run) and publishes everything. */
    const install = (scenario: Scenario, sim: Simulation, cursor: number | null, extra: Partial<SimState> = {}, definition = engine.definition) => {
      // This run replaces any scenario still loading: that load's run is no longer wanted.
      loadTicket++;
      engine.sim = sim;
      engine.scenario = scenario;
      engine.definition = definition;
      engine.defaultChoices = parseSchedule(scenario.defaultSchedule, sim.ctx.clientIds, sim.ctx.nodeIds);
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
      publish(true, { tokens, tokenOwners, runInfo: runInfo(scenario, findVariant(scenario, sim.variantId)), runLoading: null, ...extra }, true);
    };

    /**
     * While a scenario loads, the run in the store is a stand-in nobody sees: an action on it (a
     * key pressed before the run is shown) is refused with a notice saying why, not applied to it.
     */
    const refusedWhileLoading = (): boolean => {
      const loading = get().runLoading;
      if (loading === null) return false;
      set({ notice: { key: 'runStillLoading', params: { title: loading.title[get().lang] }, tone: 'info' } });
      return true;
    };

    /** Runs a user action on the engine; a choice that does not fit becomes a notice, not a crash. */
    const act = (action: (sim: Simulation) => boolean | void) => {
      if (refusedWhileLoading()) return;
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
      publish(timelineChanged, { notice, persistRun: engine.definition === null });
    };
    rt.act = act;

    rt.whenReady = (id, then) => {
      if (library.ready(id) !== undefined) return then();
      const entry = library.catalog.find((s) => s.id === id);
      if (entry === undefined) return then();
      const ticket = ++loadTicket;
      get().pause();
      set({ runLoading: { scenarioId: id, title: entry.title } });
      library.prepare(id).then(
        () => {
          if (ticket !== loadTicket) return;
          // `then` installs the run (which ends the loading state) or refuses it; either way it is over.
          then();
          if (ticket === loadTicket) set({ runLoading: null });
        },
        (error: unknown) => {
          if (ticket !== loadTicket) return;
          set({ runLoading: null, notice: { key: 'scenarioLoadFailed', params: { title: entry.title[get().lang], detail: error instanceof Error ? error.message : String(error) }, tone: 'warning' } });
        },
      );
    };

    const loadRun = (spec: RunSpec): LoadResult => {
      let scenario: Scenario;
      try {
        const found = spec.custom?.scenario ?? library.ready(spec.scenarioId);
        if (found === undefined) {
          // Built-in but not loaded yet (the page, before `lockstep.ready`): nothing changes.
          if (library.catalog.some((s) => s.id === spec.scenarioId)) return { ok: false, error: { reason: 'not-ready', detail: spec.scenarioId } };
          throw new ScenarioError(`unknown scenario "${spec.scenarioId}"`);
        }
        scenario = found;
        findVariant(scenario, spec.variantId);
      } catch (error) {
        const reason = error instanceof ScenarioError && /variant/.test(error.message) ? 'unknown-variant' : 'unknown-scenario';
        return { ok: false, error: { reason, detail: reason === 'unknown-variant' ? String(spec.variantId) : spec.scenarioId } };
      }
      // A definition or an edited copy that evaluates scripts, before the page has loaded the Lua engine.
      if (!canRun(library, scenario)) return { ok: false, error: { reason: 'not-ready', detail: spec.scenarioId } };
      const seed = spec.seed ?? defaultSeed;
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
      if (error && !spec.cutToFit) return { ok: false, error: { reason: 'schedule-does-not-fit', detail: error.message } };
      get().pause();
      const notice: Notice | null = error ? { key: 'variantScheduleCut', params: { step: sim.length, reason: error.message }, tone: 'warning' } : null;
      // A definition's run stays out of the saved session: its link names a scenario only this page load knows.
      install(scenario, sim, cursor === null ? null : Math.min(cursor, sim.length), { notice, ...(spec.custom ? { persistRun: false } : {}) }, spec.custom?.definition ?? null);
      return { ok: true };
    };

    /** Rebuilds the run under another variant or seed, keeping as much of the schedule as fits. */
    const rebuild = (variantId: string, seed: number, noticeKey: 'variantReplayed' | null) => {
      if (refusedWhileLoading()) return;
      const old = engine.sim;
      const { sim, error } = replay(engine.scenario, variantId, seed, old.timeline);
      get().pause();
      const variant = findVariant(engine.scenario, variantId);
      const notice: Notice | null = error
        ? { key: 'variantScheduleCut', params: { step: sim.length, reason: error.message }, tone: 'warning' }
        : noticeKey
          ? { key: noticeKey, params: { variant: variant.title[get().lang] }, tone: 'info' }
          : null;
      install(engine.scenario, sim, Math.min(old.cursor, sim.length), { notice, persistRun: engine.definition === null });
    };

    return {
      scenarios: library.catalog,
      runLoading: null,
      runInfo: runInfo(firstScenario, findVariant(firstScenario, undefined)),
      scenarioId: firstScenario.id,
      variantId: firstScenario.defaultVariant,
      seed: defaultSeed,
      clientIds: [],
      timelineVersion: 0,
      cursor: 0,
      length: 0,
      nowMs: 0,
      clients: [],
      runLog: emptyRunLog,
      events: [],
      eventCountToCursor: 0,
      lastStepEvents: [],
      keys: [],
      lock: { value: null, pttlMs: -2, holder: null },
      violations: [],
      schedule: '',
      nodes: [],
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
        rt.whenReady(scenarioId, () => {
          const result = loadRun({ scenarioId });
          if (result.ok) set({ persistRun: true });
        });
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
      appendScheduleText(text) {
        const sim = engine.sim;
        let choices: Choice[];
        try {
          choices = parseSchedule(text, sim.ctx.clientIds, sim.ctx.nodeIds);
        } catch (error) {
          if (!(error instanceof ScheduleSyntaxError)) throw error;
          set({ notice: { key: 'actionRefused', params: { detail: error.message }, tone: 'warning' } });
          return;
        }
        act((s) => {
          for (const choice of choices) s.apply(choice);
        });
      },
      runSchedule(text) {
        const s = get();
        const result = loadRun({ scenarioId: s.scenarioId, variantId: s.variantId, seed: s.seed, schedule: text, cursor: null, ...(engine.definition ? { custom: { scenario: engine.scenario, definition: engine.definition } } : {}) });
        if (!result.ok) set({ notice: { key: 'actionRefused', params: { detail: result.error.detail }, tone: 'warning' } });
        return result;
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
  };
}
