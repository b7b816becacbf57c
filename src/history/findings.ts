/**
 * What a check found, each list bounded so a file of a million bad lines keeps memory flat: the
 * violations, the mutual exclusions read from acquisitions (kept apart until the end, when marks
 * may overrule them), the input problems and what the recording cannot tell.
 */
import { historyEnglish, type HistoryMessageRef } from '../i18n/history';
import type { Ev } from './model';
import type { Certainty, HistoryProblem, HistoryViolationKind } from './verdict';

const VIOLATIONS_LISTED_MAX = 1000;
const PROBLEMS_LISTED_MAX = 200;

export interface Found {
  readonly kind: HistoryViolationKind;
  readonly certainty: Certainty;
  /** Offender first. */
  readonly clients: readonly string[];
  /** In the reader's language later (the page); `message` is its English, worded once here. */
  readonly ref: HistoryMessageRef;
  readonly message: string;
  readonly evidence: readonly Ev[];
}

export function found(kind: HistoryViolationKind, certainty: Certainty, clients: readonly string[], ref: HistoryMessageRef, evidence: readonly Ev[]): Found {
  return { kind, certainty, clients, ref, message: historyEnglish(ref), evidence };
}

export class Findings {
  readonly found: Found[] = [];
  /** Mutual exclusion read from acquisitions: kept apart, dropped at the end for clients with marks. */
  readonly acquisitionOverlaps: Found[] = [];
  foundNotListed = 0;
  readonly problems: HistoryProblem[] = [];
  problemsNotListed = 0;
  /** By their English: the same unknown (a bound passed, replies missing) is said once. */
  readonly unknowns = new Map<string, HistoryMessageRef>();

  violation(kind: HistoryViolationKind, certainty: Certainty, clients: readonly string[], ref: HistoryMessageRef, evidence: Ev[]): void {
    this.push(found(kind, certainty, clients, ref, evidence));
  }

  push(found: Found): void {
    if (this.found.length >= VIOLATIONS_LISTED_MAX) {
      this.foundNotListed++;
      return;
    }
    this.found.push(found);
  }

  acquisitionOverlap(found: Found): void {
    if (this.acquisitionOverlaps.length < VIOLATIONS_LISTED_MAX) this.acquisitionOverlaps.push(found);
    else this.foundNotListed++;
  }

  /** A problem the checker words itself. */
  problem(line: number, ref: HistoryMessageRef): void {
    if (this.problems.length >= PROBLEMS_LISTED_MAX) this.problemsNotListed++;
    else this.problems.push({ line, message: historyEnglish(ref), ref });
  }

  /** A problem another reader worded (the line format, MONITOR import): English only. */
  inputProblem(line: number, message: string): void {
    if (this.problems.length >= PROBLEMS_LISTED_MAX) this.problemsNotListed++;
    else this.problems.push({ line, message });
  }

  unknown(ref: HistoryMessageRef): void {
    const message = historyEnglish(ref);
    if (!this.unknowns.has(message)) this.unknowns.set(message, ref);
  }
}
