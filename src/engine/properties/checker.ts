import { traceText } from '../../i18n';
import type { Checker } from '../checkers';
import type { Scenario, ScenarioProperty } from '../scenario';
import { PROPERTY_VIOLATION_KIND, type ViolationKind } from '../trace';
import { holds } from './evaluate';
import { parseExpression } from './parse';
import { propertyContext } from './context';

/**
 * One checker per `always` property: where its expression is false at an event, a `property`
 * finding names it. Violation events are not judged (a property speaks of what the run did, not
 * of what the checkers said about it). Throws ExpressionError on an expression that does not parse
 * (definitions are checked before they get here, with the path).
 */
export function propertyCheckers(properties: readonly ScenarioProperty[] | undefined): Checker[] {
  return (properties ?? [])
    .filter((p) => p.kind === 'always')
    .map((property) => {
      const expr = parseExpression(property.expression);
      const checker: Checker = (event, world) => {
        if (event.kind === 'violation' || holds(expr, propertyContext(event, world))) return [];
        const clients = event.clientId === null ? [] : [event.clientId];
        const message = traceText('vPropertyBroken', { name: property.name, kind: event.kind });
        return [{ kind: PROPERTY_VIOLATION_KIND, message, clients, property: property.name }];
      };
      return checker;
    });
}

/** `property` when the scenario states an `always` property and the search looks for it (asked: every kind when absent). */
export function propertyKinds(scenario: Scenario, asked: readonly ViolationKind[] | undefined): ViolationKind[] {
  const stated = (scenario.properties ?? []).some((p) => p.kind === 'always');
  return stated && (asked === undefined || asked.includes(PROPERTY_VIOLATION_KIND)) ? [PROPERTY_VIOLATION_KIND] : [];
}
