/**
 * The simulation slice: the run as plain data, and the actions that change it. A thin client of
 * the run session (src/session): each action is one session command, published by run-client.ts.
 */
import type { StateCreator } from 'zustand/vanilla';
import { findVariant } from '../../../engine/scenario';
import { defaultSeed } from '../../../engine/simulation';
import { isSeed } from '../../../session/run-spec';
import type { SimState, SimStoreInit, SimulationSlice } from '../store-types';
import { runInfo } from '../run-info';
import { runLogOf } from '../run-client';
import { NO_RUN_LINK_SCHEDULE, runLinkScheduleOf } from '../run-link';
import { RunProjection } from '../../../engine/projection';
import type { Runtime } from '../runtime';

/** The slice's data, without its actions. */
type RunState = Omit<SimulationSlice, { [K in keyof SimulationSlice]: SimulationSlice[K] extends (...args: never[]) => unknown ? K : never }[keyof SimulationSlice]>;

/** The run as the store holds it before the first load publishes the session's frame. */
function initialRunState(rt: Runtime, init: SimStoreInit): RunState {
  const { library, firstScenario } = rt;
  const view = rt.host().view();
  return {
    scenarios: library.catalog,
    runLoading: null,
    runInfo: runInfo(firstScenario, findVariant(firstScenario, undefined)),
    scenarioId: firstScenario.id,
    variantId: firstScenario.defaultVariant,
    seed: defaultSeed,
    clientIds: [],
    timelineVersion: 0,
    cursor: 0,
    length: 0,
    nowMs: 0,
    clients: [],
    runLog: runLogOf(view === null ? new RunProjection(-1) : view.log, null),
    runLink: view === null ? NO_RUN_LINK_SCHEDULE : runLinkScheduleOf(view.log, NO_RUN_LINK_SCHEDULE),
    events: [],
    eventCountToCursor: 0,
    lastStepEvents: [],
    keys: [],
    lock: { value: null, pttlMs: -2, holder: null },
    violations: [],
    schedule: '',
    nodes: [],
    nodeIds: [],
    faultRefusals: {},
    tokens: {},
    tokenOwners: {},
    onDefaultPath: true,
    finished: false,
    nextExpiryAtMs: null,
    notice: null,
    outcomes: null,
    outcomesPending: false,
    persistRun: init.linkError == null,
    sessionBusy: false,
    requestedVariantId: null,
  };
}

export function createSimulationSlice(rt: Runtime, init: SimStoreInit): StateCreator<SimState, [], [], SimulationSlice> {
  const { runState, run } = rt;

  return (set, get) => ({
    ...initialRunState(rt, init),
    loadRun: run.loadRun,
    loadRunSettled: run.loadRunSettled,
    sessionIdle: () => rt.host().idle(),
    stopSession: () => run.stop(),
    selectScenario(scenarioId) {
      rt.whenReady(scenarioId, () => {
        const result = run.loadRun({ scenarioId });
        if (result.ok) set({ persistRun: true });
      });
    },
    selectVariant(variantId) {
      const { variantId: current, seed } = get();
      if (variantId === (get().requestedVariantId ?? current)) return;
      set({ requestedVariantId: variantId });
      run.rebuild(variantId, seed, 'variantReplayed');
    },
    setSeed(seed) {
      if (!isSeed(seed) || seed === get().seed) return;
      run.rebuild(get().variantId, seed, null);
    },
    stepClient: (clientId) => run.command({ kind: 'step', clientId }),
    runToNextCommand: (clientId) => run.command({ kind: 'runToNextCommand', clientId }),
    stallClient: (clientId, ms) => run.command({ kind: 'stall', clientId, ms }),
    crashClient: (clientId) => run.command({ kind: 'crash', clientId }),
    appendScheduleText: (text) => run.command({ kind: 'appendSchedule', text }),
    runSchedule(text) {
      const s = get();
      const definition = runState.definition;
      const custom = definition ? { custom: { scenario: runState.scenario, definition } } : {};
      return run.loadRun({ scenarioId: s.scenarioId, variantId: s.variantId, seed: s.seed, schedule: text, cursor: null, ...custom }, (result) => {
        if (!result.ok) set({ notice: { key: 'actionRefused', params: { detail: result.error.detail }, tone: 'warning' } });
      });
    },
    advanceClock: (ms) => run.command({ kind: 'advance', ms }),
    jumpToNextExpiry: () => run.command({ kind: 'jumpToNextExpiry' }),
    stepBack: () => run.command({ kind: 'stepBack' }),
    stepForward: () => run.command({ kind: 'stepForward' }),
    seek: (cursor) => run.command({ kind: 'seek', cursor }),
    dismissNotice() {
      set({ notice: null });
    },
  });
}
