/**
 * Goal: every built-in scenario is expressible as a definition. Each one goes to JSON text and back
 * through the validator, and every variant then gives a byte-identical trace under the default
 * schedule (and the definition survives a second trip unchanged).
 */
import { describe, expect, it } from 'vitest';
import { definitionOfScenario, parseDefinitionText, formatProblems } from '../../src/definition';
import { runSchedule } from '../../src/engine/simulation';
import { SCENARIOS } from '../../src/scenarios';

describe('built-in scenarios round-trip through the definition format', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario.id}: JSON text and back gives the same trace for every variant`, () => {
      const text = JSON.stringify(definitionOfScenario(scenario), null, 2);
      const result = parseDefinitionText(text);
      if (!result.ok) throw new Error(formatProblems(result.problems));
      expect(JSON.stringify(definitionOfScenario(result.scenario), null, 2)).toBe(text);
      for (const variant of scenario.variants) {
        const before = JSON.stringify(runSchedule(scenario, { variantId: variant.id }));
        const after = JSON.stringify(runSchedule(result.scenario, { variantId: variant.id }));
        expect(after).toBe(before);
      }
    });
  }
});
