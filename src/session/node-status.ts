/**
 * Each Redis node at the cursor, as the inspector's node columns and the nodes dialog show it:
 * role, up or down, replication offset and lag, its own clock, and the lock key as that node
 * holds it (read on the node's clock, so a node whose clock jumped shows its own PTTL). Derived
 * from the engine's world at the cursor in O(nodes); the previous list when nothing changed.
 */
import type { Simulation } from '../engine/simulation';
import type { KeyEntry } from '../engine/redis/keyspace';
import { keyValueText } from './derive';

/** A Redis node at the cursor. */
export interface NodeStatus {
  readonly id: string;
  readonly up: boolean;
  readonly role: 'primary' | 'replica';
  readonly replicaOf: string | null;
  /** A primary: its last write's offset; a replica: how far into its primary's stream it has applied. */
  readonly offset: number;
  /** A replica that is up: writes of its primary it has not applied yet (else 0). */
  readonly lagWrites: number;
  /** The lock key's value on this node, as text (null: absent, or the node is down). */
  readonly lock: string | null;
  /** The client whose token the value holds (null: none, or not a client's token). */
  readonly holder: string | null;
  /** The lock key's PTTL on the node's own clock: -2 absent, -1 no expiry, else ms (0 when past). */
  readonly pttlMs: number;
  /**
   * A replica keeps a key past its expiry until its primary's DEL arrives (Redis 3.2+ answers
   * reads of it as missing): true while this node holds the lock key that way.
   */
  readonly expiredOnReplica: boolean;
  /** The node's own clock now, and how far it reads from the world's time (drift and jumps). */
  readonly clockMs: number;
  readonly clockSkewMs: number;
  readonly driftPpm: number;
  /** After a delayed restart: the virtual time it serves clients again (null: serving, or down). */
  readonly servingFromMs: number | null;
}

type SimView = Pick<Simulation, 'state' | 'nowMs' | 'nodeLockEntry'>;

function lockFields(entry: KeyEntry | null, localNowMs: number, tokenOwners: Readonly<Record<string, string>>) {
  if (entry === null) return { lock: null, holder: null, pttlMs: -2, past: false };
  const text = keyValueText(entry);
  const pttlMs = entry.expireAtMs === null ? -1 : Math.max(0, entry.expireAtMs - localNowMs);
  return { lock: text, holder: tokenOwners[text] ?? null, pttlMs, past: entry.expireAtMs !== null && localNowMs > entry.expireAtMs };
}

/** Every node at the cursor, in the scenario's order (empty with one node). */
export function nodeStatuses(sim: SimView, tokenOwners: Readonly<Record<string, string>>, previous: readonly NodeStatus[]): readonly NodeStatus[] {
  const cluster = sim.state.cluster;
  if (cluster === undefined) return previous.length === 0 ? previous : [];
  const next = cluster.order.map((id): NodeStatus => {
    const n = cluster.nodes[id];
    const primary = n.replicaOf === null ? undefined : cluster.nodes[n.replicaOf];
    const { entry, nowMs: clockMs } = sim.nodeLockEntry(id);
    const lock = n.up ? lockFields(entry, clockMs, tokenOwners) : lockFields(null, clockMs, tokenOwners);
    return {
      id,
      up: n.up,
      role: n.role,
      replicaOf: n.replicaOf,
      offset: n.offset,
      lagWrites: n.role === 'replica' && n.up && primary !== undefined ? Math.max(0, primary.offset - n.offset) : 0,
      lock: lock.lock,
      holder: lock.holder,
      pttlMs: lock.pttlMs,
      expiredOnReplica: n.role === 'replica' && lock.past,
      clockMs,
      clockSkewMs: clockMs - sim.nowMs,
      driftPpm: n.driftPpm,
      servingFromMs: n.up && n.servingFromMs > sim.nowMs ? n.servingFromMs : null,
    };
  });
  const same = next.length === previous.length && next.every((n, i) => sameStatus(n, previous[i]));
  return same ? previous : next;
}

function sameStatus(a: NodeStatus, b: NodeStatus): boolean {
  for (const key of Object.keys(a) as (keyof NodeStatus)[]) if (a[key] !== b[key]) return false;
  return true;
}
