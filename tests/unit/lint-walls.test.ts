// Goal: the walls between layers are checks, not conventions. Each deliberately wrong file under
// tests/unit/fixtures/lint/ is linted with ESLint's Node API as if it sat in the layer it
// breaks, and the rule that guards that wall must fire; the right road stays clean.
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const FIXTURES = 'tests/unit/fixtures/lint';
let eslint: ESLint;

beforeAll(() => {
  // The repository's lint ignores the fixtures folder; here they are the point.
  eslint = new ESLint({ ignore: false });
});

/** Lints a fixture's text as the file `asPath` and returns `rule: message` for each problem. */
async function lintAs(fixture: string, asPath: string): Promise<string[]> {
  const code = readFileSync(`${FIXTURES}/${fixture}`, 'utf8');
  const [result] = await eslint.lintText(code, { filePath: asPath });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint walls', () => {
  it.each([
    ['component-imports-engine.tsx', 'src/ui/components/Wrong.tsx', /no-restricted-paths.*never the engine or the scenario registry/],
    ['component-imports-registry.tsx', 'src/ui/components/Wrong.tsx', /no-restricted-paths.*never the engine or the scenario registry/],
    ['component-imports-engine.tsx', 'src/ui/views/Wrong.tsx', /no-restricted-paths.*never the engine/],
    ['view-imports-store.ts', 'src/ui/views/wrong.ts', /no-restricted-paths.*store\/published\.ts/],
    ['engine-imports-ui.ts', 'src/engine/wrong.ts', /no-restricted-paths.*The engine imports nothing above it/],
    ['catalog-imports-engine.ts', 'src/i18n/wrong.ts', /no-restricted-paths.*catalog is a leaf/],
    ['store-imports-share.ts', 'src/ui/store/wrong.ts', /no-restricted-paths.*The store is below the page/],
    ['worker-imports-store.ts', 'src/ui/worker/wrong.ts', /no-restricted-paths.*owns its protocol/],
    ['page-imports-dev.ts', 'src/ui/wrong.ts', /no-restricted-paths.*the page never imports them/],
    ['history-imports-node.ts', 'src/history/wrong.ts', /no-restricted-imports.*src\/history is pure TypeScript/],
    ['history-imports-node.ts', 'src/history/wrong.ts', /no-restricted-paths.*The history checker is pure TypeScript over the engine/],
    ['slice-imports-slice.ts', 'src/ui/store/slices/wrong.ts', /no-restricted-paths.*A slice imports no other slice/],
    ['slice-imports-store-types.ts', 'src/ui/store/slices/wrong.ts', /no-restricted-paths.*A slice imports no other slice and not the whole store/],
    ['session-imports-ui.ts', 'src/session/wrong.ts', /no-restricted-paths.*The run session is framework-free/],
    ['session-imports-ui.ts', 'src/session/wrong.ts', /no-restricted-imports.*src\/session is framework-free/],
    ['view-imports-session.ts', 'src/ui/views/wrong.ts', /no-restricted-paths.*never the run session/],
  ])('%s as %s breaks a wall', async (fixture, asPath, rule) => {
    const problems = await lintAs(fixture, asPath);
    expect(problems.some((p) => rule.test(p)), problems.join('\n')).toBe(true);
  });

  it('bans wall time, randomness, timers and the DOM in the engine', async () => {
    const problems = await lintAs('engine-wall-clock.ts', 'src/engine/wrong.ts');
    for (const banned of ['Math.random', "'setTimeout'", "'document'", "'Date'", "'performance'"]) {
      expect(
        problems.some((p) => /no-restricted-(globals|properties)/.test(p) && p.includes(banned.replace(/'/g, ''))),
        `${banned}:\n${problems.join('\n')}`,
      ).toBe(true);
    }
  });

  it('allows the same code outside the engine (the UI playback driver may read time)', async () => {
    const problems = await lintAs('engine-wall-clock.ts', 'src/ui/store/wrong.ts');
    expect(problems.filter((p) => /no-restricted-(globals|properties)/.test(p))).toEqual([]);
  });

  it('lets a component take the road through the store', async () => {
    expect(await lintAs('component-through-store.tsx', 'src/ui/components/Right.tsx')).toEqual([]);
  });

  it('lets a feature slice take the road through its port', async () => {
    expect(await lintAs('slice-through-port.ts', 'src/ui/store/slices/right.ts')).toEqual([]);
  });

  it('finds an import cycle', async () => {
    const [result] = await eslint.lintFiles([`${FIXTURES}/cycle/a.ts`]);
    expect(result.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  });
});
