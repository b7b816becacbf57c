import type { ClientState, Clients } from './clients';
import type { BlockedPop } from './commands/blocking';
import type { PubSub } from './pubsub';
import type { Reply } from './reply';

/**
 * What a command sees of the connection that sent it and of the server beyond the keyspace. The
 * server builds one per command; commands that answer more than one reply (SUBSCRIBE of several
 * channels) or write to other connections (PUBLISH) do it through `send`.
 *
 * A connection's output is a stream, as on a real RESP2 connection: `execute` returns the first
 * value written to the caller during the command, and every other value (to the caller or to
 * anyone else) becomes a push the engine takes with `takePushes()`.
 */
export interface Session {
  readonly client: ClientState;
  readonly clients: Clients;
  readonly pubsub: PubSub;
  /** Writes one value to a connection's output, in order. */
  send(clientId: string, value: Reply): void;
  /**
   * EXEC: runs the queued commands as Redis's call() does (no queueing, no Pub/Sub context check)
   * and returns every value they wrote to this connection, in order.
   */
  runQueued(queue: readonly (readonly string[])[]): Reply[];
  /** QUIT: the connection closes once the reply is written; its state goes. */
  close(): void;
  /**
   * An integer in [0, bound) from the server's seeded random stream (SPOP, SRANDMEMBER): the same
   * seed and commands give the same choices, and a snapshot carries the stream's state.
   */
  randomBelow(bound: number): number;
  /** The database the command runs in (the connection's, or inside a script the script's). */
  readonly db: number;
  /** How many databases SELECT may choose from (0 to this minus one). */
  readonly databaseCount: number;
  /** Cluster mode: SELECT is refused, INFO says so. */
  readonly clusterMode: boolean;
  /** SELECT: the connection's database, or inside a script only the script's. */
  select(db: number): void;
  /** FLUSHALL: every database. */
  flushAll(): void;
  /** Databases holding keys at `nowMs`, in order (INFO keyspace). */
  databaseSizes(nowMs: number): { db: number; keys: number; expires: number }[];
  /** A new connection id (CLIENT ID), one more than the last. */
  nextClientId(): number;
  /** False where a blocking pop must answer at once (a server of several nodes). */
  readonly blockingAllowed: boolean;
  /** Blocks the connection on `pop` for `timeoutMs` (0: for ever); the command writes no reply now. */
  block(pop: BlockedPop, timeoutMs: number): void;
}
