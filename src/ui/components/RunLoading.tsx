import { localized } from '../../i18n';
import { useSimStore, useT } from '../store/context';
import { selectLang, selectRunLoading } from '../store/selectors';

/**
 * In place of the run while its scenario loads (a link to a lesson the page has not loaded yet, or
 * one that needs the Lua engine): says what is loading. Nothing of the stand-in run is shown or
 * pressable meanwhile; a key pressed now gets a notice (the store refuses it) rather than acting
 * on the wrong run.
 */
export function RunLoading() {
  const loading = useSimStore(selectRunLoading);
  const lang = useSimStore(selectLang);
  const t = useT();
  if (loading === null) return null;
  return (
    <main className="workspace workspace--loading" aria-busy="true">
      <p className="run-loading" role="status" data-testid="run-loading" data-scenario={loading.scenarioId}>
        {t('runLoading', { title: localized(loading.title, lang) })}
      </p>
    </main>
  );
}
