import type { Choice } from '../schedule';
import type { FaultsUsed } from './moves';
import type { Effect } from './por';
import type { FoundViolation } from './result';
import type { BreadthFirstSearch } from './search';
import type { ShardIdentity } from './shard';
import { PROPERTY_VIOLATION_KIND, VIOLATION_KINDS, type ViolationKind } from '../trace';

/**
 * A long breadth-first search stopped and taken up again (`--checkpoint <file>`, docs/EXPLORER.md
 * "Checkpoints"). The file holds the search between two states' expansions: its counts, every
 * visited state's stable key (state-key.ts, stableHash), the states waiting to be expanded by the
 * paths that reached them (replayed on resume: snapshots are not written), and what was found,
 * with a format version and the identity of the search (scenario and a hash of its definition,
 * variant, seed, bounds, invariants, reduction, stop rule). A file of another version or search,
 * or cut short, is refused with what is wrong; it never resumes into another search.
 */

/** A state waiting to be expanded, as a checkpoint keeps it: the path that reached it, not its snapshot. */
export interface CheckpointEntry {
  readonly choices: readonly Choice[];
  readonly positions: readonly number[];
  readonly used: FaultsUsed;
  readonly depth: number;
  readonly via: Effect | null;
  readonly siblings: readonly (readonly [string, Effect])[] | null;
}

/** A breadth-first search between two states' expansions, as plain data (checkpoint.ts writes it). */
export interface SearchCheckpoint {
  readonly depth: number;
  readonly transitions: number;
  readonly skipped: number;
  readonly depthCutStates: number;
  readonly horizonCutMoves: number;
  /** Every visited state's stable key. */
  readonly visited: readonly string[];
  /** The rest of the level being expanded, then the next level so far. */
  readonly level: readonly CheckpointEntry[];
  readonly next: readonly CheckpointEntry[];
  readonly found: readonly FoundViolation[];
}

/** A checkpoint that does not fit the search it is given to (checkpoint.ts names what). */
export class CheckpointMismatch extends Error {
  override name = 'CheckpointMismatch';
}

export const checkpointFormat = 'lockstep-explore-checkpoint';
/** 2: canonical cluster keys (message ids renumbered) and the lost-message, client-clock and replication-delay budgets. */
export const checkpointFormatVersion = 2;

export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

export interface CheckpointFile {
  readonly format: typeof checkpointFormat;
  readonly version: number;
  readonly identity: ShardIdentity;
  readonly search: SearchCheckpoint;
}

export function checkpointFile(search: BreadthFirstSearch, identity: ShardIdentity): CheckpointFile {
  return { format: checkpointFormat, version: checkpointFormatVersion, identity, search: search.checkpoint() };
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

function checkEntry(e: unknown): e is CheckpointEntry {
  if (!isObject(e) || !Array.isArray(e.choices) || !Array.isArray(e.positions) || !isCount(e.depth) || !isObject(e.used)) return false;
  if (e.choices.length !== e.positions.length || e.choices.length !== e.depth) return false;
  if (!e.choices.every((c) => isObject(c) && typeof c.kind === 'string') || !e.positions.every(isCount)) return false;
  if (!Object.values(e.used).every(isCount)) return false;
  const effect = (x: unknown) => isObject(x) && isObject(x.move) && typeof x.move.rank === 'number' && Array.isArray(x.keysRead) && Array.isArray(x.keysWritten);
  if (!(e.via === null || effect(e.via))) return false;
  return e.siblings === null || (Array.isArray(e.siblings) && e.siblings.every((s) => Array.isArray(s) && s.length === 2 && typeof s[0] === 'string' && effect(s[1])));
}

/**
 * The search a checkpoint file holds, if it is a checkpoint of the search `identity` names.
 * Throws CheckpointError naming what does not fit.
 */
export function readCheckpoint(data: unknown, name: string, identity: ShardIdentity): SearchCheckpoint {
  const bad = (what: string) => new CheckpointError(`${name}: ${what}`);
  if (!isObject(data) || data.format !== checkpointFormat) throw bad(`not a checkpoint of the explorer (no "format": "${checkpointFormat}")`);
  if (data.version !== checkpointFormatVersion) throw bad(`checkpoint version ${JSON.stringify(data.version)}, this explorer reads version ${checkpointFormatVersion}: resume with the Lockstep that wrote it, or delete the file to start over`);
  if (!isObject(data.identity)) throw bad('its "identity" is missing');
  const theirs = data.identity as unknown as ShardIdentity;
  const fields = Object.keys(identity) as (keyof ShardIdentity)[];
  const differ = fields.filter((k) => JSON.stringify(theirs[k]) !== JSON.stringify(identity[k]));
  if (differ.length > 0) {
    const what = differ.map((k) => (k === 'scenarioHash' ? 'the scenario definition changed' : `${k} ${JSON.stringify(theirs[k])} there, ${JSON.stringify(identity[k])} here`)).join('; ');
    throw bad(`a checkpoint of another search (${what}): give the same options, or delete the file to start over`);
  }
  const s = data.search;
  if (!isObject(s)) throw bad('its "search" is missing');
  for (const k of ['depth', 'transitions', 'skipped', 'depthCutStates', 'horizonCutMoves'] as const) if (!isCount(s[k])) throw bad(`its search.${k} is missing or malformed`);
  if (!Array.isArray(s.visited) || !s.visited.every((k) => typeof k === 'string')) throw bad('its visited states are missing or malformed');
  if (s.visited.length === 0) throw bad('it lists no visited state (the start is always one)');
  for (const list of ['level', 'next'] as const) {
    const entries = s[list];
    if (!Array.isArray(entries)) throw bad(`its search.${list} is missing`);
    entries.forEach((e, i) => {
      if (!checkEntry(e)) throw bad(`search.${list}[${i}] is malformed`);
    });
  }
  if (!Array.isArray(s.found) || !s.found.every((v) => isObject(v) && [...VIOLATION_KINDS, PROPERTY_VIOLATION_KIND].includes(v.kind as ViolationKind) && typeof v.schedule === 'string' && isCount(v.steps) && Array.isArray(v.choices))) {
    throw bad('its found violations are missing or malformed');
  }
  return s as unknown as SearchCheckpoint;
}
