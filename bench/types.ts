/** Shapes every bench part shares: the tables it prints and the figures it writes to JSON. */

export interface BenchRow {
  readonly name: string;
  /** Operations per second, or null when the measurement could not be taken. */
  readonly opsPerSec: number | null;
  /** Why a value is missing, or any remark worth printing. */
  readonly note?: string;
}

/** A table of rates (operations per second), with a ratio column against one row. */
export interface BenchTable {
  readonly title: string;
  readonly unit: string;
  readonly rows: readonly BenchRow[];
  /** Row name the ratio column divides by. */
  readonly baseline?: string;
}

/** A table of already formatted cells, for figures of mixed units. */
export interface TextTable {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly { readonly name: string; readonly cells: readonly string[] }[];
  /** Lines printed under the table: how it was measured, goals. */
  readonly notes?: readonly string[];
}

/** One number, named for comparison across runs (`bench/results/*.json`). */
export interface Figure {
  /** Dotted and stable, e.g. `page.step.long.back.p95Ms`. */
  readonly id: string;
  readonly value: number | null;
  readonly unit: string;
  readonly better: 'higher' | 'lower';
  /** The goal this figure is judged by, in words (`< 16`), when it has one. */
  readonly goal?: string;
  /** true / false when the figure has a goal and a value. */
  readonly meetsGoal?: boolean;
  readonly note?: string;
}

/** What a bench part returns: tables to print, figures to keep, details for the JSON file. */
export interface BenchPart {
  readonly tables: readonly (BenchTable | TextTable)[];
  readonly figures: readonly Figure[];
  readonly details?: unknown;
}

export interface BenchOptions {
  /** The checkout whose engine the headless parts import (`--src`); default: this repository. */
  readonly srcRoot: string;
  /** A production build to serve (`--dist`); null: build this repository's app first. */
  readonly dist: string | null;
  /** Presses per action and run in each round of the page bench (`--presses`). */
  readonly pressCount: number;
  /** An action's presses stop early once they took this long and have 20 samples (`--series-seconds`). */
  readonly seriesBudgetMs: number;
  /** Rounds of the step-latency series (`--rounds`); each figure is the median over rounds. */
  readonly roundCount: number;
  /** Page loads for the first-screen figures (`--loads`). */
  readonly loadCount: number;
}

/** A bench file (`bench/<part>.bench.ts`) exports `run`. */
export type BenchRun = (options: BenchOptions) => Promise<BenchTable | readonly BenchTable[] | BenchPart>;
