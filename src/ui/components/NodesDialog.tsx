import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import { NodeFaultsForm } from './NodeFaultsForm';
import { useModalDialog } from './useModalDialog';
import type { NodeStatus, SimState } from '../store/store-types';

const selectNodesDialog = (s: SimState) => ({ open: s.nodesOpen, nodes: s.nodes, schedule: s.schedule, cursor: s.cursor });

/**
 * The nodes of a scenario with several Redis nodes, at the cursor, with their faults as buttons
 * (each adds its schedule token after the cursor: one store action), and the run's schedule as
 * text to edit and run again. Loaded on demand, the first time it opens.
 */
export function NodesDialog() {
  const t = useT();
  const store = useSimStoreApi();
  const { open, nodes, schedule, cursor } = useSimStore(useShallow(selectNodesDialog));
  const ref = useModalDialog(open);
  const fault = (token: string) => store.getState().appendScheduleText(token);
  return (
    <dialog ref={ref} className="dialog nodes-dialog" aria-labelledby="nodes-title" onClose={() => store.getState().setNodesOpen(false)} data-testid="nodes-dialog">
      <h2 id="nodes-title" className="dialog__title">
        {t('nodesTitle')}
      </h2>
      <p className="nodes-dialog__intro">{t('nodesIntro')}</p>
      <table className="nodes-table" data-testid="nodes-table">
        <thead>
          <tr>
            <th scope="col">{t('nodesTableNode')}</th>
            <th scope="col">{t('nodesTableState')}</th>
            <th scope="col">{t('nodesTableOffset')}</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {nodes.map((node) => (
            <NodeLine key={node.id} node={node} onFault={fault} />
          ))}
        </tbody>
      </table>
      <NodeFaultsForm />
      <ScheduleEditor key={`${schedule}@${cursor}`} schedule={schedule} />
      {/* WAIT is about replicas: said where there are some. */}
      {nodes.some((n) => n.role === 'replica') && (
        <p className="nodes-dialog__note" data-testid="nodes-wait-truth">
          {t('waitTruth')}
        </p>
      )}
      <form method="dialog" className="dialog__actions">
        <button type="submit" className="button button--primary">
          {t('close')}
        </button>
      </form>
    </dialog>
  );
}

function NodeLine({ node, onFault }: { node: NodeStatus; onFault: (token: string) => void }) {
  const t = useT();
  const role = node.role === 'primary' ? t('rolePrimary') : t('roleReplicaOf', { node: node.replicaOf ?? '?' });
  return (
    <tr data-testid={`node.${node.id}`} data-up={node.up ? 'true' : 'false'} data-role={node.role}>
      <th scope="row">{node.id}</th>
      <td data-testid={`node.${node.id}.state`}>
        {node.up ? t('nodeStateUp') : t('nodeStateDown')} · {role}
      </td>
      <td className="nodes-table__number">{node.offset}</td>
      <td className="nodes-table__actions">
        <button type="button" className="button button--small" disabled={!node.up} onClick={() => onFault(`!@${node.id}`)}>
          {t('crashNode', { node: node.id })}
        </button>
        <button type="button" className="button button--small" disabled={node.up} onClick={() => onFault(`^@${node.id}`)}>
          {t('restartNode', { node: node.id })}
        </button>
        <button type="button" className="button button--small" disabled={!node.up || node.role !== 'replica'} onClick={() => onFault(`@${node.id}^`)}>
          {t('promoteNode', { node: node.id })}
        </button>
      </td>
    </tr>
  );
}

/** The schedule as text; keyed by the run's schedule and cursor, so it follows the run until edited. */
function ScheduleEditor({ schedule }: { schedule: string }) {
  const t = useT();
  const store = useSimStoreApi();
  const [text, setText] = useState(schedule);
  return (
    <form
      className="nodes-dialog__schedule"
      onSubmit={(event) => {
        event.preventDefault();
        store.getState().runSchedule(text);
      }}
    >
      <label className="field">
        <span className="field__label">{t('scheduleLabel')}</span>
        <input className="input input--schedule" data-testid="schedule-text" spellCheck={false} value={text} onChange={(e) => setText(e.currentTarget.value)} onKeyDown={(e) => e.stopPropagation()} />
      </label>
      <button type="submit" className="button" data-testid="schedule-run">
        {t('scheduleApply')}
      </button>
      <p className="field__help">{t('scheduleHelp')}</p>
    </form>
  );
}
