import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { TraceEvent } from '../../engine/trace';
import { describeEventIn, tokenNamerFor } from '../i18n/describe';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/createSimStore';
import { ClientBadge } from './ClientBadge';

/** Row height in px (CSS --event-row-h must match): the list is virtualized by fixed rows. */
export const eventRowHeightPx = 26;
const overscanRowCount = 6;
const fallbackViewportPx = 240;

const selectLog = (s: SimState) => ({
  events: s.events,
  past: s.eventCountToCursor,
  tokens: s.tokens,
  lang: s.lang,
  clientIds: s.clientIds,
});

/**
 * Every event of the run, past and future, one line each. Virtualized: only the rows in view are
 * in the DOM, so a 10,000-event run steps as smoothly as a 10-event one.
 */
export function EventLog() {
  const t = useT();
  const store = useSimStoreApi();
  const { events, past, tokens, lang, clientIds } = useSimStore(useShallow(selectLog));
  const viewportRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [heightPx, setHeightPx] = useState(fallbackViewportPx);
  const name = tokenNamerFor(tokens, lang);
  const jump = useCallback((cursor: number) => store.getState().seek(cursor), [store]);

  useEffect(() => {
    const el = viewportRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setHeightPx(el.clientHeight || fallbackViewportPx));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Follow the cursor: keep the last past event in view.
  useEffect(() => {
    const el = viewportRef.current;
    if (!el) return;
    const rowTop = Math.max(0, past - 1) * eventRowHeightPx;
    if (rowTop < el.scrollTop || rowTop + eventRowHeightPx > el.scrollTop + el.clientHeight) {
      el.scrollTop = Math.max(0, rowTop - el.clientHeight / 2);
      setScrollTop(el.scrollTop);
    }
  }, [past]);

  const first = Math.max(0, Math.floor(scrollTop / eventRowHeightPx) - overscanRowCount);
  const last = Math.min(events.length, Math.ceil((scrollTop + heightPx) / eventRowHeightPx) + overscanRowCount);
  const rows: TraceEvent[] = events.slice(first, last);
  return (
    <div
      className="event-log"
      ref={viewportRef}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      data-testid="event-log"
      tabIndex={0}
      aria-label={t('eventLog')}
    >
      <ol className="event-log__list" style={{ height: events.length * eventRowHeightPx }} aria-label={t('eventLog')}>
        {rows.map((event, i) => (
          <EventRow
            key={event.seq}
            event={event}
            top={(first + i) * eventRowHeightPx}
            future={first + i >= past}
            text={describeEventIn(event, lang, name)}
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
