/**
 * The store's client of its run session: one session call per action, then the session's frame
 * published with `set` as plain data. Notices, the loading state, saving and the variants'
 * outcomes are the store's; the run, its checks and its change feed are the session's.
 */
import { findVariant } from '../../engine/scenario';
import type { Simulation } from '../../engine/simulation';
import type { CommandResult, Refusal, SessionCommand } from '../../session/commands';
import type { RunSession } from '../../session/run-session';
import type { OutcomeService } from '../worker/protocol';
import type { LoadResult, RunSpec, SimState } from './createSimStore';
import { canRun, type ScenarioLibrary } from './library';
import { runInfo } from './run-info';
import type { Runtime } from './runtime';
import type { Notice, RunLog } from './types';

interface StoreAccess {
  get(): SimState;
  set(partial: Partial<SimState>): void;
}

interface ClientDeps {
  readonly session: RunSession;
  readonly engine: Runtime['engine'];
  readonly library: ScenarioLibrary;
  readonly outcomeService: OutcomeService | null;
}

export interface RunClient {
  /** A typed command: applied, published, a refusal shown as a notice. */
  command(command: SessionCommand): void;
  act(action: (sim: Simulation) => boolean | void): void;
  whenReady(id: string, then: () => void): void;
  loadRun(spec: RunSpec): LoadResult;
  /** Another variant or seed, keeping what fits of the schedule; `noticeKey` says so when all fit. */
  rebuild(variantId: string, seed: number, noticeKey: 'variantReplayed' | null): void;
}

/** The store's log: the feed's position (a new generation: the timeline was cut or replaced). */
export function runLogOf(session: RunSession, current: RunLog | null): RunLog {
  const mark = session.mark();
  if (current !== null && current.generation === mark.generation && current.eventCount === mark.eventCount && current.stepCount === mark.stepCount) return current;
  const log = session.log;
  return { generation: mark.generation, events: log.events, eventCount: mark.eventCount, stepCount: mark.stepCount, projection: log };
}

export function createRunClient(deps: ClientDeps, store: StoreAccess): RunClient {
  const { session, engine, library, outcomeService } = deps;
  const { get, set } = store;

  /** Publishes the session's frame; a changed timeline asks the worker for the variants' outcomes again. */
  const publish = (timelineChanged: boolean, extra: Partial<SimState>) => {
    const frame = session.frame();
    set({ ...frame, runLog: runLogOf(session, get().runLog), ...extra });
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

  /** While a scenario loads, the run on hand is a stand-in nobody sees: say why an action is refused. */
  const loadingNotice = (): Notice => {
    const loading = get().runLoading;
    const title = loading === null ? session.loading ?? '' : loading.title[get().lang];
    return { key: 'runStillLoading', params: { title }, tone: 'info' };
  };

  const refusalNotice = (refusal: Refusal): Notice =>
    refusal.kind === 'loading' ? loadingNotice() : { key: 'actionRefused', params: { detail: refusal.detail }, tone: 'warning' };

  /** Publishes a command's result: a loading or syntax refusal changed nothing but the notice. */
  const settle = (result: CommandResult) => {
    if (!result.ok && (result.refusal.kind === 'loading' || result.refusal.kind === 'schedule')) {
      set({ notice: refusalNotice(result.refusal) });
      return;
    }
    if (result.ok && result.noop) return;
    publish(result.timelineChanged, { notice: result.ok ? null : refusalNotice(result.refusal), persistRun: engine.definition === null });
  };

  return {
    command: (command) => settle(session.apply(command)),
    act: (action) => settle(session.act(action)),
    whenReady: (id, then) => whenReady(id, then),
    loadRun: (spec) => loadRun(spec),
    rebuild: (variantId, seed, noticeKey) => rebuild(variantId, seed, noticeKey),
  };

  function whenReady(id: string, then: () => void): void {
    if (library.ready(id) !== undefined) return then();
    const entry = library.catalog.find((s) => s.id === id);
    if (entry === undefined) return then();
    const ticket = session.beginLoading(id);
    get().pause();
    set({ runLoading: { scenarioId: id, title: entry.title } });
    library.prepare(id).then(
      () => {
        if (!session.isCurrentLoad(ticket)) return;
        session.endLoading(ticket);
        // `then` installs the run (which ends the loading state) or refuses it; either way it is over.
        then();
        if (session.isCurrentLoad(ticket)) set({ runLoading: null });
      },
      (error: unknown) => {
        if (!session.isCurrentLoad(ticket)) return;
        session.endLoading(ticket);
        set({ runLoading: null, notice: { key: 'scenarioLoadFailed', params: { title: entry.title[get().lang], detail: error instanceof Error ? error.message : String(error) }, tone: 'warning' } });
      },
    );
  }

  function loadRun(spec: RunSpec): LoadResult {
    const scenario = spec.custom?.scenario ?? library.ready(spec.scenarioId);
    // Built-in but not loaded yet (the page, before `lockstep.ready`): nothing changes.
    if (scenario === undefined && library.catalog.some((s) => s.id === spec.scenarioId)) return { ok: false, error: { reason: 'not-ready', detail: spec.scenarioId } };
    const outcome = session.load({ ...spec, scenario, runnable: (s) => canRun(library, s) });
    if (!outcome.ok) return outcome;
    get().pause();
    engine.definition = spec.custom?.definition ?? null;
    engine.policy = null;
    const notice: Notice | null = outcome.cut ? { key: 'variantScheduleCut', params: { step: outcome.cut.step, reason: outcome.cut.reason }, tone: 'warning' } : null;
    // A definition's run stays out of the saved session: its link names a scenario only this page load knows.
    publish(true, { ...installed(), notice, ...(spec.custom ? { persistRun: false } : {}) });
    return { ok: true };
  }

  function rebuild(variantId: string, seed: number, noticeKey: 'variantReplayed' | null): void {
    const result = session.apply({ kind: 'rebuild', variantId, seed });
    if (!result.ok) return settle(result);
    get().pause();
    engine.policy = null;
    const variant = findVariant(session.scenario, variantId);
    const notice: Notice | null = result.cut
      ? { key: 'variantScheduleCut', params: { step: result.cut.step, reason: result.cut.reason }, tone: 'warning' }
      : noticeKey
        ? { key: noticeKey, params: { variant: variant.title[get().lang] }, tone: 'info' }
        : null;
    publish(true, { ...installed(), notice, persistRun: engine.definition === null });
  }

  /** What a newly installed run publishes besides its frame. */
  function installed(): Partial<SimState> {
    return { runInfo: runInfo(session.scenario, findVariant(session.scenario, session.simulation.variantId)), runLoading: null };
  }
}
