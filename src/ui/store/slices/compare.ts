/**
 * The compare slice: one schedule (a counterexample "Find a race" found, or the run on screen)
 * replayed against every variant of its scenario, side by side: which variants it breaks, which
 * refuse one of its choices, and where each run first differs from the run of the variant it was
 * found on (engine/divergence.ts). The replays run in an outcome worker of its own (the same code
 * as the variant cards' report, asked about a fixed schedule and base variant), so loading
 * another run does not change what is compared. One store action per click.
 */
import type { OutcomeReport, OutcomeService, VariantOutcome } from '../../worker/protocol';
import type { ComparePort, SliceStore } from '../ports';

export interface CompareState {
  /** idle: nothing compared yet; running: the worker is replaying; done: `report` holds the answer. */
  readonly status: 'idle' | 'running' | 'done' | 'unavailable';
  readonly scenarioId: string;
  readonly seed: number;
  /** The schedule compared (schedule text) and the variant it was found on (the base of every divergence). */
  readonly schedule: string;
  readonly baseVariantId: string;
  readonly report: OutcomeReport | null;
}

export interface CompareSlice {
  readonly compare: CompareState;
  /** Replays the run on screen's whole schedule against every variant, its variant the base. */
  compareVariants(): void;
  /**
   * Loads `variantId` with the compared schedule (as far as it fits), at the step where its run
   * first differs from the base's (else at its first violation, else at the start), and closes
   * the explorer's dialog so the timeline shows it.
   */
  loadCompareVariant(variantId: string): void;
}

export interface CompareInit {
  /** Replays a found schedule against every variant (an outcome worker of its own); without it no comparison. */
  readonly comparer?: OutcomeService | null;
}

const idle: CompareState = { status: 'idle', scenarioId: '', seed: 0, schedule: '', baseVariantId: '', report: null };

/** The step to show for one variant of a comparison: just after its first difference from the base. */
export function compareCursor(outcome: VariantOutcome): number {
  const at = outcome.divergence !== null ? outcome.divergence.step + 1 : outcome.violations.length > 0 ? outcome.violations[0].step + 1 : 0;
  return Math.min(at, outcome.stepsApplied);
}

export function createCompareSlice(port: ComparePort, init: CompareInit): (store: SliceStore<CompareSlice>) => CompareSlice {
  const service: OutcomeService | null = init.comparer ?? null;
  let requestId = 0;
  return ({ set, get }) => ({
    compare: idle,
    // A run loaded just before (a found violation) may still be in the session: compare the run it makes.
    compareVariants: () => port.whenSettled(() => {
      const run = port.run();
      const target = { scenarioId: run.scenarioId, seed: run.seed, schedule: run.schedule, baseVariantId: run.variantId };
      if (service === null) {
        set({ compare: { ...target, status: 'unavailable', report: null } });
        return;
      }
      const id = ++requestId;
      set({ compare: { ...target, status: 'running', report: null } });
      const { definition } = run;
      service.request({ id, ...target, ...(definition ? { definition } : {}) }, (report) => {
        if (id === requestId) set({ compare: { ...get().compare, status: 'done', report } });
      });
    }),
    loadCompareVariant(variantId) {
      const c = get().compare;
      const outcome = c.report?.outcomes.find((o) => o.variantId === variantId);
      if (!c.report || !outcome) return;
      const { definition } = port.run();
      const scenario = definition ? port.scenario() : null;
      const custom = definition && scenario?.id === c.scenarioId ? { scenario, definition } : undefined;
      const loaded = port.loadRun({ scenarioId: c.scenarioId, variantId, seed: c.seed, schedule: c.schedule, cursor: compareCursor(outcome), cutToFit: true, ...(custom ? { custom } : {}) });
      if (loaded.ok) port.closeExplorer();
    },
  });
}
