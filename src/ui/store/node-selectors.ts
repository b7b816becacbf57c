/**
 * Selectors over the nodes at the cursor (node-status.ts): who holds the lock on how many nodes.
 * In Redlock every node is an independent primary, so "who holds the lock" is a count of nodes
 * per client against the quorum, not what one primary says.
 */
import type { SimState } from './store-types';
import type { NodeStatus } from '../../session/node-status';

/** One client's share of the nodes: the nodes whose lock key holds its token. */
export interface NodeHolding {
  readonly clientId: string;
  readonly nodeIds: readonly string[];
  /** It holds at least the quorum (null quorum: never). */
  readonly majority: boolean;
}

/**
 * Per client, the nodes that answer its token for the lock key now (up, and not a key a replica
 * keeps past its expiry), most nodes first, then in the clients' order.
 */
export function nodeHoldings(nodes: readonly NodeStatus[], clientIds: readonly string[], quorum: number | null): NodeHolding[] {
  const byClient = new Map<string, string[]>();
  for (const node of nodes) {
    if (!node.up || node.holder === null || node.expiredOnReplica) continue;
    const list = byClient.get(node.holder) ?? [];
    list.push(node.id);
    byClient.set(node.holder, list);
  }
  const rank = (id: string) => {
    const at = clientIds.indexOf(id);
    return at === -1 ? clientIds.length : at;
  };
  return [...byClient.entries()]
    .map(([clientId, nodeIds]) => ({ clientId, nodeIds, majority: quorum !== null && nodeIds.length >= quorum }))
    .sort((a, b) => b.nodeIds.length - a.nodeIds.length || rank(a.clientId) - rank(b.clientId));
}

let lastHoldings: { nodes: readonly NodeStatus[]; clientIds: readonly string[]; quorum: number | null; holdings: NodeHolding[] } | null = null;

/** nodeHoldings of the store's nodes; the same array while nodes, clients and quorum stay. */
export const selectNodeHoldings = (s: SimState): readonly NodeHolding[] => {
  const quorum = s.runInfo.quorum;
  if (lastHoldings?.nodes === s.nodes && lastHoldings.clientIds === s.clientIds && lastHoldings.quorum === quorum) return lastHoldings.holdings;
  lastHoldings = { nodes: s.nodes, clientIds: s.clientIds, quorum, holdings: nodeHoldings(s.nodes, s.clientIds, quorum) };
  return lastHoldings.holdings;
};

/** A run with several nodes whose lock is a Redlock (a quorum of independent nodes). */
export const selectIsRedlock = (s: SimState): boolean => s.nodes.length > 0 && s.runInfo.quorum !== null;

/**
 * Redlock: the clients that believe they hold the lock while their token is on fewer nodes than
 * the quorum now (the node-level truth and the client's belief differ: the lesson).
 */
export function believersWithoutMajority(holdings: readonly NodeHolding[], believers: readonly string[]): string[] {
  return believers.filter((id) => !holdings.some((h) => h.clientId === id && h.majority));
}
