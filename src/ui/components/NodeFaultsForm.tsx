import { useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { refusalText, type MessageRef } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import { selectLang } from '../store/selectors';
import { advanceMsMax } from '../store/limits';
import type { SimState } from '../store/store-types';
import type { NodeChoice } from '../store/slices/node-faults';

// The refusals depend on the world at the cursor: re-render when it moves or the run changes.
const selectFaultsForm = (s: SimState) => ({ clientIds: s.clientIds, nodes: s.nodes, cursor: s.cursor, version: s.timelineVersion });

const msOk = (ms: number, minMs: number) => Number.isSafeInteger(ms) && ms >= minMs && ms <= advanceMsMax;

interface FaultButton {
  readonly id: string;
  readonly label: string;
  readonly choice: NodeChoice;
  /** Why it cannot be pressed (a bad ms, or the engine's refusal), or null. */
  readonly refusal: string | null;
  readonly run: () => void;
}

/**
 * The link and clock faults of the nodes dialog: pick a client, a node and a number of ms; each
 * button is one store action that adds its schedule token after the cursor. A fault that does not
 * apply now is disabled with the engine's reason beside it (faults.ts decides, not this form).
 */
export function NodeFaultsForm() {
  const t = useT();
  const lang = useSimStore(selectLang);
  const store = useSimStoreApi();
  const { clientIds, nodes } = useSimStore(useShallow(selectFaultsForm));
  const [clientId, setClientId] = useState(clientIds[0] ?? '');
  const [nodeId, setNodeId] = useState(nodes[0]?.id ?? '');
  const [ms, setMs] = useState(1000);
  const [ahead, setAhead] = useState(true);
  const baseId = useId();
  if (clientIds.length === 0 || nodes.length === 0) return null;
  const client = clientIds.includes(clientId) ? clientId : clientIds[0];
  const node = nodes.some((n) => n.id === nodeId) ? nodeId : nodes[0].id;
  const api = store.getState();
  const badMs = (minMs: number) => (msOk(ms, minMs) ? null : t('faultBadMs', { min: minMs, max: advanceMsMax }));
  const refusalWords = (ref: MessageRef | null) => (ref === null ? null : refusalText(ref, lang));
  const signedMs = ahead ? ms : -ms;
  const signedText = msOk(ms, 1) ? `${ahead ? '+' : '−'}${ms}` : '?';
  const button = (id: string, label: string, choice: NodeChoice, run: () => void, msMin: number | null = null): FaultButton => ({
    id,
    label,
    choice,
    run,
    refusal: (msMin === null ? null : badMs(msMin)) ?? refusalWords(api.nodeFaultRefusal(choice)),
  });
  const link = { client, node };
  const linkButtons = [
    button('partition', t('faultPartition', link), { kind: 'partition', clientId: client, nodeId: node }, () => api.partitionLink(client, node)),
    button('heal', t('faultHeal', link), { kind: 'heal', clientId: client, nodeId: node }, () => api.healLink(client, node)),
    button('lose-request', t('faultLoseRequest', link), { kind: 'lose', clientId: client, nodeId: node, direction: 'request' }, () => api.loseNextMessage(client, node, 'request')),
    button('lose-reply', t('faultLoseReply', link), { kind: 'lose', clientId: client, nodeId: node, direction: 'reply' }, () => api.loseNextMessage(client, node, 'reply')),
  ];
  const timeButtons = [
    button('node-clock', t('faultNodeClock', { node, ms: signedText }), { kind: 'node-clock', nodeId: node, ms: signedMs }, () => api.jumpNodeClock(node, signedMs), 1),
    button('client-clock', t('faultClientClock', { client, ms: signedText }), { kind: 'client-clock', clientId: client, ms: signedMs }, () => api.jumpClientClock(client, signedMs), 1),
    button('replication-delay', t('faultReplicationDelay', { node, ms: msOk(ms, 0) ? ms : '?' }), { kind: 'replication-delay', nodeId: node, ms }, () => api.setReplicationDelay(node, ms), 0),
  ];
  const refused = [...linkButtons, ...timeButtons].filter((b) => b.refusal !== null);
  return (
    <fieldset className="node-faults" data-testid="node-faults">
      <legend className="node-faults__title">{t('nodeFaultsTitle')}</legend>
      <div className="node-faults__pick">
        <label className="field field--inline">
          <span className="field__label">{t('faultClient')}</span>
          <select className="input" value={client} onChange={(e) => setClientId(e.currentTarget.value)} data-testid="node-faults.client">
            {clientIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label className="field field--inline">
          <span className="field__label">{t('faultNode')}</span>
          <select className="input" value={node} onChange={(e) => setNodeId(e.currentTarget.value)} data-testid="node-faults.node">
            {nodes.map((n) => (
              <option key={n.id} value={n.id}>
                {n.id}
              </option>
            ))}
          </select>
        </label>
        <label className="field field--inline">
          <span className="field__label">{t('faultMs')}</span>
          <input
            type="number"
            className="input input--ms"
            min={0}
            max={advanceMsMax}
            step={500}
            value={Number.isFinite(ms) ? ms : ''}
            onChange={(e) => setMs(e.currentTarget.valueAsNumber)}
            onKeyDown={(e) => e.stopPropagation()}
            data-testid="node-faults.ms"
          />
        </label>
        <label className="field field--inline">
          <span className="field__label">{t('faultDirection')}</span>
          <select className="input" value={ahead ? 'ahead' : 'back'} onChange={(e) => setAhead(e.currentTarget.value === 'ahead')} data-testid="node-faults.direction">
            <option value="ahead">{t('faultAhead')}</option>
            <option value="back">{t('faultBack')}</option>
          </select>
        </label>
      </div>
      {[linkButtons, timeButtons].map((group, i) => (
        <div key={i} className="node-faults__buttons">
          {group.map((b) => (
            <button
              key={b.id}
              type="button"
              className="button button--small"
              disabled={b.refusal !== null}
              aria-describedby={b.refusal !== null ? `${baseId}-${b.id}` : undefined}
              title={b.refusal ?? undefined}
              onClick={b.run}
              data-testid={`node-faults.${b.id}`}
            >
              {b.label}
            </button>
          ))}
        </div>
      ))}
      {refused.length > 0 && (
        <ul className="node-faults__refusals" data-testid="node-faults.refusals">
          {refused.map((b) => (
            <li key={b.id} id={`${baseId}-${b.id}`}>
              {b.label}: {t('faultNotNow', { reason: b.refusal as string })}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
