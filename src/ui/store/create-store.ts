/**
 * The store's factory over a scenario library (library.ts): the page's (scenarios load on demand)
 * or Node's (all loaded; create-sim-store.ts). It composes the slices: the simulation slice gets
 * the store, every other feature its own state and its port (wire-ports.ts), and the simulation
 * slice's updates carry the run's changes to the features inside them (run-feed.ts). This module
 * imports no scenario body, so the page's first screen carries only the scenarios its library bundles.
 */
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import type { Scenario } from '../../engine/scenario';
import type { ScenarioLibrary } from './library';
import { clip, linkScenarioId, parseRunLink } from './run-link';
import { createRuntime, type Runtime } from './runtime';
import { createExploreSlice } from './slices/explore';
import { createCompareSlice } from './slices/compare';
import { createLinkSlice } from './slices/links';
import { createPlaybackSlice } from './slices/playback';
import { createSimulationSlice } from './slices/simulation';
import { createUiSlice } from './slices/ui';
import { createWorkbenchSlice } from './slices/workbench';
import { createPropertyCheckSlice } from './slices/property-check';
import { createMyScenariosSlice } from './slices/my-scenarios';
import { createDraftsSlice } from './slices/drafts';
import { createLearnSlice } from './slices/learn';
import { createIoSlice } from './slices/io';
import { createConsoleSlice } from './slices/console';
import { createNodeFaultsSlice } from './slices/node-faults';
import type { SliceStore } from './ports';
import { createRunFeed } from './run-feed';
import type { SimState, SimStore, SimStoreInit } from './store-types';
import type { SessionHost } from './session-host';
import { wirePorts } from './wire-ports';

interface InitialRun extends SimStoreInit {
  /** The saved run's text when `run` came from it: a run that no longer fits is reported as saved work. */
  readonly savedText?: string;
  /** A link that carries its scenario (`def=`): decoded after the store exists (io slice), the default run shown meanwhile. */
  readonly customLink?: string;
}

/** The run to show first: the link's, else the saved one, else `init.run`. */
function initialRun(init: SimStoreInit, find: (id: string) => Scenario | undefined): InitialRun {
  if (init.link === undefined) return init;
  const fromLink = parseRunLink(init.link, find);
  if (fromLink.kind === 'ok') return { ...init, run: fromLink.link };
  if (fromLink.kind === 'error') return { ...init, linkError: fromLink.error };
  if (fromLink.kind === 'custom') return { ...init, customLink: fromLink.hash };
  const saved = init.savedRun ?? { kind: 'none' };
  if (saved.kind === 'none') return init;
  if (saved.kind === 'unreadable') {
    return { ...init, linkError: { reason: 'bad-format', detail: clip(saved.text), savedText: saved.text } };
  }
  const fromSaved = parseRunLink(saved.hash, find);
  if (fromSaved.kind === 'ok') return { ...init, run: fromSaved.link, savedText: saved.hash };
  if (fromSaved.kind === 'error') return { ...init, linkError: { ...fromSaved.error, savedText: saved.hash } };
  if (fromSaved.kind === 'custom') return { ...init, customLink: fromSaved.hash };
  return init;
}

/** The built-in scenario the first run comes from (the link's, else the saved run's), or null. */
function initialScenarioId(init: SimStoreInit): string | null {
  if (init.link === undefined) return init.run?.custom ? null : (init.run?.scenarioId ?? null);
  const fromLink = linkScenarioId(init.link);
  if (fromLink !== undefined) return fromLink;
  return init.savedRun?.kind === 'hash' ? (linkScenarioId(init.savedRun.hash) ?? null) : null;
}

/**
 * The store's state from its slices: the simulation slice gets the store; every other feature gets
 * its own state and its port. Every update of the store (`setState`) carries the run's changes to
 * the features inside it (run-feed.ts).
 */
function composeSlices(rt: Runtime, options: SimStoreInit): StateCreator<SimState> {
  return (set, get, store) => {
    const feed = createRunFeed(set, get, () => rt.runState.definition);
    // Every writer's update goes through the feed, as a middleware wraps `setState`: the simulation
    // slice's `set`, and whoever publishes the run through the store itself (a run client, a test).
    store.setState = feed.runSet;
    const ports = wirePorts(rt, feed);
    // A feature sees its own state only (the store is one object: the read is the whole, the type is not).
    const own = { get: feed.current, set: feed.set } as SliceStore<never>;
    return {
      ...createSimulationSlice(rt, options)(feed.runSet, get, store),
      ...createPlaybackSlice(rt, ports.playback, options)(own),
      ...createUiSlice(options)(own),
      ...createLinkSlice(ports.links)(own),
      ...createExploreSlice(ports.explore, options)(own),
      ...createCompareSlice(ports.compare, options)(own),
      ...createWorkbenchSlice(ports.workbench, options)(own),
      ...createPropertyCheckSlice(ports.propertyCheck, options)(own),
      ...createMyScenariosSlice(ports.myScenarios, options)(own),
      ...createLearnSlice(rt.library.catalog, ports.learn, options)(own),
      ...createDraftsSlice()(own),
      ...createIoSlice(ports.io, options)(own),
      ...createConsoleSlice(ports.console)(own),
      ...createNodeFaultsSlice(ports.nodeFaults)(),
    };
  };
}

/** Opens the first run (the link's, the saved one, `options.run`), once its scenario is ready. */
function openFirstRun(api: StoreApi<SimState>, rt: Runtime, options: SimStoreInit): void {
  const { library, firstScenario } = rt;
  /** Load the requested run; if its schedule does not fit, show why and load the default instead. */
  const begin = () => {
    const init = initialRun(options, library.ready);
    // A link refused while parsing: shown over the default run, and nothing saved over the reader's run.
    if (init.linkError && init.linkError !== options.linkError) api.setState({ linkError: init.linkError, persistRun: false });
    const result = api.getState().loadRun(init.run ?? { scenarioId: firstScenario.id });
    if (!result.ok) {
      const error = result.error.reason === 'not-ready' ? { reason: 'unknown-scenario' as const, detail: result.error.detail } : result.error;
      api.getState().refuseLink(init.savedText === undefined ? error : { ...error, savedText: init.savedText });
    } else if (init.run) api.getState().applyLinkExtras(init.run);
    // Not saved until it loads: the default run on screen meanwhile must not replace the reader's saved one.
    if (init.customLink !== undefined) {
      api.setState({ persistRun: false });
      void api.getState().ioOpenLink(init.customLink, { startup: true });
    }
  };
  // A link (or saved run) to a scenario the page has not loaded: the first lesson's run stands in,
  // unseen, while that scenario (and the Lua engine, if it needs it) loads; then the link opens.
  const pending = initialScenarioId(options);
  if (pending !== null && library.catalog.some((s) => s.id === pending) && library.ready(pending) === undefined) {
    api.getState().loadRun({ scenarioId: firstScenario.id });
    rt.whenReady(pending, begin);
  } else begin();
}

export function createStoreWith(library: ScenarioLibrary, options: SimStoreInit = {}): SimStore {
  const firstId = library.catalog[0]?.id;
  const firstScenario = firstId === undefined ? undefined : library.ready(firstId);
  if (firstScenario === undefined) throw new Error('createStoreWith: the library must hold its first scenario, ready to run');
  // The default run always exists; a requested run replaces it below if it loads.
  const rt = createRuntime(library, firstScenario, options, () => api);
  const api = createStore<SimState>()(composeSlices(rt, options));
  openFirstRun(api, rt, options);
  if (options.progressError) api.setState({ notice: { key: 'progressUnreadable', params: options.progressError, tone: 'warning' } });
  return Object.assign(api, {
    simulation: () => {
      const sim = rt.host().simulation;
      if (sim === null) throw new Error('store.simulation(): the run session is in the engine worker');
      return sim;
    },
    moveSession: (host: SessionHost) => new Promise<boolean>((resolve) => rt.moveSession(host, resolve)),
    dispose: () => {
      api.getState().pause();
      rt.outcomeService?.dispose();
      rt.host().dispose();
      options.explorer?.dispose();
      options.comparer?.dispose();
      options.draftChecker?.dispose();
      options.propertyChecker?.dispose();
      options.shortestWay?.dispose?.();
    },
  });
}
