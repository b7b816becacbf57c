import { useShallow } from 'zustand/react/shallow';
import { localized } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/createSimStore';

const selectLanding = (s: SimState) => ({ landing: s.landing, lessons: s.lessons, scenarios: s.scenarios, lang: s.lang });

/** First visit: where to start (the headline race), one click away. */
export function Landing() {
  const t = useT();
  const store = useSimStoreApi();
  const { landing, lessons, scenarios, lang } = useSimStore(useShallow(selectLanding));
  const start = lessons.find((l) => l.start);
  const scenario = start && scenarios.find((s) => s.id === start.id);
  if (!landing || !start || !scenario) return null;
  return (
    <section className="landing" aria-labelledby="landing-title" data-testid="landing">
      <div className="landing__text">
        <h2 id="landing-title" className="landing__title">
          {t('landingTitle')}
        </h2>
        <p className="landing__body">{t('landingBody', { n: start.number, title: localized(scenario.title, lang) })}</p>
      </div>
      <div className="landing__actions">
        <button type="button" className="button button--primary" onClick={() => store.getState().startLesson(start.id)}>
          {t('landingStart', { n: start.number })}
        </button>
        <button type="button" className="button button--ghost" onClick={() => store.getState().dismissLanding()}>
          {t('landingLater')}
        </button>
      </div>
    </section>
  );
}
