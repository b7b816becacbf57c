/**
 * A run exported as regression tests (docs/AUTOMATION.md, "Export a run as a test"): the scenario's
 * definition, the variant, the seed and the schedule, and the violations the run produced (kind and
 * schedule step). Two files, for an outside project that installed Lockstep's package:
 * - a Vitest test that replays the run headlessly with the Node API (`simulate`) and asserts the
 *   same violations;
 * - a Playwright spec that replays it on the page with the `lockstep/playwright` fixture and
 *   asserts the same violations and the banner.
 * Pure text in, text out: the page (on demand), the example generator and the tests call it, so a
 * committed example is exactly what the page downloads (`npm run examples:regression -- --check`).
 */
import type { ViolationKind } from '../engine/trace';
import type { ScenarioDefinition } from './schema';

export interface RegressionRun {
  readonly definition: ScenarioDefinition;
  readonly variant: string;
  readonly seed: number;
  /** Canonical schedule text (docs/SCHEDULES.md). */
  readonly schedule: string;
  /** The run's violations in trace order: kind and 0-based schedule step. */
  readonly violations: readonly { readonly kind: ViolationKind; readonly step: number }[];
}

/** `get-then-del-lua`: the scenario and the variant, for file names (ids are already file-safe). */
export function regressionFileBase(run: RegressionRun): string {
  return run.variant === run.definition.id ? run.definition.id : `${run.definition.id}-${run.variant}`;
}

function titleOf(definition: ScenarioDefinition): string {
  const title = typeof definition.title === 'string' ? definition.title : definition.title?.en;
  return title ?? definition.id;
}

function header(run: RegressionRun, what: string): string {
  return [
    `// Regression test exported from Lockstep: ${JSON.stringify(titleOf(run.definition))}, variant ${run.variant}, seed ${run.seed}.`,
    `// ${what}`,
    '// The scenario is inlined as a definition (docs/scenario-definition.schema.json); regenerate the',
    '// file from the page (Workbench, Import / export) rather than editing the expectation by hand.',
  ].join('\n');
}

function expectedText(run: RegressionRun): string {
  if (run.violations.length === 0) return '[]';
  return `[\n${run.violations.map((v) => `  [${JSON.stringify(v.kind)}, ${v.step}],`).join('\n')}\n]`;
}

function body(run: RegressionRun): string {
  return [
    `const definition = ${JSON.stringify(run.definition, null, 2)};`,
    '',
    `const run = { variant: ${JSON.stringify(run.variant)}, seed: ${run.seed}, schedule: ${JSON.stringify(run.schedule)} };`,
    '',
    '/** The violations the run produced when it was exported: kind, and the schedule step (from 0). */',
    `const expected = ${expectedText(run)};`,
  ].join('\n');
}

function testName(run: RegressionRun): string {
  const verdict = run.violations.length === 0 ? 'with no violation' : `with the same ${run.violations.length === 1 ? 'violation' : `${run.violations.length} violations`}`;
  return JSON.stringify(`${titleOf(run.definition)} (${run.variant}, seed ${run.seed}) replays ${verdict}`);
}

/** A Vitest test file (Node API) for the run. */
export function vitestRegressionTest(run: RegressionRun): string {
  return `${[
    header(run, 'It replays the run headlessly with the Node API and asserts the same violations at the same steps.'),
    "import { expect, it } from 'vitest';",
    "import { simulate } from 'lockstep';",
    '',
    body(run),
    '',
    `it(${testName(run)}, async () => {`,
    '  const result = await simulate({ scenario: definition, ...run });',
    '  expect(result.schedule).toBe(run.schedule);',
    '  expect(result.violations.map((v) => [v.kind, v.step])).toEqual(expected);',
    '});',
  ].join('\n')}\n`;
}

/** A Playwright spec (the `lockstep/playwright` fixture on the page) for the run. */
export function playwrightRegressionSpec(run: RegressionRun): string {
  const banner = run.violations.length === 0 ? '  await expect(lockstep.banner).toHaveCount(0);' : '  await expect(lockstep.banner).toBeVisible();';
  return `${[
    header(run, "It replays the run on Lockstep's page with the lockstep/playwright fixture and asserts the same violations."),
    "import { test, expect } from 'lockstep/playwright';",
    '',
    body(run),
    '',
    `test(${testName(run)}, async ({ lockstep }) => {`,
    '  await lockstep.open(definition, run);',
    '  expect((await lockstep.state()).schedule).toBe(run.schedule);',
    '  expect((await lockstep.violations()).map((v) => [v.kind, v.step])).toEqual(expected);',
    banner,
    '});',
  ].join('\n')}\n`;
}
