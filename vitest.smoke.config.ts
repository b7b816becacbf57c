import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * The smoke tier's unit run (`npm run test:smoke`, scripts/smoke.mjs; LOCKSTEP_TEST_SIZE=smoke
 * shrinks generated cases and runs, tests/support/size.ts). These files only run in the full
 * gate (`npm test`): each is a fixed, whole piece of work that a smaller size would not check.
 */
const FULL_GATE_ONLY = [
  // Real lock libraries' published bugs, each searched to its shortest schedule (a minute or more).
  'examples/library-races/**',
  // A real redis-server: driven in real time, and the differential suite against it.
  'tests/replay/**',
  'tests/differential/**',
  // Scripts run to their instruction and memory budgets (fixed work per budget).
  'tests/unit/lua-budget.test.ts',
  // redlock and redis-semaphore, installed, under the Node API.
  'tests/unit/api-libraries.test.ts',
  // ESLint over the fixtures of every wall (a minute).
  'tests/unit/lint-walls.test.ts',
  // Every lesson's search to its declared bounds: the every-lesson table (a minute).
  'tests/unit/explore-lessons.test.ts',
  // The CLI in child processes (each starts tsx).
  'tests/unit/cli.test.ts',
  'tests/unit/cli-explore.test.ts',
  'tests/unit/cli-definition-file.test.ts',
  // Every challenge's goal searched by the explorer.
  'tests/unit/learn-challenges.test.ts',
];

// Lint and typecheck are done by now (scripts/smoke.mjs): every core runs test files.
export default mergeConfig(base, defineConfig({ test: { exclude: [...FULL_GATE_ONLY, '**/node_modules/**'], maxWorkers: availableParallelism(), isolate: false } }));
