/**
 * What the schema cannot say: that names a definition uses point at things it defines. Labels that
 * `if`, `goto` and `retry` jump to, scripts an `eval` runs, clients a `start` step or `startedBy`
 * names, `${placeholders}`, counters and resources, the default variant, and a default schedule that
 * parses and names known clients. Every problem is reported with its path, none stops the others.
 */
import { ExpressionError, parseExpression } from '../engine/properties';
import { parseSchedule, ScheduleSyntaxError } from '../engine/schedule';
import type { DefinitionClient, DefinitionVariant, ScenarioDefinition } from './schema';

/** One thing wrong with a definition, where it is (`variants[0].clients[1].program[3].goto`) and why. */
export interface DefinitionProblem {
  readonly path: string;
  readonly message: string;
}

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

function duplicates(values: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const value of values) (seen.has(value) ? twice : seen).add(value);
  return twice;
}

/** The text each step resolves as a template, with the field it sits in. */
function templatedFields(step: DefinitionClient['program'][number]): [string, string][] {
  switch (step.op) {
    case 'command':
      return step.argv.map((arg, i) => [`argv[${i}]`, arg]);
    case 'transaction':
      return step.commands.flatMap((argv, c) => argv.map((arg, i): [string, string] => [`commands[${c}][${i}]`, arg]));
    case 'waitMessage':
      return [...(step.channel === undefined ? [] : [['channel', step.channel] as [string, string]]), ...(typeof step.timeoutMs === 'string' ? [['timeoutMs', step.timeoutMs] as [string, string]] : [])];
    case 'eval':
      return [...step.keys.map((k, i): [string, string] => [`keys[${i}]`, k]), ...step.args.map((a, i): [string, string] => [`args[${i}]`, a])];
    case 'set':
      return [['value', step.value]];
    case 'if':
      return 'left' in step.when ? [['when.left', step.when.left], ['when.right', step.when.right]] : [];
    case 'write':
      return step.fencingToken === undefined ? [['value', step.value]] : [['value', step.value], ['fencingToken', step.fencingToken]];
    default:
      return [];
  }
}

function checkClient(
  definition: ScenarioDefinition,
  variant: DefinitionVariant,
  client: DefinitionClient,
  at: string,
  report: (path: string, message: string) => void,
): void {
  const program = client.program;
  const labels = program.map((step) => step.label).filter((label): label is string => label !== undefined);
  for (const label of duplicates(labels)) {
    program.forEach((step, i) => {
      if (step.label === label) report(`${at}.program[${i}].label`, `label "${label}" is used twice in client ${client.id}'s program`);
    });
  }
  const labelSet = new Set(labels);
  const scripts = new Set([...Object.keys(definition.scripts ?? {}), ...Object.keys(variant.scripts ?? {})]);
  const resources = new Set((variant.resources ?? definition.resources ?? []).map((r) => r.id));
  const counters = new Set((definition.counters ?? []).map((c) => c.id));
  const clientIds = new Set(variant.clients.map((c) => c.id));
  const params = new Set([...Object.keys(definition.params ?? {}), ...Object.keys(variant.params ?? {})]);
  const saved = new Set(program.flatMap((step) => ('saveAs' in step && step.saveAs !== undefined ? [step.saveAs] : [])));
  const variables = new Set(['token', 'clientId', ...Object.keys(client.vars ?? {}), ...saved, ...program.flatMap((step) => (step.op === 'set' ? [step.var] : []))]);

  program.forEach((step, i) => {
    const path = `${at}.program[${i}]`;
    if ((step.op === 'if' || step.op === 'goto' || step.op === 'retry') && !labelSet.has(step.goto)) {
      report(`${path}.goto`, `no step of client ${client.id} has the label "${step.goto}"`);
    }
    if (step.op === 'if' && 'reply' in step.when && !saved.has(step.when.reply)) {
      report(`${path}.when.reply`, `client ${client.id} never saves a reply as "${step.when.reply}" (saveAs)`);
    }
    if (step.op === 'eval' && !scripts.has(step.script)) {
      report(`${path}.script`, `no script named "${step.script}" (scripts: ${[...scripts].join(', ') || 'none'})`);
    }
    if (step.op === 'write' && !resources.has(step.resource)) {
      report(`${path}.resource`, `no protected resource "${step.resource}" (resources: ${[...resources].join(', ') || 'none'})`);
    }
    if (step.op === 'mark' && !counters.has(step.counter)) {
      report(`${path}.counter`, `no counter "${step.counter}" (counters: ${[...counters].join(', ') || 'none'})`);
    }
    if (step.op === 'start') {
      if (!clientIds.has(step.client)) report(`${path}.client`, `variant ${variant.id} has no client "${step.client}"`);
      else if (step.client === client.id) report(`${path}.client`, `client ${client.id} cannot start itself`);
    }
    for (const [field, text] of templatedFields(step)) {
      for (const name of placeholders(text)) {
        if (!variables.has(name) && !params.has(name)) {
          report(`${path}.${field}`, `\${${name}} is neither a parameter (params) nor a variable of client ${client.id} (token, clientId, vars, saveAs, set)`);
        }
      }
    }
  });

  const index = variant.clients.indexOf(client);
  if (client.tokenFrom !== undefined) {
    const from = variant.clients.findIndex((c) => c.id === client.tokenFrom);
    if (from === -1) report(`${at}.tokenFrom`, `variant ${variant.id} has no client "${client.tokenFrom}"`);
    else if (from >= index) report(`${at}.tokenFrom`, `client ${client.tokenFrom} must be listed before ${client.id} to lend it its token`);
  }
  if (client.startedBy !== undefined) {
    const starter = variant.clients.find((c) => c.id === client.startedBy);
    if (!starter) report(`${at}.startedBy`, `variant ${variant.id} has no client "${client.startedBy}"`);
    else if (starter.id === client.id) report(`${at}.startedBy`, `client ${client.id} cannot start itself`);
    else if (!starter.program.some((step) => step.op === 'start' && step.client === client.id)) {
      report(`${at}.startedBy`, `client ${starter.id} has no "start" step for ${client.id}, so ${client.id} would never run`);
    }
  }
}

function checkVariant(definition: ScenarioDefinition, variant: DefinitionVariant, at: string, report: (path: string, message: string) => void): void {
  const ids = variant.clients.map((c) => c.id);
  for (const id of duplicates(ids)) report(`${at}.clients`, `client id "${id}" is used twice`);
  variant.clients.forEach((client, i) => checkClient(definition, variant, client, `${at}.clients[${i}]`, report));
  const expected = variant.expect?.violations ?? [];
  for (const kind of variant.expect?.absent ?? []) {
    if (expected.includes(kind)) report(`${at}.expect.absent`, `"${kind}" is both expected and expected absent`);
  }
  if (definition.checkers !== undefined) {
    expected.forEach((kind, i) => {
      if (!definition.checkers?.includes(kind)) report(`${at}.expect.violations[${i}]`, `"${kind}" is expected, but its checker is not in checkers`);
    });
  }
  for (const id of duplicates((variant.resources ?? []).map((r) => r.id))) report(`${at}.resources`, `resource id "${id}" is used twice`);
}

/** Every cross-reference problem of a definition that passed the schema. */
export function checkSemantics(definition: ScenarioDefinition): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const report = (path: string, message: string) => problems.push({ path, message });
  const variantIds = definition.variants.map((v) => v.id);
  for (const id of duplicates(variantIds)) report('variants', `variant id "${id}" is used twice`);
  if (definition.defaultVariant !== undefined && !variantIds.includes(definition.defaultVariant)) {
    report('defaultVariant', `no variant "${definition.defaultVariant}" (variants: ${variantIds.join(', ')})`);
  }
  for (const id of duplicates((definition.counters ?? []).map((c) => c.id))) report('counters', `counter id "${id}" is used twice`);
  for (const id of duplicates((definition.resources ?? []).map((r) => r.id))) report('resources', `resource id "${id}" is used twice`);
  definition.variants.forEach((variant, i) => checkVariant(definition, variant, `variants[${i}]`, report));
  checkProperties(definition, report);

  const allClients = [...new Set(definition.variants.flatMap((v) => v.clients.map((c) => c.id)))];
  let choiceCount: number | null = null;
  try {
    choiceCount = parseSchedule(definition.defaultSchedule ?? '', allClients).length;
  } catch (error) {
    if (!(error instanceof ScheduleSyntaxError)) throw error;
    report('defaultSchedule', error.message);
  }
  if (choiceCount !== null) {
    const lines = [
      ...(definition.narration ?? []).map((line, i) => ({ line, path: `narration[${i}].step` })),
      ...definition.variants.flatMap((v, vi) => (v.narration ?? []).map((line, i) => ({ line, path: `variants[${vi}].narration[${i}].step` }))),
    ];
    for (const { line, path } of lines) {
      if (line.step >= choiceCount) report(path, `step ${line.step} is past the default schedule's ${choiceCount} choices (steps count from 0)`);
    }
  }
  return problems;
}

/** Property names are unique, and each expression parses (its error names the column). */
function checkProperties(definition: ScenarioDefinition, report: (path: string, message: string) => void): void {
  const list = definition.properties ?? [];
  for (const name of duplicates(list.map((p) => p.name))) report('properties', `property name "${name}" is used twice`);
  list.forEach((property, i) => {
    const [field, text] = 'always' in property ? ['always', property.always] : ['reachable', property.reachable];
    try {
      parseExpression(text);
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      report(`properties[${i}].${field}`, error.message);
    }
  });
}
