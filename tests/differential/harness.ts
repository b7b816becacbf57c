import { afterAll, beforeAll, describe, it } from 'vitest';
import { splitArgs } from '../../src/engine/redis/console';
import type { Reply } from '../../src/engine/redis/reply';
import { startRealRedis, type RealRedis } from '../support/real-redis';
import { RespClient } from '../support/resp-client';
import { createSimServer } from './sim-server';

/**
 * The differential harness: one case is a short sequence of redis-cli lines, run against a fresh
 * SimRedisServer and against a real, flushed redis-server; every reply must match exactly (type
 * and value), unless the step says how else to compare.
 *
 * Time: the real server runs on wall time, so the simulator is given `Date.now()` at each command.
 * Cases use long TTLs (100 s and more) so that no key expires while a case runs; absolute expiry
 * times are fixed far in the future so EXPIRETIME compares exactly. PTTL is the only reply that
 * depends on the milliseconds between the two executions: those steps compare with a tolerance
 * (`near`). Exact expiry boundaries are tested on virtual time in tests/unit/redis-expiry.test.ts.
 */

export type Compare =
  | { kind: 'exact' }
  /** Arrays compared as multisets (SMEMBERS, KEYS: Redis gives hash-table order). */
  | { kind: 'sorted' }
  /** Integer replies within `tolerance` of each other (PTTL while wall time moves). */
  | { kind: 'near'; tolerance: number };

export interface Step {
  readonly line: string;
  readonly compare: Compare;
}

export interface DiffCase {
  readonly name: string;
  readonly steps: readonly Step[];
}

export type StepInput = string | Step;

/** A case from redis-cli lines; plain strings compare exactly. */
export function diffCase(name: string, ...steps: StepInput[]): DiffCase {
  return { name, steps: steps.map((s) => (typeof s === 'string' ? { line: s, compare: { kind: 'exact' } } : s)) };
}

export const sorted = (line: string): Step => ({ line, compare: { kind: 'sorted' } });
/** PTTL-like integer, within 1 s: generous, since only scheduling delay separates the two clocks. */
export const near = (line: string, tolerance = 1000): Step => ({ line, compare: { kind: 'near', tolerance } });

export function argvOf(line: string): string[] {
  const split = splitArgs(line);
  if (!split.ok) throw new Error(`bad case line ${JSON.stringify(line)}: ${split.error}`);
  return split.argv;
}

/** Something that executes one command: the real server, the simulator, or a baseline. */
export type Executor = (argv: readonly string[]) => Promise<Reply> | Reply;

export interface StepOutcome {
  readonly step: Step;
  readonly expected: Reply;
  readonly got: Reply;
  readonly match: boolean;
}

export interface CaseOutcome {
  readonly name: string;
  readonly outcomes: readonly StepOutcome[];
  readonly match: boolean;
}

export async function flushReal(client: RespClient): Promise<void> {
  const flushed = await client.send(['FLUSHALL']);
  if (flushed.type !== 'status') throw new Error(`FLUSHALL failed on the real server: ${JSON.stringify(flushed)}`);
  await client.send(['SCRIPT', 'FLUSH']);
}

/** Runs a case on a flushed real server and a fresh executor; records every step. */
export async function runCase(client: RespClient, executor: Executor, diff: DiffCase): Promise<CaseOutcome> {
  await flushReal(client);
  const outcomes: StepOutcome[] = [];
  for (const step of diff.steps) {
    const argv = argvOf(step.line);
    const expected = await client.send(argv);
    const got = await executeCatching(executor, argv);
    outcomes.push({ step, expected, got, match: repliesMatch(expected, got, step.compare) });
  }
  return { name: diff.name, outcomes, match: outcomes.every((o) => o.match) };
}

/** A simulator that throws is a mismatch to report, not a crash of the whole suite. */
async function executeCatching(executor: Executor, argv: readonly string[]): Promise<Reply> {
  try {
    return await executor(argv);
  } catch (error) {
    return { type: 'error', value: `SIMULATOR THREW: ${(error as Error).stack ?? String(error)}` };
  }
}

export function repliesMatch(expected: Reply, got: Reply, compare: Compare): boolean {
  switch (compare.kind) {
    case 'exact':
      return sameReply(expected, got);
    case 'sorted':
      if (expected.type !== 'array' || got.type !== 'array') return sameReply(expected, got);
      return sameReply(sortArray(expected), sortArray(got));
    case 'near':
      if (expected.type !== 'integer' || got.type !== 'integer') return sameReply(expected, got);
      // Negative PTTLs (-1, -2) are exact answers, never approximations.
      if (BigInt(expected.value) < 0n || BigInt(got.value) < 0n) return expected.value === got.value;
      return Math.abs(Number(BigInt(expected.value) - BigInt(got.value))) <= compare.tolerance;
  }
}

function sortArray(r: Reply & { type: 'array' }): Reply {
  const keyed = r.value.map((item) => [JSON.stringify(item), item] as const);
  keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { type: 'array', value: keyed.map(([, item]) => item) };
}

export function sameReply(a: Reply, b: Reply): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One line per reply, typed: `status OK`, `bulk "v"`, `integer 1`, `nil`, `error ERR ...`, arrays in brackets. */
export function describeReply(r: Reply): string {
  switch (r.type) {
    case 'nil':
      return 'nil';
    case 'array':
      return `array [${r.value.map(describeReply).join(', ')}]`;
    case 'bulk':
      return `bulk ${JSON.stringify(r.value)}`;
    default:
      return `${r.type} ${r.value}`;
  }
}

/** The mismatch report: case, first differing command, expected (real) vs got (sim), then the transcript. */
export function mismatchReport(outcome: CaseOutcome): string {
  const index = outcome.outcomes.findIndex((o) => !o.match);
  if (index < 0) return `case "${outcome.name}": all replies match`;
  const first = outcome.outcomes[index];
  const lines = [
    `Differential mismatch in case "${outcome.name}", step ${index + 1}/${outcome.outcomes.length}`,
    `  command:         ${first.step.line}`,
    `  compare:         ${first.step.compare.kind}${first.step.compare.kind === 'near' ? ` (±${first.step.compare.tolerance})` : ''}`,
    `  expected (real): ${describeReply(first.expected)}`,
    `  got (sim):       ${describeReply(first.got)}`,
    '  transcript:',
    ...outcome.outcomes.map(
      (o, i) =>
        `    ${o.match ? '   ' : '>>>'} ${i + 1}. ${o.step.line}\n          real: ${describeReply(o.expected)}${
          o.match ? '' : `\n          sim:  ${describeReply(o.got)}`
        }`,
    ),
  ];
  return lines.join('\n');
}

/**
 * Starts one real redis-server for the calling test file (beforeAll) and stops it (afterAll).
 * Fails, never skips, when redis-server is missing: startRealRedis throws a message saying how to
 * install it.
 */
export function useRealRedis(): () => RespClient {
  let server: RealRedis | null = null;
  let client: RespClient | null = null;
  beforeAll(async () => {
    server = await startRealRedis();
    client = await RespClient.connect(server.port);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });
  return () => {
    if (client === null) throw new Error('real redis-server did not start (see the beforeAll error above)');
    return client;
  };
}

/** Executor over a fresh simulated server, given wall time so it agrees with the real one. */
export function simExecutor(): Executor {
  const server = createSimServer();
  return (argv) => server.execute(argv, Date.now());
}

/** A describe block with one test per case, each against the real server and a fresh simulator. */
export function differentialSuite(area: string, cases: readonly DiffCase[]): void {
  const real = useRealRedis();
  describe(`differential: ${area}`, () => {
    for (const diff of cases) {
      it(diff.name, async () => {
        const outcome = await runCase(real(), simExecutor(), diff);
        if (!outcome.match) throw new Error(mismatchReport(outcome));
      });
    }
  });
}
