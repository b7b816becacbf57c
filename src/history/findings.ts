/**
 * What a check found, each list bounded so a file of a million bad lines keeps memory flat: the
 * violations, the mutual exclusions read from acquisitions (kept apart until the end, when marks
 * may overrule them), the input problems and what the recording cannot tell.
 */
import type { Ev } from './model';
import type { Certainty, HistoryProblem, HistoryViolationKind } from './verdict';

const VIOLATIONS_LISTED_MAX = 1000;
const PROBLEMS_LISTED_MAX = 200;

export interface Found {
  readonly kind: HistoryViolationKind;
  readonly certainty: Certainty;
  /** Offender first. */
  readonly clients: readonly string[];
  readonly message: string;
  readonly evidence: readonly Ev[];
}

export class Findings {
  readonly found: Found[] = [];
  /** Mutual exclusion read from acquisitions: kept apart, dropped at the end for clients with marks. */
  readonly acquisitionOverlaps: Found[] = [];
  foundNotListed = 0;
  readonly problems: HistoryProblem[] = [];
  problemsNotListed = 0;
  /** A set: the same unknown (a bound passed, replies missing) is said once. */
  readonly unknowns = new Set<string>();

  violation(kind: HistoryViolationKind, certainty: Certainty, clients: readonly string[], message: string, evidence: Ev[]): void {
    this.push({ kind, certainty, clients, message, evidence });
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

  problem(line: number, message: string): void {
    if (this.problems.length >= PROBLEMS_LISTED_MAX) this.problemsNotListed++;
    else this.problems.push({ line, message });
  }

  unknown(message: string): void {
    this.unknowns.add(message);
  }
}
