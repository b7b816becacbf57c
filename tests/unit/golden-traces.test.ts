import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { goldenFiles } from '../support/golden';

/**
 * Every scenario variant's default-schedule trace (seed 1) is byte-identical to its committed
 * golden file. A refactor must keep them; a deliberate change regenerates them with
 * `npm run golden:update` (see tests/support/golden.ts) and shows the difference in review.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const files = goldenFiles();

describe('golden traces', () => {
  for (const file of files) {
    it(`${file.path} is byte-identical`, () => {
      const committed = readFileSync(path.join(root, file.path), 'utf8');
      // Compare as strings for an exact verdict; the diff vitest prints shows where they part.
      expect(file.text === committed, `${file.path} differs from the trace the code produces now (npm run golden:update regenerates it)`).toBe(true);
    });
  }

  it('no golden file is left over from a scenario or variant that no longer exists', () => {
    const expected = new Set(files.map((f) => f.path));
    const goldenDir = path.join(root, 'tests/golden');
    const committed = readdirSync(goldenDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(path.join(goldenDir, d.name)).map((name) => `tests/golden/${d.name}/${name}`));
    expect(committed.filter((p) => !expected.has(p))).toEqual([]);
  });
});
