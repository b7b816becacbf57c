/**
 * The program editor's clients: remove one (its choices leave the schedule), or add one running a
 * program the scenario already has (the next free letter; it starts when the schedule first steps it).
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { workbenchExtraText, type WorkbenchExtraKey } from '../../../i18n/workbench-extra';
import { useSimStore, useSimStoreApi } from '../../store/context';
import type { SimState } from '../../store/store-types';

const selectClients = (s: SimState) => ({ clientIds: s.clientIds, sources: s.workbench.clientSources, checking: s.workbench.status === 'checking', lang: s.lang });

export function ClientsEditor() {
  const store = useSimStoreApi();
  const { clientIds, sources, checking, lang } = useSimStore(useShallow(selectClients));
  const t = (key: WorkbenchExtraKey, params?: Record<string, string | number>) => workbenchExtraText(lang, key, params);
  const [chosen, setChosen] = useState<string | null>(null);
  const from = chosen !== null && sources.includes(chosen) ? chosen : (sources[0] ?? null);
  return (
    <section className="workbench-clients" aria-label={t('clients')} data-testid="workbench.clients">
      <h3>{t('clients')}</h3>
      <ul className="workbench-clients__list">
        {clientIds.map((id) => (
          <li key={id} className="workbench-clients__item" data-testid={`workbench.client.${id}`}>
            <code>{id}</code>
            <button
              type="button"
              className="button button--small"
              disabled={checking || clientIds.length <= 1}
              aria-label={t('removeClient', { id })}
              data-testid={`workbench.client-remove.${id}`}
              onClick={() => void store.getState().applyClientRemove(id)}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
      {from !== null && (
        <div className="workbench__row">
          <label className="workbench__check">
            {t('addClientFrom')}
            <select className="input input--small" value={from} data-testid="workbench.client-add-from" onChange={(e) => setChosen(e.target.value)}>
              {sources.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="button button--small" disabled={checking} data-testid="workbench.client-add" onClick={() => void store.getState().applyClientAdd(from)}>
            {t('addClient')}
          </button>
        </div>
      )}
      <p className="workbench__hint">{t('clientsNote')}</p>
    </section>
  );
}
