import RedisMock from 'ioredis-mock';
import type { Reply } from '../../../src/engine/redis/reply';
import type { Executor, Observation } from '../harness';

/**
 * ioredis-mock 8.13 as an executor: the fidelity baseline Lockstep's own server is measured
 * against (docs/REDIS-FIDELITY.md). Each case gets a fresh keyspace (a host name of its own);
 * each connection is a mock instance on it. Commands go through the mock's public API as a user
 * of the library would call them (`redis.set(...)`, `redis.multi()...exec()`); its replies are
 * plain JS values, converted naively to typed replies (a string is a status reply when it is one
 * of the usual status words, else bulk). Messages arrive as the instance's `message` events.
 * Not a test subject: its mismatches are counted, never fixed.
 */

interface MockPipeline {
  exec(): Promise<[Error | null, unknown][]>;
  [command: string]: unknown;
}

interface MockInstance {
  multi(): MockPipeline;
  on(event: string, listener: (...args: string[]) => void): void;
  disconnect(): void;
  [command: string]: unknown;
}

const STATUS_WORDS = ['OK', 'PONG', 'QUEUED', 'RESET', 'string', 'hash', 'list', 'set', 'zset', 'none'];

let keyspaceCount = 0;

export function ioredisMockExecutor(): Executor {
  keyspaceCount += 1;
  const host = `lockstep-baseline-${keyspaceCount}`;
  const connections = new Map<string, { redis: MockInstance; received: Reply[]; multi: MockPipeline | null }>();
  const connection = (name: string) => {
    let conn = connections.get(name);
    if (conn === undefined) {
      const Ctor = RedisMock as unknown as new (options: object) => MockInstance;
      const redis = new Ctor({ host, port: 6379, lazyConnect: false });
      const received: Reply[] = [];
      redis.on('message', (channel, message) => received.push(arrayOf(['message', channel, message])));
      redis.on('pmessage', (pattern, channel, message) => received.push(arrayOf(['pmessage', pattern, channel, message])));
      conn = { redis, received, multi: null };
      connections.set(name, conn);
    }
    return conn;
  };
  return {
    unixNowMs: () => Date.now(),
    async run(name, argv): Promise<Observation> {
      const conn = connection(name);
      const command = argv[0].toLowerCase();
      const args = argv.slice(1);
      let result: Reply;
      try {
        if (command === 'multi') {
          conn.multi = conn.redis.multi();
          result = { type: 'status', value: 'OK' };
        } else if (command === 'exec' && conn.multi !== null) {
          const results = await conn.multi.exec();
          conn.multi = null;
          result = { type: 'array', value: results.map(([error, value]) => (error ? errorReply(error) : toReply(value))) };
        } else if (conn.multi !== null) {
          const queue = conn.multi[command];
          if (typeof queue !== 'function') throw new Error(`ERR unknown command '${argv[0]}'`);
          (queue as (...a: string[]) => unknown).apply(conn.multi, args);
          result = { type: 'status', value: 'QUEUED' };
        } else {
          const method = Object.hasOwn(Object.getPrototypeOf(conn.redis) as object, command) || Object.hasOwn(conn.redis, command) ? conn.redis[command] : undefined;
          if (typeof method !== 'function') throw new Error(`ERR unknown command '${argv[0]}'`);
          result = toReply(await (method as (...a: string[]) => Promise<unknown>).apply(conn.redis, args));
        }
      } catch (error) {
        result = errorReply(error);
      }
      // The mock emits messages on a later tick: let them arrive before reading them.
      await new Promise((resolve) => setImmediate(resolve));
      const pushes: Record<string, Reply[]> = {};
      for (const [other, state] of connections) if (state.received.length > 0) pushes[other] = state.received.splice(0);
      return { reply: result, pushes, unixNowMs: Date.now() };
    },
    async close() {
      for (const { redis } of connections.values()) redis.disconnect();
    },
  };
}

function errorReply(error: unknown): Reply {
  const message = error instanceof Error ? error.message : String(error);
  return { type: 'error', value: /^[A-Z]+ /.test(message) ? message : `ERR ${message}` };
}

function arrayOf(values: string[]): Reply {
  return { type: 'array', value: values.map((value) => ({ type: 'bulk', value })) };
}

/** The naive conversion a user of the library would make from its JS values. */
function toReply(value: unknown): Reply {
  if (value === null || value === undefined) return { type: 'nil' };
  if (typeof value === 'number') return Number.isInteger(value) ? { type: 'integer', value: String(value) } : { type: 'bulk', value: String(value) };
  if (typeof value === 'string') return STATUS_WORDS.includes(value) ? { type: 'status', value } : { type: 'bulk', value };
  if (value instanceof Uint8Array) return { type: 'bulk', value: new TextDecoder().decode(value) };
  if (Array.isArray(value)) return { type: 'array', value: value.map(toReply) };
  if (value instanceof Error) return errorReply(value);
  return { type: 'bulk', value: String(value) };
}
