import { useCallback } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ExportButtons } from '../views/ExportButtons';
import type { ExportTarget } from '../views/export';
import { SequenceView } from '../views/SequenceView';
import { TimelineView } from '../views/TimelineView';
import type { RunViewProps } from '../views/types';
import { useSimStore, useSimStoreApi } from '../store/context';
import type { SimState, SimStore } from '../store/createSimStore';
import { selectVisibleEvents } from '../store/predict';
import '../views/views.css';

/** The data the run views draw; everything else they need comes through `onJump`. */
const selectViewProps = (s: SimState) => ({
  events: selectVisibleEvents(s),
  clientIds: s.clientIds,
  cursorStep: s.cursor,
  nowMs: s.nowMs,
  lang: s.lang,
  tokenOwners: s.tokenOwners,
});

/** A view's `onJump(n)` puts the cursor just after n choices. */
function useJump(): (step: number) => void {
  const store = useSimStoreApi();
  return useCallback((step: number) => store.getState().seek(step), [store]);
}

function runPropsOf(store: SimStore): RunViewProps {
  const s = store.getState();
  return { ...selectViewProps(s), onJump: (step: number) => store.getState().seek(step) };
}

/** Timeline swimlanes (C2's view): a row per client and one for Redis. */
export function TimelinePanel() {
  const props = useSimStore(useShallow(selectViewProps));
  const onJump = useJump();
  return (
    <div className="view-region">
      <TimelineView {...props} onJump={onJump} />
    </div>
  );
}

/** Sequence diagram (C2's view): clients and Redis as columns, arrows for commands and replies. */
export function SequencePanel() {
  const props = useSimStore(useShallow(selectViewProps));
  const onJump = useJump();
  return (
    <div className="view-region">
      <SequenceView {...props} onJump={onJump} />
    </div>
  );
}

const selectFileBase = (s: SimState) => `lockstep-${s.scenarioId}-${s.variantId}`;
const selectLangOnly = (s: SimState) => s.lang;

/** "Export … as SVG / PNG" for the view on screen; exports the whole run, not just what is drawn. */
export function ViewExport({ target }: { target: ExportTarget }) {
  const store = useSimStoreApi();
  const fileBase = useSimStore(selectFileBase);
  const lang = useSimStore(selectLangOnly);
  const getRun = useCallback(() => runPropsOf(store), [store]);
  return <ExportButtons target={target} fileBase={fileBase} lang={lang} getRun={getRun} />;
}
