import { lazy, Suspense, useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { LOCALES, localized, translator } from '../i18n';
import { AppHeader } from './components/AppHeader';
import { ClockBar } from './components/ClockBar';
import { Inspector } from './components/Inspector';
import { Lanes } from './components/Lanes';
import { Narration } from './components/Narration';
import { LinkErrorNotice, NoticeLine } from './components/Notices';
import { RunViews } from './components/RunViews';
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
const LearnPanel = lazy(() => import('./components/LearnPanel').then((module) => ({ default: module.LearnPanel })));

/** The `?` dialog's code loads the first time it opens (not first-screen work). */
const ShortcutsDialog = lazy(() => import('./components/ShortcutsDialog').then((module) => ({ default: module.ShortcutsDialog })));
/** "Replay on a real Redis" (the header's button): its code loads the first time it opens. */
const ReplayDialog = lazy(() => import('./components/ReplayDialog').then((module) => ({ default: module.ReplayDialog })));

/** The workbench (CodeMirror, the program and schedule editors) loads the first time it opens. */
const Workbench = lazy(() => import('./components/workbench/Workbench').then((module) => ({ default: module.Workbench })));
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
            <Narration />
            <ViolationBannerSlot />
            <Inspector />
            {!embed && learnPanel && (
              <Suspense fallback={null}>
                <LearnPanel />
              </Suspense>
            )}
          </aside>
        </div>
        <ClockBar />
        <RunViews />
      </main>
      )}
      <NoticeLine />
      <SessionBusy />
      {shortcutsOpen && (
        <Suspense fallback={null}>
          <ShortcutsDialog />
        </Suspense>
      )}
      {!embed && replayOpen && (
        <Suspense fallback={null}>
          <ReplayDialog />
        </Suspense>
      )}
      {!embed && <ExploreDialog />}
      {!embed && workbenchLoaded && (
        <Suspense fallback={null}>
          <Workbench />
        </Suspense>
      )}
    </div>
  );
}

