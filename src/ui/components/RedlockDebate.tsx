import { onDemand, ShowOnDemand } from './OnDemand';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';

/** The dialog's code and its long texts load the first time it opens (not first-screen work). */
const RedlockDebateDialog = onDemand(() => import('./RedlockDebateDialog').then((module) => module.RedlockDebateDialog));

const selectDebate = (s: SimState) => ({ nodeRun: s.runInfo.nodeIds.length > 0, open: s.debateOpen });

/**
 * In the lesson of a scenario with several Redis nodes: opens the Redlock debate (Kleppmann's
 * argument and antirez's reply, each claim beside the run that shows it).
 */
export function RedlockDebateButton() {
  const t = useT();
  const store = useSimStoreApi();
  const { nodeRun, open } = useSimStore(useShallow(selectDebate));
  if (!nodeRun && !open) return null;
  return (
    <>
      {nodeRun && (
        <button type="button" className="button button--small lesson__debate" aria-haspopup="dialog" onClick={() => store.getState().setDebateOpen(true)} data-testid="debate-open">
          {t('debateOpen')}
        </button>
      )}
      {open && (
        <ShowOnDemand part={RedlockDebateDialog} props={{}} onDismiss={() => store.getState().setDebateOpen(false)} />
      )}
    </>
  );
}
