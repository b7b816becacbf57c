/**
 * The workbench: a drawer beside the run (non-modal, so the timeline, the verdict and the step
 * buttons stay usable while editing) with tabs: the scenario's Lua scripts, its programs and
 * parameters, the run's schedule as text, the scenario's own properties and their check, the Redis console, and the user's own scenarios. Loaded on demand (App.tsx) with CodeMirror.
 */
import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../../store/context';
import type { SimState, WorkbenchTab } from '../../store/store-types';
import { IoPanel } from './IoPanel';
import { workbenchExtraText } from '../../../i18n/workbench-extra';
import { propertiesTabText } from '../../../i18n/properties-tab';
import { ConsolePanel } from './ConsolePanel';
import { MinePanel } from './MinePanel';
import { ProgramPanel } from './ProgramPanel';
import { PropertiesPanel } from './PropertiesPanel';
import { SchedulePanel } from './SchedulePanel';
import { ScriptsPanel } from './ScriptsPanel';
import { WorkbenchStatus } from './WorkbenchStatus';
import './workbench.css';

const TABS: readonly WorkbenchTab[] = ['scripts', 'program', 'schedule', 'properties', 'console', 'mine', 'io'];
const TAB_LABEL = { scripts: 'workbenchTabScripts', program: 'workbenchTabProgram', schedule: 'workbenchTabSchedule', mine: 'myScenarios', io: 'workbenchTabIo' } as const;

const selectShell = (s: SimState) => ({ open: s.workbench.open, tab: s.workbench.tab, scenarioId: s.scenarioId, variantId: s.variantId, lang: s.lang });

export function Workbench() {
  const t = useT();
  const store = useSimStoreApi();
  const { open, tab, scenarioId, variantId, lang } = useSimStore(useShallow(selectShell));
  const label = (id: WorkbenchTab) => (id === 'console' ? workbenchExtraText(lang, 'tab') : id === 'properties' ? propertiesTabText(lang, 'tab') : t(TAB_LABEL[id]));
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.show();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  // Another scenario or variant on screen: its scripts and parameters.
  useEffect(() => {
    store.getState().refreshWorkbench();
  }, [store, scenarioId, variantId]);

  return (
    <dialog
      ref={ref}
      className="workbench"
      aria-labelledby="workbench-title"
      data-testid="workbench"
      onClose={() => store.getState().closeWorkbench()}
      onKeyDown={(event) => {
        if (event.key === 'Escape') store.getState().closeWorkbench();
        // Keys typed here are text, not the page's shortcuts.
        event.stopPropagation();
      }}
    >
      <header className="workbench__header">
        <h2 id="workbench-title" className="workbench__title">
          {t('workbenchTitle')}
        </h2>
        <div role="tablist" aria-label={t('workbenchTabs')} className="workbench__tabs">
          {TABS.map((id) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={tab === id}
              className={`button button--small${tab === id ? ' is-active' : ''}`}
              data-testid={`workbench.tab.${id}`}
              onClick={() => store.getState().setWorkbenchTab(id)}
            >
              {label(id)}
            </button>
          ))}
        </div>
        <button type="button" className="button button--small" aria-label={t('workbenchClose')} data-testid="workbench-close" onClick={() => store.getState().closeWorkbench()}>
          ✕
        </button>
      </header>
      <WorkbenchStatus />
      <div className="workbench__body" role="tabpanel" aria-label={label(tab)}>
        {tab === 'scripts' && <ScriptsPanel />}
        {tab === 'program' && <ProgramPanel />}
        {tab === 'schedule' && <SchedulePanel />}
        {tab === 'properties' && <PropertiesPanel />}
        {tab === 'console' && <ConsolePanel />}
        {tab === 'mine' && <MinePanel />}
        {tab === 'io' && <IoPanel />}
      </div>
    </dialog>
  );
}
