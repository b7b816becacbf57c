import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * `npm run bench`: runs every bench/*.bench.ts in turn and prints one table per file. Speed is
 * measured here, never asserted in tests. A bench file exports `run(): Promise<BenchTable>`.
 */

export interface BenchRow {
  readonly name: string;
  /** The measured value in the table's unit (usually operations per second), or null when it could not be taken. */
  readonly opsPerSec: number | null;
  /** Why a value is missing, or any remark worth printing. */
  readonly note?: string;
}

export interface BenchTable {
  readonly title: string;
  readonly unit: string;
  readonly rows: readonly BenchRow[];
  /** Row name the ratio column divides by. */
  readonly baseline?: string;
}

function formatRate(rate: number | null): string {
  if (rate === null) return 'unavailable';
  return Math.round(rate).toLocaleString('en-US');
}

export function printTable(table: BenchTable): void {
  const base = table.rows.find((row) => row.name === table.baseline)?.opsPerSec ?? null;
  const header = ['', table.unit, base === null ? '' : `vs ${table.baseline}`, ''];
  const lines = table.rows.map((row) => [
    row.name,
    formatRate(row.opsPerSec),
    base !== null && row.opsPerSec !== null ? `${(row.opsPerSec / base).toFixed(2)}x` : '',
    row.note ?? '',
  ]);
  const widths = header.map((_, i) => Math.max(header[i].length, ...lines.map((line) => line[i].length)));
  const render = (cells: string[]) => cells.map((cell, i) => (i === 0 || i === 3 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd();
  console.log(`\n${table.title}`);
  console.log(render(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(render(line));
}

async function main(): Promise<void> {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.bench.ts'))
    .sort();
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(dir, file)).href)) as { run: () => Promise<BenchTable | BenchTable[]> };
    const result = await module.run();
    for (const table of Array.isArray(result) ? result : [result]) printTable(table);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
