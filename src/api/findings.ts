/**
 * What the Node API reports beyond the engine's checkers: your own properties, and code that
 * throws. A **property** is a function of one trace event (`(event) => boolean | string`): false,
 * or a string saying why, means it does not hold at that event. It sees one event at a time, with
 * the lock as it was before and after (`lockBefore`, `lockAfter`), so two runs that reach the same
 * state have the same future for it: the explorer's merging of equal states stays sound. A
 * **client error** is an error your clients' code (or a timer's callback in it) throws and does not
 * catch: in Node an uncaught exception or an unhandled rejection ends the process, so the explorer
 * reports the shortest schedule that leads to one (`client-error`), as a finding.
 */
import type { TraceEvent, ViolationKind } from '../engine/trace';
import { VIOLATION_KINDS } from '../engine/trace';
import { ArgumentError } from './errors';

/** A checker's kind, an uncaught error of a client's code, or one of your properties. */
export type FindingKind = ViolationKind | 'client-error' | 'property';

/** What `invariants` may name: the checkers' kinds and `client-error`. */
export const FINDING_KINDS: readonly Exclude<FindingKind, 'property'>[] = [...VIOLATION_KINDS, 'client-error'];

/** Holds at an event: true (or nothing); does not: false, or a sentence saying why. */
export type Property = (event: TraceEvent) => boolean | string | undefined | void;

export type Properties = Readonly<Record<string, Property>>;

/** Properties are bounded in number and name, as every input is. */
const propertyCountMax = 32;
const propertyNameCharsMax = 200;

export function checkProperties(value: unknown): Properties {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ArgumentError('properties', "an object of named functions: { 'no silent re-acquire': (event) => ... }");
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > propertyCountMax) throw new ArgumentError('properties', `at most ${propertyCountMax} properties, got ${entries.length}`);
  for (const [name, check] of entries) {
    if (name.trim() === '' || name.length > propertyNameCharsMax) throw new ArgumentError('properties', `a property's name is 1 to ${propertyNameCharsMax} characters, got ${JSON.stringify(name)}`);
    if (typeof check !== 'function') throw new ArgumentError(`properties.${name}`, 'a function (event) => true when it holds, false or a sentence when it does not');
  }
  return value as Properties;
}

export function checkInvariants(value: unknown): readonly Exclude<FindingKind, 'property'>[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((k) => !(FINDING_KINDS as readonly unknown[]).includes(k))) {
    throw new ArgumentError('invariants', `a list of kinds (${FINDING_KINDS.join(', ')})`);
  }
  return value as Exclude<FindingKind, 'property'>[];
}

/** An event in a few words: who did what (a command's first words; the lock as it was and became). */
function eventText(event: TraceEvent): string {
  const who = event.clientId ?? 'the clock';
  if (event.kind !== 'command') return `${who}: ${event.kind}`;
  const words = event.argv.join(' ').replace(/\s+/g, ' ');
  const command = words.length > 80 ? `${words.slice(0, 80)}…` : words;
  return `${who}: ${command} (the lock ${event.lockBefore.value === null ? 'was free' : `held "${event.lockBefore.value}"`}, then ${event.lockAfter.value === null ? 'free' : `"${event.lockAfter.value}"`})`;
}

/** A property that did not hold at an event. */
export interface PropertyFailure {
  readonly property: string;
  readonly message: string;
  readonly event: TraceEvent;
}

/** The first property of each that fails at one of `events` (a property that throws fails, with its error). */
export function failedProperties(properties: Properties, events: readonly TraceEvent[], skip: (name: string) => boolean = () => false): PropertyFailure[] {
  const failures: PropertyFailure[] = [];
  for (const [property, check] of Object.entries(properties)) {
    if (skip(property)) continue;
    for (const event of events) {
      let verdict: ReturnType<Property>;
      try {
        verdict = check(event);
      } catch (error) {
        verdict = `the property threw: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (verdict !== false && typeof verdict !== 'string') continue;
      const why = typeof verdict === 'string' ? verdict : `it does not hold at t=${event.atMs} ms: ${eventText(event)}`;
      failures.push({ property, message: `property "${property}": ${why}`, event });
      break;
    }
  }
  return failures;
}
