/**
 * Predict, then reveal: a question the scenario asks before one step of its own story, and its
 * true answer read from the events that step produced. Pure and DOM-free.
 */
import type { LocalizedText } from '../program';
import { formatReplyShort } from '../redis/reply';
import type { TraceEvent } from '../trace';

/**
 * What the question asks about the step:
 * - `holder`: who holds the lock after it (a client id, or `nobody`);
 * - `reply`: what `clientId`'s Redis command in this step returns (the reply as redis-cli shows it);
 * - `enters`: whether `clientId` enters the critical section in this step (`yes` / `no`).
 */
export type QuestionKind = { readonly kind: 'holder' } | { readonly kind: 'reply'; readonly clientId: string } | { readonly kind: 'enters'; readonly clientId: string };

export interface QuestionSpec {
  /** The step (0-based index of the scenario's default schedule) the question is asked before. */
  readonly step: number;
  readonly ask: LocalizedText;
  readonly about: QuestionKind;
  /** Answer ids the learner picks from (for `reply`, replies as `formatReplyShort` writes them). */
  readonly options: readonly string[];
  /** Only for these variants (default: all). */
  readonly variantIds?: readonly string[];
}

/** The answer id that is true of the step's events, or null when the step did not do what was asked about. */
export function questionTruth(question: QuestionSpec, stepEvents: readonly TraceEvent[]): string | null {
  const about = question.about;
  switch (about.kind) {
    case 'holder': {
      const last = stepEvents[stepEvents.length - 1];
      if (!last) return null;
      return last.lockAfter.value === null ? 'nobody' : (last.lockAfter.holder ?? 'nobody');
    }
    case 'reply': {
      const command = stepEvents.find((e) => e.kind === 'command' && e.clientId === about.clientId);
      if (!command || command.kind !== 'command' || command.reply === null) return null;
      return formatReplyShort(command.reply);
    }
    case 'enters':
      return stepEvents.some((e) => e.kind === 'enter' && e.clientId === about.clientId) ? 'yes' : 'no';
  }
}
