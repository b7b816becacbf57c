import { useEffect, useState } from 'react';
import { onDemand, ShowOnDemand } from './components/OnDemand';
import { useShallow } from 'zustand/react/shallow';
import { LOCALES, localized, translator } from '../i18n';
import { AppHeader } from './components/AppHeader';
import { ClockBar } from './components/ClockBar';
import { Inspector } from './components/Inspector';
import { Lanes } from './components/Lanes';
import { Narration } from './components/Narration';
import { LinkErrorNotice, NoticeLine } from './components/Notices';
import { RunViews } from './components/RunViews';
import { DrawnLater } from './components/DrawnLater';
import { RunLoading } from './components/RunLoading';
import { SessionBusy } from './components/SessionBusy';
import { ScenarioBar } from './components/ScenarioBar';
import { ExploreDialog } from './components/ExploreDialog';
import { useKeyboardShortcuts } from './components/useKeyboardShortcuts';
import { EmbedBar } from './components/EmbedBar';
import { ViolationBanner as ViolationBannerSlot } from './components/ViolationBanner';
import { useSimStore, useSimStoreApi } from './store/context';
import { selectAppearance, selectReplayOpen, selectRunLoading, selectShortcutsOpen } from './store/selectors';
import type { SimState } from './store/store-types';

/** The challenge panel's code loads with the first challenge or predict mode (not first-screen work). */
const LearnPanel = onDemand(() => import('./components/LearnPanel').then((module) => module.LearnPanel));

/** The `?` dialog's code loads the first time it opens (not first-screen work). */
const ShortcutsDialog = onDemand(() => import('./components/ShortcutsDialog').then((module) => module.ShortcutsDialog));
/** "Replay on a real Redis" (the header's button): its code loads the first time it opens. */
const ReplayDialog = onDemand(() => import('./components/ReplayDialog').then((module) => module.ReplayDialog));

/** The workbench (CodeMirror, the program and schedule editors) loads the first time it opens. */
const Workbench = onDemand(() => import('./components/workbench/Workbench').then((module) => module.Workbench));
const selectWorkbenchOpened = (s: SimState) => s.workbench.open;

const selectLearnPanelShown = (s: SimState) => s.learnPanelOpen && (s.challengeId !== null || s.predict);
const selectTitleInput = (s: SimState) => ({ title: s.runInfo.title, lang: s.lang });

/** The tab's title names the scenario, so a teacher's tabs and history read as lessons. */
function useDocumentTitle() {
  const { title, lang } = useSimStore(useShallow(selectTitleInput));
  useEffect(() => {
    document.title = translator(lang)('documentTitle', { title: localized(title, lang) });
  }, [title, lang]);
}

/**
 * The simulator page. Layout, top to bottom: header (settings), scenario and variant, the stage
 * (client lanes; beside them what just happened, violations and the Redis inspector), the clock,
 * the run views. Every region keeps its size while stepping.
 */
export function App() {
  const store = useSimStoreApi();
  const { lang, theme, presentation, embed } = useSimStore(useShallow(selectAppearance));
  const shortcutsOpen = useSimStore(selectShortcutsOpen);
  const replayOpen = useSimStore(selectReplayOpen);
  const workbenchOpen = useSimStore(selectWorkbenchOpened);
  // Once loaded, the drawer stays mounted (closed), so its drafts survive closing it.
  const [workbenchLoaded, setWorkbenchLoaded] = useState(false);
  if (workbenchOpen && !workbenchLoaded) setWorkbenchLoaded(true);
  // Its code could not load (offline before its first use): unmounted, so opening it again tries again.
  const dismissWorkbench = () => {
    setWorkbenchLoaded(false);
    store.getState().closeWorkbench();
  };
  const learnPanel = useSimStore(selectLearnPanelShown);
  // A link's scenario still loading: its run is not there yet, so none of it is drawn.
  const loading = useSimStore(selectRunLoading) !== null;
  useKeyboardShortcuts(store, true);

  // Theme, language and presentation live on <html> so the page background and fonts follow.
  useEffect(() => {
    const root = document.documentElement;
    root.lang = LOCALES[lang];
    root.dataset.theme = theme;
    root.dataset.presentation = presentation ? 'on' : 'off';
    root.dataset.embed = embed ? 'on' : 'off';
  }, [lang, theme, presentation, embed]);
  useDocumentTitle();

  return (
    <div className="app">
      {embed ? !loading && <EmbedBar /> : <AppHeader />}
      <LinkErrorNotice />
      {loading ? (
        <RunLoading />
      ) : (
      <main className="workspace">
        {!embed && <ScenarioBar />}
        <div className="stage">
          <Lanes />
          <aside className="sidebar">
            <DrawnLater frames={1}>
              <Narration />
              <ViolationBannerSlot />
              <Inspector />
              {!embed && learnPanel && (
                <ShowOnDemand part={LearnPanel} props={{}} />
              )}
            </DrawnLater>
          </aside>
        </div>
        {/* A new run is drawn over three frames, lanes, sidebar, then these (issue 26: no long task). */}
        <DrawnLater frames={2}>
          <ClockBar />
          <RunViews />
        </DrawnLater>
      </main>
      )}
      <NoticeLine />
      <SessionBusy />
      {shortcutsOpen && <ShowOnDemand part={ShortcutsDialog} props={{}} onDismiss={() => store.getState().setShortcutsOpen(false)} />}
      {!embed && replayOpen && <ShowOnDemand part={ReplayDialog} props={{}} onDismiss={() => store.getState().setReplayOpen(false)} />}
      {!embed && <ExploreDialog />}
      {!embed && workbenchLoaded && <ShowOnDemand part={Workbench} props={{}} onDismiss={dismissWorkbench} />}
    </div>
  );
}

