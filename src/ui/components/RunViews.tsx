import { useId, useRef, type KeyboardEvent } from 'react';
import { onDemand, ShowOnDemand } from './OnDemand';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { ViewTab } from '../store/store-types';
import { selectView } from '../store/selectors';
import { TimelinePanel, ViewExport } from './ViewPanels';

/** The sequence diagram and the event log are not on the first screen: their code loads when their tab opens. */
const SequencePanel = onDemand(() => import('./SequencePanel').then((module) => module.SequencePanel));
const EventLog = onDemand(() => import('./EventLog').then((module) => module.EventLog));

const TABS: readonly { id: ViewTab; label: 'timelineTab' | 'sequenceTab' | 'eventsTab' }[] = [
  { id: 'timeline', label: 'timelineTab' },
  { id: 'sequence', label: 'sequenceTab' },
  { id: 'events', label: 'eventsTab' },
];

/** The run as a whole: timeline swimlanes, sequence diagram, or the plain event log (tabs). */
export function RunViews() {
  const t = useT();
  const store = useSimStoreApi();
  const view = useSimStore(selectView);
  const baseId = useId();
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((tab) => tab.id === view);
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (delta === 0) return;
    event.preventDefault();
    event.stopPropagation();
    const next = TABS[(index + delta + TABS.length) % TABS.length];
    store.getState().setView(next.id);
    tabRefs.current[TABS.indexOf(next)]?.focus();
  };

  return (
    <section className="run-views panel" aria-label={t('views')}>
      <div className="tabs-row">
      <div className="tabs" role="tablist" aria-label={t('views')} onKeyDown={onKeyDown}>
        {TABS.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab.id}`}
            aria-selected={view === tab.id}
            aria-controls={`${baseId}-panel-${tab.id}`}
            tabIndex={view === tab.id ? 0 : -1}
            className="tabs__tab"
            onClick={() => store.getState().setView(tab.id)}
          >
            {t(tab.label)}
          </button>
        ))}
      </div>
      <div className="tabs__actions">{view !== 'events' && <ViewExport target={view} />}</div>
      </div>
      <div className="run-views__panel" role="tabpanel" id={`${baseId}-panel-${view}`} aria-labelledby={`${baseId}-tab-${view}`}>
        {view === 'timeline' && <TimelinePanel />}
        {view !== 'timeline' && (
          <ShowOnDemand key={view} part={view === 'sequence' ? SequencePanel : EventLog} props={{}} fallback={<div className="view-region" aria-busy="true" />} />
        )}
      </div>
    </section>
  );
}
