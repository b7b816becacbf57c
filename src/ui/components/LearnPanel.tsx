import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import { selectRunHash } from '../store/selectors';
import { selectChallengeStatus, triesBeforeShortestWay } from '../store/slices/learn';
import { localized } from '../../i18n';
import { challengeStatusText, challengeTitle } from './challenge-text';
import { Icon } from './Icon';
import { PredictPanel } from './PredictPanel';

const selectPanel = (s: SimState) => ({
  lang: s.lang,
  challenges: s.runInfo.challenges,
  variants: s.runInfo.variants,
  challengeId: s.challengeId,
  tries: s.challengeTries,
  predict: s.predict,
  open: s.learnPanelOpen,
  shortestWayAvailable: s.shortestWayAvailable,
  shortestWayPending: s.shortestWayPending,
  shortestWayMissed: s.shortestWayMissed,
});

/**
 * The challenge panel: the active challenge in full with its actions (restart, next, the shortest
 * way, share, leave) and predict mode's question and reveal. It lies over the Redis inspector
 * while open (the strip on the title row hides it), so it adds no row to the page: the timeline
 * stays on a 1280x720 screen. Its code loads the first time a challenge or predict mode starts.
 */
export function LearnPanel() {
  const t = useT();
  const store = useSimStoreApi();
  const s = useSimStore(useShallow(selectPanel));
  const status = useSimStore(selectChallengeStatus);
  const lang = s.lang;
  const active = s.challenges.find((c) => c.id === s.challengeId) ?? null;
  if (!s.open || (active === null && !s.predict)) return null;
  const activeIndex = active ? s.challenges.indexOf(active) : -1;
  const next = s.challenges[activeIndex + 1];
  const offerShortest =
    s.shortestWayAvailable && active?.goal.kind === 'break' && status?.state !== 'met' && (s.tries >= triesBeforeShortestWay || s.shortestWayPending || s.shortestWayMissed);

  return (
    <aside className="learn-panel panel" id="learn-panel" aria-label={t('learnPanel')} data-testid="learn-panel">
      {active && (
        <section className="learn-panel__challenge" aria-labelledby="learn-panel-goal">
          <h2 className="learn-panel__goal" id="learn-panel-goal">
            {t('challengeActive', { n: activeIndex + 1 })}: {challengeTitle(active, t, lang)}
          </h2>
          {/* The strip's role=status announces it; here it is whole, for the eye. */}
          {status && (
            <p className={`learn-panel__state is-${status.state}`} aria-hidden="true">
              {challengeStatusText(active, status, localized(s.variants.find((v) => v.id === active.variantIds[0])?.title, lang), t)}
            </p>
          )}
          <div className="learn-panel__actions">
            <button type="button" className="button button--small" onClick={() => store.getState().startChallenge(active.id)}>
              {t('restartChallenge')}
            </button>
            {status?.state === 'met' && next && (
              <button type="button" className="button button--small button--primary" onClick={() => store.getState().startChallenge(next.id)}>
                {t('nextChallenge')}
              </button>
            )}
            {offerShortest && (
              <button type="button" className="button button--small" disabled={s.shortestWayPending} onClick={() => store.getState().showShortestWay()} data-testid="shortest-way">
                {s.shortestWayPending ? t('shortestWaySearching') : t('shortestWay')}
              </button>
            )}
            <CopyChallengeLink />
            <button type="button" className="button button--small button--ghost button--icon" aria-label={t('leaveChallenge')} title={t('leaveChallenge')} onClick={() => store.getState().leaveChallenge()}>
              <Icon name="close" />
            </button>
          </div>
          {s.shortestWayMissed && (
            <p className="learn-panel__note" data-testid="shortest-way-none">
              {t('shortestWayNone')}
            </p>
          )}
        </section>
      )}
      <PredictPanel />
    </aside>
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
        <span className="learn-panel__wide">{t('copyChallengeLink')}</span>
      </button>
      <span className="visually-hidden" role="status">
        {copied ? t('challengeLinkCopied') : ''}
      </span>
    </>
  );
}
