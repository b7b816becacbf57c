/**
 * Writes the golden traces under tests/golden/ from the current code (`npm run golden:update`).
 * Run it only when a change is meant to change traces, and review the diff: the golden-trace test
 * (tests/unit/golden-traces.test.ts) fails on any byte that differs from the committed files.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { goldenFiles } from '../tests/support/golden';

const root = fileURLToPath(new URL('..', import.meta.url));
const goldenDir = path.join(root, 'tests/golden');
const files = goldenFiles();
// Scenarios or variants that no longer exist leave no stale file behind.
for (const entry of readdirSync(goldenDir, { withFileTypes: true })) {
  if (entry.isDirectory()) rmSync(path.join(goldenDir, entry.name), { recursive: true });
}
for (const file of files) {
  const target = path.join(root, file.path);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, file.text);
}
process.stdout.write(`wrote ${files.length} golden traces under tests/golden/\n`);
