/**
 * A file generated from the code (docs/SCENARIOS.md, the definition's JSON Schema): written, or,
 * with --check, compared with what is committed (exit code 1 when it differs; writes nothing).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `path` is relative to the repository root; `command` regenerates it. */
export function writeOrCheck(path: string, text: string, command: string): void {
  const target = fileURLToPath(new URL(`../${path}`, import.meta.url));
  if (!process.argv.includes('--check')) {
    writeFileSync(target, text);
    process.stdout.write(`wrote ${target}\n`);
    return;
  }
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (current !== text) {
    process.stderr.write(`${path} is out of date: run \`${command}\`\n`);
    process.exitCode = 1;
  }
}
