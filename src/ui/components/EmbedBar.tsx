import { localized } from '../../i18n';
import { useSimStore, useT } from '../store/context';
import { selectLang, selectRunHash, selectRunInfo } from '../store/selectors';
import type { SimState } from '../store/store-types';
import { VariantToggle } from './ScenarioBar';
import { Icon } from './Icon';

const selectEmbedVariants = (s: SimState) => s.embedVariants;

/** Embed mode's only chrome: the scenario's title, the variant toggle (unless `variants=0`) and a link to the full page for the same run. */
export function EmbedBar() {
  const t = useT();
  const lang = useSimStore(selectLang);
  const { title } = useSimStore(selectRunInfo);
  const hash = useSimStore(selectRunHash);
  const showVariants = useSimStore(selectEmbedVariants);
  const href = `${window.location.pathname}${hash}`;
  return (
    <header className="embed-bar">
      <h1 className="embed-bar__title">{localized(title, lang)}</h1>
      {showVariants && <VariantToggle />}
      <a className="button button--ghost button--icon-text" href={href} target="_blank" rel="noopener noreferrer">
        <Icon name="external" />
        <span>{t('openFull')}</span>
      </a>
    </header>
  );
}
