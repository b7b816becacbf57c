import { useShallow } from 'zustand/react/shallow';
import { formatList } from '../../i18n';
import { useSimStore, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import { ClientBadge } from './ClientBadge';

const selectBelief = (s: SimState) => ({ lang: s.lang, clients: s.clients });

/** The clients' belief: who thinks it holds the lock (beside Redis's or the nodes' truth). */
export function BeliefRow() {
  const t = useT();
  const { lang, clients } = useSimStore(useShallow(selectBelief));
  const believers = clients.filter((c) => c.believesHoldsLock);
  return (
    <div className="truth__row" data-testid="lock-truth.clients">
      <dt>{t('clients')}</dt>
      <dd>
        {believers.length === 0 ? (
          t('nobodyBelieves')
        ) : (
          <span className="truth__belief">
            {believers.map((c) => (
              <ClientBadge key={c.id} id={c.id} index={c.index} size="small" />
            ))}{' '}
            {believers.length === 1
              ? t('clientBelieves', { id: believers[0].id })
              : t('clientsBelieve', { ids: formatList(believers.map((c) => c.id), lang) })}
          </span>
        )}
      </dd>
    </div>
  );
}
