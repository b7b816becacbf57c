/**
 * The node faults of the nodes dialog (several Redis nodes): each is one action that writes its
 * schedule token (docs/SCHEDULES.md, "Many nodes") after the cursor through the port's
 * appendScheduleText, so the fault is a recorded choice like any other. Whether a fault applies
 * now is the engine's question (faults.ts): `nodeFaultRefusal` asks it and returns its reason.
 */
import { formatChoice, type NodeChoice } from '../../../engine/schedule';
import type { MessageRef } from '../../../i18n';
import type { NodeFaultsPort } from '../ports';

export type { NodeChoice };

export interface NodeFaultsSlice {
  /** Partition client `clientId` from node `nodeId` (`A/@r1`): requests and replies on that link are dropped. */
  partitionLink(clientId: string, nodeId: string): void;
  /** Heal that partition (`A|@r1`). */
  healLink(clientId: string, nodeId: string): void;
  /** Lose the next request from the client to the node (`A-@r1`) or the node's next reply to it (`@r1-A`). */
  loseNextMessage(clientId: string, nodeId: string, direction: 'request' | 'reply'): void;
  /** The node's clock jumps `ms` (negative: back) (`@r1+ms`). */
  jumpNodeClock(nodeId: string, ms: number): void;
  /** The client's clock jumps `ms` (`A@+ms`). */
  jumpClientClock(clientId: string, ms: number): void;
  /** A replica now applies its primary's writes `ms` after they were made (`@r2~ms`). */
  setReplicationDelay(nodeId: string, ms: number): void;
  /** Why the fault cannot apply at the cursor (the engine's words), or null when it can. */
  nodeFaultRefusal(choice: NodeChoice): MessageRef | null;
}

/** Node faults hold no state of their own: only actions over the port. */
export function createNodeFaultsSlice(port: NodeFaultsPort): () => NodeFaultsSlice {
  return () => {
    const append = (choice: NodeChoice) => port.appendScheduleText(formatChoice(choice));
    return {
      partitionLink: (clientId, nodeId) => append({ kind: 'partition', clientId, nodeId }),
      healLink: (clientId, nodeId) => append({ kind: 'heal', clientId, nodeId }),
      loseNextMessage: (clientId, nodeId, direction) => append({ kind: 'lose', clientId, nodeId, direction }),
      jumpNodeClock: (nodeId, ms) => append({ kind: 'node-clock', nodeId, ms }),
      jumpClientClock: (clientId, ms) => append({ kind: 'client-clock', clientId, ms }),
      setReplicationDelay: (nodeId, ms) => append({ kind: 'replication-delay', nodeId, ms }),
      nodeFaultRefusal: (choice) => port.faultRefusal(choice),
    };
  };
}
