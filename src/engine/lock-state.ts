import type { LockView } from './trace';

/**
 * Who holds the lock, read from a LockView the one way every reader uses (the inspector, the
 * outcome worker, the CLI): free when the key is absent, else held by the client whose command
 * wrote the value, or by nobody known when the value was written outside the clients.
 */
export type LockState = { readonly kind: 'free' } | { readonly kind: 'held'; readonly holder: string | null };

const FREE: LockState = { kind: 'free' };

export function lockState(view: LockView): LockState {
  return view.value === null ? FREE : { kind: 'held', holder: view.holder };
}
