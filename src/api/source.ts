/**
 * What the Node API runs: a built-in scenario (by id), a scenario definition (JSON data), or, for
 * async clients alone, an empty scenario whose clients they are. Options are checked here, each
 * problem a typed error naming its path.
 */
import { parseDefinition } from '../definition';
import { findVariant, type Scenario, type VariantSpec } from '../engine/scenario';
import { parseSchedule, ScheduleSyntaxError, type Choice } from '../engine/schedule';
import { defaultSeed } from '../engine/simulation';
import { VIOLATION_KINDS, type CheckerKind, type ViolationKind } from '../engine/trace';
import { SCENARIOS } from '../scenarios';
import { ArgumentError, DefinitionError, ScheduleError } from './errors';

/** A built-in scenario's id (`lockstep list`), or a scenario definition as JSON data. */
export type ScenarioSource = string | object;

export interface ExpectedVerdict {
  /** Kinds that must appear. */
  readonly violations?: readonly ViolationKind[];
  /** Kinds that must not. */
  readonly absent?: readonly ViolationKind[];
}

/** The scenario async clients run in when none is given: the lock is the key `lock`, every checker watches. */
function emptyScenario(lockKey: string): Scenario {
  const text = (s: string) => ({ en: s, zh: s });
  return {
    id: 'async-clients',
    title: text('Async clients'),
    summary: text('Your own code as clients'),
    lesson: text(''),
    params: { lockKey },
    lockKey,
    defaultSchedule: '',
    variants: [{ id: 'async', title: text('async'), summary: text(''), clients: [], expect: { violations: [], absent: [] } }],
    defaultVariant: 'async',
  };
}

export function resolveScenario(source: ScenarioSource | undefined, lockKey: unknown, hasClients: boolean): Scenario {
  if (source === undefined) {
    if (!hasClients) throw new ArgumentError('scenario', 'give a scenario (a built-in id or a definition) or async clients');
    if (lockKey !== undefined && (typeof lockKey !== 'string' || lockKey.length === 0)) throw new ArgumentError('lockKey', 'a non-empty key name');
    return emptyScenario((lockKey as string | undefined) ?? 'lock');
  }
  if (typeof source === 'string') {
    const scenario = SCENARIOS.find((s) => s.id === source);
    if (!scenario) throw new ArgumentError('scenario', `no built-in scenario "${source}" (${SCENARIOS.map((s) => s.id).join(', ')}); pass a definition object for your own`);
    return scenario;
  }
  const result = parseDefinition(source);
  if (!result.ok) throw new DefinitionError(result.problems);
  return result.scenario;
}

export function resolveVariant(scenario: Scenario, variant: unknown): VariantSpec {
  if (variant !== undefined && typeof variant !== 'string') throw new ArgumentError('variant', 'a variant id (a string)');
  if (variant !== undefined && !scenario.variants.some((v) => v.id === variant)) {
    throw new ArgumentError('variant', `no variant "${variant}" in ${scenario.id} (${scenario.variants.map((v) => v.id).join(', ')})`);
  }
  return findVariant(scenario, variant);
}

export function resolveSeed(seed: unknown): number {
  if (seed === undefined) return defaultSeed;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffff_ffff) throw new ArgumentError('seed', `an integer from 0 to 4294967295, got ${String(seed)}`);
  return seed;
}

export function resolveSchedule(schedule: unknown, fallback: string, clientIds: readonly string[], nodeIds?: readonly string[]): Choice[] {
  if (schedule !== undefined && typeof schedule !== 'string') throw new ArgumentError('schedule', 'schedule text such as "A A A~5000 +4000 B +1000" (docs/SCHEDULES.md)');
  try {
    return parseSchedule(schedule ?? fallback, clientIds, nodeIds);
  } catch (error) {
    if (error instanceof ScheduleSyntaxError) throw new ScheduleError(error.message, error.offset + 1);
    throw error;
  }
}

export function resolveExpect(expect: unknown, variant: VariantSpec): { readonly violations: readonly ViolationKind[]; readonly absent: readonly ViolationKind[] } {
  if (expect === undefined) return variant.expect;
  if (typeof expect !== 'object' || expect === null) throw new ArgumentError('expect', '{ violations?: kinds[], absent?: kinds[] }');
  const kinds = (field: 'violations' | 'absent'): ViolationKind[] => {
    const list = (expect as Record<string, unknown>)[field] ?? [];
    if (!Array.isArray(list)) throw new ArgumentError(`expect.${field}`, 'a list of violation kinds');
    list.forEach((kind, i) => {
      if (!VIOLATION_KINDS.includes(kind as CheckerKind)) throw new ArgumentError(`expect.${field}[${i}]`, `a violation kind (${VIOLATION_KINDS.join(', ')}), got ${JSON.stringify(kind)}`);
    });
    return list as ViolationKind[];
  };
  return { violations: kinds('violations'), absent: kinds('absent') };
}

export function checkOptions(options: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new ArgumentError('', `expected an options object ({ ${allowed.join(', ')} })`);
  for (const key of Object.keys(options)) if (!allowed.includes(key)) throw new ArgumentError(key, `unknown option (options: ${allowed.join(', ')})`);
  return options as Record<string, unknown>;
}

