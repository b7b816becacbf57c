/**
 * Writes docs/scenario-definition.schema.json from the valibot schema (`npm run docs:schema`).
 * With --check, writes nothing and exits 1 when the committed file differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { definitionJsonSchemaText } from './definition-json-schema';

const target = fileURLToPath(new URL('../docs/scenario-definition.schema.json', import.meta.url));
const text = definitionJsonSchemaText();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (current !== text) {
    process.stderr.write('docs/scenario-definition.schema.json is out of date: run `npm run docs:schema`\n');
    process.exitCode = 1;
  }
} else {
  writeFileSync(target, text);
  process.stdout.write(`wrote ${target}\n`);
}
