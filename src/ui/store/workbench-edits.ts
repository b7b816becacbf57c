/**
 * The workbench's edits, as pure functions from one scenario definition to the next: what a
 * learner changes (a script's source, a parameter such as the lease, a program's steps) is data
 * in, data out. The result is validated like any definition before it runs (slices/workbench.ts).
 */
import type { DefinitionStep, ScenarioDefinition } from '../../definition';

/** A change to the steps of one client's program (`pc` is the step's 0-based index). */
export type ProgramEdit =
  | { readonly kind: 'remove'; readonly clientId: string; readonly pc: number }
  | { readonly kind: 'move'; readonly clientId: string; readonly pc: number; readonly by: -1 | 1 }
  /** Replaces the step with an EVAL of a script: the lock key as KEYS[1], the client's token as ARGV[1]. */
  | { readonly kind: 'callScript'; readonly clientId: string; readonly pc: number; readonly script: string }
  /** Inserts a `work` step of `durationMs` before `pc` (at the end when `pc` is the program's length). */
  | { readonly kind: 'insertWork'; readonly clientId: string; readonly pc: number; readonly durationMs: number }
  /** Inserts any step before `pc` (at the end when `pc` is the program's length). */
  | { readonly kind: 'insert'; readonly clientId: string; readonly pc: number; readonly step: DefinitionStep };

export interface ScriptEntry {
  readonly name: string;
  readonly source: string;
  /** Where the source lives: the variant's own scripts, or the scenario's (shared by its variants). */
  readonly scope: 'variant' | 'scenario';
}

type Variant = ScenarioDefinition['variants'][number];
type Program = readonly DefinitionStep[];

function variantIndex(definition: ScenarioDefinition, variantId: string): number {
  const index = definition.variants.findIndex((v) => v.id === variantId);
  return index < 0 ? 0 : index;
}

function withVariant(definition: ScenarioDefinition, variantId: string, change: (variant: Variant) => Variant): ScenarioDefinition {
  const at = variantIndex(definition, variantId);
  return { ...definition, variants: definition.variants.map((v, i) => (i === at ? change(v) : v)) };
}

/** The scripts a variant's steps can evaluate: the scenario's, overridden by the variant's own. */
export function scriptsOf(definition: ScenarioDefinition, variantId: string): ScriptEntry[] {
  const variant = definition.variants[variantIndex(definition, variantId)];
  const out = new Map<string, ScriptEntry>();
  for (const [name, script] of Object.entries(definition.scripts ?? {})) out.set(name, { name, source: script.source, scope: 'scenario' });
  for (const [name, script] of Object.entries(variant.scripts ?? {})) out.set(name, { name, source: script.source, scope: 'variant' });
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Sets a script's source where the variant reads it from (a scenario script is shared by every
 * variant, as in the lesson); a new name becomes a scenario script.
 */
export function setScriptSource(definition: ScenarioDefinition, variantId: string, name: string, source: string): ScenarioDefinition {
  const variant = definition.variants[variantIndex(definition, variantId)];
  const own = variant.scripts?.[name];
  if (own) return withVariant(definition, variantId, (v) => ({ ...v, scripts: { ...v.scripts, [name]: { ...own, source } } }));
  const shared = definition.scripts?.[name];
  return { ...definition, scripts: { ...definition.scripts, [name]: shared ? { ...shared, source } : { source } } };
}

/** Parameters as the variant sees them (the scenario's, then the variant's over them). */
export function paramsOf(definition: ScenarioDefinition, variantId: string): { name: string; value: string }[] {
  const variant = definition.variants[variantIndex(definition, variantId)];
  const merged = { ...definition.params, ...variant.params };
  return Object.entries(merged).map(([name, value]) => ({ name, value: String(value) }));
}

/** Sets a parameter where the variant reads it from (its own params if it overrides it, else the scenario's). */
export function setParam(definition: ScenarioDefinition, variantId: string, name: string, value: string): ScenarioDefinition {
  const typed = /^-?[0-9]{1,15}$/.test(value) ? Number(value) : value;
  const variant = definition.variants[variantIndex(definition, variantId)];
  if (variant.params && Object.hasOwn(variant.params, name)) {
    return withVariant(definition, variantId, (v) => ({ ...v, params: { ...v.params, [name]: typed } }));
  }
  return { ...definition, params: { ...definition.params, [name]: typed } };
}

function sameProgram(a: Program, b: Program): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Removing a labelled step hands its label to the next step, so jumps to it still land. */
function removeStep(program: Program, pc: number): DefinitionStep[] {
  const out = [...program];
  const [removed] = out.splice(pc, 1);
  const next = out[pc];
  if (removed?.label !== undefined && next !== undefined && next.label === undefined) out[pc] = { ...next, label: removed.label };
  return out;
}

function moveStep(program: Program, pc: number, by: -1 | 1): DefinitionStep[] {
  const to = pc + by;
  if (to < 0 || to >= program.length) return [...program];
  const out = [...program];
  [out[pc], out[to]] = [out[to], out[pc]];
  return out;
}

function callScript(program: Program, pc: number, script: string): DefinitionStep[] {
  const step = program[pc];
  if (step === undefined) return [...program];
  const keep = step as { saveAs?: string; releases?: boolean; label?: string; note?: DefinitionStep['note'] };
  const call: DefinitionStep = {
    op: 'eval',
    script,
    keys: ['${lockKey}'],
    args: ['${token}'],
    ...(keep.label === undefined ? {} : { label: keep.label }),
    ...(keep.saveAs === undefined ? {} : { saveAs: keep.saveAs }),
    ...(keep.releases === undefined ? {} : { releases: keep.releases }),
  };
  return program.map((s, i) => (i === pc ? call : s));
}

function applyEdit(program: Program, edit: ProgramEdit): DefinitionStep[] {
  switch (edit.kind) {
    case 'remove':
      return removeStep(program, edit.pc);
    case 'move':
      return moveStep(program, edit.pc, edit.by);
    case 'callScript':
      return callScript(program, edit.pc, edit.script);
    case 'insertWork':
      return insertStep(program, edit.pc, { op: 'work', durationMs: edit.durationMs });
    case 'insert':
      return insertStep(program, edit.pc, edit.step);
  }
}

function insertStep(program: Program, pc: number, step: DefinitionStep): DefinitionStep[] {
  const out = [...program];
  out.splice(Math.max(0, Math.min(pc, out.length)), 0, step);
  return out;
}

/**
 * Applies an edit to one client's program; with `sameForAll`, also to every client of the variant
 * that runs the same program (the lessons' clients share one), so A and B stay alike.
 */
export function editProgram(definition: ScenarioDefinition, variantId: string, edit: ProgramEdit, sameForAll: boolean): ScenarioDefinition {
  return withVariant(definition, variantId, (variant) => {
    const target = variant.clients.find((c) => c.id === edit.clientId);
    if (!target) return variant;
    const before = target.program;
    return {
      ...variant,
      clients: variant.clients.map((client) =>
        client.id === edit.clientId || (sameForAll && sameProgram(client.program, before)) ? { ...client, program: applyEdit(client.program, edit) } : client,
      ),
    };
  });
}

/** The id an edited copy of a scenario runs under, so its link never claims to be the built-in lesson. */
export function editedId(id: string): string {
  if (id.endsWith('-edited')) return id;
  return `${id.slice(0, 64 - '-edited'.length)}-edited`;
}
