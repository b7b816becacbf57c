import { onDemand, ShowOnDemand } from './OnDemand';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';

/** The dialog's code loads the first time it opens (not first-screen work). */
const NodesDialog = onDemand(() => import('./NodesDialog').then((module) => module.NodesDialog));

const selectNodesButton = (s: SimState) => ({ nodeCount: s.runInfo.nodeIds.length, open: s.nodesOpen, down: s.nodes.filter((n) => !n.up).length });

/** "Nodes": shown for a scenario with several Redis nodes; opens their dialog (one store action). */
export function NodesButton() {
  const t = useT();
  const store = useSimStoreApi();
  const { nodeCount, open, down } = useSimStore(useShallow(selectNodesButton));
  if (nodeCount === 0) return null;
  return (
    <>
      <button type="button" className="button button--small nodes-open" onClick={() => store.getState().setNodesOpen(true)} data-testid="nodes-open" aria-haspopup="dialog">
        {t('nodesButton')} {nodeCount}
        {down > 0 ? ` · ${t('nodeDown')} ${down}` : ''}
      </button>
      {open && (
        <ShowOnDemand part={NodesDialog} props={{}} onDismiss={() => store.getState().setNodesOpen(false)} />
      )}
    </>
  );
}
