/**
 * A definition (JSON data, schema.ts) to the engine's Scenario and back. The two shapes are nearly
 * the same: a definition lets texts be one string for every language, params be integers, and most
 * fields be left out; a Scenario has every field the engine reads.
 */
import type { Condition, LocalizedText, Step } from '../engine/program';
import type { ClientSpec, NarrationSpec, Scenario, ScriptSpec, VariantSpec } from '../engine/scenario';
import * as v from 'valibot';
import { DEFINITION_VERSION, definitionSchema, type DefinitionClient, type DefinitionStep, type DefinitionText, type DefinitionVariant, type ScenarioDefinition } from './schema';

const DEFAULT_LOCK_KEY = 'lock';

function textOf(value: DefinitionText | undefined, fallback: string): LocalizedText {
  if (value === undefined) return { en: fallback, zh: fallback };
  if (typeof value === 'string') return { en: value, zh: value };
  return { en: value.en, zh: value.zh ?? value.en };
}

function textOut(value: LocalizedText): DefinitionText {
  return value.en === value.zh ? value.en : { en: value.en, zh: value.zh };
}

function paramsOf(params: Readonly<Record<string, string | number>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params ?? {})) out[name] = String(value);
  return out;
}

function scriptsOf(scripts: ScenarioDefinition['scripts']): Record<string, ScriptSpec> | undefined {
  if (scripts === undefined) return undefined;
  const out: Record<string, ScriptSpec> = {};
  for (const [name, script] of Object.entries(scripts)) out[name] = script.title === undefined ? { source: script.source } : { source: script.source, title: textOf(script.title, name) };
  return out;
}

function narrationOf(lines: ScenarioDefinition['narration']): NarrationSpec[] | undefined {
  return lines?.map((line) => ({ step: line.step, text: textOf(line.text, '') }));
}

/** Copies the fields that are present (a definition never holds `undefined`; a Scenario may). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function stepOf(step: DefinitionStep): Step {
  const { note, ...rest } = step;
  return defined({ ...rest, ...(note === undefined ? {} : { note: textOf(note, '') }) }) as Step;
}

function clientOf(client: DefinitionClient): ClientSpec {
  return defined({ ...client, program: client.program.map(stepOf) });
}

function variantOf(variant: DefinitionVariant): VariantSpec {
  return defined({
    id: variant.id,
    title: textOf(variant.title, variant.id),
    summary: textOf(variant.summary, ''),
    clients: variant.clients.map(clientOf),
    scripts: scriptsOf(variant.scripts),
    resources: variant.resources,
    nodes: variant.nodes,
    params: variant.params === undefined ? undefined : paramsOf(variant.params),
    requiresRedis: variant.requiresRedis,
    lockKey: variant.lockKey,
    narration: narrationOf(variant.narration),
    expect: { violations: variant.expect?.violations ?? [], absent: variant.expect?.absent ?? [] },
  });
}

/** The engine's Scenario for a definition that passed validation (index.ts `parseDefinition`). */
export function scenarioFromDefinition(definition: ScenarioDefinition): Scenario {
  const params = paramsOf(definition.params);
  return defined({
    id: definition.id,
    title: textOf(definition.title, definition.id),
    summary: textOf(definition.summary, ''),
    lesson: textOf(definition.lesson, ''),
    params,
    lockKey: definition.lockKey ?? params.lockKey ?? DEFAULT_LOCK_KEY,
    lockHoldMsMax: definition.lockHoldMsMax,
    holderCountMax: definition.holderCountMax,
    waitMsMax: definition.waitMsMax,
    acquisitionsWhileWaitingMax: definition.acquisitionsWhileWaitingMax,
    holderKeys: definition.holderKeys,
    scriptTiming: definition.scriptTiming,
    redisCluster: definition.redisCluster,
    setup: definition.setup,
    scripts: scriptsOf(definition.scripts),
    counters: definition.counters,
    resources: definition.resources,
    nodes: definition.nodes,
    links: definition.links,
    checkers: definition.checkers,
    properties: definition.properties?.map((p) => ('always' in p ? { name: p.name, kind: 'always' as const, expression: p.always } : { name: p.name, kind: 'reachable' as const, expression: p.reachable })),
    defaultSchedule: definition.defaultSchedule ?? '',
    narration: narrationOf(definition.narration),
    variants: definition.variants.map(variantOf),
    defaultVariant: definition.defaultVariant ?? definition.variants[0].id,
  });
}

function conditionOut(when: Condition): Condition {
  return { ...when };
}

function stepOut(step: Step): DefinitionStep {
  const { note, ...rest } = step;
  const out = { ...rest, ...(note === undefined ? {} : { note: textOut(note) }) } as DefinitionStep;
  if (out.op === 'if') return defined({ ...out, when: conditionOut(out.when) });
  return defined(out);
}

function scriptsOut(scripts: Readonly<Record<string, ScriptSpec>> | undefined): ScenarioDefinition['scripts'] {
  if (scripts === undefined) return undefined;
  const out: NonNullable<ScenarioDefinition['scripts']> = {};
  for (const [name, script] of Object.entries(scripts)) out[name] = defined({ source: script.source, title: script.title === undefined ? undefined : textOut(script.title) });
  return out;
}

function narrationOut(lines: readonly NarrationSpec[] | undefined): ScenarioDefinition['narration'] {
  return lines?.map((line) => ({ step: line.step, text: textOut(line.text) }));
}

/** Thrown when a Scenario holds something a definition cannot carry (a hosted client's code). */
export class NotExpressibleError extends Error {
  override name = 'NotExpressibleError';
}

function clientOut(client: ClientSpec): DefinitionClient {
  if (client.hosted) throw new NotExpressibleError(`client ${client.id} runs code outside the engine (an async client): a definition carries only programs as data`);
  return defined({
    id: client.id,
    program: client.program.map(stepOut),
    vars: client.vars === undefined ? undefined : { ...client.vars },
    tokenFrom: client.tokenFrom,
    process: client.process,
    startedBy: client.startedBy,
  });
}

/**
 * The definition of an engine Scenario (a built-in lesson exported as a file, a link, a test), its
 * fields in the schema's order so the same scenario always gives the same text.
 */
export function definitionOfScenario(scenario: Scenario): ScenarioDefinition {
  const raw = rawDefinitionOf(scenario);
  const canonical = v.safeParse(definitionSchema, raw);
  return canonical.success ? canonical.output : raw;
}

function rawDefinitionOf(scenario: Scenario): ScenarioDefinition {
  return defined({
    version: DEFINITION_VERSION,
    id: scenario.id,
    title: textOut(scenario.title),
    summary: textOut(scenario.summary),
    lesson: textOut(scenario.lesson),
    params: { ...scenario.params },
    lockKey: scenario.lockKey,
    lockHoldMsMax: scenario.lockHoldMsMax,
    holderCountMax: scenario.holderCountMax,
    waitMsMax: scenario.waitMsMax,
    acquisitionsWhileWaitingMax: scenario.acquisitionsWhileWaitingMax,
    holderKeys: scenario.holderKeys === undefined ? undefined : [...scenario.holderKeys],
    scriptTiming: scenario.scriptTiming === undefined ? undefined : { ...scenario.scriptTiming },
    redisCluster: scenario.redisCluster,
    setup: scenario.setup?.map((argv) => [...argv]),
    scripts: scriptsOut(scenario.scripts),
    counters: scenario.counters?.map((c) => defined({ ...c })),
    resources: scenario.resources?.map((r) => ({ ...r })),
    nodes: scenario.nodes?.map((n) => ({ ...n })),
    links: scenario.links === undefined ? undefined : defined({ delayMs: scenario.links.delayMs, overrides: scenario.links.overrides?.map((o) => ({ ...o })) }),
    checkers: scenario.checkers === undefined ? undefined : [...scenario.checkers],
    properties: scenario.properties?.map((p) => (p.kind === 'always' ? { name: p.name, always: p.expression } : { name: p.name, reachable: p.expression })),
    defaultSchedule: scenario.defaultSchedule,
    narration: narrationOut(scenario.narration),
    variants: scenario.variants.map((variant) =>
      defined({
        id: variant.id,
        title: textOut(variant.title),
        summary: textOut(variant.summary),
        clients: variant.clients.map(clientOut),
        scripts: scriptsOut(variant.scripts),
        resources: variant.resources?.map((r) => ({ ...r })),
        nodes: variant.nodes?.map((n) => ({ ...n })),
        params: variant.params === undefined ? undefined : { ...variant.params },
        requiresRedis: variant.requiresRedis,
        lockKey: variant.lockKey,
        narration: narrationOut(variant.narration),
        expect: { violations: [...variant.expect.violations], absent: [...variant.expect.absent] },
      }),
    ),
    defaultVariant: scenario.defaultVariant,
  }) as ScenarioDefinition;
}
