// Goal: a scenario definition states its own properties; bad expressions come back by path with
// the column; the explorer finds the shortest schedule that breaks an `always` property, the
// shortest that reaches a `reachable` goal, and says when a goal is not reached within the bounds.
import { describe, expect, it } from 'vitest';
import { explore as exploreApi } from '../../src/api/explore';
import { definitionOfScenario, parseDefinition } from '../../src/definition';
import { explore, resolveBounds, verdictLines } from '../../src/engine/explore';
import { runSchedule } from '../../src/engine/simulation';
import type { Scenario } from '../../src/engine/scenario';
import { SCENARIOS } from '../../src/scenarios';

const builtIn = SCENARIOS.find((s) => s.id === 'get-then-del') as Scenario;
const base = definitionOfScenario(builtIn);
/** Definitions do not carry the lesson's explore bounds: the same stall budget (one GC pause), given here. */
const bounds = { faults: resolveBounds(builtIn).faults };

function scenarioWith(properties: unknown[]): Scenario {
  const result = parseDefinition({ ...base, properties });
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.scenario;
}

const onlyHolderDeletes = { name: 'only-holder-deletes', always: 'not (event.command == "DEL") or lock.holder == null or lock.holder == event.client' };
const bWhileA = { name: 'b-enters-while-a-inside', reachable: 'event.kind == "enter" and event.client == "B" and clients.A.inside' };
const foreignDelete = { name: 'foreign-delete', reachable: 'event.kind == "command" and lock.after == null and lock.holder != null and lock.holder != event.client' };

describe('properties in definitions', () => {
  it('reports a bad expression by path, with its column', () => {
    const result = parseDefinition({ ...base, properties: [{ name: 'p', always: 'event.kind == "x")' }] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toContainEqual({ path: 'properties[0].always', message: 'unexpected ")" at column 18' });
  });

  it('refuses a property with both always and reachable, and duplicate names', () => {
    expect(parseDefinition({ ...base, properties: [{ name: 'p', always: 'true', reachable: 'true' }] }).ok).toBe(false);
    const dup = parseDefinition({ ...base, properties: [{ name: 'p', always: 'true' }, { name: 'p', reachable: 'true' }] });
    expect(dup.ok).toBe(false);
  });

  it('a run records a property violation naming the property where it breaks', () => {
    const scenario = scenarioWith([onlyHolderDeletes]);
    const explored = explore({ scenario, bounds, variantId: 'get-then-del', invariants: ['property'], stopAt: 'first' });
    const found = explored.violations.find((v) => v.kind === 'property');
    expect(found?.property).toBe('only-holder-deletes');
    const trace = runSchedule(scenario, { variantId: 'get-then-del', schedule: found?.schedule ?? '' });
    const last = trace.events.filter((e) => e.kind === 'violation').at(-1);
    expect(last).toMatchObject({ violation: 'property', property: 'only-holder-deletes' });
  });

  it('explores: the always property is violated with the same shortest schedule as foreign-release', () => {
    const scenario = scenarioWith([onlyHolderDeletes, bWhileA]);
    const result = explore({ scenario, bounds, variantId: 'get-then-del' });
    const builtIn = result.violations.find((v) => v.kind === 'foreign-release');
    const [always, goal] = result.properties ?? [];
    expect(always).toMatchObject({ name: 'only-holder-deletes', status: 'violated' });
    expect(always.found?.steps).toBe(builtIn?.steps);
    expect(goal).toMatchObject({ name: 'b-enters-while-a-inside', status: 'reached' });
    const lines = verdictLines(result);
    expect(lines).toContain(`Property only-holder-deletes is violated in ${always.found?.steps} choices: ${always.found?.schedule}`);
    expect(lines.some((l) => l.startsWith('Goal b-enters-while-a-inside is reached in '))).toBe(true);
    expect(verdictLines(result, 'zh').some((l) => l.startsWith('目标 b-enters-while-a-inside 可达'))).toBe(true);
  });

  it('a goal the fix rules out is not reached, and the verdict says how far it looked', () => {
    const scenario = scenarioWith([foreignDelete]);
    const broken = explore({ scenario, bounds, variantId: 'get-then-del' }).properties?.[0];
    expect(broken?.status).toBe('reached');
    const fixed = explore({ scenario, bounds, variantId: 'lua' });
    const verdict = fixed.properties?.[0];
    expect(verdict?.status).toBe('not-reached');
    expect(verdict?.found).toBeNull();
    const line = verdictLines(fixed).find((l) => l.startsWith('Goal foreign-delete'));
    expect(line).toBe(
      verdict?.exhaustive
        ? `Goal foreign-delete is not reachable within the bounds: ${verdict.statesExplored} states, exhaustive.`
        : `Goal foreign-delete was not reached within the bounds: ${verdict?.statesExplored} states, not exhaustive (the search was cut).`,
    );
  });

  it('the Node API explores a definition with properties, with their verdicts', async () => {
    const result = await exploreApi({ scenario: { ...base, properties: [onlyHolderDeletes] }, variant: 'get-then-del', faults: { stalls: 1, stallLengthsMs: [5000, 7000] }, workers: 1 });
    expect(result.properties).toEqual(['only-holder-deletes']);
    expect(result.verdict.properties?.[0]).toMatchObject({ name: 'only-holder-deletes', status: 'violated' });
  });
});
