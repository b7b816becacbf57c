import type { MessageRef } from '../../i18n';
import { activityOwner } from '../activity';
import type { NodeChoice } from '../schedule';
import type { WorldState } from '../world';
import type { ClusterRun } from './cluster';
import { EMPTY_SERVER } from './servers';
import { linkKey, tidyLinks, type ClusterState, type LinkState } from './state';

/**
 * Node, link and clock faults from the schedule (docs/SCHEDULES.md, "Many nodes"). Like a
 * client's crash or stall, they come from outside the programs: Jepsen's nemesis, not the code.
 */

/** Why a node fault cannot apply now, or null. */
export function nodeFaultRefusal(world: Readonly<WorldState>, choice: NodeChoice): MessageRef | null {
  const cluster = world.cluster;
  if (cluster === undefined) return { key: 'refuseNoNodes' };
  if ('clientId' in choice && !world.clients.some((c) => c.id === choice.clientId)) return { key: 'refuseNoClient', params: { client: choice.clientId } };
  if ('nodeId' in choice && !(choice.nodeId in cluster.nodes)) return { key: 'refuseNoNode', params: { node: choice.nodeId } };
  const node = 'nodeId' in choice ? cluster.nodes[choice.nodeId] : null;
  const link = 'nodeId' in choice && 'clientId' in choice ? cluster.links[linkKey(choice.clientId, choice.nodeId)] : undefined;
  switch (choice.kind) {
    case 'node-crash':
      return node?.up === true ? null : { key: 'refuseNodeCrashDown', params: { node: choice.nodeId } };
    case 'node-restart':
      return node?.up === false ? null : { key: 'refuseNodeRestartUp', params: { node: choice.nodeId } };
    case 'promote':
      if (node?.role !== 'replica') return { key: 'refusePromoteNotReplica', params: { node: choice.nodeId } };
      return node.up ? null : { key: 'refusePromoteDown', params: { node: choice.nodeId } };
    case 'partition':
      return link?.partitioned === true ? { key: 'refuseAlreadyPartitioned', params: { client: choice.clientId, node: choice.nodeId } } : null;
    case 'heal':
      return link?.partitioned === true ? null : { key: 'refuseNotPartitioned', params: { client: choice.clientId, node: choice.nodeId } };
    case 'replication-delay':
      return node?.role === 'replica' ? null : { key: 'refuseNotReplica', params: { node: choice.nodeId } };
    case 'node-clock':
    case 'client-clock':
    case 'lose':
      return null;
  }
}

function linkOf(cluster: ClusterState, clientId: string, nodeId: string): LinkState {
  const key = linkKey(clientId, nodeId);
  cluster.links[key] ??= { partitioned: false, loseRequests: 0, loseReplies: 0 };
  return cluster.links[key];
}

/** Applies a node fault (refusals checked first by the engine). */
export function applyNodeFault(run: ClusterRun, choice: NodeChoice): void {
  const cluster = run.state;
  const emit = run.emitter;
  switch (choice.kind) {
    case 'node-crash': {
      const node = cluster.nodes[choice.nodeId];
      const before = emit.lockNow();
      node.up = false;
      // Writes still on their way to its replicas die with it; its pending WAITs never answer.
      const lostKeys = new Set<string>();
      for (const id of run.replicasOf(node.id)) {
        for (const entry of cluster.pending[id]) for (const e of entry.effects) lostKeys.add(e.key);
        cluster.pending[id] = [];
      }
      if (node.role === 'replica') cluster.pending[node.id] = [];
      cluster.waits = cluster.waits.filter((w) => w.nodeId !== node.id);
      emit.event(null, { kind: 'fault', fault: 'node-crash', node: node.id, lostKeys: [...lostKeys] }, before);
      return;
    }
    case 'node-restart': {
      const node = cluster.nodes[choice.nodeId];
      const server = run.server(node.id);
      const before = emit.lockNow();
      const withData = node.persistence === 'fsync';
      const lostKeys = withData ? [] : server.keyspace.keys();
      // The script cache and connections never survive a restart; the keys only with fsync.
      server.restore(withData ? { ...EMPTY_SERVER, keyspace: server.keyspace.snapshot() } : EMPTY_SERVER);
      node.up = true;
      node.servingFromMs = run.nowMs + node.restartDelayMs;
      emit.event(null, { kind: 'fault', fault: 'node-restart', node: node.id, withData, lostKeys, ...(node.restartDelayMs > 0 ? { servingFromMs: node.servingFromMs } : {}) }, before);
      run.expireKeys(node.id);
      // A replica (also a deposed primary Sentinel turned into one) resyncs from its primary; a
      // primary's replicas resync from it, even when it came back empty.
      if (node.role === 'replica') run.resync(node.id);
      else for (const id of run.replicasOf(node.id)) run.resync(id);
      return;
    }
    case 'promote': {
      const node = cluster.nodes[choice.nodeId];
      const previous = node.replicaOf as string;
      const before = emit.lockNow();
      const lostKeys = new Set<string>();
      for (const entry of cluster.pending[node.id]) for (const e of entry.effects) lostKeys.add(e.key);
      cluster.pending[node.id] = [];
      node.role = 'primary';
      node.replicaOf = null;
      if (cluster.primary === previous) cluster.primary = node.id;
      const others = run.replicasOf(previous);
      // Sentinel's reconfiguration: the other replicas, and the old primary (now, or when it is
      // back), replicate from the promoted node.
      const old = cluster.nodes[previous];
      old.role = 'replica';
      old.replicaOf = node.id;
      cluster.pending[previous] = [];
      cluster.waits = cluster.waits.filter((w) => w.nodeId !== previous);
      for (const id of others) cluster.nodes[id].replicaOf = node.id;
      emit.event(null, { kind: 'fault', fault: 'promote', node: node.id, previous, lostKeys: [...lostKeys] }, before);
      for (const id of [...others, previous]) run.resync(id);
      return;
    }
    case 'partition':
    case 'heal':
      linkOf(cluster, choice.clientId, choice.nodeId).partitioned = choice.kind === 'partition';
      tidyLinks(cluster);
      emit.event(choice.clientId, { kind: 'fault', fault: choice.kind, node: choice.nodeId });
      return;
    case 'lose': {
      const link = linkOf(cluster, choice.clientId, choice.nodeId);
      if (choice.direction === 'request') link.loseRequests += 1;
      else link.loseReplies += 1;
      tidyLinks(cluster);
      emit.event(choice.clientId, { kind: 'fault', fault: 'lose-next', node: choice.nodeId, direction: choice.direction });
      return;
    }
    case 'node-clock': {
      cluster.nodes[choice.nodeId].offsetMs += choice.ms;
      emit.event(null, { kind: 'fault', fault: 'clock-jump', node: choice.nodeId, ms: choice.ms });
      // A jump forward makes keys due on the node's clock expire at once.
      run.expireKeys(choice.nodeId);
      return;
    }
    case 'client-clock':
      // An activity's clock is its client's.
      cluster.clientClocks[activityOwner(choice.clientId)].offsetMs += choice.ms;
      emit.event(choice.clientId, { kind: 'fault', fault: 'clock-jump', node: null, ms: choice.ms });
      return;
    case 'replication-delay':
      cluster.nodes[choice.nodeId].replicationDelayMs = choice.ms;
      emit.event(null, { kind: 'fault', fault: 'replication-delay', node: choice.nodeId, ms: choice.ms });
      return;
  }
}
