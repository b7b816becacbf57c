import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../../store/context';
import type { SimState } from '../../store/store-types';

const selectStatus = (s: SimState) => ({
  status: s.workbench.status,
  problems: s.workbench.problems,
  stops: s.workbench.stops,
  revision: s.workbench.revision,
  edited: s.scenarioId.endsWith('-edited'),
});

/** What happened to the last edit: checking, applied, refused by the budget, or invalid (every problem with its path). */
export function WorkbenchStatus() {
  const t = useT();
  const store = useSimStoreApi();
  const { status, problems, stops, revision, edited } = useSimStore(useShallow(selectStatus));
  return (
    <div className="workbench__status" role="status" data-testid="workbench-status" data-status={status} data-revision={revision}>
      {status === 'checking' && <p>{t('workbenchChecking')}</p>}
      {status === 'idle' && revision > 0 && <p>{t('workbenchApplied')}</p>}
      {status === 'uneditable' && <p>{t('workbenchUneditable')}</p>}
      {status === 'refused' && (
        <>
          <p className="workbench__error">{t('workbenchRefused')}</p>
          <ul className="workbench__problems" data-testid="workbench-stops">
            {stops.map((stop) => (
              <li key={`${stop.variantId}/${stop.step}/${stop.clientId}`}>
                {t('workbenchStop', { variant: stop.variantId, step: stop.step + 1, client: stop.clientId ?? '-', message: stop.message })}
              </li>
            ))}
          </ul>
        </>
      )}
      {status === 'invalid' && (
        <>
          <p className="workbench__error">{t('workbenchInvalid')}</p>
          <pre className="workbench__problems" data-testid="workbench-problems">
            {problems}
          </pre>
        </>
      )}
      {edited && (
        <button type="button" className="button button--small" data-testid="workbench-discard" onClick={() => store.getState().discardEdits()}>
          {t('workbenchDiscard')}
        </button>
      )}
    </div>
  );
}
