import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { randomPolicy, runPolicy } from '../../src/engine/policies';
import type { Scenario } from '../../src/engine/scenario';
import type { Simulation } from '../../src/engine/simulation';

/**
 * The engine's public API, imported from a checkout chosen at run time (`--src`), so the same
 * bench measures today's engine and an older commit's side by side. Only these modules are used:
 * the `Simulation` class, the scenario registry and the scheduling policies.
 */
export interface EngineSource {
  readonly root: string;
  readonly Simulation: typeof Simulation;
  readonly scenarios: readonly Scenario[];
  readonly randomPolicy: typeof randomPolicy;
  readonly runPolicy: typeof runPolicy;
}

const MODULES = {
  simulation: 'src/engine/simulation.ts',
  policies: 'src/engine/policies.ts',
  scenarios: 'src/scenarios/index.ts',
} as const;

async function importFrom<T>(root: string, file: string): Promise<T> {
  return (await import(pathToFileURL(path.join(root, file)).href)) as T;
}

export async function loadEngine(root: string): Promise<EngineSource> {
  const simulation = await importFrom<{ Simulation: typeof Simulation }>(root, MODULES.simulation);
  const policies = await importFrom<{ randomPolicy: typeof randomPolicy; runPolicy: typeof runPolicy }>(root, MODULES.policies);
  const registry = await importFrom<{ SCENARIOS: readonly Scenario[] }>(root, MODULES.scenarios);
  return { root, Simulation: simulation.Simulation, scenarios: registry.SCENARIOS, randomPolicy: policies.randomPolicy, runPolicy: policies.runPolicy };
}

export function scenarioById(engine: EngineSource, id: string): Scenario {
  const scenario = engine.scenarios.find((s) => s.id === id);
  if (scenario === undefined) throw new Error(`${engine.root} has no scenario "${id}"`);
  return scenario;
}
