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
import type { Runtime } from '../runtime';

/** The slice's data, without its actions. */
type RunState = Omit<SimulationSlice, { [K in keyof SimulationSlice]: SimulationSlice[K] extends (...args: never[]) => unknown ? K : never }[keyof SimulationSlice]>;

/** The run as the store holds it before the first load publishes the session's frame. */
function initialRunState(rt: Runtime, init: SimStoreInit): RunState {
  const { library, session, firstScenario } = rt;
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
    runLog: runLogOf(session, null),
    events: [],
    eventCountToCursor: 0,
    lastStepEvents: [],
    keys: [],
    lock: { value: null, pttlMs: -2, holder: null },
    violations: [],
    schedule: '',
    nodes: [],
    tokens: {},
    tokenOwners: {},
    onDefaultPath: true,
    finished: false,
    nextExpiryAtMs: null,
    notice: null,
    outcomes: null,
    outcomesPending: false,
    persistRun: init.linkError == null,
  };
}

export function createSimulationSlice(rt: Runtime, init: SimStoreInit): StateCreator<SimState, [], [], SimulationSlice> {
  const { runState, run } = rt;

  return (set, get) => ({
    ...initialRunState(rt, init),
    loadRun: run.loadRun,
    selectScenario(scenarioId) {
      rt.whenReady(scenarioId, () => {
        const result = run.loadRun({ scenarioId });
        if (result.ok) set({ persistRun: true });
      });
    },
    selectVariant(variantId) {
      if (variantId === runState.sim.variantId) return;
      run.rebuild(variantId, runState.sim.seed, 'variantReplayed');
    },
    setSeed(seed) {
      if (!isSeed(seed) || seed === runState.sim.seed) return;
      run.rebuild(runState.sim.variantId, seed, null);
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
      const result = run.loadRun({ scenarioId: s.scenarioId, variantId: s.variantId, seed: s.seed, schedule: text, cursor: null, ...custom });
      if (!result.ok) set({ notice: { key: 'actionRefused', params: { detail: result.error.detail }, tone: 'warning' } });
      return result;
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
