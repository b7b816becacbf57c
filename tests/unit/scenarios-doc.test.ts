// Goal: docs/SCENARIOS.md is exactly what the generator makes from the scenario data, so the
// document a teacher reads can never drift from what the simulator runs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../src/scenarios';
import { renderScenariosDoc } from '../../src/scenarios/doc';

describe('docs/SCENARIOS.md', () => {
  const committed = readFileSync(new URL('../../docs/SCENARIOS.md', import.meta.url), 'utf8');

  it('is up to date with the scenario data (run `npm run docs:scenarios` when this fails)', () => {
    expect(committed === renderScenariosDoc(), 'docs/SCENARIOS.md differs from the generator output').toBe(true);
  });

  it('has a section per scenario and per variant, with both lessons', () => {
    for (const s of SCENARIOS) {
      expect(committed).toContain(`## ${s.id}\n`);
      expect(committed).toContain(s.lesson.en);
      expect(committed).toContain(s.lesson.zh);
      for (const v of s.variants) expect(committed).toContain(`### ${s.id} / ${v.id}\n`);
    }
  });
});
