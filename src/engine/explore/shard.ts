import type { Scenario } from '../scenario';
import { PROPERTY_VIOLATION_KIND, VIOLATION_KINDS, type CheckerKind, type ViolationKind } from '../trace';
import type { ExploreBounds } from './bounds';
import type { ExploreResult, FoundViolation } from './result';
import type { BreadthFirstSearch, ShardSpec } from './search';
import { hash64 } from './state-key';

/**
 * A breadth-first search split across processes (`--shard i/n`, a CI matrix) and merged again
 * (`explore merge`), docs/EXPLORER.md "Shards". Every shard searches the same first levels (the
 * prefix); at the first level with at least 8 states per shard (or the last level) each keeps
 * every n-th state of that level and searches on from those alone. A shard's file lists each
 * state it visited past the split by a hash that does not depend on the process (state-key.ts,
 * stableHash) with its depth, and each violation with its order key (the positions of its moves).
 *
 * The merge gives the verdict of one unsharded run: for each kind the shortest length, and among
 * schedules of that length the first in the breadth-first order (the least order key: breadth-
 * first search meets states in the order of their least shortest paths, and the shard owning that
 * path's state at the split level finds it); states counted once (by hash, at their least depth),
 * states cut by the depth bound counted at that least depth, and each state's transitions and
 * horizon cuts as expanded for its least path there (with the partial-order reduction a state
 * reached along two paths may have different moves skipped; one run expands it for its least
 * path). tests/unit/explore-shard.test.ts checks equality with one run on several scenarios. Counts of a
 * search stopped at a violation, or cut by the state budget, are each shard's own and not equal.
 */

/** A state a shard visited past the split level: what the merge needs to count it once (shard.ts). */
export interface ShardState {
  readonly hash: string;
  readonly depth: number;
  /** At the depth bound with a move left. */
  cut: boolean;
  /** Moves from it cut by the horizon. */
  horizonCutMoves: number;
  /** Moves applied and skipped (partial-order reduction) when it was expanded. */
  transitions: number;
  skipped: number;
  /** The positions of the moves that reached it here (moves.ts), joined by commas: which path it was expanded for. */
  readonly order: string;
}

/** What a shard saw, before the merge (shard.ts builds the file from it). */
export interface ShardTally {
  readonly splitDepth: number | null;
  /** Counts up to the split level, the same in every shard. */
  readonly prefix: { readonly states: number; readonly transitions: number; readonly skipped: number; readonly horizonCutMoves: number };
  /** Horizon cuts, moves applied and moves skipped expanding this shard's states at the split level. */
  readonly frontier: { readonly horizonCutMoves: number; readonly transitions: number; readonly skipped: number };
  readonly states: readonly ShardState[];
  /** Each found violation's order key: the positions of its moves (moves.ts), compared after its length. */
  readonly orders: ReadonlyMap<ViolationKind, readonly number[]>;
}

export const shardFormat = 'lockstep-explore-shard';
export const shardFormatVersion = 1;

export class ShardError extends Error {
  override name = 'ShardError';
}

type StopAt = 'first' | 'all' | 'never';

/** What a shard file carries (JSON). */
export interface ShardFile {
  readonly format: typeof shardFormat;
  readonly version: number;
  /** What was searched: a shard merges only with shards of the same search. */
  readonly identity: ShardIdentity;
  /** 0-based index and count. */
  readonly shard: ShardSpec;
  readonly splitDepth: number | null;
  readonly prefix: { readonly states: number; readonly transitions: number; readonly skipped: number; readonly horizonCutMoves: number };
  /** Horizon cuts, moves applied and skipped expanding this shard's states at the split level. */
  readonly frontier: { readonly horizonCutMoves: number; readonly transitions: number; readonly skipped: number };
  /** [hash, depth, cut (0/1), horizon cut moves, moves applied, moves skipped, order key of its path] per state past the split. */
  readonly states: readonly ShardStateRow[];
  readonly transitions: number;
  readonly skipped: number;
  readonly depthReached: number;
  readonly cut: { readonly stateBudget: boolean; readonly cancelled: boolean };
  readonly violations: readonly (FoundViolation & { readonly order: readonly number[] })[];
}

export type ShardStateRow = readonly [string, number, number, number, number, number, string];

export interface ShardIdentity {
  readonly scenario: string;
  /** Hash of the scenario's definition: a changed scenario is another search. */
  readonly scenarioHash: string;
  readonly variant: string;
  readonly seed: number;
  readonly bounds: ExploreBounds;
  readonly invariants: readonly CheckerKind[];
  readonly offenders: readonly string[] | null;
  readonly reduce: boolean;
  readonly stopAt: StopAt;
}

export function scenarioHash(scenario: Scenario): string {
  return hash64(JSON.stringify(scenario));
}

/** Parses `i/n` (1-based, as Playwright's --shard): 0-based index and count. */
export function parseShardSpec(text: string): ShardSpec {
  const m = /^([0-9]+)\/([0-9]+)$/.exec(text.trim());
  if (m === null) throw new ShardError(`bad shard "${text}": want i/n, e.g. 1/4 (shard 1 of 4)`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > shardCountMax) throw new ShardError(`bad shard "${text}": the count must be 1 to ${shardCountMax}`);
  if (index < 1 || index > count) throw new ShardError(`bad shard "${text}": the shard must be 1 to ${count}`);
  return { index: index - 1, count };
}

export const shardCountMax = 1024;

/** The file of one finished (or cut) shard search. */
export function shardFile(search: BreadthFirstSearch, identity: ShardIdentity): ShardFile {
  const tally = search.shardTally();
  if (tally === null) throw new ShardError('this search is not a shard');
  const result = search.result();
  return {
    format: shardFormat,
    version: shardFormatVersion,
    identity,
    shard: search.shardSpec as ShardSpec,
    splitDepth: tally.splitDepth,
    prefix: tally.prefix,
    frontier: tally.frontier,
    states: tally.states.map((s) => [s.hash, s.depth, s.cut ? 1 : 0, s.horizonCutMoves, s.transitions, s.skipped, s.order] as const),
    transitions: result.transitionsExplored,
    skipped: result.transitionsSkipped,
    depthReached: result.depthReached,
    cut: { stateBudget: result.cut.stateBudget, cancelled: result.cut.cancelled },
    violations: result.violations.map((v) => ({ ...v, order: tally.orders.get(v.kind) ?? [] })),
  };
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/** Checks a parsed shard file's shape; `name` names it in errors. */
export function checkShardFile(data: unknown, name: string): ShardFile {
  const bad = (what: string) => new ShardError(`${name}: ${what}`);
  if (!isObject(data) || data.format !== shardFormat) throw bad(`not a shard file of the explorer (no "format": "${shardFormat}")`);
  if (data.version !== shardFormatVersion) throw bad(`shard file version ${JSON.stringify(data.version)}, this explorer reads version ${shardFormatVersion}: run every shard and the merge with the same Lockstep`);
  const id = data.identity;
  if (!isObject(id) || typeof id.scenario !== 'string' || typeof id.scenarioHash !== 'string' || typeof id.variant !== 'string' || !isCount(id.seed) || !isObject(id.bounds) || !Array.isArray(id.invariants)) throw bad('its "identity" (scenario, variant, seed, bounds, invariants) is missing or malformed');
  const shard = data.shard;
  if (!isObject(shard) || !isCount(shard.index) || !isCount(shard.count) || shard.count < 1 || shard.index >= shard.count) throw bad('its "shard" ({ index, count }) is missing or malformed');
  if (!(data.splitDepth === null || isCount(data.splitDepth))) throw bad('its "splitDepth" is malformed');
  const prefix = data.prefix;
  if (!isObject(prefix) || !isCount(prefix.states) || !isCount(prefix.transitions) || !isCount(prefix.skipped) || !isCount(prefix.horizonCutMoves)) throw bad('its "prefix" counts are missing or malformed');
  const frontier = data.frontier;
  if (!isObject(frontier) || !isCount(frontier.horizonCutMoves) || !isCount(frontier.transitions) || !isCount(frontier.skipped)) throw bad('its "frontier" counts are missing or malformed');
  if (!isCount(data.transitions) || !isCount(data.skipped) || !isCount(data.depthReached)) throw bad('its counts are missing or malformed');
  if (!Array.isArray(data.states)) throw bad('its "states" list is missing');
  data.states.forEach((s, i) => {
    if (!Array.isArray(s) || s.length !== 7 || typeof s[0] !== 'string' || !isCount(s[1]) || (s[2] !== 0 && s[2] !== 1) || !isCount(s[3]) || !isCount(s[4]) || !isCount(s[5]) || typeof s[6] !== 'string') {
      throw bad(`states[${i}] is malformed (want [hash, depth, 0|1, horizon cuts, transitions, skipped, order])`);
    }
  });
  if (!isObject(data.cut) || typeof data.cut.stateBudget !== 'boolean' || typeof data.cut.cancelled !== 'boolean') throw bad('its "cut" is missing or malformed');
  if (!Array.isArray(data.violations)) throw bad('its "violations" list is missing');
  data.violations.forEach((v, i) => {
    if (!isObject(v) || ![...VIOLATION_KINDS, PROPERTY_VIOLATION_KIND].includes(v.kind as ViolationKind) || typeof v.schedule !== 'string' || !isCount(v.steps) || !Array.isArray(v.order) || !v.order.every(isCount)) throw bad(`violations[${i}] is malformed`);
  });
  return data as unknown as ShardFile;
}

function orderOf(text: string): number[] {
  return text === '' ? [] : text.split(',').map(Number);
}

function compareOrder(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * Merges every shard of one search into the result of one unsharded run (see the file's comment
 * for what is equal). Throws ShardError naming what does not fit: another search, another
 * version, a shard missing or given twice.
 */
export function mergeShards(files: readonly { readonly name: string; readonly data: unknown }[]): ExploreResult {
  if (files.length === 0) throw new ShardError('no shard files to merge');
  const shards = files.map((f) => ({ name: f.name, file: checkShardFile(f.data, f.name) }));
  const first = shards[0];
  const identity = JSON.stringify(first.file.identity);
  const count = first.file.shard.count;
  const seen = new Map<number, string>();
  for (const { name, file } of shards) {
    if (JSON.stringify(file.identity) !== identity) throw new ShardError(`${name} is a shard of another search than ${first.name}: ${differences(first.file.identity, file.identity)}`);
    if (file.shard.count !== count) throw new ShardError(`${name} is shard ${file.shard.index + 1}/${file.shard.count}, ${first.name} one of ${count}`);
    const twice = seen.get(file.shard.index);
    if (twice !== undefined) throw new ShardError(`shard ${file.shard.index + 1}/${count} given twice: ${twice} and ${name}`);
    seen.set(file.shard.index, name);
    if (file.splitDepth !== first.file.splitDepth || JSON.stringify(file.prefix) !== JSON.stringify(first.file.prefix)) throw new ShardError(`${name} and ${first.name} disagree on the levels every shard searches alike: not shards of one search`);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length > 0) throw new ShardError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i + 1}/${count}`).join(', ')} missing: the merge needs every shard`);
  const id = first.file.identity;
  const bounds = id.bounds;
  // Every state past the split once, at its least depth, with what expanding it did on its
  // least path there (the one a single run expands it for: same reduction record, same counts).
  const least = new Map<string, { depth: number; order: string; cut: boolean; horizon: number; transitions: number; skipped: number }>();
  for (const { file } of shards) {
    for (const [hash, depth, cut, horizon, transitions, skipped, order] of file.states) {
      const known = least.get(hash);
      const here = { depth, order, cut: cut === 1, horizon, transitions, skipped };
      if (known === undefined || depth < known.depth || (depth === known.depth && compareOrder(orderOf(order), orderOf(known.order)) < 0)) least.set(hash, { ...here, cut: here.cut || (known?.depth === depth && known.cut) });
      else if (depth === known.depth) known.cut ||= here.cut;
    }
  }
  const prefix = first.file.prefix;
  const split = first.file.splitDepth !== null;
  let depthCutStates = 0;
  // The deepest level searched: of the states at their least depth, those within the depth bound.
  let depthReached = split ? (first.file.splitDepth as number) : first.file.depthReached;
  let horizonCutMoves = prefix.horizonCutMoves;
  let transitions = prefix.transitions;
  let skipped = prefix.skipped;
  if (split) {
    for (const s of least.values()) {
      if (s.cut && s.depth >= bounds.depthMax) depthCutStates += 1;
      if (s.depth < bounds.depthMax) depthReached = Math.max(depthReached, s.depth);
      horizonCutMoves += s.horizon;
      transitions += s.transitions;
      skipped += s.skipped;
    }
    for (const { file } of shards) {
      horizonCutMoves += file.frontier.horizonCutMoves;
      transitions += file.frontier.transitions;
      skipped += file.frontier.skipped;
    }
  }
  const best = new Map<ViolationKind, FoundViolation & { readonly order: readonly number[] }>();
  for (const { file } of shards) {
    for (const v of file.violations) {
      const known = best.get(v.kind);
      if (known === undefined || v.steps < known.steps || (v.steps === known.steps && compareOrder(v.order, known.order) < 0)) best.set(v.kind, v);
    }
  }
  let found = [...best.values()];
  const targets = new Set(id.invariants);
  let stopped = false;
  if (id.stopAt === 'first' && found.length > 0) {
    // One run stops at the first violating move: keep what that move showed.
    const min = found.reduce((a, b) => (b.steps < a.steps || (b.steps === a.steps && compareOrder(b.order, a.order) < 0) ? b : a));
    found = found.filter((v) => v.steps === min.steps && compareOrder(v.order, min.order) === 0);
    stopped = true;
  } else if (id.stopAt === 'all' && found.length === targets.size) stopped = true;
  const stateBudget = shards.some((s) => s.file.cut.stateBudget);
  const cancelled = shards.some((s) => s.file.cut.cancelled);
  const exhaustive = !stopped && !stateBudget && !cancelled && depthCutStates === 0 && horizonCutMoves === 0;
  found.sort((a, b) => a.steps - b.steps || compareOrder(a.order, b.order));
  return {
    scenarioId: id.scenario,
    variantId: id.variant,
    seed: id.seed,
    mode: 'bfs',
    bounds,
    invariants: id.invariants,
    reduced: id.reduce,
    statesExplored: prefix.states + (split ? least.size : 0),
    transitionsExplored: transitions,
    transitionsSkipped: skipped,
    depthReached,
    exhaustive,
    cut: { depthCutStates, horizonCutMoves, stateBudget, stoppedAtViolation: stopped, cancelled, sampled: false },
    violations: found
      .map((v) => ({ kind: v.kind, choices: v.choices, schedule: v.schedule, steps: v.steps, message: v.message, clients: v.clients, atMs: v.atMs })),
    coverage: null,
    pct: null,
  };
}

/** Which identity fields differ, in words. */
function differences(a: ShardIdentity, b: ShardIdentity): string {
  const fields = Object.keys(a) as (keyof ShardIdentity)[];
  const differ = fields.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return differ.map((k) => `${k} ${JSON.stringify(a[k])} vs ${JSON.stringify(b[k])}`).join('; ');
}
