import type { NodeSpec, Scenario, VariantSpec } from '../../engine/scenario';
import { nodesOf } from '../../engine/scenario';
import type { Trace, TraceEvent } from '../../engine/trace';

/**
 * A run with several Redis nodes, as a replay on one real server per node (docs/REPLAY.md,
 * "Several servers"). What a real server does itself is caused on it: a node crash is
 * `SHUTDOWN NOSAVE NOW`, a restart starts it again (empty, or with its append-only file when the
 * node has fsync), a promotion is `REPLICAOF NO ONE` and re-points the other replicas, a
 * replication delay is a delaying proxy on the replication link. What belongs to the network
 * between a client and a node is emulated on the client's side, from the recording: a request the
 * simulation lost (a partition, a lost message, a node down or not serving yet) is not sent, and
 * the report shows the client's timeout the simulation recorded; a lost reply is a command that
 * is sent and compared, whose reply the client did not see. What a real server cannot be made to
 * do (a node's clock drift or jump: Redis reads its host's clock) is refused.
 */

/** The node id of a single-node run (engine/world.ts). */
export const SINGLE_NODE = 'redis';

export type DropCause = Extract<TraceEvent, { kind: 'drop' }>['cause'];

/** A node fault the replay causes on a server it started, before the command at `beforeCommand`. */
export interface NodeAction {
  readonly beforeCommand: number;
  readonly step: number;
  readonly atMs: number;
  readonly fault: 'node-crash' | 'node-restart' | 'promote' | 'replication-delay';
  readonly node: string;
  /** replication-delay: the new delay (virtual ms). */
  readonly ms?: number;
  /** promote: the old primary. */
  readonly previous?: string | null;
}

/** Client-side faults the replay emulates (nothing is sent for them): shown in the report beside the node actions. */
export interface EmulatedFault {
  readonly beforeCommand: number;
  readonly step: number;
  readonly atMs: number;
  readonly clientId: string | null;
  readonly fault: 'partition' | 'heal' | 'lose-next' | 'clock-jump';
  readonly node: string | null;
}

export class NodeRefusal extends Error {
  override name = 'NodeRefusal';
}

/** Why a variant's nodes cannot run on real servers, or null. Checked before anything is simulated further. */
export function nodeSpecRefusal(scenario: Scenario, variant: VariantSpec): string | null {
  for (const node of nodesOf(scenario, variant) ?? []) {
    if ((node.clockDriftPpm ?? 0) !== 0) {
      return `node ${node.id}'s clock drifts ${node.clockDriftPpm} ppm in the simulation; a real redis-server reads its host's clock, which the replay cannot make drift`;
    }
  }
  return null;
}

/** Why a run's faults cannot be replayed, or null: a node's clock jump (Redis uses the OS clock). */
export function traceRefusal(trace: Trace): string | null {
  for (const e of trace.events) {
    if (e.kind === 'fault' && e.fault === 'clock-jump' && e.node !== null) {
      return (
        `step ${e.step + 1}: @${e.node}'s clock jumps ${e.ms ?? 0} ms at t=${e.atMs}. A real redis-server reads its host's clock: the replay cannot make it ` +
        'jump for one server (changing the machine\'s clock would move every server, and the replay\'s own timing with it), so the keys would not expire when the simulation says'
      );
    }
  }
  return null;
}

/** The replica nodes of a variant, with the primary each replicates from at the start. */
export function replicasOf(nodes: readonly NodeSpec[]): NodeSpec[] {
  return nodes.filter((n) => n.role === 'replica');
}

/**
 * Per client, when its request reached its node: a command's event is written when the node
 * answers it, which for WAIT is when enough replicas acknowledged, so the replay sends WAIT at
 * the request's arrival (a `send` event's arrival, or the client's network wait) and lets the
 * real server block.
 */
export class RequestArrivals {
  private readonly arrival = new Map<string, number>();

  see(e: TraceEvent): void {
    if (e.clientId === null) return;
    if (e.kind === 'send' && e.arriveAtMs !== null) this.arrival.set(e.clientId, e.arriveAtMs);
    else if (e.kind === 'block' && e.reason === 'network' && !this.arrival.has(e.clientId)) this.arrival.set(e.clientId, e.atMs);
    else if (e.kind === 'command' || e.kind === 'drop' || e.kind === 'reply') this.arrival.delete(e.clientId);
  }

  /** When to send a command whose event is `e` (read before `see(e)`). */
  sendAtMs(e: Extract<TraceEvent, { kind: 'command' }>): number {
    const isWait = (e.argv[0] ?? '').toUpperCase() === 'WAIT';
    return isWait && e.clientId !== null ? (this.arrival.get(e.clientId) ?? e.atMs) : e.atMs;
  }
}

/** Which node faults a run's trace holds (for the refusal on servers the replay did not start). */
export function needsOwnedServers(actions: readonly NodeAction[], nodes: readonly NodeSpec[] | null): string | null {
  const action = actions.find((a) => a.fault !== 'replication-delay');
  if (action !== undefined) return `step ${action.step + 1}'s ${action.fault} of @${action.node}`;
  const replica = nodes?.find((n) => n.role === 'replica');
  if (replica !== undefined) return `replica ${replica.id} (the replay configures replication itself, and delays it through a proxy)`;
  return null;
}
