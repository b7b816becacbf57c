/**
 * The scenario file: one scenario (a definition, docs/scenario-definition.schema.json) with the run
 * shown beside it (variant, seed, schedule), as the workbench exports and imports it
 * (docs/SCENARIO-DEFINITIONS.md, "Scenario files").
 *
 *   { "format": "lockstep-scenario", "version": 1, "name": "...",
 *     "run": { "variant": "lua", "seed": 1, "schedule": "A A A~5000 +4000 B +1000" },
 *     "definition": { "version": 1, "id": "...", ... } }
 *
 * A bare definition (what `lockstep run --file` reads) is accepted too, with its default run.
 * Reading never throws: every problem comes back with its JSON path, and nothing is returned
 * half-read.
 */
import * as v from 'valibot';
import { findVariant, nodeIdsOf } from '../engine/scenario';
import { parseSchedule, ScheduleSyntaxError } from '../engine/schedule';
import { definitionBounds, scenarioFileBytesMax } from './bounds';
import { parseDefinition, type DefinitionResult } from './index';
import type { ScenarioDefinition } from './schema';
import type { DefinitionProblem } from './semantics';
import type { Scenario } from '../engine/scenario';

export const SCENARIO_FILE_FORMAT = 'lockstep-scenario';
const SCENARIO_FILE_VERSION = 1;

const scenarioFileBounds = {
  /** Largest file read (bytes). */
  fileBytesMax: scenarioFileBytesMax,
  /** Characters of the scenario's name. */
  nameCharsMax: 200,
  seedMax: 0xffff_ffff,
} as const;

export interface ScenarioFileRun {
  readonly variant: string;
  readonly seed: number;
  readonly schedule: string;
}

export interface ScenarioFile {
  readonly name: string;
  readonly run: ScenarioFileRun;
  readonly definition: ScenarioDefinition;
}

export type ScenarioFileResult =
  | { readonly ok: true; readonly file: ScenarioFile; readonly scenario: Scenario }
  | { readonly ok: false; readonly problems: readonly DefinitionProblem[] };

const runSchema = v.strictObject({
  variant: v.pipe(v.string(), v.maxLength(definitionBounds.nameCharsMax, `at most ${definitionBounds.nameCharsMax} characters`)),
  seed: v.pipe(v.number(), v.integer('a whole number'), v.minValue(0, 'at least 0'), v.maxValue(scenarioFileBounds.seedMax, `at most ${scenarioFileBounds.seedMax}`)),
  schedule: v.pipe(v.string(), v.maxLength(definitionBounds.scheduleCharsMax, `at most ${definitionBounds.scheduleCharsMax} characters`)),
});

const fileSchema = v.strictObject({
  format: v.literal(SCENARIO_FILE_FORMAT, `"${SCENARIO_FILE_FORMAT}"`),
  version: v.pipe(v.number(), v.integer('a whole number'), v.minValue(1, 'at least 1')),
  name: v.optional(v.pipe(v.string(), v.maxLength(scenarioFileBounds.nameCharsMax, `at most ${scenarioFileBounds.nameCharsMax} characters`))),
  run: v.optional(runSchema),
  definition: v.unknown(),
});

function pathOf(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item, i) => (typeof item.key === 'number' ? `[${item.key}]` : `${i === 0 ? '' : '.'}${String(item.key)}`)).join('');
}

function messageOf(issue: v.BaseIssue<unknown>): string {
  if (issue.type === 'strict_object' && issue.expected === 'never') return `unknown field ${issue.received}`;
  if (issue.received === 'undefined' && issue.expected?.startsWith('"')) return `missing field ${issue.expected}`;
  return issue.message;
}

const fail = (problems: DefinitionProblem[]): ScenarioFileResult => ({ ok: false, problems });

/** The name a file's scenario is listed under: its own, else the definition's English title, else its id. */
function nameOf(given: string | undefined, definition: ScenarioDefinition): string {
  const title = typeof definition.title === 'string' ? definition.title : definition.title?.en;
  return (given ?? '').trim() || (title ?? '').trim() || definition.id;
}

function checkRun(run: ScenarioFileRun, parsed: Extract<DefinitionResult, { ok: true }>): DefinitionProblem[] {
  const variant = parsed.scenario.variants.find((x) => x.id === run.variant);
  if (!variant) return [{ path: 'run.variant', message: `the definition has no variant "${run.variant}" (variants: ${parsed.scenario.variants.map((x) => x.id).join(', ')})` }];
  try {
    parseSchedule(run.schedule, variant.clients.map((c) => c.id), nodeIdsOf(parsed.scenario, variant));
  } catch (error) {
    if (!(error instanceof ScheduleSyntaxError)) throw error;
    return [{ path: 'run.schedule', message: error.message }];
  }
  return [];
}

/** Reads a scenario file (or a bare definition) from its parsed JSON. */
function parseScenarioFileData(data: unknown): ScenarioFileResult {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return fail([{ path: '', message: `expected a Lockstep scenario file (a JSON object with "format": "${SCENARIO_FILE_FORMAT}"), got ${data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data}` }]);
  }
  // A bare definition (no envelope): its default variant and schedule, seed 1.
  if (!('format' in data) && 'variants' in data) {
    const parsed = parseDefinition(data);
    if (!parsed.ok) return fail(parsed.problems.map((p) => ({ path: p.path, message: p.message })));
    const variant = findVariant(parsed.scenario, undefined);
    return {
      ok: true,
      scenario: parsed.scenario,
      file: { name: nameOf(undefined, parsed.definition), run: { variant: variant.id, seed: 1, schedule: parsed.scenario.defaultSchedule }, definition: parsed.definition },
    };
  }
  const envelope = v.safeParse(fileSchema, data);
  const version = (data as { version?: unknown }).version;
  if (typeof version === 'number' && version > SCENARIO_FILE_VERSION) return fail([{ path: 'version', message: `version ${version} is newer than this Lockstep reads (${SCENARIO_FILE_VERSION}): update Lockstep` }]);
  const definition = (data as { definition?: unknown }).definition;
  // Every problem at once: the envelope's and the definition's.
  const problems = envelope.success ? [] : envelope.issues.map((issue) => ({ path: pathOf(issue), message: messageOf(issue) }));
  if (definition === undefined) problems.push({ path: 'definition', message: 'missing field "definition"' });
  const parsed = definition === undefined ? null : parseDefinition(definition);
  if (parsed && !parsed.ok) problems.push(...parsed.problems.map((p) => ({ path: p.path === '' ? 'definition' : `definition.${p.path}`, message: p.message })));
  if (!envelope.success || parsed === null || !parsed.ok) return fail(problems);
  const { name, run } = envelope.output;
  const fileRun = run ?? { variant: findVariant(parsed.scenario, undefined).id, seed: 1, schedule: parsed.scenario.defaultSchedule };
  const runProblems = checkRun(fileRun, parsed);
  if (runProblems.length > 0) return fail(runProblems);
  return { ok: true, scenario: parsed.scenario, file: { name: nameOf(name, parsed.definition), run: fileRun, definition: parsed.definition } };
}

/** Reads a scenario file's text: bounded, then JSON, then the checks above. Never throws. */
export function parseScenarioFileText(text: string): ScenarioFileResult {
  // UTF-16 units are at most 3 UTF-8 bytes each: only a text that might be too big is measured.
  const bytes = text.length * 3 > scenarioFileBounds.fileBytesMax ? new TextEncoder().encode(text).length : text.length;
  if (bytes > scenarioFileBounds.fileBytesMax) return fail([{ path: '', message: `the file is ${bytes} bytes; at most ${scenarioFileBounds.fileBytesMax} are read` }]);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail([{ path: '', message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` }]);
  }
  return parseScenarioFileData(data);
}

/** The file's text for a scenario and its run (two-space JSON, fields in the format's order). */
export function formatScenarioFile(file: ScenarioFile): string {
  const { name, run, definition } = file;
  return `${JSON.stringify({ format: SCENARIO_FILE_FORMAT, version: SCENARIO_FILE_VERSION, name, run: { variant: run.variant, seed: run.seed, schedule: run.schedule }, definition }, null, 2)}\n`;
}
