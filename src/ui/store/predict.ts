/**
 * Predict, then reveal, as the page reads it: which question applies at the cursor, and whether
 * it is to be asked (before its step) or revealed (just after it, with the truth from the step's
 * events). Only while the run follows the scenario's own schedule, where the questions were written.
 */
import { questionTruth } from '../../engine/learn/question';
import type { SimState } from './store-types';
import type { QuestionSpec } from './types';

export interface QuestionNow {
  /** The question asked before the step at the cursor, if any. */
  readonly ask: QuestionSpec | null;
  /** The question of the step just taken, with its truth (null: the step did not do what was asked about). */
  readonly reveal: { readonly question: QuestionSpec; readonly truth: string | null } | null;
}

let last: { ask: QuestionSpec | null; revealed: QuestionSpec | null; events: SimState['lastStepEvents']; now: QuestionNow } | null = null;

export const selectQuestionNow = (s: SimState): QuestionNow | null => {
  if (!s.predict || !s.onDefaultPath) return null;
  const ask = s.runInfo.questions.find((q) => q.step === s.cursor) ?? null;
  const revealed = s.runInfo.questions.find((q) => q.step === s.cursor - 1) ?? null;
  if (!ask && !revealed) return null;
  if (last && last.ask === ask && last.revealed === revealed && (!revealed || last.events === s.lastStepEvents)) return last.now;
  const now: QuestionNow = { ask, reveal: revealed ? { question: revealed, truth: questionTruth(revealed, s.lastStepEvents) } : null };
  last = { ask, revealed, events: s.lastStepEvents, now };
  return now;
};
