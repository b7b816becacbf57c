import { printExpression } from '../properties/print';
import { parseExpression } from '../properties/parse';
import type { Scenario, ScenarioProperty } from '../scenario';
import { PROPERTY_VIOLATION_KIND } from '../trace';
import type { FoundViolation, SearchCut } from './result';

/**
 * A scenario's own property, judged by the explorer: an `always` property is violated (with its
 * shortest schedule) or held within the bounds; a `reachable` goal is reached (the shortest
 * schedule that reaches it) or not reached within the bounds. `exhaustive` says whether "held"
 * and "not reached" cover every state within the bounds or only those searched before a cut.
 */
export interface PropertyVerdict {
  readonly name: string;
  readonly kind: 'always' | 'reachable';
  readonly status: 'violated' | 'held' | 'reached' | 'not-reached';
  readonly found: FoundViolation | null;
  readonly exhaustive: boolean;
  readonly statesExplored: number;
  readonly cut: SearchCut;
}

/** What one property's search returns (a subset of ExploreResult, so that any search mode fits). */
interface SearchOutcome {
  readonly violations: readonly FoundViolation[];
  readonly exhaustive: boolean;
  readonly statesExplored: number;
  readonly cut: SearchCut;
}

/**
 * The scenario one property is searched in: no built-in checkers, and the property alone as an
 * `always` property. A goal G is reached exactly where `not (G)` breaks, so breadth-first search's
 * first finding is the shortest schedule that reaches G.
 */
export function propertyScenario(scenario: Scenario, property: ScenarioProperty): Scenario {
  const text = printExpression(parseExpression(property.expression));
  const expression = property.kind === 'always' ? text : `not (${text})`;
  return { ...scenario, checkers: [], properties: [{ name: property.name, kind: 'always', expression }] };
}

/** A property's verdict from its own search's outcome (the search of `propertyScenario(scenario, property)`). */
export function propertyVerdict(property: ScenarioProperty, outcome: SearchOutcome): PropertyVerdict {
  const found = outcome.violations.find((v) => v.kind === PROPERTY_VIOLATION_KIND) ?? null;
  const status = property.kind === 'always' ? (found ? 'violated' : 'held') : found ? 'reached' : 'not-reached';
  return { name: property.name, kind: property.kind, status, found, exhaustive: outcome.exhaustive, statesExplored: outcome.statesExplored, cut: outcome.cut };
}

/** Each of the scenario's properties, judged by `search` (one search per property, stopping at its first finding). */
export function judgeProperties(scenario: Scenario, search: (scenario: Scenario) => SearchOutcome): PropertyVerdict[] {
  return (scenario.properties ?? []).map((property) => propertyVerdict(property, search(propertyScenario(scenario, property))));
}
