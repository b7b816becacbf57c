import { useCallback } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ExportButtons } from '../views/ExportButtons';
import type { ExportTarget } from '../views/export';
import { TimelineView } from '../views/TimelineView';
import type { RunViewProps } from '../views/types';
import { useSimStore, useSimStoreApi } from '../store/context';
import type { SimState, SimStore } from '../store/store-types';
import type { RunLog } from '../store/published';
import '../views/views.css';

/** The data the run views draw; everything else they need comes through `onJump`. */
const selectViewProps = (s: SimState) => ({
  runLog: s.runLog,
  // Predict mode draws only the past: the future would give the answers away.
  visibleCount: s.predict ? s.eventCountToCursor : null,
  clientIds: s.clientIds,
  nodeIds: s.runInfo.nodeIds,
  cursorStep: s.cursor,
  nowMs: s.nowMs,
  lang: s.lang,
  tokenOwners: s.tokenOwners,
});

/** A view's `onJump(n)` puts the cursor just after n choices. */
export function useJump(): (step: number) => void {
  const store = useSimStoreApi();
  return useCallback((step: number) => store.getState().seek(step), [store]);
}

function runPropsOf(store: SimStore): RunViewProps {
  const { runLog, visibleCount, ...rest } = selectViewProps(store.getState());
  return { ...rest, ...logOf(runLog, visibleCount), onJump: (step: number) => store.getState().seek(step) };
}

/**
 * The views draw the store's log as it is, without a copy: its events grow in place within a
 * generation, so the views extend their models by what the count says was appended and rebuild
 * only at a new generation (the session's change feed decides which).
 */
function logOf(runLog: RunLog, visibleCount: number | null) {
  const eventCount = visibleCount === null ? runLog.eventCount : Math.min(visibleCount, runLog.eventCount);
  return { events: runLog.events, eventCount, generation: runLog.generation };
}

export function useViewProps(): Omit<RunViewProps, 'onJump'> {
  const { runLog, visibleCount, ...rest } = useSimStore(useShallow(selectViewProps));
  return { ...rest, ...logOf(runLog, visibleCount) };
}

/** Timeline swimlanes (C2's view): a row per client and one for Redis. */
export function TimelinePanel() {
  const props = useViewProps();
  const onJump = useJump();
  return (
    <div className="view-region">
      <TimelineView {...props} onJump={onJump} />
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
