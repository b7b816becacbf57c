/**
 * Which node faults the engine would refuse at the cursor, as plain data in the frame: the nodes
 * dialog disables a fault with the engine's reason while it is filled in, and the engine may be in
 * another thread. A refusal depends on the fault's kind, node and client, never on its ms or a lost
 * message's direction, so one entry per (kind, node, client) says it all.
 */
import type { MessageRef } from '../i18n';
import type { NodeChoice } from '../engine/schedule';
import type { Simulation } from '../engine/simulation';

/** The key of a fault in the table: its kind, node and client (ms and direction do not matter). */
export function faultRefusalKey(choice: NodeChoice): string {
  return `${choice.kind}|${'nodeId' in choice ? choice.nodeId : ''}|${'clientId' in choice ? choice.clientId : ''}`;
}

/** Every fault the dialog can make, one per key. */
function faultsOf(nodeIds: readonly string[], clientIds: readonly string[]): NodeChoice[] {
  const faults: NodeChoice[] = [];
  for (const nodeId of nodeIds) {
    faults.push({ kind: 'node-crash', nodeId }, { kind: 'node-restart', nodeId }, { kind: 'promote', nodeId });
    faults.push({ kind: 'node-clock', nodeId, ms: 1 }, { kind: 'replication-delay', nodeId, ms: 0 });
    for (const clientId of clientIds) {
      faults.push({ kind: 'partition', clientId, nodeId }, { kind: 'heal', clientId, nodeId }, { kind: 'lose', clientId, nodeId, direction: 'request' });
    }
  }
  for (const clientId of clientIds) faults.push({ kind: 'client-clock', clientId, ms: 1 });
  return faults;
}

/** The refused faults at the cursor (absent: it applies); empty with one node. */
export function faultRefusals(sim: Simulation): Readonly<Record<string, MessageRef>> {
  const table: Record<string, MessageRef> = {};
  if (sim.ctx.nodeIds.length === 0) return table;
  for (const fault of faultsOf(sim.ctx.nodeIds, sim.ctx.clientIds)) {
    const refusal = sim.refusalRef(fault);
    if (refusal !== null) table[faultRefusalKey(fault)] = refusal;
  }
  return table;
}

/** A fault's refusal from the table; a fault outside it (another node or client) is refused as the engine would. */
export function faultRefusalOf(table: Readonly<Record<string, MessageRef>>, nodeIds: readonly string[], clientIds: readonly string[], choice: NodeChoice): MessageRef | null {
  if (nodeIds.length === 0) return { key: 'refuseNoNodes' };
  if ('clientId' in choice && !clientIds.includes(choice.clientId)) return { key: 'refuseNoClient', params: { client: choice.clientId } };
  if ('nodeId' in choice && !nodeIds.includes(choice.nodeId)) return { key: 'refuseNoNode', params: { node: choice.nodeId } };
  return table[faultRefusalKey(choice)] ?? null;
}
