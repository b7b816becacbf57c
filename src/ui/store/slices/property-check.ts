/**
 * The property-check slice: the workbench's Properties tab judges the scenario's own properties
 * (docs/EXPLORER.md, "Your own properties") in the engine worker, one breadth-first search per
 * property within the lesson's declared bounds (the explorer's defaults where it declares none), and loads a property's shortest schedule (a
 * violation, or a goal reached) into the run at step 0, as "Find a race" loads its finding. Its
 * verdicts speak of one scenario, variant and seed: any other run (an edit too) clears them.
 */
import { BoundsError, resolveBounds, type BoundsOverrides } from '../../../engine/explore/bounds';
import { ExpressionError, parseExpression } from '../../../engine/properties';
import type { ExploreBounds, PropertyCheckService, PropertyVerdict } from '../../worker/property-check-protocol';
import type { PropertyCheckPort, RunIdentity, SliceStore } from '../ports';

export type PropertyCheckStatus = 'idle' | 'running' | 'done' | 'error';

export interface PropertyCheckState {
  readonly status: PropertyCheckStatus;
  /** While running: the property being searched (0-based of `count`) and its states so far. */
  readonly progress: { readonly index: number; readonly count: number; readonly statesExplored: number } | null;
  /** One per property, in the definition's order (empty until a check is done). */
  readonly verdicts: readonly PropertyVerdict[];
  /** The bounds the properties were searched within. */
  readonly bounds: ExploreBounds | null;
  readonly elapsedMs: number;
  /** Why the check could not run (the engine's words, in English). */
  readonly error: string | null;
}

export interface PropertyCheckSlice {
  readonly propertyCheck: PropertyCheckState;
  /** Judges every property of the scenario on screen (its variant and seed) in the worker. */
  checkProperties(): void;
  cancelPropertyCheck(): void;
  /** Loads the shortest schedule of the property named `name` (violated or reached) at step 0. */
  loadPropertyRun(name: string): void;
  /** Why an expression does not parse (the property language's parser), with its 1-based column, or null. Runs nothing. */
  propertyExpressionProblem(text: string): { readonly message: string; readonly column: number } | null;
}

export interface PropertyCheckInit {
  /** Judges properties off the page's thread (the engine worker); in the page, in slices, without it. */
  readonly propertyChecker?: PropertyCheckService | null;
}

const idle: PropertyCheckState = { status: 'idle', progress: null, verdicts: [], bounds: null, elapsedMs: 0, error: null };

/** Whether two runs are the same subject for a verdict: scenario, definition, variant and seed. */
function sameSubject(a: RunIdentity, b: RunIdentity): boolean {
  return a.scenarioId === b.scenarioId && a.variantId === b.variantId && a.seed === b.seed && a.definition === b.definition;
}

export function createPropertyCheckSlice(port: PropertyCheckPort, init: PropertyCheckInit): (store: SliceStore<PropertyCheckSlice>) => PropertyCheckSlice {
  let service: PropertyCheckService | null = init.propertyChecker ?? null;
  let requestId = 0;
  const theService = async (): Promise<PropertyCheckService> => {
    service ??= (await import('../../worker/property-check-client')).createInlinePropertyCheckService();
    return service;
  };
  return ({ set, get }) => {
    const patch = (next: Partial<PropertyCheckState>) => set({ propertyCheck: { ...get().propertyCheck, ...next } });
    const isCurrent = (id: number) => id === requestId;
    port.onRunChanged(({ before, after }) => {
      if (sameSubject(before, after)) return;
      if (get().propertyCheck.status === 'running') void theService().then((s) => s.cancel(requestId));
      requestId++;
      if (get().propertyCheck.status !== 'idle') patch(idle);
    });
    return {
      propertyCheck: idle,
      checkProperties() {
        const definition = port.definitionOnScreen();
        if (definition === null) return patch({ ...idle, status: 'error', error: 'this scenario cannot be a definition (a client runs code outside the engine)' });
        const { variantId, seed } = port.run();
        let bounds: BoundsOverrides;
        try {
          bounds = resolveBounds({ explore: port.declaredExplore() });
        } catch (error) {
          if (!(error instanceof BoundsError)) throw error;
          return patch({ ...idle, status: 'error', error: error.message });
        }
        const id = ++requestId;
        patch({ ...idle, status: 'running' });
        void theService().then((checker) =>
          checker.start(
            { id, definition, variantId, seed, bounds },
            {
              onProgress: (p) => {
                if (isCurrent(id)) patch({ progress: { index: p.index, count: p.count, statesExplored: p.statesExplored } });
              },
              onDone: (done) => {
                if (isCurrent(id)) patch({ status: 'done', progress: null, verdicts: done.verdicts, bounds: done.bounds, elapsedMs: done.elapsedMs });
              },
              onError: (message) => {
                if (isCurrent(id)) patch({ ...idle, status: 'error', error: message });
              },
            },
          ),
        );
      },
      cancelPropertyCheck() {
        if (get().propertyCheck.status === 'running') void theService().then((s) => s.cancel(requestId));
      },
      loadPropertyRun(name) {
        const found = get().propertyCheck.verdicts.find((v) => v.name === name)?.found;
        if (!found) return;
        const run = port.run();
        const custom = run.definition === null ? {} : { custom: { scenario: port.scenario(), definition: run.definition } };
        port.loadRun({ scenarioId: run.scenarioId, variantId: run.variantId, seed: run.seed, schedule: found.schedule, cursor: 0, ...custom });
      },
      propertyExpressionProblem(text) {
        try {
          parseExpression(text);
          return null;
        } catch (error) {
          if (!(error instanceof ExpressionError)) throw error;
          return { message: error.reason, column: error.column };
        }
      },
    };
  };
}
