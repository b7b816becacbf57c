/**
 * Challenges: a goal a learner reaches by making choices (Deadlock Empire's levels). A goal is
 * read from the checkers' violation events, never decided by the page: the same checkers that
 * write the trace say whether a challenge is met. Pure and DOM-free.
 */
import type { LocalizedText } from '../program';
import type { FaultBudget } from '../scenario';
import type { TraceEvent, ViolationEvent, ViolationKind } from '../trace';

/**
 * What the learner must bring about.
 * - `break`: make a violation of this kind happen (optionally with these clients, offender first).
 * - `hold`: try to make it happen against a fix; the challenge is met when the fix held for
 *   `choiceCountMax` choices (or until every client finished) without it.
 * - `finish-clean`: get every client to the end with none of these violations.
 */
export type ChallengeGoal =
  | { readonly kind: 'break'; readonly violation: ViolationKind; readonly clients?: readonly string[] }
  | { readonly kind: 'hold'; readonly violation: ViolationKind; readonly clients?: readonly string[] }
  | { readonly kind: 'finish-clean'; readonly violations: readonly ViolationKind[] };

export interface ChallengeSpec {
  /** Stable within its scenario: share links (`ch=`) and saved progress use it. */
  readonly id: string;
  /** Absent: the page names the challenge from its goal ("make it happen yourself: two holders"). */
  readonly title?: LocalizedText;
  readonly goal: ChallengeGoal;
  /** Variants the challenge is played on (the first is the one it starts with). */
  readonly variantIds: readonly string[];
  /** 'empty': the learner makes every choice; 'story': start from the scenario's own schedule. */
  readonly start: 'empty' | 'story';
  /** At most this many choices (schedule entries) count. */
  readonly choiceCountMax?: number;
  /**
   * Faults "show me the shortest way" may use, when the goal needs others than the scenario's
   * declared search (docs/EXPLORER.md); the scenario's budget when absent.
   */
  readonly faults?: FaultBudget;
}

export type ChallengeStatus =
  | { readonly state: 'wrong-variant' }
  | { readonly state: 'open'; readonly choices: number; readonly choicesLeft: number | null }
  | { readonly state: 'met'; readonly choices: number }
  | { readonly state: 'failed'; readonly choices: number; readonly reason: 'budget' | 'finished' | 'violation' };

/** What a status is read from: the run at its cursor. */
export interface ChallengeRun {
  readonly variantId: string;
  /** Choices applied up to the cursor. */
  readonly cursor: number;
  /** Violations up to the cursor. */
  readonly violations: readonly ViolationEvent[];
  /** Every client finished (done, crashed or gave up) at the cursor. */
  readonly finished: boolean;
}

function matches(v: ViolationEvent, kind: ViolationKind, clients: readonly string[] | undefined): boolean {
  return v.violation === kind && (clients === undefined || clients.every((c, i) => v.clients[i] === c));
}

export function challengeStatus(spec: ChallengeSpec, run: ChallengeRun): ChallengeStatus {
  if (!spec.variantIds.includes(run.variantId)) return { state: 'wrong-variant' };
  const max = spec.choiceCountMax ?? null;
  const counted = (v: ViolationEvent) => max === null || v.step < max;
  const left = max === null ? null : Math.max(0, max - run.cursor);
  const goal = spec.goal;
  switch (goal.kind) {
    case 'break': {
      const hit = run.violations.find((v) => counted(v) && matches(v, goal.violation, goal.clients));
      if (hit) return { state: 'met', choices: hit.step + 1 };
      if (max !== null && run.cursor >= max) return { state: 'failed', choices: run.cursor, reason: 'budget' };
      if (run.finished) return { state: 'failed', choices: run.cursor, reason: 'finished' };
      return { state: 'open', choices: run.cursor, choicesLeft: left };
    }
    case 'hold': {
      const hit = run.violations.find((v) => counted(v) && matches(v, goal.violation, goal.clients));
      if (hit) return { state: 'failed', choices: hit.step + 1, reason: 'violation' };
      if ((max !== null && run.cursor >= max) || run.finished) return { state: 'met', choices: max === null ? run.cursor : Math.min(run.cursor, max) };
      return { state: 'open', choices: run.cursor, choicesLeft: left };
    }
    case 'finish-clean': {
      const hit = run.violations.find((v) => counted(v) && goal.violations.includes(v.violation));
      if (hit) return { state: 'failed', choices: hit.step + 1, reason: 'violation' };
      if (run.finished) return { state: 'met', choices: run.cursor };
      if (max !== null && run.cursor >= max) return { state: 'failed', choices: run.cursor, reason: 'budget' };
      return { state: 'open', choices: run.cursor, choicesLeft: left };
    }
  }
}

/** The violation events among a timeline's events up to (not including) step `cursor`. */
export function violationsBefore(events: readonly TraceEvent[], cursor: number): ViolationEvent[] {
  return events.filter((e): e is ViolationEvent => e.kind === 'violation' && e.step < cursor);
}
