/**
 * The run's change feed inside one store: the store's updates go through `runSet` (it replaces the
 * store's `setState`, and the simulation slice gets it as its `set`), which tells the
 * `onRunChanged` listeners when the run's identity moved, *inside* that update.
 * What the listeners (and every feature's own `set`) write meanwhile is gathered into the same
 * patch, so one step is one store update: no listener of the whole store writes a second one.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { ScenarioDefinition } from '../../definition';
import type { RunChange, RunIdentity } from './ports';

/** The fields of the store's state a run's identity is read from. */
export interface RunFields {
  readonly scenarioId: string;
  readonly variantId: string;
  readonly seed: number;
  readonly schedule: string;
  readonly cursor: number;
  /** Bumps whenever the timeline is replaced or changed: a reloaded run of the same identity is a change too. */
  readonly timelineVersion: number;
}

type SetState<T> = StoreApi<T>['setState'];

export interface RunFeed<T extends RunFields> {
  /** The state as it reads now: inside a run update, with what that update has gathered so far. */
  current(): T;
  /** A write of any feature: joins the run update under way, else is an update of its own. */
  set(patch: Partial<T>): void;
  /** The store's `setState` (and the simulation slice's `set`): tells the listeners when the run changed, then applies one update. */
  runSet: SetState<T>;
  onRunChanged(listener: (change: RunChange) => void): () => void;
}

function identityOf(s: RunFields, definition: ScenarioDefinition | null): RunIdentity {
  return { scenarioId: s.scenarioId, variantId: s.variantId, seed: s.seed, schedule: s.schedule, cursor: s.cursor, definition };
}

function sameIdentity(a: RunIdentity, b: RunIdentity): boolean {
  return a.scenarioId === b.scenarioId && a.variantId === b.variantId && a.seed === b.seed && a.schedule === b.schedule && a.cursor === b.cursor && a.definition === b.definition;
}

/**
 * A feed over Zustand's `set` and `get`. `definition` reads the definition of the run on screen
 * (kept outside the reactive state, in the runtime, and already replaced when the update comes).
 */
export function createRunFeed<T extends RunFields>(set: SetState<T>, get: () => T, definition: () => ScenarioDefinition | null): RunFeed<T> {
  const listeners = new Set<(change: RunChange) => void>();
  /** The update under way (gathered writes), or null between updates. */
  let batch: Partial<T> | null = null;
  /** The definition the listeners last heard of. */
  let heardDefinition = definition();

  const current = (): T => (batch === null ? get() : { ...get(), ...batch });

  const runSet = ((partial: T | Partial<T> | ((state: T) => T | Partial<T>), replace?: boolean) => {
    // Replacing the whole state is no run update (the store never does it): passed through.
    if (replace === true) return set(partial as T, true);
    const patch = typeof partial === 'function' ? partial(current()) : partial;
    if (batch !== null) {
      // A run update from inside a listener joins the update under way.
      batch = { ...batch, ...patch };
      return;
    }
    const previous = get();
    batch = { ...patch };
    try {
      const before = identityOf(previous, heardDefinition);
      const after = identityOf(current(), definition());
      if (!sameIdentity(before, after) || current().timelineVersion !== previous.timelineVersion) {
        heardDefinition = after.definition;
        for (const listener of [...listeners]) listener({ before, after });
      }
    } finally {
      const gathered = batch;
      batch = null;
      set(gathered);
    }
  }) as SetState<T>;

  return {
    current,
    set(patch) {
      if (batch !== null) batch = { ...batch, ...patch };
      else set(patch);
    },
    runSet,
    onRunChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
