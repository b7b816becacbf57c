/**
 * An async client's Redis connections: one ioredis client per node of the run (the single node
 * when the scenario has none), each sending its commands as actions of the client through the
 * host; `redis` is the first node's. duplicate() opens a named connection of the client (`dup1`,
 * `dup2`, ...: the engine's CommandStep.connection) on the same node.
 *
 * Which client: the engineer's own ioredis 5 when their project has it (real-ioredis.ts: ioredis's
 * code with Lockstep's transport, `instanceof Redis` holds), else Lockstep's ioredis-compatible
 * client (ioredis.ts, proved command for command against ioredis 5.11.1).
 */
import { ArgumentError } from '../errors';
import type { AsyncHost } from './host';
import { createRedisClient, type ClientLink, type LockstepRedis } from './ioredis';
import { createIoredisClient, loadIoredis, type Ioredis } from './real-ioredis';

/** The `redisClient` option: `auto` (default) takes ioredis when the project has it. */
export type RedisClientChoice = 'auto' | 'ioredis' | 'lockstep';

/** The ioredis to use, or null for Lockstep's own client. */
export function resolveRedisClient(choice: unknown): Ioredis | null {
  if (choice === undefined || choice === 'auto') return loadIoredis();
  if (choice === 'lockstep') return null;
  if (choice === 'ioredis') {
    const io = loadIoredis();
    if (io === null) throw new ArgumentError('redisClient', "'ioredis' needs ioredis 5 installed in your project (npm install --save-dev ioredis@5)");
    return io;
  }
  throw new ArgumentError('redisClient', `'auto', 'ioredis' or 'lockstep', got ${JSON.stringify(choice)}`);
}

export interface ClientConnections {
  readonly redis: LockstepRedis;
  /** One client per node, in the scenario's node order (`[redis]` with one node). */
  readonly nodes: readonly LockstepRedis[];
}

export function clientConnections(host: AsyncHost, generation: number, clientId: string, nodeIds: readonly string[], io: Ioredis | null): ClientConnections {
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
  const connect = (node: string | undefined): LockstepRedis => (io === null ? createRedisClient(link(node)) : (createIoredisClient(io, link(node)) as LockstepRedis));
  const nodes = nodeIds.length === 0 ? [connect(undefined)] : nodeIds.map((id) => connect(id));
  return { redis: nodes[0], nodes };
}
