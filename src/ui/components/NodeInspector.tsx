import type { ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Translate } from '../../i18n';
import { useSimStore, useT } from '../store/context';
import type { NodeStatus, SimState } from '../store/store-types';
import { selectNodeHoldings } from '../store/node-selectors';
import type { ClientView } from '../store/types';
import { ClientBadge } from './ClientBadge';

const selectColumns = (s: SimState) => ({ nodes: s.nodes, clients: s.clients, quorum: s.runInfo.quorum });

/**
 * The inspector of a run with several Redis nodes: one column per node at the cursor (whose token
 * the lock key holds there, its PTTL on the node's own clock, the clock itself, up or down, role,
 * replication offset or lag). A Redlock's truth is a count of nodes per client against the
 * quorum; a primary with replicas keeps the primary's keys and "Redis says" under the columns.
 * Loaded on demand, only for such runs.
 */
export function NodeInspector({ keys, truth }: { keys: ReactNode; truth: ReactNode }) {
  const t = useT();
  const { nodes, clients, quorum } = useSimStore(useShallow(selectColumns));
  const replicated = nodes.some((n) => n.role === 'replica');
  const primary = nodes.find((n) => n.role === 'primary' && n.replicaOf === null);
  return (
    <>
      <div className="node-columns__scroll">
        <table className="node-columns" aria-label={t('nodeColumns')} data-testid="inspector.nodes">
          <thead>
            <tr>
              <td />
              {nodes.map((n) => (
                <th key={n.id} scope="col" className={n.up ? undefined : 'is-down'} data-testid={`inspector.node.${n.id}`} data-up={n.up ? 'true' : 'false'} data-role={n.role}>
                  {n.id}
                  {replicated && <span className="node-columns__role" title={n.role === 'primary' ? t('rolePrimary') : t('roleReplicaOf', { node: n.replicaOf ?? '?' })}>{n.role === 'primary' ? t('roleShortPrimary') : t('roleShortReplica')}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{t('nodeColLock')}</th>
              {nodes.map((n) => (
                <LockCell key={n.id} node={n} clients={clients} t={t} />
              ))}
            </tr>
            <tr>
              <th scope="row" title={t('nodePttlTitle')}>
                {t('nodeColPttl')}
              </th>
              {nodes.map((n) => (
                <td key={n.id} className="node-columns__number" data-testid={`inspector.node.${n.id}.pttl`}>
                  {!n.up || n.lock === null || n.expiredOnReplica ? '—' : n.pttlMs === -1 ? t('nodeNoExpiry') : n.pttlMs}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">{t('nodeColClock')}</th>
              {nodes.map((n) => (
                <td
                  key={n.id}
                  className={`node-columns__number${n.clockSkewMs !== 0 ? ' is-skewed' : ''}`}
                  title={t('nodeClockTitle', { node: n.id, clock: n.clockMs, skew: n.clockSkewMs, ppm: n.driftPpm })}
                  data-testid={`inspector.node.${n.id}.clock`}
                >
                  {n.clockSkewMs === 0 ? '±0' : `${n.clockSkewMs > 0 ? '+' : '−'}${Math.abs(n.clockSkewMs)}`}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">{t('nodeColRepl')}</th>
              {nodes.map((n) => (
                <td
                  key={n.id}
                  className={`node-columns__number${n.lagWrites > 0 ? ' is-lagging' : ''}`}
                  title={n.lagWrites > 0 ? t('nodeReplLagTitle', { node: n.id, offset: n.offset, lag: n.lagWrites }) : t('nodeReplTitle', { node: n.id, offset: n.offset })}
                  data-testid={`inspector.node.${n.id}.repl`}
                  data-lag={n.lagWrites}
                >
                  {n.lagWrites > 0 ? t('nodeLag', { n: n.lagWrites }) : t('nodeOffset', { n: n.offset })}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
        {replicated && primary && (
          <div className="node-columns__keys">
            <h3 className="node-columns__keys-title">{primary.up ? t('primaryKeys', { node: primary.id }) : t('primaryDown', { node: primary.id })}</h3>
            {primary.up && keys}
          </div>
        )}
      </div>
      {quorum !== null && !replicated ? <NodesTruth total={nodes.length} quorum={quorum} /> : truth}
    </>
  );
}

/** The lock key on one node: the holder's badge, "free", "down", or a replica's expired copy. */
function LockCell({ node: n, clients, t }: { node: NodeStatus; clients: readonly ClientView[]; t: Translate }) {
  const owner = n.holder === null ? undefined : clients.find((c) => c.id === n.holder);
  const state = !n.up ? 'down' : n.lock === null ? 'free' : n.expiredOnReplica ? 'expired' : owner ? 'held' : 'other';
  return (
    <td
      className={`node-columns__lock is-${state}`}
      data-testid={`inspector.node.${n.id}.lock`}
      data-holder={owner?.id ?? ''}
      data-node-lock={state}
      title={state === 'expired' ? t('nodeExpiredOnReplicaTitle', { node: n.id }) : n.servingFromMs !== null ? t('nodeRestartingTitle', { node: n.id, ms: n.servingFromMs }) : (n.lock ?? undefined)}
    >
      {state === 'down' ? (
        t('nodeDown')
      ) : state === 'held' && owner ? (
        <>
          <ClientBadge id={owner.id} index={owner.index} size="small" />
          <span className="visually-hidden">{t('nodeHolds', { id: owner.id })}</span>
        </>
      ) : state === 'free' ? (
        t('nodeFree')
      ) : state === 'expired' ? (
        t('nodeExpiredOnReplica')
      ) : (
        t('nodeLockOther')
      )}
      {n.servingFromMs !== null && <span className="node-columns__note">{t('nodeRestarting')}</span>}
    </td>
  );
}

const selectTruth = (s: SimState) => ({ holdings: selectNodeHoldings(s), clients: s.clients });

/**
 * Redlock's truth beside the clients' belief, on one row (five node columns need the room): per
 * client, how many nodes hold its token against the quorum, and whether it believes it holds the lock.
 */
function NodesTruth({ total, quorum }: { total: number; quorum: number }) {
  const t = useT();
  const { holdings, clients } = useSimStore(useShallow(selectTruth));
  const shown = clients.filter((c) => c.believesHoldsLock || holdings.some((h) => h.clientId === c.id));
  const rank = (id: string) => holdings.findIndex((h) => h.clientId === id) + (holdings.some((h) => h.clientId === id) ? 0 : holdings.length + 1);
  shown.sort((a, b) => rank(a.id) - rank(b.id));
  return (
    <div className="truth" data-testid="lock-truth">
      <h3 className="visually-hidden">{t('whoHolds')}</h3>
      <dl className="truth__list">
        <div className="truth__row" data-testid="lock-truth.nodes">
          <dt>{t('nodesSay')}</dt>
          <dd>
            {shown.length === 0
              ? t('nodesNoToken')
              : shown.map((c) => {
                  const h = holdings.find((x) => x.clientId === c.id);
                  const n = h?.nodeIds.length ?? 0;
                  const sentence = t(c.believesHoldsLock ? 'nodesHoldBelieves' : 'nodesHold', { id: c.id, n, total, quorum });
                  return (
                    <span
                      key={c.id}
                      className={`truth__holding${h?.majority ? ' is-majority' : ''}`}
                      title={sentence}
                      data-testid={`lock-truth.nodes.${c.id}`}
                      data-count={n}
                      data-majority={h?.majority ? 'true' : 'false'}
                      data-believes={c.believesHoldsLock ? 'true' : 'false'}
                    >
                      <span className="visually-hidden">{sentence}</span>
                      <span aria-hidden="true" className="truth__holding-short">
                        <ClientBadge id={c.id} index={c.index} size="small" /> {t('nodesHoldShort', { n, total })}
                        {c.believesHoldsLock && <span className="truth__believes"> {t('nodesBelieves')}</span>}
                      </span>
                    </span>
                  );
                })}
          </dd>
        </div>
      </dl>
    </div>
  );
}
