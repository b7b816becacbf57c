import { localized, violationKindLabel, type Lang, type Translate } from '../../i18n';
import type { ChallengeSpec, ChallengeStatus } from '../store/types';

/** A challenge's title: its own, or "make it happen yourself: <violation kind>". */
export function challengeTitle(spec: ChallengeSpec, t: Translate, lang: Lang): string {
  if (spec.title) return localized(spec.title, lang);
  const kind = spec.goal.kind === 'finish-clean' ? spec.goal.violations[0] : spec.goal.violation;
  return t('challengeReproduce', { kind: violationKindLabel(kind, lang) });
}

/** Where the active challenge stands, in words ("3 choices left", "Challenge met in 6 choices!"). */
export function challengeStatusText(spec: ChallengeSpec, status: ChallengeStatus, variantTitle: string, t: Translate): string {
  switch (status.state) {
    case 'wrong-variant':
      return t('challengeWrongVariant', { variant: variantTitle });
    case 'open':
      return status.choicesLeft === null ? t('challengeChoices', { n: status.choices }) : t('challengeChoicesLeft', { n: status.choicesLeft });
    case 'met':
      return spec.goal.kind === 'break'
        ? t('challengeMetBreak', { n: status.choices })
        : spec.goal.kind === 'hold'
          ? t('challengeMetHold', { n: status.choices })
          : t('challengeMetClean', { n: status.choices });
    case 'failed':
      return status.reason === 'budget'
        ? t('challengeFailedBudget')
        : status.reason === 'finished'
          ? t('challengeFailedFinished')
          : t('challengeFailedViolation', { n: status.choices });
  }
}
