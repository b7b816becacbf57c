/**
 * The one place that knows the whole store: each feature's port (ports.ts) wired to the
 * simulation slice's state and actions, the runtime's engine and, where a feature truly needs
 * another one, that feature's action, named in its port. The store's factory (create-store.ts)
 * calls this once; no slice reads the whole state or calls another slice's action itself.
 */
import type { Choice, NodeChoice } from '../../engine/schedule';
import type {
  ComparePort,
  ConsoleChoice,
  ConsolePort,
  ExplorePort,
  IoPort,
  LearnPort,
  LinkPort,
  LuaLoader,
  MyScenarioShelf,
  MyScenariosPort,
  NodeFaultsPort,
  PlaybackPort,
  PropertyCheckPort,
  RunIdentity,
  RunPort,
  WorkbenchPort,
} from './ports';
import { faultRefusalOf } from '../../session/fault-refusals';
import type { RunFeed } from './run-feed';
import { definitionOnScreen, type Runtime } from './runtime';
import type { SimState } from './store-types';
import type { LinkError } from './types';

export interface FeaturePorts {
  readonly run: RunPort;
  readonly explore: ExplorePort;
  readonly compare: ComparePort;
  readonly learn: LearnPort;
  readonly myScenarios: MyScenariosPort;
  readonly workbench: WorkbenchPort;
  readonly propertyCheck: PropertyCheckPort;
  readonly io: IoPort;
  readonly console: ConsolePort;
  readonly nodeFaults: NodeFaultsPort;
  readonly links: LinkPort;
  readonly playback: PlaybackPort;
}

/** The port every feature's view is cut from. */
function runPort(rt: Runtime, feed: RunFeed<SimState>): RunPort {
  const state = feed.current;
  return {
    run: (): RunIdentity => {
      const s = state();
      return { scenarioId: s.scenarioId, variantId: s.variantId, seed: s.seed, schedule: s.schedule, cursor: s.cursor, definition: rt.runState.definition };
    },
    scenario: () => rt.runState.scenario,
    definitionOnScreen: () => definitionOnScreen(rt.runState),
    runInfo: () => state().runInfo,
    loadRun: (spec, then) => state().loadRun(spec, then),
    notify: (notice) => feed.set({ notice }),
    onRunChanged: (listener) => feed.onRunChanged(listener),
    whenSettled: (then) => {
      const host = rt.host();
      if (!host.pending()) return then();
      void host.idle().then(then);
    },
  };
}

/** What the page's shell offers features: the Lua engine, saving, link errors and extras. */
function shellOf(rt: Runtime, feed: RunFeed<SimState>) {
  const state = feed.current;
  const lua: LuaLoader = { ready: () => rt.library.luaReady(), load: () => rt.library.loadLua() };
  return {
    lua,
    setPersistRun: (persist: boolean) => feed.set({ persistRun: persist }),
    showLinkError: (error: LinkError | null) => feed.set({ linkError: error }),
    applyLinkExtras: (extras: { readonly challengeId?: string | null; readonly predict?: boolean }) => state().applyLinkExtras(extras),
  };
}

function myScenarioShelf(feed: RunFeed<SimState>): MyScenarioShelf {
  const state = feed.current;
  return {
    find: (name) => state().findMyScenarioByName(name),
    put: (entry, replaceId) => state().putMyScenario(entry, replaceId),
    open: (id) => state().openMyScenario(id),
    nameOnScreen: (definitionId) => {
      const s = state();
      return s.myScenarios.find((m) => m.id === s.myScenarioId && m.id === definitionId)?.name ?? null;
    },
  };
}

/** The run's engine as the console and the node faults reach it: a refusal asked, a choice applied. */
function enginePorts(rt: Runtime, feed: RunFeed<SimState>, run: RunPort): Pick<FeaturePorts, 'console' | 'nodeFaults'> {
  const state = feed.current;
  return {
    console: {
      run: run.run,
      nodes: () => state().nodes,
      apply: (choice: ConsoleChoice, refused: (detail: string) => void) =>
        rt.command({ kind: 'choice', choice, checkFirst: true }, (result) => {
          if (!result.ok && result.refusal.kind === 'choice') refused(result.refusal.detail);
        }),
    },
    nodeFaults: {
      appendScheduleText: (text: string) => state().appendScheduleText(text),
      faultRefusal: (choice: NodeChoice) => {
        const { faultRefusals, nodeIds, clientIds } = state();
        return faultRefusalOf(faultRefusals, nodeIds, clientIds, choice);
      },
    },
  };
}

export function wirePorts(rt: Runtime, feed: RunFeed<SimState>): FeaturePorts {
  const state = feed.current;
  const run = runPort(rt, feed);
  const shell = shellOf(rt, feed);
  const { catalog } = rt.library;
  return {
    run,
    explore: { ...run, compareVariants: () => state().compareVariants() },
    compare: { ...run, closeExplorer: () => state().closeExplore() },
    learn: {
      ...run,
      verdict: () => ({ violations: state().violations, finished: state().finished }),
      selectScenario: (scenarioId) => state().selectScenario(scenarioId),
      setPersistRun: shell.setPersistRun,
    },
    myScenarios: { ...run, lua: shell.lua },
    propertyCheck: {
      ...run,
      declaredExplore: () => {
        const onScreen = rt.runState.scenario;
        return onScreen.explore ?? (onScreen.id.endsWith('-edited') ? rt.library.ready(onScreen.id.slice(0, -'-edited'.length))?.explore : undefined);
      },
    },
    workbench: {
      ...run,
      lua: shell.lua,
      timeline: (): readonly Choice[] => state().runLog.projection.choices,
      clientIds: () => state().clientIds,
      nodeIds: () => state().nodeIds,
      events: () => ({ events: state().events, eventCountToCursor: state().eventCountToCursor }),
      isBuiltIn: (scenarioId) => catalog.some((s) => s.id === scenarioId),
    },
    io: {
      ...run,
      ...shell,
      myScenarios: myScenarioShelf(feed),
      violations: () => state().runLog.projection.violations,
      openExportPanel: () => state().openWorkbench('io'),
    },
    ...enginePorts(rt, feed, run),
    links: {
      loadRun: run.loadRun,
      ...shell,
      needsLoading: (scenarioId) => catalog.some((s) => s.id === scenarioId) && rt.library.ready(scenarioId) === undefined,
      whenReady: (scenarioId, then) => rt.whenReady(scenarioId, then),
      findScenario: (id) => rt.library.ready(id),
      firstScenarioId: () => rt.firstScenario.id,
      openDefinitionLink: (hash) => void state().ioOpenLink(hash),
    },
    playback: {
      notify: run.notify,
      position: () => {
        const { cursor, length, finished, seed } = state();
        return { cursor, length, finished, seed };
      },
      loadingTitle: () => {
        const { runLoading, lang } = state();
        return runLoading === null ? null : runLoading.title[lang];
      },
    },
  };
}
