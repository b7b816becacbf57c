import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';

const selectEdited = (s: SimState) => s.scenarioId.endsWith('-edited');

/** "Edit": opens the workbench (its code loads then); "edited" marks a run of an edited copy. */
export function WorkbenchButton() {
  const t = useT();
  const store = useSimStoreApi();
  const edited = useSimStore(selectEdited);
  return (
    <>
      <button type="button" className="button button--small" title={t('workbenchOpenTitle')} data-testid="workbench-open" onClick={() => store.getState().openWorkbench()}>
        {t('workbenchOpen')}
      </button>
      {edited && (
        <span className="scenario-edited" title={t('workbenchEditedTitle')} data-testid="scenario-edited">
          {t('workbenchEdited')}
        </span>
      )}
    </>
  );
}
