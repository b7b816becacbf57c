import type { HistoryMessageRef } from '../i18n/history';

/**
 * What a check of a history says, as plain data a page could draw: the violations, each with its
 * evidence events (line numbers are the event indices), one lane per client, the input problems
 * with their line numbers, and what the recording could not tell.
 */
export const HISTORY_VIOLATION_KINDS = ['foreign-release', 'mutual-exclusion', 'stale-write', 'lock-never-released', 'lock-held-too-long'] as const;
export type HistoryViolationKind = (typeof HISTORY_VIOLATION_KINDS)[number];

/**
 * certain: every order of events the recording allows shows it; possible: some order does (two
 * events on different connections overlap in time and their order decides).
 */
export type Certainty = 'certain' | 'possible';

/** One event of the evidence: enough to read without the file. */
export interface EvidenceEvent {
  /** The 1-based line of the history file: the event's index. */
  readonly line: number;
  readonly client: string;
  /** The command and its reply, or the mark, in a few words: `SET lock t1 NX PX 10000 -> OK`. */
  readonly text: string;
  /** When it started and ended on the checker's timeline (wall-clock ms). */
  readonly startMs: number;
  readonly endMs: number;
}

export interface HistoryViolation {
  readonly kind: HistoryViolationKind;
  readonly certainty: Certainty;
  /** Offender first. */
  readonly clients: readonly string[];
  /** In English: what the CLI prints. */
  readonly message: string;
  /** The same sentence as a catalog key and parameters (src/i18n/history.ts): the page words it in the reader's language. */
  readonly ref: HistoryMessageRef;
  /** The shortest sub-history that still shows it, in line order. */
  readonly evidence: readonly EvidenceEvent[];
}

/** A client's lane: its commands and marks, and how often it held the lock. */
export interface ClientLane {
  readonly client: string;
  readonly commandCount: number;
  readonly markCount: number;
  readonly acquisitionCount: number;
  readonly firstLine: number;
  readonly lastLine: number;
}

export interface HistoryProblem {
  /** The line it concerns (0: the file as a whole). */
  readonly line: number;
  readonly message: string;
  /** The checker's own problems as a catalog key and parameters; absent for a line the format or MONITOR reader could not read (English only). */
  readonly ref?: HistoryMessageRef;
}

export interface HistoryVerdict {
  readonly lockKey: string | null;
  /** Where the lock key came from: the option, the first SET NX seen, or nowhere (no lock traffic). */
  readonly lockKeyFrom: 'option' | 'detected' | 'none';
  readonly lineCount: number;
  readonly commandCount: number;
  readonly markCount: number;
  /** Commands on the lock key. */
  readonly lockCommandCount: number;
  readonly clients: readonly ClientLane[];
  readonly violations: readonly HistoryViolation[];
  /** Violations found beyond the list's bound (counted, not listed). */
  readonly violationsNotListed: number;
  readonly problems: readonly HistoryProblem[];
  readonly problemsNotListed: number;
  /** What the recording cannot tell (no replies, scripts never seen, a key written before the recording started). */
  readonly unknowns: readonly string[];
  /** The same, index for index, as catalog keys and parameters (src/i18n/history.ts). */
  readonly unknownRefs: readonly HistoryMessageRef[];
  /** Wall-clock span of the history. */
  readonly fromMs: number | null;
  readonly toMs: number | null;
}

/** Exit code of `lockstep check`: 1 a violation, else 2 when input was bad, else 0. */
export function checkExitCode(verdict: HistoryVerdict): 0 | 1 | 2 {
  if (verdict.violations.length > 0) return 1;
  if (verdict.problems.length > 0) return 2;
  return 0;
}
