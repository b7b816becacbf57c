import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type UIEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import type { TraceEvent } from '../store/published';
import { selectDescribeEvent } from '../store/selectors';
import { ClientBadge } from './ClientBadge';

/** Row heights in px: the list is virtualized by fixed rows (presentation mode has taller ones). */
const eventRowHeightPx = 26;
const presentationRowHeightPx = 32;
const overscanRowCount = 6;
const fallbackViewportPx = 240;

const selectLog = (s: SimState) => ({
  runLog: s.runLog,
  predict: s.predict,
  past: s.eventCountToCursor,
  clientIds: s.clientIds,
  presentation: s.presentation,
});

/**
 * Every event of the run, past and future, one line each. Virtualized: only the rows in view are
 * in the DOM, so a 10,000-event run steps as smoothly as a 10-event one. The list follows the
 * cursor (the last past event sits mid-view) until the reader scrolls; the next step follows again.
 * Following is derived from the cursor, not stored, so a step costs one commit.
 */
export function EventLog() {
  const t = useT();
  const store = useSimStoreApi();
  const { runLog, predict, past, clientIds, presentation } = useSimStore(useShallow(selectLog));
  // The log only grows within a generation: rows past `eventCount` are not this render's. Predict
  // mode lists only the past: the future would give the answers away.
  const events = runLog.events;
  const eventCount = predict ? Math.min(past, runLog.eventCount) : runLog.eventCount;
  const describe = useSimStore(selectDescribeEvent);
  const rowHeightPx = presentation ? presentationRowHeightPx : eventRowHeightPx;
  const viewportRef = useRef<HTMLDivElement>(null);
  const [manual, setManual] = useState<{ scrollTop: number; past: number } | null>(null);
  const [heightPx, setHeightPx] = useState(fallbackViewportPx);
  const programmaticTop = useRef<number | null>(null);
  const jump = useCallback((cursor: number) => store.getState().seek(cursor), [store]);

  useEffect(() => {
    const el = viewportRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setHeightPx(el.clientHeight || fallbackViewportPx));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const following = manual === null || manual.past !== past;
  const maxTop = Math.max(0, eventCount * rowHeightPx - heightPx);
  const scrollTop = following ? Math.min(maxTop, Math.max(0, (past - 0.5) * rowHeightPx - heightPx / 2)) : manual.scrollTop;

  useLayoutEffect(() => {
    const el = viewportRef.current;
    if (!el || !following || Math.abs(el.scrollTop - scrollTop) < 1) return;
    programmaticTop.current = scrollTop;
    el.scrollTop = scrollTop;
  }, [following, scrollTop]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const top = event.currentTarget.scrollTop;
    if (programmaticTop.current !== null && Math.abs(top - programmaticTop.current) < 1) return;
    programmaticTop.current = null;
    setManual({ scrollTop: top, past });
  };

  const first = Math.max(0, Math.floor(scrollTop / rowHeightPx) - overscanRowCount);
  const last = Math.min(eventCount, Math.ceil((scrollTop + heightPx) / rowHeightPx) + overscanRowCount);
  const rows: TraceEvent[] = events.slice(first, last);
  return (
    <div
      className="event-log"
      ref={viewportRef}
      onScroll={onScroll}
      data-testid="event-log"
      tabIndex={0}
      aria-label={t('eventLog')}
      style={{ '--event-row-h': `${rowHeightPx}px` } as CSSProperties}
    >
      <ol className="event-log__list" style={{ height: eventCount * rowHeightPx }} aria-label={t('eventLog')}>
        {rows.map((event, i) => (
          <EventRow
            key={event.seq}
            event={event}
            top={(first + i) * rowHeightPx}
            future={first + i >= past}
            text={describe(event)}
            clientIndex={event.clientId === null ? -1 : clientIds.indexOf(event.clientId)}
            futureLabel={t('future')}
            jumpLabel={t('jumpToEvent', { step: event.step + 1 })}
            onJump={jump}
          />
        ))}
      </ol>
    </div>
  );
}

const EventRow = memo(function EventRow(props: {
  event: TraceEvent;
  top: number;
  future: boolean;
  text: string;
  clientIndex: number;
  futureLabel: string;
  jumpLabel: string;
  onJump: (cursor: number) => void;
}) {
  const { event, top, future, text, clientIndex } = props;
  return (
    <li className={`event-row${future ? ' is-future' : ''}${event.kind === 'violation' ? ' is-violation' : ''}`} style={{ top }}>
      <button type="button" className="event-row__button" onClick={() => props.onJump(event.step + 1)} title={props.jumpLabel}>
        <span className="event-row__step">{event.step + 1}</span>
        <span className="event-row__time">{event.atMs}</span>
        <span className="event-row__who">
          {event.clientId !== null && clientIndex >= 0 ? <ClientBadge id={event.clientId} index={clientIndex} size="small" /> : <span className="redis-badge">R</span>}
        </span>
        <span className="event-row__text">
          {text}
          {future && <span className="visually-hidden"> ({props.futureLabel})</span>}
        </span>
      </button>
    </li>
  );
});
