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
import type { LoadResult, RunSpec, SimState } from './store-types';
import { canRun, type ScenarioLibrary } from './library';
import { runInfo } from './run-info';
import type { SchedulingPolicy } from '../../engine/policies';
import type { ScenarioDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import type { Notice, RunLog } from './types';

interface StoreAccess {
  get(): SimState;
  set(partial: Partial<SimState>): void;
  /** Stops autoplay before a run is replaced (playback's, wired by the runtime: no slice calls another's action). */
  stopPlayback(): void;
}

interface ClientDeps {
  readonly session: RunSession;
  readonly runState: StoreRunState;
  readonly library: ScenarioLibrary;
  readonly outcomeService: OutcomeService | null;
}

/** The store's side of the run, never in React state: the session's run plus what playback and the worker need. */
export interface StoreRunState {
  /** The session's simulation (read-only here: change it through the session). */
  readonly sim: Simulation;
  /** The scenario of the run on hand. */
  readonly scenario: Scenario;
  policy: SchedulingPolicy | null;
  autoplaySteps: number;
  timer: unknown;
  outcomeRequestId: number;
  /** The definition the run's scenario came from (`lockstep.load({ definition })`), or null for a built-in. */
  definition: ScenarioDefinition | null;
}


/** The run actions the store's slices call: each one session call, then the result published. */
export interface RunClient {
  /** A typed command: applied, published, a refusal shown as a notice. */
  command(command: SessionCommand): void;
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
  const client = new SessionClient(deps, store);
  return {
    command: (command) => client.settle(deps.session.apply(command)),
    whenReady: (id, then) => client.whenReady(id, then),
    loadRun: (spec) => client.loadRun(spec),
    rebuild: (variantId, seed, noticeKey) => client.rebuild(variantId, seed, noticeKey),
  };
}

class SessionClient {
  constructor(
    private readonly deps: ClientDeps,
    private readonly store: StoreAccess,
  ) {}

  /** Publishes the session's frame; a changed timeline asks the worker for the variants' outcomes again. */
  private publish(timelineChanged: boolean, extra: Partial<SimState>): void {
    const { session } = this.deps;
    this.store.set({ ...session.frame(), runLog: runLogOf(session, this.store.get().runLog), ...extra });
    if (timelineChanged) this.requestOutcomes();
  }

  private requestOutcomes(): void {
    const { outcomeService, runState } = this.deps;
    const { get, set } = this.store;
    if (!outcomeService) return;
    const s = get();
    runState.outcomeRequestId += 1;
    const request = {
      id: runState.outcomeRequestId,
      scenarioId: s.scenarioId,
      seed: s.seed,
      schedule: s.schedule,
      baseVariantId: s.variantId,
      ...(runState.definition ? { definition: runState.definition } : {}),
    };
    set({ outcomesPending: true });
    outcomeService.request(request, (report) => {
      const now = get();
      if (report.id !== runState.outcomeRequestId) return;
      if (report.scenarioId !== now.scenarioId || report.seed !== now.seed || report.schedule !== now.schedule) return;
      set({ outcomes: report, outcomesPending: false });
    });
  }

  /** While a scenario loads, the run on hand is a stand-in nobody sees: say why an action is refused. */
  private refusalNotice(refusal: Refusal): Notice {
    if (refusal.kind !== 'loading') return { key: 'actionRefused', params: { detail: refusal.detail }, tone: 'warning' };
    const s = this.store.get();
    return { key: 'runStillLoading', params: { title: s.runLoading === null ? refusal.scenarioId : s.runLoading.title[s.lang] }, tone: 'info' };
  }

  /** Publishes a command's result: a loading or syntax refusal changed nothing but the notice. */
  settle(result: CommandResult): void {
    if (!result.ok && (result.refusal.kind === 'loading' || result.refusal.kind === 'schedule')) {
      this.store.set({ notice: this.refusalNotice(result.refusal) });
      return;
    }
    if (result.ok && result.noop) return;
    this.publish(result.timelineChanged, { notice: result.ok ? null : this.refusalNotice(result.refusal), persistRun: this.deps.runState.definition === null });
  }

  whenReady(id: string, then: () => void): void {
    const { library, session } = this.deps;
    const { get, set } = this.store;
    if (library.ready(id) !== undefined) return then();
    const entry = library.catalog.find((s) => s.id === id);
    if (entry === undefined) return then();
    const ticket = session.beginLoading(id);
    this.store.stopPlayback();
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

  loadRun(spec: RunSpec): LoadResult {
    const { library, session, runState } = this.deps;
    const scenario = spec.custom?.scenario ?? library.ready(spec.scenarioId);
    // Built-in but not loaded yet (the page, before `lockstep.ready`): nothing changes.
    if (scenario === undefined && library.catalog.some((s) => s.id === spec.scenarioId)) return { ok: false, error: { reason: 'not-ready', detail: spec.scenarioId } };
    const outcome = session.load({ ...spec, scenario, runnable: (s) => canRun(library, s) });
    if (!outcome.ok) return outcome;
    this.store.stopPlayback();
    runState.definition = spec.custom?.definition ?? null;
    runState.policy = null;
    const notice: Notice | null = outcome.cut ? { key: 'variantScheduleCut', params: { step: outcome.cut.step, reason: outcome.cut.reason }, tone: 'warning' } : null;
    // A definition's run stays out of the saved session: its link names a scenario only this page load knows.
    this.publish(true, { ...this.installed(), notice, ...(spec.custom ? { persistRun: false } : {}) });
    return { ok: true };
  }

  rebuild(variantId: string, seed: number, noticeKey: 'variantReplayed' | null): void {
    const { session, runState } = this.deps;
    const result = session.apply({ kind: 'rebuild', variantId, seed });
    if (!result.ok) return this.settle(result);
    this.store.stopPlayback();
    runState.policy = null;
    const variant = findVariant(session.scenario, variantId);
    const notice: Notice | null = result.cut
      ? { key: 'variantScheduleCut', params: { step: result.cut.step, reason: result.cut.reason }, tone: 'warning' }
      : noticeKey
        ? { key: noticeKey, params: { variant: variant.title[this.store.get().lang] }, tone: 'info' }
        : null;
    this.publish(true, { ...this.installed(), notice, persistRun: runState.definition === null });
  }

  /** What a newly installed run publishes besides its frame. */
  private installed(): Partial<SimState> {
    const { session } = this.deps;
    return { runInfo: runInfo(session.scenario, findVariant(session.scenario, session.simulation.variantId)), runLoading: null };
  }
}
