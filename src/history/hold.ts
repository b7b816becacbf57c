/**
 * How long one version of the lock held the key, from its write to its removal or expiry (or the
 * recording's end), against the `maxHoldMs` bound: certain when even the shortest reading of the
 * intervals is over it, possible when the longest is.
 */
import { found, type Found } from './findings';
import type { Version } from './model';

/** The `lock-held-too-long` finding for `v`, or null; `lastMs`: the recording's last instant when it ended with `v` alive. */
export function holdFinding(v: Version, limitMs: number, lastMs: number | null): Found | null {
  const endEv = v.ended?.ev ?? null;
  let endLo = endEv?.t0 ?? Infinity;
  let endHi = endEv?.t1 ?? Infinity;
  if (v.expiry !== null) {
    endLo = Math.min(endLo, v.expiry.lo);
    endHi = Math.min(endHi, v.expiry.hi);
  }
  if (lastMs !== null) {
    endLo = Math.min(endLo, lastMs);
    endHi = Math.min(endHi, lastMs);
  }
  const certain = endLo - v.acquire.t1 > limitMs;
  const possible = endHi - v.acquire.t0 > limitMs;
  if (!possible) return null;
  const evidence = endEv === null ? [v.acquire] : [v.acquire, endEv];
  const heldMs = Math.round(Math.max(0, endLo - v.acquire.t1));
  const ref = certain ? ({ key: 'hHeldTooLong', params: { client: v.client, heldMs, limitMs } } as const) : ({ key: 'hHeldPossiblyTooLong', params: { client: v.client, limitMs } } as const);
  return found('lock-held-too-long', certain ? 'certain' : 'possible', [v.client], ref, evidence);
}
