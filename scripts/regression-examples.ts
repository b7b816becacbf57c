/** The regression-test examples: a run of get-then-del through the Node API, then the generator. */
import { simulate } from '../src/api';
import { definitionOfScenario } from '../src/definition';
import { playwrightRegressionSpec, regressionFileBase, vitestRegressionTest, type RegressionRun } from '../src/definition/regression-test';
import { SCENARIOS } from '../src/scenarios';

const DIR = 'examples/my-lock-tests/tests/regression';

export async function regressionExampleRun(): Promise<RegressionRun> {
  const scenario = SCENARIOS.find((s) => s.id === 'get-then-del');
  if (!scenario) throw new Error('get-then-del is not a built-in scenario any more');
  const definition = definitionOfScenario(scenario);
  const result = await simulate({ scenario: definition, variant: 'get-then-del', seed: 1 });
  return { definition, variant: result.variant, seed: result.seed, schedule: result.schedule, violations: result.violations.map((v) => ({ kind: v.kind, step: v.step })) };
}

export async function regressionExampleFiles(): Promise<{ path: string; text: string }[]> {
  const run = await regressionExampleRun();
  const base = regressionFileBase(run);
  return [
    { path: `${DIR}/${base}.test.ts`, text: vitestRegressionTest(run) },
    { path: `${DIR}/${base}.spec.ts`, text: playwrightRegressionSpec(run) },
  ];
}
