/**
 * `window.lockstep`: a small, stable API for tests and curious users (documented in
 * docs/AUTOMATION.md). It reads the store; it never reaches into React. Version 3: the run session
 * runs in the engine worker, so `load`, `state`, `trace` and `violations` return promises that
 * resolve once the session has answered everything asked before (a click, a key, a load).
 */
import { formatProblems, parseDefinition, type DefinitionProblem } from '../definition';
import { exploreVerdictLines } from '../i18n';
import type { LockView, Trace, ViolationEvent, ViolationKind } from '../engine/trace';
import type { NotReadyError, RunSpec, SimStore } from './store/store-types';
import type { LinkError } from './store/types';
import type { OutcomeReport } from './worker/protocol';
import type { ExploreResult, SimState } from './store/store-types';
import { selectChallengeStatus } from './store/slices/learn';

/** Bounds for `lockstep.explore`; each absent one is the scenario's declared bound (docs/EXPLORER.md). */
export interface ExploreSpec {
  readonly depth?: number;
  readonly stalls?: number;
  readonly stallLengthsMs?: readonly number[];
  readonly crashes?: number;
}

export interface ExploreOutcome {
  /** The engine's result (src/engine/explore/result.ts), or null when the bounds were refused. */
  readonly result: ExploreResult | null;
  /** The verdict in the page's language, one line per finding (or why the search did not run). */
  readonly verdict: readonly string[];
}

function challengeSummary(s: SimState): StateSummary['challenge'] {
  const status = selectChallengeStatus(s);
  if (s.challengeId === null || status === null) return null;
  return { id: s.challengeId, state: status.state, choices: 'choices' in status ? status.choices : null };
}

export interface LoadSpec {
  /** A built-in scenario's id; or give `definition` instead. */
  readonly scenario?: string;
  /** A scenario definition (docs/scenario-definition.schema.json), validated before anything changes. */
  readonly definition?: unknown;
  readonly variant?: string;
  readonly seed?: number;
  /** Schedule text (docs/SCHEDULES.md); the scenario's default when absent. */
  readonly schedule?: string;
  /** Step to show; the end of the schedule when absent. */
  readonly cursor?: number;
}

export interface StateSummary {
  readonly scenario: string;
  readonly variant: string;
  readonly seed: number;
  readonly schedule: string;
  readonly cursor: number;
  readonly length: number;
  readonly nowMs: number;
  readonly finished: boolean;
  readonly playing: boolean;
  readonly lang: string;
  /** The active challenge and its status at the cursor (version 2), or null. */
  readonly challenge: { readonly id: string; readonly state: string; readonly choices: number | null } | null;
  /** Predict-then-reveal is on (version 2). */
  readonly predict: boolean;
  readonly clients: readonly {
    readonly id: string;
    readonly status: string;
    readonly pc: number;
    readonly blockReason: string | null;
    readonly blockedUntilMs: number | null;
    /** Its process is frozen by a stall (`A~N`, a GC pause) until this time; null while it runs. */
    readonly stalledUntilMs: number | null;
    readonly inCriticalSection: boolean;
    readonly believesHoldsLock: boolean;
  }[];
  readonly lock: LockView;
  readonly keys: readonly { readonly key: string; readonly type: string; readonly value: string; readonly owner: string | null; readonly expireAtMs: number | null }[];
  /** Redis commands the page's own engine has executed in this timeline (to the cursor). */
  readonly commandsInPage: number;
}

export interface ViolationSummary {
  readonly kind: ViolationKind;
  readonly step: number;
  readonly message: string;
  readonly clients: readonly string[];
}

/** @public A definition that did not validate: every problem with its path (`variants[0].clients[1].program[3].goto`). */
export interface DefinitionLoadError {
  readonly reason: 'bad-definition';
  /** The problems as lines, `path: message`. */
  readonly detail: string;
  readonly problems: readonly DefinitionProblem[];
}

/** @public A spec that is not `{ scenario }` or `{ definition }` with the documented fields. */
export interface SpecLoadError {
  readonly reason: 'bad-spec';
  readonly detail: string;
  readonly problems: readonly DefinitionProblem[];
}

/**
 * @public What `lockstep.load` returns. `not-ready` only before `ready`: the page had not loaded
 * that scenario (or the Lua engine it needs) yet; nothing changed.
 */
export type LoadResult = { ok: true } | { ok: false; error: LinkError | DefinitionLoadError | SpecLoadError | NotReadyError };

/** The contract's version (docs/AUTOMATION.md): 3 since the run session runs in the engine worker and reads are promises. */
export const AUTOMATION_CONTRACT_VERSION = 3;

const SPEC_FIELDS = ['scenario', 'definition', 'variant', 'seed', 'schedule', 'cursor'];

/** The spec's own shape (the store checks the values: scenario, variant, seed, schedule, cursor). */
function specProblems(spec: unknown): DefinitionProblem[] {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return [{ path: '', message: 'expected { scenario } or { definition }, with variant?, seed?, schedule?, cursor?' }];
  const s = spec as Record<string, unknown>;
  const problems: DefinitionProblem[] = Object.keys(s)
    .filter((k) => !SPEC_FIELDS.includes(k))
    .map((k) => ({ path: k, message: `unknown field (${SPEC_FIELDS.join(', ')})` }));
  const hasScenario = s.scenario !== undefined;
  const hasDefinition = s.definition !== undefined;
  if (hasScenario === hasDefinition) problems.push({ path: '', message: 'give exactly one of scenario (a built-in id) and definition' });
  if (hasScenario && typeof s.scenario !== 'string') problems.push({ path: 'scenario', message: 'a scenario id (a string)' });
  if (s.variant !== undefined && typeof s.variant !== 'string') problems.push({ path: 'variant', message: 'a variant id (a string)' });
  if (s.seed !== undefined && typeof s.seed !== 'number') problems.push({ path: 'seed', message: 'an integer from 0 to 4294967295' });
  if (s.schedule !== undefined && typeof s.schedule !== 'string') problems.push({ path: 'schedule', message: 'schedule text (docs/SCHEDULES.md)' });
  if (s.cursor !== undefined && typeof s.cursor !== 'number') problems.push({ path: 'cursor', message: 'a step index (a number)' });
  return problems;
}

/** @public The type of `window.lockstep` for scripts that drive the page (docs/AUTOMATION.md). */
export interface LockstepApi {
  readonly version: 3;
  readonly ready: Promise<void>;
  readonly isReady: boolean;
  /** Loads a run; resolves once it is on screen, or refused (nothing changed). */
  load(spec: LoadSpec): Promise<LoadResult>;
  /** The run's trace once the session has answered everything asked before. */
  trace(): Promise<Trace>;
  violations(): Promise<ViolationSummary[]>;
  state(): Promise<StateSummary>;
  /** The worker's report for the current schedule (waits for it). */
  outcomes(): Promise<OutcomeReport>;
  /**
   * "Find a race" through the store, as the dialog's Search button does: searches the current
   * scenario, variant and seed in the explorer worker and resolves when it ends. A found violation
   * is loaded into the timeline at step 0.
   */
  explore(spec?: ExploreSpec): Promise<ExploreOutcome>;
}

declare global {
  interface Window {
    lockstep?: LockstepApi;
  }
}

/**
 * How long outcomes() waits before it gives up: a hang guard for scripts, not a budget. A report
 * normally arrives within a second; a worker starting on a loaded 2-core machine can take many.
 */
const outcomeWaitMsMax = 60_000;

/**
 * `drawn` resolves once every part of the page shows the store's run (the page draws a new run
 * over three frames, its later parts each a frame after the one before: components/draw-later.ts);
 * `load` waits for it, so it resolves with the whole run on screen.
 */
export function installTestApi(store: SimStore, win: Window, drawn: () => Promise<void> = () => Promise.resolve()): { markReady: () => void } {
  let markReady: () => void = () => {};
  let isReady = false;
  const ready = new Promise<void>((resolve) => {
    markReady = () => {
      isReady = true;
      resolve();
    };
  });
  const api: LockstepApi = {
    version: AUTOMATION_CONTRACT_VERSION,
    ready,
    get isReady() {
      return isReady;
    },
    async load(spec) {
      const problems = specProblems(spec);
      if (problems.length > 0) return { ok: false, error: { reason: 'bad-spec', detail: formatProblems(problems), problems } };
      let custom: RunSpec['custom'];
      if (spec.definition !== undefined) {
        const parsed = parseDefinition(spec.definition);
        if (!parsed.ok) {
          // Paths are inside the spec: `definition.variants[0]...`.
          const inSpec = parsed.problems.map((p) => ({ path: p.path === '' ? 'definition' : `definition${p.path.startsWith('[') ? '' : '.'}${p.path}`, message: p.message }));
          return { ok: false, error: { reason: 'bad-definition', detail: formatProblems(inSpec), problems: inSpec } };
        }
        custom = { scenario: parsed.scenario, definition: parsed.definition };
      }
      const result = await store.getState().loadRunSettled({
        scenarioId: custom ? custom.scenario.id : (spec.scenario as string),
        variantId: spec.variant,
        seed: spec.seed,
        schedule: spec.schedule,
        cursor: spec.cursor ?? null,
        ...(custom ? { custom } : {}),
      });
      if (result.ok) store.setState({ linkError: null, persistRun: custom === undefined });
      await drawn();
      return result;
    },
    async trace() {
      await store.getState().sessionIdle();
      return traceOf(store.getState());
    },
    async violations() {
      await store.getState().sessionIdle();
      return store.getState().violations.map((v) => ({ kind: v.violation, step: v.step, message: v.message, clients: v.clients }));
    },
    async state() {
      await store.getState().sessionIdle();
      const s = store.getState();
      return {
        scenario: s.scenarioId,
        variant: s.variantId,
        seed: s.seed,
        schedule: s.schedule,
        cursor: s.cursor,
        length: s.length,
        nowMs: s.nowMs,
        finished: s.finished,
        playing: s.playing,
        lang: s.lang,
        challenge: challengeSummary(s),
        predict: s.predict,
        clients: s.clients.map((c) => ({
          id: c.id,
          status: c.status,
          pc: c.pc,
          blockReason: c.blockReason,
          blockedUntilMs: c.status === 'blocked' ? c.blockedUntilMs : null,
          stalledUntilMs: c.stalledUntilMs,
          inCriticalSection: c.inCriticalSection,
          believesHoldsLock: c.believesHoldsLock,
        })),
        lock: s.lock,
        keys: s.keys
          .filter((k) => k.change !== 'deleted' && k.change !== 'expired')
          .map((k) => ({ key: k.key, type: k.type, value: k.text, owner: k.tokenOwner, expireAtMs: k.expireAtMs })),
        commandsInPage: s.events.slice(0, s.eventCountToCursor).filter((e) => e.kind === 'command').length,
      };
    },
    explore(spec = {}) {
      return exploreThroughStore(store, spec);
    },
    outcomes() {
      return new Promise((resolve, reject) => {
        const matches = () => {
          const s = store.getState();
          const o = s.outcomes;
          return o && !s.outcomesPending && o.schedule === s.schedule && o.seed === s.seed && o.scenarioId === s.scenarioId ? o : null;
        };
        const now = matches();
        if (now) return resolve(now);
        // A test's own timeout, not simulation time: give up rather than hang forever.
        const timer = setTimeout(() => {
          unsubscribe();
          reject(new Error('lockstep.outcomes(): no report from the worker'));
        }, outcomeWaitMsMax);
        const unsubscribe = store.subscribe(() => {
          const report = matches();
          if (!report) return;
          clearTimeout(timer);
          unsubscribe();
          resolve(report);
        });
      });
    },
  };
  win.lockstep = api;
  return { markReady };
}

/** The run's trace as the engine's `Simulation.trace()` gives it, from the store's log (every event of the timeline). */
function traceOf(s: SimState): Trace {
  const log = s.runLog;
  const events = log.events.slice(0, log.eventCount);
  return { scenario: s.scenarioId, variant: s.variantId, seed: s.seed, schedule: s.schedule, events, violations: events.filter((e): e is ViolationEvent => e.kind === 'violation') };
}

/** lockstep.explore: fills the dialog's form, starts the search, resolves when it ends. */
async function exploreThroughStore(store: SimStore, spec: ExploreSpec): Promise<ExploreOutcome> {
  // The search starts at once only on a settled run (the dialog's Search waits the same way).
  await store.getState().sessionIdle();
  return new Promise((resolve) => {
    const s = store.getState();
    s.openExplore();
    const form = store.getState().explore.form;
    s.setExploreForm({
      depthMax: spec.depth ?? form.depthMax,
      stallCountMax: spec.stalls ?? form.stallCountMax,
      stallLengthsText: spec.stallLengthsMs ? spec.stallLengthsMs.join(', ') : form.stallLengthsText,
      crashCountMax: spec.crashes ?? form.crashCountMax,
    });
    s.startExplore();
    const finish = (): boolean => {
      const explore = store.getState().explore;
      if (explore.status === 'running') return false;
      const lang = store.getState().lang;
      if (explore.status === 'done' && explore.result) resolve({ result: explore.result, verdict: exploreVerdictLines(explore.result, lang) });
      else resolve({ result: null, verdict: explore.error ? [explore.error.detail] : [] });
      return true;
    };
    if (finish()) return;
    const unsubscribe = store.subscribe(() => {
      if (finish()) unsubscribe();
    });
  });
}
