/**
 * What a run to load must be before it replaces the one on hand: a known variant, a seed in range,
 * a schedule that parses, a cursor inside it, and choices that fit (or are cut to fit).
 */
import { ChoiceError } from '../engine/choice-error';
import { findVariant, nodeIdsOf, ScenarioError, type Scenario } from '../engine/scenario';
import { parseSchedule, type Choice } from '../engine/schedule';
import { defaultSeed, Simulation } from '../engine/simulation';
import type { LoadError, SessionSpec } from './commands';

/** A load request: the scenario as the caller's library resolved it (undefined: not known). */
export interface LoadRequest extends SessionSpec {
  readonly scenarioId: string;
  readonly scenario: Scenario | undefined;
  /** Whether the scenario can run here now (a Lua engine still loading): checked after its variant. */
  readonly runnable?: (scenario: Scenario) => boolean;
}

export const seedMax = 0xffff_ffff;

export function isSeed(seed: number): boolean {
  return Number.isSafeInteger(seed) && seed >= 0 && seed <= seedMax;
}

function choicesOf(scenario: Scenario, variantId: string | undefined, schedule: SessionSpec['schedule']): readonly Choice[] {
  const variant = findVariant(scenario, variantId);
  const clientIds = variant.clients.map((c) => c.id);
  const nodeIds = nodeIdsOf(scenario, variant);
  if (schedule === undefined) return parseSchedule(scenario.defaultSchedule, clientIds, nodeIds);
  return typeof schedule === 'string' ? parseSchedule(schedule, clientIds, nodeIds) : schedule;
}

/**
 * Replays choices on a fresh simulation. Returns the simulation and, if a choice did not fit,
 * the ChoiceError (the simulation keeps the choices that did).
 */
export function replay(scenario: Scenario, variantId: string | undefined, seed: number, choices: readonly Choice[]): { sim: Simulation; error: ChoiceError | null } {
  const sim = new Simulation(scenario, { variantId, seed });
  for (const choice of choices) {
    try {
      sim.apply(choice);
    } catch (error) {
      if (error instanceof ChoiceError) return { sim, error };
      throw error;
    }
  }
  return { sim, error: null };
}

/** The scenario's variant, or why not (the order of checks is the load contract's: docs/AUTOMATION.md). */
export function checkScenario(scenarioId: string, scenario: Scenario | undefined, variantId: string | undefined): LoadError | null {
  try {
    if (scenario === undefined) throw new ScenarioError(`unknown scenario "${scenarioId}"`);
    findVariant(scenario, variantId);
    return null;
  } catch (error) {
    const reason = error instanceof ScenarioError && /variant/.test(error.message) ? 'unknown-variant' : 'unknown-scenario';
    return { reason, detail: reason === 'unknown-variant' ? String(variantId) : scenarioId };
  }
}

export type CheckedSpec = { readonly ok: true; readonly seed: number; readonly choices: readonly Choice[]; readonly cursor: number | null } | { readonly ok: false; readonly error: LoadError };

/** Seed, schedule and cursor of a spec whose scenario and variant are known. */
export function checkSpec(scenario: Scenario, spec: SessionSpec): CheckedSpec {
  const seed = spec.seed ?? defaultSeed;
  if (!isSeed(seed)) return { ok: false, error: { reason: 'bad-seed', detail: String(seed) } };
  let choices: readonly Choice[];
  try {
    choices = choicesOf(scenario, spec.variantId, spec.schedule);
  } catch (error) {
    return { ok: false, error: { reason: 'bad-schedule', detail: error instanceof Error ? error.message : String(error) } };
  }
  const cursor = spec.cursor === undefined ? 0 : spec.cursor;
  if (cursor !== null && (!Number.isInteger(cursor) || cursor < 0 || cursor > choices.length)) {
    return { ok: false, error: { reason: 'bad-cursor', detail: String(cursor) } };
  }
  return { ok: true, seed, choices, cursor };
}

export type CheckedLoad = { readonly ok: true; readonly scenario: Scenario; readonly seed: number; readonly choices: readonly Choice[]; readonly cursor: number | null } | { readonly ok: false; readonly error: LoadError };

/**
 * Every check of a load that needs no replay, in the contract's order: scenario and variant, runnable
 * here, then seed, schedule and cursor. The session runs it before it replays; a worker's host runs it
 * too, so only a valid run crosses.
 */
export function checkLoad(request: LoadRequest): CheckedLoad {
  const unknown = checkScenario(request.scenarioId, request.scenario, request.variantId);
  if (unknown !== null || request.scenario === undefined) return { ok: false, error: unknown ?? { reason: 'unknown-scenario', detail: request.scenarioId } };
  const scenario = request.scenario;
  if (request.runnable && !request.runnable(scenario)) return { ok: false, error: { reason: 'not-ready', detail: request.scenarioId } };
  const checked = checkSpec(scenario, request);
  return checked.ok ? { ...checked, scenario } : checked;
}
