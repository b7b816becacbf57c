import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Builds the production app of `srcRoot` with that checkout's own Vite and config into
 * `outDir` (outside the repository: not `dist/`, which the e2e suite builds into and may be
 * using, and nothing for the linter to read). Vite's output is shown only when the build fails.
 */
export function buildApp(srcRoot: string, outDir: string): string {
  const out = path.resolve(outDir);
  console.log(`  building ${srcRoot} into ${out} ...`);
  const result = spawnSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], { cwd: srcRoot, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`vite build in ${srcRoot} failed (exit ${String(result.status)})`);
  }
  return out;
}
