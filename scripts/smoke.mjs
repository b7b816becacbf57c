#!/usr/bin/env node
// `npm run test:smoke`: the inner loop's quick gate (docs/TESTING.md). Lint and typecheck side by
// side (both cached between runs), then every unit test at the smoke sizes (tests/support/size.ts:
// fewer generated cases, shorter runs) except the few listed in vitest.smoke.config.ts, then the
// end-to-end tests tagged @smoke. `npm test` stays the full gate that CI runs.
import { spawn } from 'node:child_process';

const cacheDir = 'node_modules/.cache/lockstep-smoke';

function run(name, command, args, env = {}) {
  const startMs = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('close', (code) => {
      const seconds = ((Date.now() - startMs) / 1000).toFixed(1);
      console.error(`[smoke] ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s`);
      resolve(code === 0);
    });
  });
}

const startMs = Date.now();
const checks = await Promise.all([
  run('lint', 'npx', ['eslint', '--max-warnings', '0', '--cache', '--cache-location', `${cacheDir}/eslint`, '.']),
  run('typecheck (page)', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', `${cacheDir}/page.tsbuildinfo`]),
  run('typecheck (engine)', 'npx', ['tsc', '-p', 'tsconfig.engine.json', '--noEmit', '--incremental', '--tsBuildInfoFile', `${cacheDir}/engine.tsbuildinfo`]),
]);
let ok = checks.every(Boolean);
ok = ok && (await run('unit (smoke sizes)', 'npx', ['vitest', 'run', '-c', 'vitest.smoke.config.ts'], { LOCKSTEP_TEST_SIZE: 'smoke' }));
ok = ok && (await run('e2e (@smoke)', 'node', ['tests/e2e/run-playwright.mjs', '--grep', '@smoke']));
console.error(`[smoke] ${ok ? 'all passed' : 'failed'} in ${((Date.now() - startMs) / 1000).toFixed(0)} s`);
process.exit(ok ? 0 : 1);
