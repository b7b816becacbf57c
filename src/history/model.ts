/**
 * The checker's state as plain records, shared by its parts: an event on the checker's timeline, a
 * version of the lock (one value written to the key), and what each client believes it holds.
 */
import type { HistoryRecord } from './format';

/** Per-client lists of overlaps waiting for a verdict, and recent writes waiting for a match: each bounded. */
export const PENDING_PER_CLIENT_MAX = 64;

/** One recorded command or mark: an interval [t0, t1] of wall-clock ms, widened by half the clock skew on each side. */
export interface Ev {
  readonly line: number;
  readonly client: string;
  readonly conn: string;
  readonly t0: number;
  readonly t1: number;
  readonly record: HistoryRecord;
}

/** How a version stopped being the key's value. */
export type VersionEndedBy = 'remove' | 'acquire' | 'overwrite' | 'expire' | 'gone';

export interface Version {
  readonly token: string;
  readonly client: string;
  readonly acquire: Ev;
  /**
   * It certainly exists: its acquisition's reply was seen, and no removal of uncertain target may
   * have taken it (false: a lost reply, or a removal that took it or an older one).
   */
  sure: boolean;
  /** When the key expires, as an interval (null: no expiry). */
  expiry: { lo: number; hi: number } | null;
  ended: { readonly ev: Ev | null; readonly by: VersionEndedBy } | null;
  supersededBy: Ev | null;
  /**
   * Another client's acquisition succeeded while this version seemed certainly there: a removal
   * that starts later but overlaps that acquisition may explain it, so the verdict waits.
   */
  displacedBy: Ev | null;
  /** It was certainly there when displaced: unless an overlapping removal explains it, the replies contradict. */
  displacedWhileCertain: boolean;
  heldTooLongReported: boolean;
}

/** A version written by `ev`, alive until something ends it. */
export function newVersion(ev: Ev, client: string, token: string, ttlMs: number | null, sure: boolean): Version {
  return {
    token,
    client,
    acquire: ev,
    sure,
    expiry: ttlMs === null ? null : { lo: ev.t0 + ttlMs, hi: ev.t1 + ttlMs },
    ended: null,
    supersededBy: null,
    displacedBy: null,
    displacedWhileCertain: false,
    heldTooLongReported: false,
  };
}

interface PendingOverlap {
  readonly first: Ev;
  readonly second: Ev;
  readonly secondClient: string;
  readonly sure: boolean;
}

export interface ClientState {
  readonly id: string;
  commandCount: number;
  markCount: number;
  acquisitionCount: number;
  firstLine: number;
  lastLine: number;
  /** The version the client believes it holds: from its acquisition to its release command. */
  holding: Version | null;
  /** Other clients' acquisitions while this one believed it held the lock. */
  pending: PendingOverlap[];
  /** `first`: the release certainly removed a version that was certainly there, so it ran before any acquisition that starts later. */
  lastRelease: { ev: Ev; own: boolean; first: boolean; version: Version } | null;
  inSection: Ev | null;
  sectionPending: PendingOverlap[];
  lastLeave: { ev: Ev; enter: Ev } | null;
  hasMarks: boolean;
}

export function newClientState(id: string, line: number): ClientState {
  return {
    id,
    commandCount: 0,
    markCount: 0,
    acquisitionCount: 0,
    firstLine: line,
    lastLine: line,
    holding: null,
    pending: [],
    lastRelease: null,
    inSection: null,
    sectionPending: [],
    lastLeave: null,
    hasMarks: false,
  };
}
