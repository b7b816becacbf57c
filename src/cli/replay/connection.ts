import { Redis, ReplyError } from 'ioredis';
import type { ServerAddress } from './address';

/**
 * Real connections for a replay, through ioredis (Node only: the page never imports src/cli).
 * No retries, no offline queue, no reconnect: a replay that loses its server must stop and say
 * so, not send a command late, twice, or on a new connection.
 */
const connectTimeoutMs = 5_000;
const commandTimeoutMs = 10_000;

/** A reply as ioredis hands it over: status and bulk strings both arrive as strings. */
export type RealReply =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'integer'; readonly value: string }
  | { readonly type: 'nil' }
  | { readonly type: 'array'; readonly value: readonly RealReply[] }
  | { readonly type: 'error'; readonly value: string };

/** The connection failed (refused, timed out, closed): not a reply from Redis. */
export class ConnectionFailure extends Error {
  override name = 'ConnectionFailure';
}

export class RealConnection {
  private lastError: Error | null = null;

  private constructor(
    private readonly redis: Redis,
    readonly name: string,
  ) {
    redis.on('error', (error: Error) => {
      this.lastError = error;
    });
  }

  static async open(address: ServerAddress, name: string): Promise<RealConnection> {
    const redis = new Redis(address.url, {
      lazyConnect: true,
      connectionName: `lockstep-replay-${name}`,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      reconnectOnError: () => false,
      autoResendUnfulfilledCommands: false,
      connectTimeout: connectTimeoutMs,
      commandTimeout: commandTimeoutMs,
    });
    const connection = new RealConnection(redis, name);
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      throw new ConnectionFailure(`cannot connect to ${address.display}: ${describeError(connection.lastError ?? error)}`);
    }
    return connection;
  }

  /** Sends one command; a Redis error reply is a reply, a lost connection is a ConnectionFailure. */
  async send(argv: readonly string[]): Promise<RealReply> {
    try {
      const raw: unknown = await this.redis.call(argv[0], ...argv.slice(1));
      return toRealReply(raw);
    } catch (error) {
      if (error instanceof ReplyError) return { type: 'error', value: (error as Error).message };
      throw new ConnectionFailure(describeError(this.lastError ?? error));
    }
  }

  close(): void {
    this.redis.disconnect();
  }
}

function toRealReply(raw: unknown): RealReply {
  if (raw === null || raw === undefined) return { type: 'nil' };
  if (typeof raw === 'number') return { type: 'integer', value: String(raw) };
  if (typeof raw === 'string') return { type: 'string', value: raw };
  if (Buffer.isBuffer(raw)) return { type: 'string', value: raw.toString('utf8') };
  if (Array.isArray(raw)) return { type: 'array', value: raw.map(toRealReply) };
  if (raw instanceof Error) return { type: 'error', value: raw.message };
  return { type: 'string', value: String(raw) };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'connection refused (is redis-server running there?)';
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(error.message)) return `no answer within the time limit (${error.message})`;
  if (code === 'ECONNRESET' || /Connection is closed|Stream isn't writeable/i.test(error.message)) return 'the server closed the connection';
  return error.message;
}
