import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { localized, violationKindLabel, type Lang, type Translate } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/createSimStore';
import { selectRunHash } from '../store/selectors';
import { selectChallengeStatus, triesBeforeShortestWay } from '../store/slices/learn';
import type { ChallengeSpec, ChallengeStatus } from '../store/types';
import { Icon } from './Icon';

const selectLearn = (s: SimState) => ({
  lang: s.lang,
  scenarioId: s.scenarioId,
  challenges: s.runInfo.challenges,
  variants: s.runInfo.variants,
  challengeId: s.challengeId,
  tries: s.challengeTries,
  met: s.progress.lessons[s.scenarioId]?.met,
  predict: s.predict,
  lessons: s.lessons,
  scenarios: s.scenarios,
  shortestWayAvailable: s.shortestWayAvailable,
  shortestWayPending: s.shortestWayPending,
});

/** A challenge's title: its own, or "make it happen yourself: <violation kind>". */
export function challengeTitle(spec: ChallengeSpec, t: Translate, lang: Lang): string {
  if (spec.title) return localized(spec.title, lang);
  const kind = spec.goal.kind === 'finish-clean' ? spec.goal.violations[0] : spec.goal.violation;
  return t('challengeReproduce', { kind: violationKindLabel(kind, lang) });
}

function statusText(spec: ChallengeSpec, status: ChallengeStatus, variantTitle: string, t: Translate): string {
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

/**
 * The lesson's challenges (a numbered button each, marked when met in this browser), the active
 * one's status in words, predict mode, and the way on to the next lesson.
 */
export function LearnBar() {
  const t = useT();
  const store = useSimStoreApi();
  const s = useSimStore(useShallow(selectLearn));
  const status = useSimStore(selectChallengeStatus);
  const lang = s.lang;
  const active = s.challenges.find((c) => c.id === s.challengeId) ?? null;
  const activeIndex = active ? s.challenges.indexOf(active) : -1;
  const next = s.challenges[activeIndex + 1];
  const at = s.lessons.findIndex((l) => l.id === s.scenarioId);
  const nextLesson = s.lessons[at + 1];
  const nextTitle = nextLesson ? s.scenarios.find((x) => x.id === nextLesson.id)?.title : undefined;
  const variantTitle = active ? localized(s.variants.find((v) => v.id === active.variantIds[0])?.title, lang) : '';
  const offerShortest =
    s.shortestWayAvailable && active?.goal.kind === 'break' && status?.state !== 'met' && s.tries >= triesBeforeShortestWay;

  return (
    <div className="learn-bar" data-testid="learn-bar">
      {s.challenges.length > 0 && (
        <div className="learn-bar__challenges" role="group" aria-label={t('challenges')} data-testid="challenges">
          <span className="learn-bar__label" aria-hidden="true">
            {t('challenges')}
          </span>
          {s.challenges.map((c, i) => {
            const best = s.met?.[c.id];
            const title = challengeTitle(c, t, lang);
            return (
              <button
                key={c.id}
                type="button"
                className={`chip${c.id === s.challengeId ? ' is-active' : ''}${best !== undefined ? ' is-met' : ''}`}
                aria-pressed={c.id === s.challengeId}
                aria-label={t('challengeNumbered', { n: i + 1, title })}
                aria-describedby={best !== undefined ? `challenge-best-${c.id}` : undefined}
                title={title}
                data-testid={`challenge.${c.id}`}
                onClick={() => store.getState().startChallenge(c.id)}
              >
                {best !== undefined && <Icon name="check" />}
                {i + 1}
                {best !== undefined && (
                  <span className="visually-hidden" id={`challenge-best-${c.id}`}>
                    {t('challengeBest', { n: best })}
                  </span>
                )}
              </button>
            );
          })}
        </div>
      )}
      <div className="learn-bar__status" role="status" data-testid="challenge-status">
        {active && status ? (
          <>
            <span className="learn-bar__goal">
              {t('challengeActive', { n: activeIndex + 1 })}: {challengeTitle(active, t, lang)}
            </span>
            <span className={`learn-bar__state is-${status.state}`} data-testid="challenge-state" data-state={status.state}>
              {status.state === 'met' && <Icon name="check" />}
              {statusText(active, status, variantTitle, t)}
            </span>
          </>
        ) : s.challenges.length > 0 ? (
          <span className="learn-bar__goal learn-bar__goal--hint">{challengeTitle(s.challenges[0], t, lang)}</span>
        ) : null}
      </div>
      <div className="learn-bar__actions">
        {active && (
          <button type="button" className="button button--small" onClick={() => store.getState().startChallenge(active.id)}>
            {t('restartChallenge')}
          </button>
        )}
        {active && status?.state === 'met' && next && (
          <button type="button" className="button button--small button--primary" onClick={() => store.getState().startChallenge(next.id)}>
            {t('nextChallenge')}
          </button>
        )}
        {offerShortest && (
          <button type="button" className="button button--small" disabled={s.shortestWayPending} onClick={() => store.getState().showShortestWay()}>
            {s.shortestWayPending ? t('shortestWaySearching') : t('shortestWay')}
          </button>
        )}
        {active && <CopyChallengeLink />}
        {active && (
          <button type="button" className="button button--small button--ghost button--icon" aria-label={t('leaveChallenge')} title={t('leaveChallenge')} onClick={() => store.getState().leaveChallenge()}>
            <Icon name="close" />
          </button>
        )}
        <button
          type="button"
          className="button button--small button--ghost"
          aria-pressed={s.predict}
          aria-keyshortcuts="q"
          onClick={() => store.getState().togglePredict()}
          data-testid="predict-toggle"
        >
          {t('predictMode')}
        </button>
        {nextLesson && nextTitle && (
          <button
            type="button"
            className="button button--small button--ghost"
            aria-label={t('nextLesson', { title: `${nextLesson.number}. ${localized(nextTitle, lang)}` })}
            title={t('nextLesson', { title: `${nextLesson.number}. ${localized(nextTitle, lang)}` })}
            onClick={() => store.getState().nextLesson()}
            data-testid="next-lesson"
          >
            {t('nextLessonShort')}
            <Icon name="forward" />
          </button>
        )}
      </div>
    </div>
  );
}

const selectChallengeHash = (s: SimState) => {
  const spec = s.runInfo.challenges.find((c) => c.id === s.challengeId);
  if (!spec) return selectRunHash(s);
  // A challenge is shared from its start: the receiver plays it, not the sender's moves.
  const hash = selectRunHash({ ...s, variantId: spec.variantIds[0], schedule: '', cursor: 0 });
  return spec.start === 'empty' ? hash : hash.replace(/&s=[^&]*/, '&at=0');
};

function CopyChallengeLink() {
  const t = useT();
  const hash = useSimStore(selectChallengeHash);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const copy = async () => {
    const url = `${window.location.origin}${window.location.pathname}${window.location.search}${hash}`;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
    if (timer.current) clearTimeout(timer.current);
    // A transient confirmation, not simulation time.
    timer.current = setTimeout(() => setCopied(false), 2500);
  };
  return (
    <>
      <button
        type="button"
        className="button button--small"
        aria-label={t('copyChallengeLink')}
        title={t('copyChallengeLink')}
        onClick={() => void copy()}
        data-testid="copy-challenge-link"
        data-challenge-hash={hash}
      >
        <Icon name={copied ? 'check' : 'link'} />
        <span className="learn-bar__wide">{t('copyChallengeLink')}</span>
      </button>
      <span className="visually-hidden" role="status">
        {copied ? t('challengeLinkCopied') : ''}
      </span>
    </>
  );
}
