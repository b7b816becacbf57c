/**
 * The explore slice: "Find a race" (docs/EXPLORER.md). The bounds form, a search running in the
 * explorer worker with its progress, and its result: the shortest violating run is loaded into
 * the timeline at step 0, ready to step through; a bounded proof is kept to show beside the
 * variant toggle. One store action per click.
 */
import { BoundsError, resolveBounds, type BoundsOverrides } from '../../../engine/explore/bounds';
import type { Scenario } from '../../../engine/scenario';
import type { ExploreProgress, ExploreResult, ExploreService } from '../../worker/explore-protocol';
import type { ExplorePort, SliceStore } from '../ports';

/** The bounds form, as typed (validated when a search starts). */
export interface ExploreForm {
  readonly depthMax: number;
  readonly stallCountMax: number;
  /** Stall lengths in ms, e.g. "5000, 7000". */
  readonly stallLengthsText: string;
  readonly crashCountMax: number;
}

export type ExploreStatus = 'idle' | 'running' | 'done' | 'error';

export interface ExploreState {
  readonly dialogOpen: boolean;
  readonly form: ExploreForm;
  readonly status: ExploreStatus;
  /** Figures of the running (or last) search, with the wall ms it took. */
  readonly progress: ExploreProgress | null;
  readonly elapsedMs: number;
  readonly result: ExploreResult | null;
  /** Why the bounds were refused or the search failed (the detail is the engine's, in English). */
  readonly error: { readonly kind: 'refused' | 'failed'; readonly detail: string } | null;
}

export interface ExploreSlice {
  readonly explore: ExploreState;
  /** Opens the dialog with the current scenario's declared bounds in the form. */
  openExplore(): void;
  closeExplore(): void;
  setExploreForm(patch: Partial<ExploreForm>): void;
  /** Starts a search of the current scenario, variant and seed within the form's bounds. */
  startExplore(): void;
  cancelExplore(): void;
  /** Loads the run of the result's violation at `index` (0: the shortest) at step 0, and compares it across the variants. */
  loadExploreViolation(index: number): void;
}

export interface ExploreInit {
  /** Runs "Find a race" searches (the explorer worker); without it the button reports an error. */
  readonly explorer?: ExploreService | null;
}

const idle: Omit<ExploreState, 'dialogOpen' | 'form'> = { status: 'idle', progress: null, elapsedMs: 0, result: null, error: null };

/** The form for a scenario: its declared bounds (resolveBounds), as the form shows them. */
function formFor(scenario: Scenario): ExploreForm {
  const bounds = resolveBounds(scenario);
  return {
    depthMax: bounds.depthMax,
    stallCountMax: bounds.faults.stallCountMax,
    stallLengthsText: bounds.faults.stallLengthsMs.join(', '),
    crashCountMax: bounds.faults.crashCountMax,
  };
}

/** The form as bounds overrides over the scenario's declared ones. Throws BoundsError. */
function boundsOf(form: ExploreForm, scenario: Scenario): BoundsOverrides {
  const text = form.stallLengthsText.trim();
  const lengths = text === '' ? [] : text.split(/[\s,]+/).map((item) => (/^[0-9]+$/.test(item) ? Number(item) : Number.NaN));
  if (lengths.some((ms) => !Number.isSafeInteger(ms))) throw new BoundsError(`stall lengths must be whole numbers of ms, got "${text}"`);
  const declared = resolveBounds(scenario);
  const overrides: BoundsOverrides = {
    depthMax: form.depthMax,
    faults: { ...declared.faults, stallCountMax: form.stallCountMax, stallLengthsMs: lengths, crashCountMax: form.crashCountMax },
  };
  resolveBounds(scenario, overrides);
  return overrides;
}

/** A search's reports into the slice's state, while it is the last one started; the shortest violation found is loaded. */
function searchReports(isCurrent: () => boolean, patch: (next: Partial<ExploreState>) => void, loadShortest: () => void): Parameters<ExploreService['start']>[1] {
  return {
    onProgress: (report) => {
      if (isCurrent()) patch({ progress: report.progress, elapsedMs: report.elapsedMs });
    },
    onDone: (done) => {
      if (!isCurrent()) return;
      const r = done.result;
      const progress = { statesExplored: r.statesExplored, transitionsExplored: r.transitionsExplored, frontier: 0, depth: r.depthReached, violationsFound: r.violations.length };
      patch({ status: 'done', result: r, elapsedMs: done.elapsedMs, progress });
      if (r.violations.length > 0) loadShortest();
    },
    onError: (message) => {
      if (isCurrent()) patch({ status: 'error', error: { kind: 'failed', detail: message } });
    },
  };
}

export function createExploreSlice(port: ExplorePort, init: ExploreInit): (store: SliceStore<ExploreSlice>) => ExploreSlice {
  const service: ExploreService | null = init.explorer ?? null;
  let requestId = 0;
  return ({ set, get }) => {
    const patch = (next: Partial<ExploreState>) => set({ explore: { ...get().explore, ...next } });
    const startSearch = () => {
      const s = get();
      const run = port.run();
      if (service === null) {
        patch({ status: 'error', error: { kind: 'failed', detail: 'no explorer in this page' } });
        return;
      }
      let bounds: BoundsOverrides;
      try {
        bounds = boundsOf(s.explore.form, port.scenario());
      } catch (error) {
        if (!(error instanceof BoundsError)) throw error;
        patch({ status: 'error', error: { kind: 'refused', detail: error.message }, result: null, progress: null });
        return;
      }
      if (s.explore.status === 'running') service.cancel(requestId);
      const id = ++requestId;
      patch({ status: 'running', progress: null, elapsedMs: 0, result: null, error: null });
      // A scenario that is not built in (an edited copy, the user's own) is searched by its definition.
      const definition = run.definition === null ? {} : { definition: run.definition };
      service.start({ id, scenarioId: run.scenarioId, ...definition, variantId: run.variantId, seed: run.seed, bounds }, searchReports(() => id === requestId, patch, () => get().loadExploreViolation(0)));
    };
    return {
      explore: { dialogOpen: false, form: { depthMax: 24, stallCountMax: 0, stallLengthsText: '', crashCountMax: 0 }, ...idle },
      openExplore() {
        const { explore } = get();
        // A finished result of this run stays; otherwise the form starts from the scenario's bounds.
        const keep = explore.status === 'running' || (explore.result !== null && explore.result.scenarioId === port.run().scenarioId);
        patch({ dialogOpen: true, ...(keep ? {} : { form: formFor(port.scenario()), ...idle }) });
      },
      closeExplore() {
        patch({ dialogOpen: false });
      },
      setExploreForm(form) {
        patch({ form: { ...get().explore.form, ...form } });
      },
      // A click just before (a variant chosen, a step) may still be in the session: search the run it makes.
      startExplore: () => port.whenSettled(() => startSearch()),
      cancelExplore() {
        if (service !== null && get().explore.status === 'running') service.cancel(requestId);
      },
      loadExploreViolation(index) {
        const result = get().explore.result;
        const violation = result?.violations[index];
        if (!result || !violation) return;
        const { definition } = port.run();
        const scenario = port.scenario();
        // The run searched was a definition's (the same id on screen): load it as one again.
        const custom = definition !== null && scenario.id === result.scenarioId ? { custom: { scenario, definition } } : {};
        const loaded = port.loadRun({ scenarioId: result.scenarioId, variantId: result.variantId, seed: result.seed, schedule: violation.schedule, cursor: 0, ...custom });
        // The found schedule against every variant: which it breaks, and where their runs part.
        if (loaded.ok) port.compareVariants();
      },
    };
  };
}
