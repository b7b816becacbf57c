import { memo } from 'react';
import { onDemand, ShowOnDemand } from './OnDemand';
import { useShallow } from 'zustand/react/shallow';
import { formatList, type Translate } from '../../i18n';
import { useSimStore, useT } from '../store/context';
import { selectLang, selectLockState } from '../store/selectors';
import type { SimState } from '../store/store-types';
import type { LockState } from '../store/published';
import type { ClientView, KeyView } from '../store/types';
import { BeliefRow } from './BeliefRow';
import { ClientBadge } from './ClientBadge';
import { believersWithoutMajority, selectIsRedlock, selectNodeHoldings } from '../store/node-selectors';

/** Runs with several Redis nodes show one column per node; that code loads only for them. */
const NodeInspector = onDemand(() => import('./NodeInspector').then((module) => module.NodeInspector));
const selectNodeRun = (s: SimState) => s.nodes.length > 0;

/**
 * Key rows drawn at most: a script can write 10,000 keys, and a row each would freeze the page on
 * every step. The rest are counted in one line (the whole keyspace is in `lockstep.state()`).
 */
const keyRowCountMax = 200;

const selectInspector = (s: SimState) => ({ keys: s.keys, nowMs: s.nowMs, clients: s.clients });
const selectTruth = (s: SimState) => ({ lock: selectLockState(s), clients: s.clients });

/** Every key with type, value, TTL in virtual time; the step's changes highlighted in words too. With several nodes, one column per node. */
export function Inspector() {
  const t = useT();
  const nodeRun = useSimStore(selectNodeRun);
  return (
    <section className="inspector panel" aria-labelledby="inspector-title" data-testid="inspector">
      <header className="panel__header panel__header--compact">
        <h2 id="inspector-title" className="panel__title">
          {t('inspector')}
        </h2>
        <MismatchNote />
      </header>
      {nodeRun ? (
        <ShowOnDemand part={NodeInspector} props={{ keys: <KeyList />, truth: <LockTruth /> }} />
      ) : (
        <>
          <KeyList />
          <LockTruth />
        </>
      )}
    </section>
  );
}

/** The keyspace (with several nodes: the current primary's). */
function KeyList() {
  const t = useT();
  const { keys, nowMs, clients } = useSimStore(useShallow(selectInspector));
  return (
    <ul className="key-list" aria-label={t('inspector')}>
      {keys.length === 0 ? (
        <li className="key-list__empty">{t('emptyKeyspace')}</li>
      ) : (
        keys.slice(0, keyRowCountMax).map((row) => <KeyRow key={row.key} row={row} nowMs={nowMs} clients={clients} t={t} />)
      )}
      {keys.length > keyRowCountMax && (
        <li className="key-list__empty" data-testid="inspector.more">
          {t('inspectorMoreKeys', { n: keys.length - keyRowCountMax })}
        </li>
      )}
    </ul>
  );
}

const CHANGE_KEYS = { created: 'created', changed: 'changed', deleted: 'deleted', expired: 'expired' } as const;

/** One key: name, type and TTL on the first line, the value (with its owner) on the second. */
const KeyRow = memo(function KeyRow({ row, nowMs, clients, t }: { row: KeyView; nowMs: number; clients: readonly ClientView[]; t: Translate }) {
  const owner = row.tokenOwner === null ? undefined : clients.find((c) => c.id === row.tokenOwner);
  const gone = row.change === 'deleted' || row.change === 'expired';
  const ttlMs = row.expireAtMs === null ? null : row.expireAtMs - nowMs;
  return (
    <li className={`key-row${row.change ? ` is-${row.change}` : ''}`} data-testid={`key.${row.key}`}>
      <div className="key-row__head">
        <code className="key-row__key">{row.key}</code>
        <span className="key-row__type">{row.type}</span>
        {row.change && <span className={`change-pill change-pill--${row.change}`}>{t(CHANGE_KEYS[row.change])}</span>}
        <span className="key-row__ttl" data-testid={`key.${row.key}.ttl`}>
          <span className="key-row__ttl-label">{t('ttl')}</span> {gone ? '—' : ttlMs === null ? t('noTtl') : t('unitMs', { n: ttlMs })}
        </span>
      </div>
      <div className="key-row__value">
        {owner && (
          <span className={`token-owner client-${owner.index % 6}`}>
            <ClientBadge id={owner.id} index={owner.index} size="small" />
            <span className="token-owner__name">{t('tokenOf', { id: owner.id })}</span>
          </span>
        )}
        <code className={gone ? 'is-gone' : undefined} title={row.text}>
          {row.text}
        </code>
      </div>
    </li>
  );
});

/** Redlock: a client believes it holds the lock without its token on a quorum of nodes; else against the primary's lock. */
const selectMismatch = (s: SimState) =>
  selectIsRedlock(s)
    ? believersWithoutMajority(selectNodeHoldings(s), s.clients.filter((c) => c.believesHoldsLock).map((c) => c.id)).length > 0
    : beliefMismatch(selectLockState(s), s.clients);

/** The client Redis says holds the lock, if it is one of the run's clients. */
function holderOf(lock: LockState, clients: readonly ClientView[]): ClientView | undefined {
  return lock.kind === 'held' && lock.holder !== null ? clients.find((c) => c.id === lock.holder) : undefined;
}

/** True when some client's belief differs from Redis's truth about the lock. */
function beliefMismatch(lock: LockState, clients: readonly ClientView[]): boolean {
  // A lock several hold: each believer must be listed, and each live client listed must believe.
  const holders = lock.kind === 'held' ? lock.holders : undefined;
  if (holders !== undefined) return clients.some((c) => c.believesHoldsLock !== holders.includes(c.id) && (c.believesHoldsLock || c.live));
  const holder = holderOf(lock, clients);
  return clients.some((c) => c.believesHoldsLock && c !== holder) || (holder !== undefined && !holder.believesHoldsLock && holder.live);
}

function MismatchNote() {
  const t = useT();
  const mismatch = useSimStore(selectMismatch);
  return (
    <span className={`truth__mismatch${mismatch ? ' is-on' : ''}`} data-testid="lock-truth.mismatch">
      {mismatch ? `⚠ ${t('beliefMismatch')}` : ''}
    </span>
  );
}

/** Redis's truth (who wrote the lock value) beside each client's belief: where they differ is the lesson. */
function LockTruth() {
  const t = useT();
  const { lock, clients } = useSimStore(useShallow(selectTruth));
  const lang = useSimStore(selectLang);
  const holder = holderOf(lock, clients);
  return (
    <div className="truth" data-testid="lock-truth">
      <h3 className="visually-hidden">{t('whoHolds')}</h3>
      <dl className="truth__list">
        <div className="truth__row" data-testid="lock-truth.redis">
          <dt>{t('redisSays')}</dt>
          <dd>
            {lock.kind === 'held' && lock.holders !== undefined && lock.holders.length > 1 ? (
              <>
                {clients
                  .filter((c) => lock.holders?.includes(c.id))
                  .map((c) => (
                    <ClientBadge key={c.id} id={c.id} index={c.index} size="small" />
                  ))}{' '}
                {t('redisSaysHolders', { ids: formatList(lock.holders, lang) })}
              </>
            ) : holder ? (
              <>
                <ClientBadge id={holder.id} index={holder.index} size="small" /> {t('redisSaysHolder', { id: holder.id })}
              </>
            ) : lock.kind === 'free' ? (
              t('redisSaysFree')
            ) : (
              t('redisSaysUnknown')
            )}
          </dd>
        </div>
        <BeliefRow />
      </dl>
    </div>
  );
}
