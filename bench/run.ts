import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchOptions, BenchPart, BenchRun, BenchTable, Figure, TextTable } from './types';

export type { BenchRow, BenchTable } from './types';

/**
 * `npm run bench`: runs every bench/<part>.bench.ts in turn, prints its tables and writes every
 * figure to a JSON file (docs/BENCH.md describes both). Speed is measured here, never asserted in
 * tests. A bench file exports `run(options)` returning rate tables or a BenchPart.
 */

const USAGE = `Usage: npm run bench -- [options]
  --only <parts>     comma-separated parts to run (default: all): ${'<part>'} is bench/<part>.bench.ts
  --skip <parts>     comma-separated parts to leave out
  --dist <dir>       page bench: serve this production build instead of building this checkout
  --src <dir>        engine bench and long-run schedules: import the engine from this checkout
  --presses <n>      page bench: presses per action, run and round (default 60)
  --series-seconds <n>  page bench: an action stops after n seconds of presses once it has 20 (default 30)
  --rounds <n>       page bench: rounds of the step series; figures are medians over rounds (default 3)
  --loads <n>        page bench: page loads for the first-screen figures (default 5)
  --json <file>      where to write the results (default bench/results/latest.json)
  --compare <file>   print each figure against an earlier results file`;

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(benchDir, '..');

function formatRate(rate: number | null): string {
  if (rate === null) return 'unavailable';
  return Math.round(rate).toLocaleString('en-US');
}

function printRows(header: readonly string[], lines: readonly (readonly string[])[], leftAligned: (column: number) => boolean): void {
  const widths = header.map((_, i) => Math.max(header[i].length, ...lines.map((line) => line[i].length)));
  const render = (cells: readonly string[]) => cells.map((cell, i) => (leftAligned(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd();
  console.log(render(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(render(line));
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
  console.log(`\n${table.title}`);
  printRows(header, lines, (i) => i === 0 || i === 3);
}

function printTextTable(table: TextTable): void {
  console.log(`\n${table.title}`);
  printRows(['', ...table.columns], table.rows.map((row) => [row.name, ...row.cells]), (i) => i === 0);
  for (const note of table.notes ?? []) console.log(`  ${note}`);
}

function isTextTable(table: BenchTable | TextTable): table is TextTable {
  return 'columns' in table;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A rate table's rows as figures, so every part lands in the same JSON list. */
function figuresOfRateTable(part: string, table: BenchTable): Figure[] {
  return table.rows.map((row) => ({
    id: `${part}.${slug(table.title)}.${slug(row.name)}`,
    value: row.opsPerSec,
    unit: table.unit,
    better: 'higher' as const,
    ...(row.note ? { note: row.note } : {}),
  }));
}

function asPart(name: string, result: BenchTable | readonly BenchTable[] | BenchPart): BenchPart {
  if ('figures' in result) return result;
  const tables: readonly BenchTable[] = 'rows' in result ? [result] : result;
  return { tables, figures: tables.flatMap((table) => figuresOfRateTable(name, table)) };
}

function git(root: string, args: readonly string[]): string | null {
  try {
    return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function describeCheckout(root: string): { root: string; commit: string | null; dirty: boolean | null } {
  const status = git(root, ['status', '--porcelain']);
  return { root, commit: git(root, ['rev-parse', '--short', 'HEAD']), dirty: status === null ? null : status.length > 0 };
}

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} wants a positive integer, got "${text}"`);
  return value;
}

function formatValue(figure: Figure): string {
  if (figure.value === null) return 'n/a';
  const digits = Math.abs(figure.value) >= 100 ? 0 : Math.abs(figure.value) >= 10 ? 1 : 2;
  return `${figure.value.toLocaleString('en-US', { maximumFractionDigits: digits })} ${figure.unit}`;
}

/** Prints each figure of this run beside the same figure of an earlier results file. */
function printComparison(figures: readonly Figure[], earlierFile: string): void {
  const earlier = JSON.parse(readFileSync(earlierFile, 'utf8')) as { figures: Figure[]; label?: string; startedAt?: string };
  const byId = new Map(earlier.figures.map((figure) => [figure.id, figure]));
  const lines = figures.map((figure) => {
    const before = byId.get(figure.id);
    let change = '';
    if (before?.value != null && figure.value !== null && before.value !== 0) {
      const factor = figure.value / before.value;
      const better = figure.better === 'higher' ? factor > 1 : factor < 1;
      change = `${factor.toFixed(2)}x${factor === 1 ? '' : better ? ' better' : ' worse'}`;
    }
    return [figure.id, before === undefined ? '' : formatValue(before), formatValue(figure), change];
  });
  console.log(`\nAgainst ${earlierFile}${earlier.startedAt ? ` (${earlier.startedAt})` : ''}`);
  printRows(['', 'earlier', 'now', 'now/earlier'], lines, (i) => i === 0);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      skip: { type: 'string' },
      dist: { type: 'string' },
      src: { type: 'string' },
      presses: { type: 'string' },
      rounds: { type: 'string' },
      'series-seconds': { type: 'string' },
      loads: { type: 'string' },
      json: { type: 'string' },
      compare: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const options: BenchOptions = {
    srcRoot: path.resolve(values.src ?? repoRoot),
    dist: values.dist === undefined ? null : path.resolve(values.dist),
    pressCount: positiveInt('presses', values.presses, 60),
    seriesBudgetMs: 1000 * positiveInt('series-seconds', values['series-seconds'], 30),
    roundCount: positiveInt('rounds', values.rounds, 3),
    loadCount: positiveInt('loads', values.loads, 5),
  };
  const jsonFile = path.resolve(values.json ?? path.join(benchDir, 'results', 'latest.json'));

  const available = readdirSync(benchDir)
    .filter((name) => name.endsWith('.bench.ts'))
    .map((name) => name.slice(0, -'.bench.ts'.length))
    .sort();
  const listed = (text: string | undefined) => (text === undefined ? null : text.split(',').map((name) => name.trim()).filter(Boolean));
  const only = listed(values.only);
  const skip = listed(values.skip) ?? [];
  for (const name of [...(only ?? []), ...skip]) {
    if (!available.includes(name)) throw new Error(`unknown bench part "${name}"; parts: ${available.join(', ')}`);
  }
  const parts = available.filter((name) => (only === null || only.includes(name)) && !skip.includes(name));

  const startedAt = new Date();
  const loadAverageAtStart = os.loadavg();
  const formatLoad = (load: readonly number[]) => load.map((n) => n.toFixed(2)).join(' ');
  console.log(`lockstep bench: ${parts.join(', ')} on ${os.cpus().length} cores, load average ${formatLoad(loadAverageAtStart)}`);
  const results: Record<string, BenchPart & { durationMs: number }> = {};
  for (const name of parts) {
    const partStart = performance.now();
    const module = (await import(pathToFileURL(path.join(benchDir, `${name}.bench.ts`)).href)) as { run: BenchRun };
    const part = asPart(name, await module.run(options));
    results[name] = { ...part, durationMs: Math.round(performance.now() - partStart) };
    for (const table of part.tables) {
      if (isTextTable(table)) printTextTable(table);
      else printTable(table);
    }
    console.log(`  (${name}: ${(results[name].durationMs / 1000).toFixed(1)} s)`);
  }
  const figures = Object.values(results).flatMap((part) => part.figures);
  const finishedAt = new Date();
  const report = {
    schema: 1,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    bench: describeCheckout(repoRoot),
    src: describeCheckout(options.srcRoot),
    options,
    machine: {
      cpuCount: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? null,
      totalMemoryBytes: os.totalmem(),
      loadAverageAtStart,
      loadAverageAtEnd: os.loadavg(),
      benchMaxRssBytes: process.resourceUsage().maxRSS * 1024,
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    figures,
    parts: results,
  };
  mkdirSync(path.dirname(jsonFile), { recursive: true });
  writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nWrote ${figures.length} figures to ${path.relative(process.cwd(), jsonFile)} in ${(report.durationMs / 1000).toFixed(1)} s; load average now ${formatLoad(os.loadavg())}.`);
  if (values.compare !== undefined) printComparison(figures, path.resolve(values.compare));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
