/**
 * Writes docs/SCENARIOS.md from the scenario data (`npm run docs:scenarios`).
 * With --check, writes nothing and exits 1 when the committed file differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderScenariosDoc } from '../src/scenarios/doc';

const target = fileURLToPath(new URL('../docs/SCENARIOS.md', import.meta.url));
const text = renderScenariosDoc();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (current !== text) {
    process.stderr.write('docs/SCENARIOS.md is out of date: run `npm run docs:scenarios`\n');
    process.exitCode = 1;
  }
} else {
  writeFileSync(target, text);
  process.stdout.write(`wrote ${target}\n`);
}
