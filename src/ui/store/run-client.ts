/**
 * The store's client of its run session: one session call per action, then the session's frame
 * published with `set` as plain data. Notices, the loading state, saving and the variants'
 * outcomes are the store's; the run, its checks and its change feed are the session's.
 */
import { findVariant } from '../../engine/scenario';
import type { RunProjection } from '../../engine/projection';
import type { CommandResult, LoadOutcome, Refusal, SessionCommand } from '../../session/commands';
import type { OutcomeService } from '../worker/protocol';
import type { LoadResult, RunSpec, SimState } from './store-types';
import { canRun, type ScenarioLibrary } from './library';
import { runInfo } from './run-info';
import type { ScenarioDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import type { HostView, SessionHost } from './session-host';
import type { Notice, RunLog } from './types';
import { runLinkScheduleOf } from './run-link';

interface StoreAccess {
  get(): SimState;
  set(partial: Partial<SimState>): void;
  /** Stops autoplay before a run is replaced (playback's, wired by the runtime: no slice calls another's action). */
  stopPlayback(): void;
}

interface ClientDeps {
  /** Where the session is now (this thread, or the engine worker once the page has one). */
  readonly host: () => SessionHost;
  readonly runState: StoreRunState;
  readonly library: ScenarioLibrary;
  readonly outcomeService: OutcomeService | null;
}

/** The store's side of the run, never in React state: what playback and the worker need. */
export interface StoreRunState {
  /** The scenario of the run on hand (this thread's copy: its texts, variants and definition). */
  scenario: Scenario;
  /** Counts presses of Play: each starts the session's autoplay policy afresh. */
  play: number;
  /** The seed of the current press of Play's policy (the run's seed and the cursor when Play was pressed). */
  policySeed: number;
  autoplaySteps: number;
  timer: unknown;
  outcomeRequestId: number;
  /** The definition the run's scenario came from (`lockstep.load({ definition })`), or null for a built-in. */
  definition: ScenarioDefinition | null;
}

/** The run actions the store's slices call: each one session call, then the result published. */
export interface RunClient {
  /** A typed command: applied, published, a refusal shown as a notice; `then` gets the result once it is in. */
  command(command: SessionCommand, then?: (result: CommandResult) => void): void;
  whenReady(id: string, then: () => void): void;
  /**
   * Loads a run: the result at once when it is known here (always in this thread; a worker's
   * checks refused), else ok while the worker replays it. `then` gets the final result, at once
   * in this thread or when the worker answers.
   */
  loadRun(spec: RunSpec, then?: (result: LoadResult) => void): LoadResult;
  /** The same, resolving once the run is loaded or refused wherever the session is. */
  loadRunSettled(spec: RunSpec): Promise<LoadResult>;
  /** Another variant or seed, keeping what fits of the schedule; `noticeKey` says so when all fit. */
  rebuild(variantId: string, seed: number, noticeKey: 'variantReplayed' | null): void;
  /** Stops a long request in the worker: the run stays as it was before it. */
  stop(): void;
}

/** The store's log: the feed's position (a new generation: the timeline was cut or replaced). */
export function runLogOf(log: RunProjection, current: RunLog | null): RunLog {
  if (current !== null && current.generation === log.generation && current.eventCount === log.eventCount && current.stepCount === log.stepCount) return current;
  return { generation: log.generation, events: log.events, eventCount: log.eventCount, stepCount: log.stepCount, projection: log };
}

export function createRunClient(deps: ClientDeps, store: StoreAccess): RunClient {
  const client = new SessionClient(deps, store);
  return {
    command: (command, then) =>
      deps.host().command(command, (result, view) => {
        client.settle(result, view);
        then?.(result);
      }),
    whenReady: (id, then) => client.whenReady(id, then),
    loadRun: (spec, then) => client.loadRun(spec, then).now,
    loadRunSettled: (spec) => client.loadRun(spec).settled,
    rebuild: (variantId, seed, noticeKey) => client.rebuild(variantId, seed, noticeKey),
    stop: () => client.stop(),
  };
}

class SessionClient {
  constructor(
    private readonly deps: ClientDeps,
    private readonly store: StoreAccess,
  ) {}

  /** Publishes the session's frame; a changed timeline asks the worker for the variants' outcomes again. */
  private publish(view: HostView, timelineChanged: boolean, extra: Partial<SimState>): void {
    const now = this.store.get();
    this.store.set({ ...view.frame, runLog: runLogOf(view.log, now.runLog), runLink: runLinkScheduleOf(view.log, now.runLink), ...extra });
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
    if (refusal.kind === 'stopped') return { key: 'sessionStopped', tone: 'info' };
    if (refusal.kind !== 'loading') return { key: 'actionRefused', params: { detail: refusal.detail }, tone: 'warning' };
    const s = this.store.get();
    return { key: 'runStillLoading', params: { title: s.runLoading === null ? refusal.scenarioId : s.runLoading.title[s.lang] }, tone: 'info' };
  }

  /** Publishes a command's result: a loading or syntax refusal changed nothing but the notice. */
  settle(result: CommandResult, view: HostView | null): void {
    if (view === null || (!result.ok && (result.refusal.kind === 'loading' || result.refusal.kind === 'schedule' || result.refusal.kind === 'stopped'))) {
      if (!result.ok) this.store.set({ notice: this.refusalNotice(result.refusal) });
      return;
    }
    if (result.ok && result.noop) return;
    this.publish(view, result.timelineChanged, { notice: result.ok ? null : this.refusalNotice(result.refusal), persistRun: this.deps.runState.definition === null });
  }

  whenReady(id: string, then: () => void): void {
    const { library } = this.deps;
    const session = this.deps.host();
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

  loadRun(spec: RunSpec, then?: (result: LoadResult) => void): { readonly now: LoadResult; readonly settled: Promise<LoadResult> } {
    const { library } = this.deps;
    const scenario = spec.custom?.scenario ?? library.ready(spec.scenarioId);
    // Built-in but not loaded yet (the page, before `lockstep.ready`): nothing changes.
    if (scenario === undefined && library.catalog.some((s) => s.id === spec.scenarioId)) {
      const now: LoadResult = { ok: false, error: { reason: 'not-ready', detail: spec.scenarioId } };
      then?.(now);
      return { now, settled: Promise.resolve(now) };
    }
    let now: LoadResult | null = null;
    const settled = new Promise<LoadResult>((resolve) => {
      const request = { ...spec, scenario, definition: spec.custom?.definition ?? null, runnable: (s: Scenario) => canRun(library, s) };
      this.deps.host().load(request, (outcome, view) => {
        const result = scenario !== undefined && outcome.ok && view !== null ? this.installRun(spec, scenario, outcome, view) : outcome;
        now ??= result;
        then?.(result);
        resolve(result);
      });
    });
    // Not answered yet: the worker replays it (its checks passed here); `settled` says how it ends.
    if (now === null) this.store.stopPlayback();
    return { now: now ?? { ok: true }, settled };
  }

  private installRun(spec: RunSpec, scenario: Scenario, outcome: Extract<LoadOutcome, { ok: true }>, view: HostView): LoadResult {
    const { runState } = this.deps;
    this.store.stopPlayback();
    runState.scenario = scenario;
    runState.definition = spec.custom?.definition ?? null;
    const notice: Notice | null = outcome.cut ? { key: 'variantScheduleCut', params: { step: outcome.cut.step, reason: outcome.cut.reason }, tone: 'warning' } : null;
    // A definition's run stays out of the saved session: its link names a scenario only this page load knows.
    this.publish(view, true, { ...this.installed(view), notice, ...(spec.custom ? { persistRun: false } : {}) });
    return { ok: true };
  }

  rebuild(variantId: string, seed: number, noticeKey: 'variantReplayed' | null): void {
    const { runState } = this.deps;
    this.deps.host().command({ kind: 'rebuild', variantId, seed }, (result, view) => {
      this.store.set({ requestedVariantId: null });
      if (!result.ok || view === null) return this.settle(result, view);
      this.store.stopPlayback();
      const variant = findVariant(runState.scenario, variantId);
      const notice: Notice | null = result.cut
        ? { key: 'variantScheduleCut', params: { step: result.cut.step, reason: result.cut.reason }, tone: 'warning' }
        : noticeKey
          ? { key: noticeKey, params: { variant: variant.title[this.store.get().lang] }, tone: 'info' }
          : null;
      this.publish(view, true, { ...this.installed(view), notice, persistRun: runState.definition === null });
    });
  }

  stop(): void {
    this.store.stopPlayback();
    this.deps.host().stop((view) => {
      if (view !== null) this.publish(view, true, { ...this.installed(view), notice: { key: 'sessionStopped', tone: 'info' } });
    });
  }

  /** What a newly installed run publishes besides its frame. */
  private installed(view: HostView): Partial<SimState> {
    const { scenario } = this.deps.runState;
    return { runInfo: runInfo(scenario, findVariant(scenario, view.frame.variantId)), runLoading: null };
  }
}
