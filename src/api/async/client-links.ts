/**
 * An async client's Redis connections: one ioredis-compatible client per node of the run (the
 * single node when the scenario has none), each sending its commands as actions of the client
 * through the host; `redis` is the first node's. duplicate() opens a named connection of the
 * client (`dup1`, `dup2`, ...: the engine's CommandStep.connection) on the same node.
 */
import type { AsyncHost } from './host';
import { createRedisClient, type ClientLink, type LockstepRedis } from './ioredis';

export interface ClientConnections {
  readonly redis: LockstepRedis;
  /** One client per node, in the scenario's node order (`[redis]` with one node). */
  readonly nodes: readonly LockstepRedis[];
}

export function clientConnections(host: AsyncHost, generation: number, clientId: string, nodeIds: readonly string[]): ClientConnections {
  let opened = 0;
  const link = (node: string | undefined): ClientLink => ({
    send: (argv, connection, timeoutMs) =>
      host.append(
        generation,
        clientId,
        {
          op: 'command',
          argv: [...argv],
          ...(node === undefined ? {} : { node }),
          ...(connection === undefined ? {} : { connection }),
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
        },
        'reply',
      ),
    openConnection: () => `dup${++opened}`,
  });
  const nodes = nodeIds.length === 0 ? [createRedisClient(link(undefined))] : nodeIds.map((id) => createRedisClient(link(id)));
  return { redis: nodes[0], nodes };
}
