/**
 * The `nodes` option of simulate and explore: the Redis nodes async clients run against, as the
 * engine's node model has them (docs/SCHEDULES.md, "Many nodes"). `['r1', 'r2', 'r3']` are
 * independent primaries, as Redlock assumes; an object gives one node its persistence, restart
 * delay, clock drift, or makes it a replica. Each client then gets one connection per node
 * (`ctx.nodes`), and the schedule's node faults (`!@r1`, `^@r1`, `A/@r2`, `@r3+11000`) apply.
 */
import { definitionBounds } from '../definition';
import { clockDriftPpmMax } from '../engine/nodes/clock';
import type { NodeSpec, Scenario } from '../engine/scenario';
import { ArgumentError } from './errors';

/** One node of the `nodes` option: its id, or the id with how it behaves. */
export type NodeOption =
  | string
  | {
      readonly id: string;
      /** 'fsync' (appendfsync always): a restart keeps what the node acknowledged. 'none' (default): it comes back empty. */
      readonly persistence?: 'fsync' | 'none';
      /** After a restart the node serves no client for this many ms (antirez's delayed restart). */
      readonly restartDelayMs?: number;
      /** The node's clock runs this many ppm fast (positive) or slow (negative). */
      readonly clockDriftPpm?: number;
      /** A replica of this primary (default: a primary of its own). */
      readonly replicaOf?: string;
      /** A replica applies each write this many ms after its primary. */
      readonly replicationDelayMs?: number;
    };

/** At most this many nodes (the schedule names each; a quorum of 9 is already more than Redlock deployments use). */
export const nodeCountMax = 9;

const NODE_FIELDS = ['id', 'persistence', 'restartDelayMs', 'clockDriftPpm', 'replicaOf', 'replicationDelayMs'];

function wholeMs(path: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > definitionBounds.durationMsMax) {
    throw new ArgumentError(path, `a whole number of ms from 0 to ${definitionBounds.durationMsMax}, got ${String(value)}`);
  }
  return value;
}

function nodeOf(option: unknown, path: string): NodeSpec {
  const fields = typeof option === 'string' ? { id: option } : option;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new ArgumentError(path, "a node id ('r1') or { id, persistence?, restartDelayMs?, clockDriftPpm?, replicaOf?, replicationDelayMs? }");
  const f = fields as Record<string, unknown>;
  for (const key of Object.keys(f)) if (!NODE_FIELDS.includes(key)) throw new ArgumentError(`${path}.${key}`, `unknown field (fields: ${NODE_FIELDS.join(', ')})`);
  const idPath = typeof option === 'string' ? path : `${path}.id`;
  if (typeof f.id !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*$/.test(f.id)) throw new ArgumentError(idPath, `a node id: a letter, then letters, digits or _ (what schedules name as @id), got ${JSON.stringify(f.id)}`);
  if (f.persistence !== undefined && f.persistence !== 'fsync' && f.persistence !== 'none') throw new ArgumentError(`${path}.persistence`, "'fsync' or 'none'");
  const drift = f.clockDriftPpm;
  if (drift !== undefined && (typeof drift !== 'number' || !Number.isInteger(drift) || Math.abs(drift) > clockDriftPpmMax)) {
    throw new ArgumentError(`${path}.clockDriftPpm`, `an integer from -${clockDriftPpmMax} to ${clockDriftPpmMax}`);
  }
  if (f.replicaOf !== undefined && typeof f.replicaOf !== 'string') throw new ArgumentError(`${path}.replicaOf`, 'the id of a primary node');
  if (f.replicaOf === undefined && f.replicationDelayMs !== undefined) throw new ArgumentError(`${path}.replicationDelayMs`, 'only a replica (replicaOf) has a replication delay');
  const restartDelayMs = wholeMs(`${path}.restartDelayMs`, f.restartDelayMs);
  const replicationDelayMs = wholeMs(`${path}.replicationDelayMs`, f.replicationDelayMs);
  return {
    id: f.id,
    role: f.replicaOf === undefined ? 'primary' : 'replica',
    ...(f.replicaOf === undefined ? {} : { replicaOf: f.replicaOf as string }),
    ...(replicationDelayMs === undefined ? {} : { replicationDelayMs }),
    ...(drift === undefined ? {} : { clockDriftPpm: drift as number }),
    ...(f.persistence === undefined ? {} : { persistence: f.persistence as 'fsync' | 'none' }),
    ...(restartDelayMs === undefined ? {} : { restartDelayMs }),
  };
}

/** The `nodes` option checked, each problem an ArgumentError naming its path (`nodes[1]`). */
function resolveNodes(option: unknown, clientIds: readonly string[]): NodeSpec[] {
  if (!Array.isArray(option) || option.length === 0 || option.length > nodeCountMax) throw new ArgumentError('nodes', `a list of 1 to ${nodeCountMax} nodes, e.g. ['r1', 'r2', 'r3']`);
  const nodes = option.map((o, i) => nodeOf(o, `nodes[${i}]`));
  nodes.forEach((n, i) => {
    const path = typeof option[i] === 'string' ? `nodes[${i}]` : `nodes[${i}].id`;
    if (nodes.findIndex((m) => m.id === n.id) !== i) throw new ArgumentError(path, `node "${n.id}" appears twice`);
    if (clientIds.includes(n.id)) throw new ArgumentError(path, `"${n.id}" is also a client id (schedules must tell them apart)`);
    if (n.replicaOf !== undefined && !nodes.some((p) => p.id === n.replicaOf && p.role === 'primary')) throw new ArgumentError(`nodes[${i}].replicaOf`, `no primary node "${n.replicaOf}"`);
  });
  return nodes;
}

/** The scenario with the `nodes` option as its nodes (absent: unchanged). A scenario that declares its own nodes keeps them. */
export function withNodes(scenario: Scenario, option: unknown, clientIds: readonly string[]): Scenario {
  if (option === undefined) return scenario;
  if (scenario.nodes !== undefined || scenario.variants.some((v) => v.nodes !== undefined)) throw new ArgumentError('nodes', `scenario ${scenario.id} declares its own nodes`);
  if (scenario.redisCluster === true) throw new ArgumentError('nodes', `scenario ${scenario.id} is a Redis Cluster: nodes are independent servers`);
  if (scenario.scriptTiming !== undefined) throw new ArgumentError('nodes', `scenario ${scenario.id} times its scripts (scriptTiming), which runs on one node only`);
  return { ...scenario, nodes: resolveNodes(option, clientIds) };
}
