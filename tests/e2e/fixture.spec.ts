/**
 * Goal: the `lockstep/playwright` fixture (src/playwright) drives the real page through the
 * documented contract on a definition of the engineer's own: it loads it, steps, stalls, crashes
 * and steps back through the page's controls, reads violations and the worker's outcomes for the
 * definition's variants, and reports a refused definition with its paths. (The packed fixture runs
 * in examples/my-lock-tests, from the tarball, in `npm run test:example`.)
 */
import { test as lockstepTest, expect, LockstepActionError, LockstepLoadError } from '../../src/playwright';
import { allowPageLoad } from './fixtures';

// Against this suite's server (the config's baseURL) instead of the packaged page.
const test = lockstepTest.extend<object, { lockstepUrl: string | undefined }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  lockstepUrl: [async ({}, use, workerInfo) => use(workerInfo.project.use.baseURL), { scope: 'worker' }],
});

const worker = (id: string, release: 'script' | 'del') => ({
  id,
  program: [
    { op: 'command', label: 'acquire', argv: ['SET', 'jobs:lock', '${token}', 'NX', 'PX', '3000'], saveAs: 'acquired' },
    { op: 'if', when: { test: 'notNil', reply: 'acquired' }, goto: 'locked' },
    { op: 'end' },
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 1000 },
    { op: 'leave' },
    release === 'del'
      ? { op: 'command', argv: ['DEL', 'jobs:lock'], releases: true }
      : { op: 'eval', script: 'release', keys: ['jobs:lock'], args: ['${token}'], releases: true },
  ],
});

const definition = {
  version: 1,
  id: 'jobs-lock',
  title: 'Jobs lock',
  lockKey: 'jobs:lock',
  defaultSchedule: 'A A~4000 +3500 B +1000',
  scripts: { release: { source: "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end" } },
  variants: [
    { id: 'blind-del', title: 'DEL without a check', clients: [worker('A', 'del'), worker('B', 'del')] },
    { id: 'script', title: 'Compare-and-delete script', clients: [worker('A', 'script'), worker('B', 'script')] },
  ],
};

test.beforeEach(() => allowPageLoad());

test('a definition of my own: step, stall, advance, read violations, outcomes of every variant, step back', { tag: '@smoke' }, async ({ lockstep }) => {
  await lockstep.open(definition, { schedule: '' });
  await expect(lockstep.page.getByTestId('scenario-title')).toHaveText('Jobs lock');
  await lockstep.step('A'); // SET NX PX 3000, then 1 s of work
  await lockstep.stall('A', 4000); // a GC pause in the middle of the work
  await lockstep.advance(3500); // the lock expires at t=3000
  await lockstep.step('B'); // t=3500: B takes the free lock while A still believes it holds it
  await lockstep.advance(1000); // t=4000: A resumes, finishes its work and DELs B's lock
  const both = [
    ['mutual-exclusion', 'B entered the critical section while A is still in it'],
    ['foreign-release', "A deleted B's lock"],
  ];
  expect((await lockstep.violations()).map((v) => [v.kind, v.message])).toEqual(both);
  await expect(lockstep.banner).toBeVisible();
  const outcomes = await lockstep.outcomes();
  expect(outcomes.outcomes.map((o) => [o.variantId, o.violations.map((v) => v.kind)])).toEqual([
    ['blind-del', ['mutual-exclusion', 'foreign-release']],
    ['script', ['mutual-exclusion']],
  ]);
  await lockstep.stepBack();
  expect((await lockstep.violations()).map((v) => [v.kind, v.message])).toEqual(both.slice(0, 1));
  expect((await lockstep.state()).cursor).toBe(4);
});

test('a crash, and a control the page offers disabled', async ({ lockstep }) => {
  await lockstep.open(definition, { variant: 'script', schedule: '' });
  await lockstep.crash('A');
  expect((await lockstep.state()).clients.find((c) => c.id === 'A')?.status).toBe('crashed');
  await expect(lockstep.step('A')).rejects.toThrow(LockstepActionError);
});

test('a refused definition names the path of every problem', async ({ lockstep }) => {
  const broken = { ...definition, variants: [{ id: 'v', clients: [{ id: 'A', program: [{ op: 'eval', script: 'nope', keys: [], args: [] }] }] }] };
  const error = await lockstep.open(broken).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LockstepLoadError);
  expect((error as LockstepLoadError).reason).toBe('bad-definition');
  expect((error as LockstepLoadError).problems.map((p) => p.path)).toContain('definition.variants[0].clients[0].program[0].script');
});
