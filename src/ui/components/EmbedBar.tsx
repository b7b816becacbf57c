import { useMemo } from 'react';
import { findScenario } from '../../scenarios';
import { localized } from '../i18n';
import { useSimStore, useT } from '../store/context';
import type { SimState } from '../store/createSimStore';
import { selectLang } from '../store/selectors';
import { runHashOf } from '../share/sync';
import { Icon } from './Icon';

const selectScenarioId = (s: SimState) => s.scenarioId;
const selectHash = (s: SimState) => runHashOf(s);

/** Embed mode's only chrome: the scenario's title and a link to the full page for the same run. */
export function EmbedBar() {
  const t = useT();
  const lang = useSimStore(selectLang);
  const scenarioId = useSimStore(selectScenarioId);
  const hash = useSimStore(selectHash);
  const scenario = useMemo(() => findScenario(scenarioId), [scenarioId]);
  const href = `${window.location.pathname}${hash}`;
  return (
    <header className="embed-bar">
      <h1 className="embed-bar__title">{localized(scenario.title, lang)}</h1>
      <a className="button button--ghost button--icon-text" href={href} target="_blank" rel="noopener noreferrer">
        <Icon name="external" />
        <span>{t('openFull')}</span>
      </a>
    </header>
  );
}
