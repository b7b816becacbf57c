import { useCallback } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi } from '../store/context';
import type { SimState } from '../store/createSimStore';
import { EventLog } from './EventLog';

/** The props C2's views take (src/ui/views/TimelineView.tsx, SequenceView.tsx). */
export const selectViewProps = (s: SimState) => ({
  events: s.events,
  clientIds: s.clientIds,
  cursorStep: s.cursor,
  nowMs: s.nowMs,
  lang: s.lang,
  tokenOwners: s.tokenOwners,
});

export function useViewProps() {
  const store = useSimStoreApi();
  const props = useSimStore(useShallow(selectViewProps));
  const onJump = useCallback((step: number) => store.getState().seek(step + 1), [store]);
  return { ...props, onJump };
}

/** Timeline swimlanes. Until the timeline view lands, the event log stands in. */
export function TimelinePanel() {
  return (
    <div className="view-region" data-testid="timeline">
      <EventLog />
    </div>
  );
}

export function SequencePanel() {
  return (
    <div className="view-region" data-testid="sequence">
      <EventLog />
    </div>
  );
}
