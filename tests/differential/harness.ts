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
 * Connections: a line may start with `@name ` to run on another connection (default `main`); each
 * side opens its own. After every step, each side reports what every connection received besides
 * the step's reply (further SUBSCRIBE confirmations, published messages), and those must match too.
 *
 * Time: the real server runs on wall time. The simulator is created with its Unix epoch at the
 * wall time of its creation and gets the wall time elapsed since as its virtual time, so its Unix
 * clock (epoch + virtual time) follows the real one while its virtual clock starts at 0, as in a
 * lesson. Cases use long TTLs (100 s and more) so nothing expires by accident; `sleep(ms)` lets
 * short ones pass on both sides alike. A line may name the executor's own Unix time,
 * `{unix-ms+N}` or `{unix-s-N}`, for absolute times relative to now; `unix` and `time` compares
 * check such replies relative to each side's own clock. PTTL-like replies compare within a
 * tolerance (`near`). Exact expiry boundaries are tested on virtual time in
 * tests/unit/redis-expiry.test.ts.
 */

export type Compare =
  | { kind: 'exact' }
  /** Arrays compared as multisets (SMEMBERS, KEYS: Redis gives hash-table order). */
  | { kind: 'sorted' }
  /** Integer replies within `tolerance` of each other (PTTL while wall time moves). */
  | { kind: 'near'; tolerance: number }
  /** An integer Unix time (`unit` ms or s), compared as its distance from each side's own clock. */
  | { kind: 'unix'; unit: 'ms' | 's'; tolerance: number }
  /** A TIME reply, compared as its distance from each side's own clock. */
  | { kind: 'time'; tolerance: number }
  /**
   * A random pick (SPOP, SRANDMEMBER): a bulk that is one of `of`, or an array of the same length
   * whose items all are (and, when `distinct`, appear once each). Which ones is each side's chance.
   */
  | { kind: 'members'; of: readonly string[]; distinct: boolean }
  /** Same reply type (an error's text exactly): CLIENT ID, whose number is each server's own. */
  | { kind: 'type' }
  /**
   * An INFO bulk by field presence: every section title and field name the simulator writes is one
   * the real server writes; an empty reply only where the real one is empty.
   */
  | { kind: 'info' }
  /**
   * A whole cursor iteration: the line's `{cursor}` starts at 0 and takes each reply's cursor until
   * it is "0" (at most SCAN_CALLS_MAX calls); compared as the final cursor and the multiset of
   * elements (pairs kept together for HSCAN and ZSCAN). An error or other reply compares exactly.
   */
  | { kind: 'scan'; pairs: boolean };

export interface CommandStep {
  readonly kind: 'command';
  readonly connection: string;
  readonly line: string;
  readonly compare: Compare;
}

/** Wall time passes (on both sides alike) before the next step. */
export interface SleepStep {
  readonly kind: 'sleep';
  readonly ms: number;
}

export type Step = CommandStep | SleepStep;

export interface DiffCase {
  readonly name: string;
  readonly steps: readonly Step[];
  /** The simulator's Unix epoch for this case (default: the wall time when the case starts). */
  readonly unixEpochMs?: number;
}

export type StepInput = string | Step;

export const MAIN_CONNECTION = 'main';

/** A case from redis-cli lines (`@conn LINE` runs on another connection); plain strings compare exactly. */
export function diffCase(name: string, ...steps: StepInput[]): DiffCase {
  return { name, steps: steps.map((s) => (typeof s === 'string' ? commandStep(s, { kind: 'exact' }) : s)) };
}

/** The same case with the simulator's Unix clock at a fixed epoch (its virtual time still starts at 0). */
export function withEpoch(unixEpochMs: number, diff: DiffCase): DiffCase {
  return { ...diff, unixEpochMs };
}

function commandStep(text: string, compare: Compare): CommandStep {
  const match = /^@(\S+)\s+(.*)$/s.exec(text);
  return match ? { kind: 'command', connection: match[1], line: match[2], compare } : { kind: 'command', connection: MAIN_CONNECTION, line: text, compare };
}

export const sorted = (line: string): Step => commandStep(line, { kind: 'sorted' });
/** PTTL-like integer, within 1 s: generous, since only scheduling delay separates the two clocks. */
export const near = (line: string, tolerance = 1000): Step => commandStep(line, { kind: 'near', tolerance });
/** An absolute Unix time reply (EXPIRETIME, PEXPIRETIME), compared relative to each side's clock. */
export const unixTime = (line: string, unit: 'ms' | 's'): Step => commandStep(line, { kind: 'unix', unit, tolerance: unit === 's' ? 2000 : 1000 });
export const timeReply = (line: string): Step => commandStep(line, { kind: 'time', tolerance: 1000 });
export const sleep = (ms: number): Step => ({ kind: 'sleep', ms });
export const sameType = (line: string): Step => commandStep(line, { kind: 'type' });
export const infoFields = (line: string): Step => commandStep(line, { kind: 'info' });
/** A full SCAN-like iteration of `line` (with `{cursor}`): see Compare 'scan'. */
export const scanAll = (line: string, pairs = false): Step => commandStep(line, { kind: 'scan', pairs });
/** A random pick among `of` (see Compare 'members'). */
export const members = (line: string, of: readonly string[], distinct = true): Step => commandStep(line, { kind: 'members', of, distinct });

/** `{unix-ms+N}`, `{unix-ms-N}`, `{unix-s+N}`, `{unix-s-N}`: the executor's own Unix time, offset. */
export function expandLine(line: string, unixNowMs: number): string {
  return line.replace(/\{unix-(ms|s)([+-]\d+)?\}/g, (_all, unit: string, offset?: string) => {
    const base = unit === 'ms' ? unixNowMs : Math.floor(unixNowMs / 1000);
    return String(base + Number(offset ?? 0));
  });
}

export function argvOf(line: string): string[] {
  const split = splitArgs(line);
  if (!split.ok) throw new Error(`bad case line ${JSON.stringify(line)}: ${split.error}`);
  return split.argv;
}

/** One step's result on one side: the reply, and what each connection received besides it. */
export interface Observation {
  readonly reply: Reply;
  /** By connection, in order; connections that received nothing are absent. */
  readonly pushes: Readonly<Record<string, readonly Reply[]>>;
  /** The side's Unix time when the reply came, in ms. */
  readonly unixNowMs: number;
}

/** Something that runs commands on named connections: the real server, the simulator, a baseline. */
export interface Executor {
  unixNowMs(): number;
  run(connection: string, argv: readonly string[]): Promise<Observation> | Observation;
  /** Closes what the case opened. */
  close?(): Promise<void>;
}

export interface StepOutcome {
  readonly step: CommandStep;
  readonly expected: Observation;
  readonly got: Observation;
  readonly match: boolean;
}

export interface CaseOutcome {
  readonly name: string;
  readonly outcomes: readonly StepOutcome[];
  readonly match: boolean;
}

/** A reply to PING with this argument marks the end of what a connection has received. */
const BARRIER = '__lockstep_differential_barrier__';

function isBarrier(r: Reply): boolean {
  if (r.type === 'bulk') return r.value === BARRIER;
  return r.type === 'array' && r.value.length === 2 && r.value[0].type === 'bulk' && r.value[0].value === 'pong' && r.value[1].type === 'bulk' && r.value[1].value === BARRIER;
}

/** How long the barrier's reply may take: far beyond a loopback round trip, short of the test timeout. */
const BARRIER_WAIT_MS = 5_000;

/** Everything a connection received up to the barrier PING's reply (not queued: the connection is not in MULTI). */
async function drain(client: RespClient): Promise<Reply[]> {
  client.write(['PING', BARRIER]);
  const received: Reply[] = [];
  // Bounded by what the server sent before the barrier's reply.
  for (;;) {
    const next = await client.read(BARRIER_WAIT_MS).catch(() => {
      throw new Error(`the barrier PING got no reply (the harness thought the connection was not in MULTI); received: ${received.map(describeReply).join('; ')}`);
    });
    if (isBarrier(next)) return received;
    received.push(next);
  }
}

/** Resets the main connection (out of MULTI, unsubscribed, nothing pending), then empties the server. */
export async function flushReal(client: RespClient): Promise<void> {
  client.write(['RESET']);
  await drain(client);
  const flushed = await client.send(['FLUSHALL']);
  if (flushed.type !== 'status') throw new Error(`FLUSHALL failed on the real server: ${JSON.stringify(flushed)}`);
  await client.send(['SCRIPT', 'FLUSH']);
}

/**
 * The real server as an executor: `main` is the suite's connection, others are opened on first
 * use and closed by `close`. A connection in MULTI answers exactly one reply per command; any
 * other is drained with a PING barrier after each step, which collects what arrived besides.
 */
export function realExecutor(main: RespClient): Executor {
  const connections = new Map<string, RespClient>([[MAIN_CONNECTION, main]]);
  const inMulti = new Set<string>();
  const connection = async (name: string) => {
    let client = connections.get(name);
    if (client === undefined) {
      client = await RespClient.connect(main.port);
      connections.set(name, client);
    }
    return client;
  };
  return {
    unixNowMs: () => Date.now(),
    async run(name, argv) {
      const client = await connection(name);
      client.write(argv);
      const reply = await client.read();
      const unixNowMs = Date.now();
      const command = argv[0]?.toLowerCase();
      // MULTI state as the replies show it: EXEC always leaves it (even refused, with EXECABORT),
      // DISCARD only when it answers OK (a DISCARD with arguments is refused and queues nothing).
      if (command === 'multi' && reply.type === 'status' && reply.value === 'OK') inMulti.add(name);
      if (command === 'exec' || command === 'reset' || (command === 'discard' && reply.type === 'status')) inMulti.delete(name);
      const pushes: Record<string, Reply[]> = {};
      if (command === 'quit') {
        connections.delete(name);
        inMulti.delete(name);
        if (name !== MAIN_CONNECTION) await client.close();
      }
      for (const [other, otherClient] of connections) {
        if (inMulti.has(other)) continue;
        const received = await drain(otherClient);
        if (received.length > 0) pushes[other] = received;
      }
      return { reply, pushes, unixNowMs };
    },
    async close() {
      for (const [name, client] of connections) if (name !== MAIN_CONNECTION) await client.close();
    },
  };
}

/**
 * A fresh simulated server as an executor. `unixEpochMs` defaults to the wall time now, so the
 * simulator's Unix clock follows the real server's (see the top of this file); `fixedNowMs`
 * stops its virtual clock at one time.
 */
export function simExecutor(options: { unixEpochMs?: number; fixedNowMs?: number } = {}): Executor {
  const createdAtMs = Date.now();
  const unixEpochMs = options.unixEpochMs ?? createdAtMs;
  const server = createSimServer({ unixEpochMs });
  const virtualNowMs = () => options.fixedNowMs ?? Date.now() - createdAtMs;
  return {
    unixNowMs: () => unixEpochMs + virtualNowMs(),
    run(connection, argv) {
      const nowMs = virtualNowMs();
      const reply = server.execute(argv, nowMs, connection);
      const pushes: Record<string, Reply[]> = {};
      for (const push of server.takePushes()) (pushes[push.connectionId] ??= []).push(push.reply);
      return { reply, pushes, unixNowMs: unixEpochMs + nowMs };
    },
  };
}

/** Runs a case on the real server and an executor; records every command step. */
export async function runCase(real: Executor, executor: Executor, diff: DiffCase): Promise<CaseOutcome> {
  const outcomes: StepOutcome[] = [];
  try {
    for (const step of diff.steps) {
      if (step.kind === 'sleep') {
        await new Promise((resolve) => setTimeout(resolve, step.ms));
        continue;
      }
      const compare = step.compare;
      const expected = compare.kind === 'scan' ? await iterate(real, step.connection, step.line, compare.pairs) : await real.run(step.connection, argvOf(expandLine(step.line, real.unixNowMs())));
      const got =
        compare.kind === 'scan'
          ? await iterate(executor, step.connection, step.line, compare.pairs).catch((error: unknown) => threw(executor, error))
          : await runCatching(executor, step.connection, argvOf(expandLine(step.line, executor.unixNowMs())));
      outcomes.push({ step, expected, got, match: observationsMatch(expected, got, step.compare) });
    }
  } finally {
    await real.close?.();
    await executor.close?.();
  }
  return { name: diff.name, outcomes, match: outcomes.every((o) => o.match) };
}

/** A simulator that throws is a mismatch to report, not a crash of the whole suite. */
async function runCatching(executor: Executor, connection: string, argv: readonly string[]): Promise<Observation> {
  try {
    return await executor.run(connection, argv);
  } catch (error) {
    return threw(executor, error);
  }
}

function threw(executor: Executor, error: unknown): Observation {
  return { reply: { type: 'error', value: `SIMULATOR THREW: ${(error as Error).stack ?? String(error)}` }, pushes: {}, unixNowMs: executor.unixNowMs() };
}

/** Far more calls than any case's iteration needs: a cursor that never returns to 0 fails. */
const SCAN_CALLS_MAX = 1000;

/** Runs a cursor iteration to its end; the observation is [final cursor, elements sorted (by pair)]. */
async function iterate(executor: Executor, connection: string, line: string, pairs: boolean): Promise<Observation> {
  let cursor = '0';
  const groups: Reply[][] = [];
  let last: Observation | null = null;
  for (let call = 0; call < SCAN_CALLS_MAX; call++) {
    last = await executor.run(connection, argvOf(line.replace('{cursor}', cursor)));
    const r = last.reply;
    if (r.type !== 'array' || r.value.length !== 2 || r.value[0].type !== 'bulk' || r.value[1].type !== 'array') return last;
    const items = r.value[1].value;
    const size = pairs ? 2 : 1;
    for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
    cursor = r.value[0].value;
    if (cursor === '0') break;
  }
  const keyed = groups.map((g) => [JSON.stringify(g), g] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const reply: Reply = { type: 'array', value: [{ type: 'bulk', value: cursor }, { type: 'array', value: keyed.flatMap(([, g]) => g) }] };
  return { reply, pushes: last?.pushes ?? {}, unixNowMs: last?.unixNowMs ?? executor.unixNowMs() };
}

export function observationsMatch(expected: Observation, got: Observation, compare: Compare): boolean {
  return repliesMatch(expected, got, compare) && JSON.stringify(sortedPushes(expected.pushes)) === JSON.stringify(sortedPushes(got.pushes));
}

function sortedPushes(pushes: Readonly<Record<string, readonly Reply[]>>): [string, readonly Reply[]][] {
  return Object.entries(pushes)
    .filter(([, list]) => list.length > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function repliesMatch(expected: Observation, got: Observation, compare: Compare): boolean {
  const a = expected.reply;
  const b = got.reply;
  switch (compare.kind) {
    case 'exact':
      return sameReply(a, b);
    case 'sorted':
      if (a.type !== 'array' || b.type !== 'array') return sameReply(a, b);
      return sameReply(sortArray(a), sortArray(b));
    case 'near':
      if (a.type !== 'integer' || b.type !== 'integer') return sameReply(a, b);
      // Negative PTTLs (-1, -2) are exact answers, never approximations.
      if (BigInt(a.value) < 0n || BigInt(b.value) < 0n) return a.value === b.value;
      return Math.abs(Number(BigInt(a.value) - BigInt(b.value))) <= compare.tolerance;
    case 'unix': {
      if (a.type !== 'integer' || b.type !== 'integer') return sameReply(a, b);
      if (BigInt(a.value) < 0n || BigInt(b.value) < 0n) return a.value === b.value;
      const scale = compare.unit === 's' ? 1000 : 1;
      const fromNow = (r: { value: string }, o: Observation) => Number(r.value) * scale - o.unixNowMs;
      return Math.abs(fromNow(a, expected) - fromNow(b, got)) <= compare.tolerance;
    }
    case 'members':
      return pickMatches(a, b, compare.of, compare.distinct);
    case 'type':
      return a.type === 'error' || b.type === 'error' ? sameReply(a, b) : a.type === b.type;
    case 'info':
      return infoMatches(a, b);
    case 'scan':
      return sameReply(a, b);
    case 'time': {
      const ms = (r: Reply) => (r.type === 'array' && r.value.length === 2 && r.value.every((v) => v.type === 'bulk') ? Number((r.value[0] as { value: string }).value) * 1000 + Number((r.value[1] as { value: string }).value) / 1000 : null);
      const ta = ms(a);
      const tb = ms(b);
      if (ta === null || tb === null) return sameReply(a, b);
      return Math.abs(ta - expected.unixNowMs - (tb - got.unixNowMs)) <= compare.tolerance;
    }
  }
}

function infoMatches(a: Reply, b: Reply): boolean {
  if (a.type !== 'bulk' || b.type !== 'bulk') return sameReply(a, b);
  if (a.value === '' || b.value === '') return a.value === b.value;
  const names = (text: string) => new Set(text.split('\r\n').filter((line) => line !== '').map((line) => (line.startsWith('#') ? line : line.split(':')[0])));
  const real = names(a.value);
  const sim = names(b.value);
  // Which databases hold keys (db0, db3) must agree both ways.
  const databases = (set: Set<string>) => [...set].filter((name) => /^db[0-9]+$/.test(name)).sort().join(',');
  return [...sim].every((name) => real.has(name)) && databases(real) === databases(sim);
}

function pickMatches(a: Reply, b: Reply, of: readonly string[], distinct: boolean): boolean {
  const isPick = (r: Reply) => r.type === 'bulk' && of.includes(r.value);
  if (a.type === 'bulk' && b.type === 'bulk') return isPick(a) && isPick(b);
  if (a.type !== 'array' || b.type !== 'array') return sameReply(a, b);
  const valid = (items: readonly Reply[]) => items.every(isPick) && (!distinct || new Set(items.map((r) => (r as { value: string }).value)).size === items.length);
  return a.value.length === b.value.length && valid(a.value) && valid(b.value);
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

function describeObservation(o: Observation): string {
  const pushes = sortedPushes(o.pushes).map(([connection, list]) => `\n            + to @${connection}: ${list.map(describeReply).join('; ')}`);
  return `${describeReply(o.reply)}${pushes.join('')}`;
}

function stepText(step: CommandStep): string {
  return step.connection === MAIN_CONNECTION ? step.line : `@${step.connection} ${step.line}`;
}

/** The mismatch report: case, first differing command, expected (real) vs got (sim), then the transcript. */
export function mismatchReport(outcome: CaseOutcome): string {
  const index = outcome.outcomes.findIndex((o) => !o.match);
  if (index < 0) return `case "${outcome.name}": all replies match`;
  const first = outcome.outcomes[index];
  const compare = first.step.compare;
  const lines = [
    `Differential mismatch in case "${outcome.name}", step ${index + 1}/${outcome.outcomes.length}`,
    `  command:         ${stepText(first.step)}`,
    `  compare:         ${compare.kind}${'tolerance' in compare ? ` (±${compare.tolerance})` : ''}`,
    `  expected (real): ${describeObservation(first.expected)}`,
    `  got (sim):       ${describeObservation(first.got)}`,
    '  transcript:',
    ...outcome.outcomes.map(
      (o, i) =>
        `    ${o.match ? '   ' : '>>>'} ${i + 1}. ${stepText(o.step)}\n          real: ${describeObservation(o.expected)}${
          o.match ? '' : `\n          sim:  ${describeObservation(o.got)}`
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

/** Runs one case against a flushed real server and a fresh simulator; throws the mismatch report. */
export async function checkCase(main: RespClient, diff: DiffCase, sim: Executor = simExecutor({ unixEpochMs: diff.unixEpochMs })): Promise<void> {
  await flushReal(main);
  const outcome = await runCase(realExecutor(main), sim, diff);
  if (!outcome.match) throw new Error(mismatchReport(outcome));
}

/** A describe block with one test per case, each against the real server and a fresh simulator. */
export function differentialSuite(area: string, cases: readonly DiffCase[]): void {
  const real = useRealRedis();
  describe(`differential: ${area}`, () => {
    for (const diff of cases) {
      it(diff.name, () => checkCase(real(), diff));
    }
  });
}
