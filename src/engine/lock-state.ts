import type { LockView } from './trace';

/**
 * Who holds the lock, read from a LockView the one way every reader uses (the inspector, the
 * outcome worker, the CLI): free when the key is absent, else held by the client whose command
 * wrote the value, or by nobody known when the value was written outside the clients.
 */
export type LockState =
  | { readonly kind: 'free' }
  | {
      readonly kind: 'held';
      /** The one holder (null: written outside the clients, or several hold it). */
      readonly holder: string | null;
      /** A lock several may hold at once (Scenario.holderKeys): every holder. */
      readonly holders?: readonly string[];
    };

const FREE: LockState = { kind: 'free' };

/** A lock several may hold is held while anyone is listed in its keys; its one holder is the only one listed. */
export function lockState(view: LockView): LockState {
  if (view.holders !== undefined) {
    if (view.holders.length === 0) return FREE;
    return { kind: 'held', holder: view.holders.length === 1 ? view.holders[0] : null, holders: view.holders };
  }
  return view.value === null ? FREE : { kind: 'held', holder: view.holder };
}
