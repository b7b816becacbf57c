/**
 * Scenario definitions: a scenario as versioned JSON data (schema.ts), checked in two passes (the
 * schema, then cross-references in semantics.ts) and turned into the engine's Scenario
 * (convert.ts). Nothing here throws on bad input: every problem comes back with its path.
 */
import * as v from 'valibot';
import type { Scenario } from '../engine/scenario';
import { definitionBounds } from './bounds';
import { scenarioFromDefinition } from './convert';
import { DEFINITION_VERSION, definitionSchema, type ScenarioDefinition } from './schema';
import { checkSemantics, type DefinitionProblem } from './semantics';

export { definitionBounds } from './bounds';
export { definitionOfScenario } from './convert';
export { DEFINITION_VERSION, definitionSchema } from './schema';
export type { DefinitionClient, DefinitionStep, DefinitionText, DefinitionVariant, ScenarioDefinition } from './schema';
export type { DefinitionProblem } from './semantics';

export type DefinitionResult =
  | { readonly ok: true; readonly definition: ScenarioDefinition; readonly scenario: Scenario }
  | { readonly ok: false; readonly problems: readonly DefinitionProblem[] };

/** Problems reported at most; the rest are counted in one last line. */
const problemCountMax = 100;

type PathItem = { readonly key: unknown };

/** `variants[0].clients[1].program[3].goto`; '' is the definition itself. */
function pathText(items: readonly PathItem[] | undefined): string {
  let out = '';
  for (const { key } of items ?? []) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

function problemOf(issue: v.BaseIssue<unknown>): DefinitionProblem {
  const path = pathText(issue.path as readonly PathItem[] | undefined);
  // An unknown field in a strict object: say which, rather than "expected never".
  if (issue.type === 'strict_object' && issue.expected === 'never') return { path, message: `unknown field ${issue.received}` };
  if ((issue.type === 'strict_object' || issue.type === 'object') && issue.received === 'undefined' && issue.expected?.startsWith('"')) {
    return { path, message: `missing field ${issue.expected}` };
  }
  if (issue.type === 'variant' && issue.issues === undefined && issue.received !== 'undefined' && path.endsWith('op')) {
    return { path, message: `unknown step op ${issue.received}; ${issue.message}` };
  }
  return { path, message: issue.message };
}

function cut(problems: DefinitionProblem[]): DefinitionProblem[] {
  if (problems.length <= problemCountMax) return problems;
  return [...problems.slice(0, problemCountMax), { path: '', message: `and ${problems.length - problemCountMax} more problems` }];
}

/** Reads untrusted input as plain JSON data: refuses what is not JSON, too big, or cyclic. Never throws. */
function asJsonData(input: unknown): { ok: true; data: unknown } | { ok: false; problem: DefinitionProblem } {
  let text: string | undefined;
  try {
    text = JSON.stringify(input);
  } catch (error) {
    return { ok: false, problem: { path: '', message: `not JSON data: ${error instanceof Error ? error.message : String(error)}` } };
  }
  if (text === undefined) return { ok: false, problem: { path: '', message: 'expected a scenario definition (a JSON object), got nothing' } };
  return parseJsonText(text);
}

function parseJsonText(text: string): { ok: true; data: unknown } | { ok: false; problem: DefinitionProblem } {
  if (text.length > definitionBounds.definitionCharsMax) {
    return { ok: false, problem: { path: '', message: `the definition is ${text.length} characters long; at most ${definitionBounds.definitionCharsMax} are accepted` } };
  }
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: { path: '', message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` } };
  }
}

function validate(data: unknown): DefinitionResult {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, problems: [{ path: '', message: `expected a scenario definition (a JSON object with "version": ${DEFINITION_VERSION}), got ${data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data}` }] };
  }
  const version = (data as { version?: unknown }).version;
  if (typeof version === 'number' && version > DEFINITION_VERSION) {
    return { ok: false, problems: [{ path: 'version', message: `version ${version} is newer than this Lockstep reads (${DEFINITION_VERSION}): update Lockstep` }] };
  }
  const parsed = v.safeParse(definitionSchema, data);
  if (!parsed.success) return { ok: false, problems: cut(parsed.issues.map(problemOf)) };
  const problems = checkSemantics(parsed.output);
  if (problems.length > 0) return { ok: false, problems: cut(problems) };
  return { ok: true, definition: parsed.output, scenario: scenarioFromDefinition(parsed.output) };
}

/** Validates a definition given as data (an object from a test, `lockstep.load`, a parsed file). */
export function parseDefinition(input: unknown): DefinitionResult {
  const data = asJsonData(input);
  return data.ok ? validate(data.data) : { ok: false, problems: [data.problem] };
}

/** Validates a definition given as JSON text (a file). */
export function parseDefinitionText(text: string): DefinitionResult {
  const data = parseJsonText(text);
  return data.ok ? validate(data.data) : { ok: false, problems: [data.problem] };
}

/** Problems as lines for a terminal or an error message: `variants[0].id: an id ...`. */
export function formatProblems(problems: readonly DefinitionProblem[]): string {
  return problems.map((p) => `${p.path === '' ? '(definition)' : p.path}: ${p.message}`).join('\n');
}
