/**
 * An ioredis-compatible client over the simulated server, for async clients: what ioredis 5.11.1
 * puts on the wire for each call, and the reply shapes it hands back (docs/AUTOMATION.md, "Testing
 * your own lock code"; tests/replay/ioredis-wire.test.ts compares both with a real ioredis and a real
 * redis-server). Every command is one action of the client (a scheduling point): its promise
 * settles when the schedule has run it. The argument and reply rules are in ioredis-wire.ts, a
 * connection's (scripts sent, subscriber mode) in ioredis-connection.ts, pipelines and multi() in
 * ioredis-pipeline.ts.
 */
import type { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import { Connection, Script, type ClientLink } from './ioredis-connection';
import { createPipeline } from './ioredis-pipeline';
import { asCallback, splitCallback, wireArgs, wrapMultiResult, type ReplyEncoding } from './ioredis-wire';

export { ReplyError } from './ioredis-wire';
export type { ClientLink } from './ioredis-connection';

type Arg = string | number | Buffer;

/** Commands offered as methods (ioredis names them in lower case). Anything else: `call(name, ...args)`. */
const COMMANDS = [
  'get', 'set', 'setnx', 'setex', 'psetex', 'getset', 'getdel', 'getex', 'del', 'unlink', 'exists', 'type', 'keys',
  'expire', 'pexpire', 'expireat', 'pexpireat', 'ttl', 'pttl', 'persist', 'expiretime', 'pexpiretime',
  'incr', 'incrby', 'decr', 'decrby', 'incrbyfloat', 'append', 'strlen', 'mget', 'mset', 'msetnx',
  'hget', 'hset', 'hsetnx', 'hdel', 'hexists', 'hincrby', 'hlen', 'hkeys', 'hvals', 'hmget',
  'lpush', 'rpush', 'lpop', 'rpop', 'llen', 'lrange', 'sadd', 'srem', 'sismember', 'smembers', 'scard',
  'eval', 'evalsha', 'script', 'publish', 'watch', 'unwatch', 'ping', 'echo', 'time', 'dbsize', 'flushall', 'delex', 'digest',
  'zadd', 'zincrby', 'zrem', 'zcard', 'zscore', 'zmscore', 'zrank', 'zrevrank', 'zcount', 'zrange', 'zrevrange', 'zrangebyscore',
  'zrevrangebyscore', 'zrangebylex', 'zrevrangebylex', 'zremrangebyrank', 'zremrangebyscore', 'zremrangebylex', 'zpopmin', 'zpopmax',
  'lrem', 'lset', 'ltrim', 'linsert', 'lpos', 'lmove', 'rpoplpush', 'spop', 'srandmember', 'smove',
  'client', 'select', 'info', 'scan', 'hscan', 'sscan', 'zscan', 'blpop', 'brpop', 'blmove', 'bzpopmin', 'bzpopmax',
] as const;

/** More builtin methods of ioredis, with plain wire forms (kept apart from COMMANDS, which other work appends to). */
const MORE_COMMANDS = ['hgetall', 'hmset', 'discard', 'info', 'select', 'client', 'object', 'scan', 'wait'] as const;

type CommandName = (typeof COMMANDS)[number] | (typeof MORE_COMMANDS)[number];
type Nullable = string | null;
/** What each command resolves with, as ioredis types it; others resolve with `unknown`. */
interface CommandResults {
  get: Nullable; set: Nullable; setnx: number; getset: Nullable; getdel: Nullable; getex: Nullable; del: number; unlink: number; exists: number;
  expire: number; pexpire: number; expireat: number; pexpireat: number; ttl: number; pttl: number; persist: number;
  incr: number; incrby: number; decr: number; decrby: number; incrbyfloat: string; append: number; strlen: number; mget: Nullable[];
  hget: Nullable; hset: number; hsetnx: number; hdel: number; hexists: number; hincrby: number; hlen: number;
  lpush: number; rpush: number; llen: number; lrange: string[]; sadd: number; srem: number; sismember: number; smembers: string[]; scard: number;
  publish: number; ping: string; keys: string[]; type: string; hgetall: Record<string, string>;
}
type Callback = (error: Error | null, result?: unknown) => void;
type ArgForm = Arg | null | undefined | readonly (Arg | null | undefined)[] | Readonly<Record<string, Arg>> | ReadonlyMap<string, Arg> | Callback;
type CommandMethods = {
  [K in CommandName]: (...args: ArgForm[]) => Promise<K extends keyof CommandResults ? CommandResults[K] : unknown>;
};

/** A queue of commands sent one after another (`pipeline`) or as a transaction (`multi`), as ioredis's Pipeline. */
export type LockstepPipeline = { [K in CommandName]: (...args: ArgForm[]) => LockstepPipeline } & {
  call(command: string, ...args: ArgForm[]): LockstepPipeline;
  readonly length: number;
  /**
   * Sends the queue. A pipeline resolves with `[null, result]` or `[error]` per command; multi()
   * with EXEC's replies in that form, `null` when a WATCHed key changed (EXEC aborted), and
   * rejects with EXEC's error (EXECABORT) when a command could not be queued.
   */
  exec(callback?: Callback): Promise<([Error] | [null, unknown])[] | null>;
  /** Commands defined with defineCommand on the client before the pipeline was made. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as ioredis: defined commands are typed by the caller
  [defined: string]: any;
};

/** What `new Redis(options)` would hold, with ioredis's defaults; Lockstep connects before the run, so nothing here is used to connect. */
export interface LockstepRedisOptions {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly keyPrefix: string;
  readonly lazyConnect: boolean;
  readonly enableReadyCheck: boolean;
  readonly enableOfflineQueue: boolean;
  readonly maxRetriesPerRequest: number;
  readonly enableAutoPipelining: boolean;
  /** ioredis's client-side timeout (ms): with nodes, a command without a reply by then rejects with "Command timed out". */
  readonly commandTimeout?: number;
  readonly [option: string]: unknown;
}

/** The client an async client's code gets: ioredis's methods, fields and events for the commands lock code sends. */
export type LockstepRedis = CommandMethods & EventEmitter & {
  /** 'ready' from the start (the connection is made before the run, its handshake is not modelled); 'end' after quit() or disconnect(). */
  readonly status: 'ready' | 'end';
  readonly options: LockstepRedisOptions;
  readonly isCluster: false;
  readonly mode: 'normal' | 'subscriber';
  /** Any command, its name sent as written: `call('SET', 'lock', token, 'NX', 'PX', 5000)`. */
  call(command: string, ...args: ArgForm[]): Promise<unknown>;
  /**
   * Lua as a method, as ioredis's Script does: EVAL the first time on a connection, EVALSHA after
   * (EVAL again on NOSCRIPT). Without numberOfKeys the caller passes the key count first. Also
   * defines `<name>Buffer` (bulk replies as Buffers).
   */
  defineCommand(name: string, definition: { readonly numberOfKeys?: number | null; readonly lua: string }): void;
  /** multi() / multi(commands): a pipeline wrapped in MULTI/EXEC; multi({ pipeline: false }) sends MULTI now (then `exec()`). */
  multi: {
    (options: { readonly pipeline: false }): Promise<'OK'>;
    (commands?: readonly (readonly unknown[])[], options?: { readonly pipeline?: boolean }): LockstepPipeline;
  };
  pipeline(commands?: readonly (readonly unknown[])[]): LockstepPipeline;
  /** EXEC after multi({ pipeline: false }): `[null, result]` or `[error]` per command, null when aborted. */
  exec(callback?: Callback): Promise<([Error] | [null, unknown])[] | null>;
  hgetall(key: string, callback?: Callback): Promise<Record<string, string>>;
  /** SUBSCRIBE / PSUBSCRIBE and their UN- forms: one command; resolves with the connection's channel and pattern count after it. */
  subscribe(...channels: (string | Callback)[]): Promise<number>;
  psubscribe(...patterns: (string | Callback)[]): Promise<number>;
  unsubscribe(...channels: (string | Callback)[]): Promise<number>;
  punsubscribe(...patterns: (string | Callback)[]): Promise<number>;
  /** A new connection of the same client (its own MULTI, WATCH, subscriptions and scripts sent), without the defined commands, as ioredis's duplicate(). */
  duplicate(override?: Partial<LockstepRedisOptions>): LockstepRedis;
  /** Rejects as ioredis does on a connected client; after quit() or disconnect() connects again (a new connection: scripts go as EVAL again). */
  connect(callback?: Callback): Promise<void>;
  /** Sends QUIT; the connection is closed after its reply. */
  quit(callback?: Callback): Promise<'OK'>;
  /** Closes the connection at once (nothing is sent). */
  disconnect(reconnect?: boolean): void;
  /** Commands defined with defineCommand. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as ioredis: defined commands are typed by the caller
  [defined: string]: any;
};

const DEFAULT_OPTIONS = {
  host: 'localhost',
  port: 6379,
  db: 0,
  keyPrefix: '',
  lazyConnect: false,
  enableReadyCheck: true,
  enableOfflineQueue: true,
  maxRetriesPerRequest: 20,
  enableAutoPipelining: false,
} as const;

function timeoutOf(options: LockstepRedisOptions): number | undefined {
  const ms = options.commandTimeout;
  if (ms === undefined) return undefined;
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 1) throw new RangeError(`commandTimeout: a whole number of ms from 1, got ${String(ms)}`);
  return ms;
}

/** Builtin methods: `name(...args, callback?)` and `nameBuffer(...)` (replies as Buffers). */
function builtins(client: Record<string, unknown>, conn: Connection, names: readonly string[]): void {
  const method = (name: string, encoding: ReplyEncoding) => (...all: unknown[]) => {
    const { args, callback } = splitCallback(all);
    return asCallback(conn.send(name, wireArgs(name, args), encoding), callback);
  };
  for (const name of names) {
    client[name] = method(name, 'utf8');
    client[`${name}Buffer`] = method(name, 'buffer');
  }
  const call = (encoding: ReplyEncoding) => (name: string, ...all: unknown[]) => method(name, encoding)(...all);
  client.call = call('utf8');
  client.callBuffer = call('buffer');
  client.send_command = client.call;
}

/**
 * The client for one connection of an async client. `link` sends its commands (as actions of the
 * client); `connection` names the connection (undefined: the client's own), as duplicate() does.
 */
export function createRedisClient(link: ClientLink, connection?: string, override: Partial<LockstepRedisOptions> = {}): LockstepRedis {
  const options: LockstepRedisOptions = { ...DEFAULT_OPTIONS, ...override };
  const conn = new Connection(link, connection, timeoutOf(options));
  const client = new EventEmitter() as unknown as Record<string, unknown> & EventEmitter;
  const names = [...COMMANDS, ...MORE_COMMANDS, 'subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'multi', 'exec', 'quit'];
  builtins(client, conn, names);
  const scripts = new Map<string, Script>();
  Object.defineProperties(client, {
    status: { get: () => conn.status, enumerable: true },
    mode: { get: () => (conn.subscriber === null ? 'normal' : 'subscriber'), enumerable: true },
    options: { value: options, enumerable: true },
    isCluster: { value: false, enumerable: true },
  });
  client.defineCommand = (name: string, definition: { numberOfKeys?: number | null; lua: string }) => {
    const script = new Script(definition.lua, typeof definition.numberOfKeys === 'number' ? definition.numberOfKeys : null);
    scripts.set(name, script);
    const method = (encoding: ReplyEncoding) => (...all: unknown[]) => {
      const { args, callback } = splitCallback(all);
      return asCallback(script.execute(conn, args, encoding), callback);
    };
    client[name] = method('utf8');
    client[`${name}Buffer`] = method('buffer');
  };
  const parts = () => ({ conn, commands: [...COMMANDS, ...MORE_COMMANDS], scripts: new Map(scripts) });
  client.pipeline = (commands?: unknown) => createPipeline(parts(), false, commands);
  const sendMulti = client.multi as (...args: unknown[]) => Promise<unknown>;
  client.multi = (commands?: unknown, multiOptions?: { pipeline?: boolean }) => {
    const pipelineOff = (Array.isArray(commands) ? multiOptions : (commands as { pipeline?: boolean } | undefined))?.pipeline === false;
    if (pipelineOff) return sendMulti();
    return createPipeline(parts(), true, commands);
  };
  const sendExec = client.exec as (...args: unknown[]) => Promise<unknown>;
  client.exec = (callback?: unknown) => asCallback(sendExec().then((values) => (Array.isArray(values) ? wrapMultiResult(values) : values)), callback);
  const sendQuit = client.quit as (...args: unknown[]) => Promise<unknown>;
  client.quit = (callback?: unknown) =>
    asCallback(
      sendQuit().then((value) => {
        queueMicrotask(() => closed());
        return value;
      }),
      callback,
    );
  const closed = () => {
    client.emit('close');
    client.emit('end');
  };
  client.disconnect = () => {
    if (conn.status === 'end') return;
    conn.status = 'end';
    queueMicrotask(closed);
  };
  client.connect = (callback?: unknown) => {
    if (conn.status !== 'end') return asCallback(Promise.reject(new Error('Redis is already connecting/connected')), callback);
    conn.reopen();
    queueMicrotask(ready);
    return asCallback(Promise.resolve(), callback);
  };
  client.duplicate = (more: Partial<LockstepRedisOptions> = {}) => createRedisClient(link, link.openConnection(), { ...options, ...more });
  // ioredis emits these once its connection is up; code that waits for 'ready' must not wait for ever.
  const ready = () => {
    client.emit('connect');
    client.emit('ready');
  };
  queueMicrotask(ready);
  return client as unknown as LockstepRedis;
}
