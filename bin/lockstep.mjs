#!/usr/bin/env node
// `npx lockstep ...`: from a clone, the TypeScript CLI through tsx (a devDependency); from the
// installed package (no src/), its built CLI in dist-pkg/lib.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'cli', 'main.ts');
if (existsSync(source)) {
  const require = createRequire(import.meta.url);
  const tsx = join(dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');
  const result = spawnSync(process.execPath, [tsx, source, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
} else {
  await import(pathToFileURL(join(root, 'dist-pkg', 'lib', 'cli.js')).href);
}
