/**
 * Violations in words. A checker writes its sentence in English with `traceText` (the trace's
 * `message`, part of the JSON output); the page shows it in the reader's language by reading the
 * parameters back out of that English sentence and filling the same message in another language.
 * One sentence per situation, in the catalog, for every language.
 */
import type { MessageKey } from './catalog';
import { matchSentence } from './sentences';
import { translateRef, translator, type Lang } from './translate';

/** Every kind a checker reports (the engine's VIOLATION_KINDS): its label and its sentences. */
export const VIOLATIONS = {
  'foreign-release': { label: 'kindForeignRelease', sentences: ['vForeignReleaseDeleted', 'vForeignReleaseOverwrote'] },
  'mutual-exclusion': { label: 'kindMutualExclusion', sentences: ['vMutualExclusion'] },
  'lock-never-released': { label: 'kindLockNeverReleased', sentences: ['vLockNeverReleasedCrashed', 'vLockNeverReleasedFinished'] },
  oversell: { label: 'kindOversell', sentences: ['vOversold', 'vLostUpdate'] },
  'stale-write': { label: 'kindStaleWrite', sentences: ['vStaleWrite', 'vStaleWriteNobody'] },
  'duplicate-rebuild': { label: 'kindDuplicateRebuild', sentences: ['vDuplicateRebuild'] },
  'lock-held-too-long': { label: 'kindLockHeldTooLong', sentences: ['vLockHeldTooLong'] },
  'load-spike': { label: 'kindLoadSpike', sentences: ['vLoadSpike'] },
  'over-limit': { label: 'kindOverLimit', sentences: ['vOverLimit'] },
  starvation: { label: 'kindStarvation', sentences: ['vStarvation', 'vStarvationOvertaken'] },
  property: { label: 'kindProperty', sentences: ['vPropertyBroken'] },
} as const satisfies Record<string, { readonly label: MessageKey; readonly sentences: readonly MessageKey[] }>;

type Kind = keyof typeof VIOLATIONS;

function known(kind: string): kind is Kind {
  return Object.hasOwn(VIOLATIONS, kind);
}

/** The kind's name in `lang`; a kind the catalog does not know shows its id. */
export function violationKindLabel(kind: string, lang: Lang): string {
  return known(kind) ? translator(lang)(VIOLATIONS[kind].label) : kind;
}

/** The catalog message and parameters behind a checker's English sentence, or null if none fits. */
export function violationSentence(kind: string, message: string): { key: MessageKey; params: Record<string, string | number> } | null {
  return known(kind) ? matchSentence(VIOLATIONS[kind].sentences, message) : null;
}

/** A violation in `lang`. A sentence the catalog cannot read back stays the checker's English. */
export function violationText(kind: string, message: string, lang: Lang): string {
  const sentence = violationSentence(kind, message);
  return sentence ? translateRef(sentence as never, lang) : message;
}
