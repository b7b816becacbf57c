import { useShallow } from 'zustand/react/shallow';
import { localized } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import { selectChallengeStatus } from '../store/slices/learn';
import { challengeStatusText, challengeTitle } from './challenge-text';
import { Icon } from './Icon';

const selectStrip = (s: SimState) => ({
  lang: s.lang,
  challenges: s.runInfo.challenges,
  variants: s.runInfo.variants,
  challengeId: s.challengeId,
  met: s.progress.lessons[s.scenarioId]?.met,
  predict: s.predict,
  panelOpen: s.learnPanelOpen,
  lessons: s.lessons,
  scenarios: s.scenarios,
  scenarioId: s.scenarioId,
});

/**
 * The lesson's challenges, where the active one stands, predict mode and the next lesson, on the
 * scenario bar's title row: a full-width row here pushed the timeline off a 1280x720 screen. The
 * active challenge's actions and predict mode's questions are in the challenge panel (LearnPanel),
 * which this row opens and closes.
 */
export function LearnStrip() {
  const t = useT();
  const store = useSimStoreApi();
  const s = useSimStore(useShallow(selectStrip));
  const status = useSimStore(selectChallengeStatus);
  const lang = s.lang;
  const active = s.challenges.find((c) => c.id === s.challengeId) ?? null;
  const activeIndex = active ? s.challenges.indexOf(active) : -1;
  const at = s.lessons.findIndex((l) => l.id === s.scenarioId);
  const nextLesson = s.lessons[at + 1];
  const nextTitle = nextLesson ? s.scenarios.find((x) => x.id === nextLesson.id)?.title : undefined;
  const variantTitle = active ? localized(s.variants.find((v) => v.id === active.variantIds[0])?.title, lang) : '';
  const statusText = active && status ? challengeStatusText(active, status, variantTitle, t) : '';
  const panelAvailable = active !== null || s.predict;

  return (
    <div className="learn-strip" data-testid="learn-bar">
      {s.challenges.length > 0 && (
        <div className="learn-strip__challenges" role="group" aria-label={t('challenges')} data-testid="challenges">
          <span className="learn-strip__label" aria-hidden="true">
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
      {/* One line, cut with … when the row is short; the whole sentence is its title and in the panel. */}
      <span className="learn-strip__status" role="status" data-testid="challenge-status" title={active ? `${challengeTitle(active, t, lang)}: ${statusText}` : undefined}>
        {active && status && (
          <span className={`learn-strip__state is-${status.state}`} data-testid="challenge-state" data-state={status.state}>
            {status.state === 'met' && <Icon name="check" />}
            {statusText}
          </span>
        )}
        {active && status === null && <span className="visually-hidden">{t('challengeActive', { n: activeIndex + 1 })}</span>}
      </span>
      {panelAvailable && (
        <button
          type="button"
          className="button button--small button--ghost button--icon"
          aria-expanded={s.panelOpen}
          aria-controls="learn-panel"
          aria-label={s.panelOpen ? t('hideLearnPanel') : t('showLearnPanel')}
          title={s.panelOpen ? t('hideLearnPanel') : t('showLearnPanel')}
          onClick={() => store.getState().toggleLearnPanel()}
          data-testid="learn-panel-toggle"
        >
          <Icon name={s.panelOpen ? 'close' : 'chevron'} />
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
          <span className="learn-strip__wide">{t('nextLessonShort')}</span>
          <Icon name="forward" />
        </button>
      )}
    </div>
  );
}
