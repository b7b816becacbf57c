import { useShallow } from 'zustand/react/shallow';
import { localized } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';

const selectLanding = (s: SimState) => ({ landing: s.landing, lessons: s.lessons, scenarios: s.scenarios, lang: s.lang });

/** First visit: where to start (the headline race), one click away, on the scenario bar's title row. */
export function Landing() {
  const t = useT();
  const store = useSimStoreApi();
  const { landing, lessons, scenarios, lang } = useSimStore(useShallow(selectLanding));
  const start = lessons.find((l) => l.start);
  const scenario = start && scenarios.find((s) => s.id === start.id);
  if (!landing || !start || !scenario) return null;
  const body = `${t('landingTitle')} ${t('landingBody', { n: start.number, title: localized(scenario.title, lang) })}`;
  // On the title row, so it adds no row: a short heading, the sentence as far as it fits (whole
  // in its tooltip and for screen readers), and the way in.
  return (
    <section className="landing" aria-labelledby="landing-title" aria-describedby="landing-body" data-testid="landing" title={body}>
      <h2 id="landing-title" className="landing__title">
        {t('landingShort')}
      </h2>
      <p id="landing-body" className="landing__body">
        {body}
      </p>
      <button type="button" className="button button--small button--primary" onClick={() => store.getState().startLesson(start.id)}>
        {t('landingStart', { n: start.number })}
      </button>
      <button type="button" className="button button--small button--ghost" onClick={() => store.getState().dismissLanding()}>
        {t('landingLater')}
      </button>
    </section>
  );
}
