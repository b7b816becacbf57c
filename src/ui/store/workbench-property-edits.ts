/**
 * The Properties tab's edits, as pure functions from one scenario definition to the next: a
 * definition's own properties (docs/AUTOMATION.md, "Properties") listed as the tab shows them,
 * and one added, replaced or removed. The result is validated like any definition before it runs
 * (slices/workbench.ts): an expression that does not parse is refused with its path and column.
 */
import type { ScenarioDefinition } from '../../definition';

/** A property as the tab edits it: its name, whether it must always hold or be reachable, and its expression. */
export interface PropertyDraft {
  readonly name: string;
  readonly kind: 'always' | 'reachable';
  readonly expression: string;
}

/** Put a property at `at` (replacing the one there), or at the end when `at` is null; or remove the one at `at`. */
export type PropertyEdit = { readonly kind: 'put'; readonly at: number | null; readonly property: PropertyDraft } | { readonly kind: 'remove'; readonly at: number };

type DefinitionProperty = NonNullable<ScenarioDefinition['properties']>[number];

/** The definition's properties, in its order. */
export function propertiesOf(definition: ScenarioDefinition): PropertyDraft[] {
  return (definition.properties ?? []).map((p) => ('always' in p ? { name: p.name, kind: 'always', expression: p.always } : { name: p.name, kind: 'reachable', expression: p.reachable }));
}

function asDefinitionProperty(property: PropertyDraft): DefinitionProperty {
  return property.kind === 'always' ? { name: property.name, always: property.expression } : { name: property.name, reachable: property.expression };
}

/** The definition with the edit applied; with no property left, without a `properties` field. */
export function editProperties(definition: ScenarioDefinition, edit: PropertyEdit): ScenarioDefinition {
  const list = [...(definition.properties ?? [])];
  if (edit.kind === 'remove') list.splice(edit.at, 1);
  else if (edit.at === null || edit.at >= list.length) list.push(asDefinitionProperty(edit.property));
  else list[edit.at] = asDefinitionProperty(edit.property);
  const { properties: _dropped, ...rest } = definition;
  return list.length === 0 ? rest : { ...rest, properties: list };
}
