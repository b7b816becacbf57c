/**
 * An ioredis-compatible client over the simulated server, for async clients: the subset lock code
 * uses, with ioredis's argument forms and reply shapes (strings, numbers, null, arrays; error
 * replies reject with a ReplyError). Every command is one action of the client (a scheduling
 * point): the promise settles when the schedule has run it.
 */
import type { Reply } from '../../engine/redis/reply';
import { sha1Hex } from '../../engine/redis/lua/sha1';

/** An error reply from Redis, as ioredis rejects with it (`err.message` is Redis's text). */
export class ReplyError extends Error {
  override name = 'ReplyError';
}

export type Arg = string | number;

/** ioredis's value for a reply: status and bulk as strings, integers as numbers, nil as null. */
function replyValue(reply: Reply): unknown {
  switch (reply.type) {
    case 'status':
    case 'bulk':
      return reply.value;
    case 'integer':
      return Number(reply.value);
    case 'nil':
      return null;
    case 'error':
      return new ReplyError(reply.value);
    case 'array':
      return reply.value.map(replyValue);
  }
}

/** What the client needs from its host: send one command and get its reply. */
export type SendCommand = (argv: readonly string[]) => Promise<Reply>;

function argText(arg: unknown, command: string): string {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'number' && Number.isFinite(arg)) return String(arg);
  throw new TypeError(`${command}: arguments must be strings or finite numbers, got ${typeof arg}`);
}

/** Flattens ioredis's argument forms (`del('a', 'b')`, `del(['a', 'b'])`, `mset({ a: 1 })`). */
function flatArgs(args: readonly unknown[], command: string): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (Array.isArray(arg)) out.push(...arg.map((a) => argText(a, command)));
    else if (typeof arg === 'object' && arg !== null) for (const [k, v] of Object.entries(arg)) out.push(k, argText(v, command));
    else out.push(argText(arg, command));
  }
  return out;
}

async function value(reply: Promise<Reply>): Promise<unknown> {
  const r = await reply;
  if (r.type === 'error') throw new ReplyError(r.value);
  return replyValue(r);
}

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

type CommandName = (typeof COMMANDS)[number];
type Nullable = string | null;
/** What each command resolves with, as ioredis types it; others resolve with `unknown`. */
interface CommandResults {
  get: Nullable; set: Nullable; setnx: number; getset: Nullable; getdel: Nullable; getex: Nullable; del: number; unlink: number; exists: number;
  expire: number; pexpire: number; expireat: number; pexpireat: number; ttl: number; pttl: number; persist: number;
  incr: number; incrby: number; decr: number; decrby: number; incrbyfloat: string; append: number; strlen: number; mget: Nullable[];
  hget: Nullable; hset: number; hsetnx: number; hdel: number; hexists: number; hincrby: number; hlen: number;
  lpush: number; rpush: number; llen: number; lrange: string[]; sadd: number; srem: number; sismember: number; smembers: string[]; scard: number;
  publish: number; ping: string; keys: string[]; type: string;
}
type CommandMethods = {
  [K in CommandName]: (...args: (Arg | readonly Arg[] | Readonly<Record<string, Arg>>)[]) => Promise<K extends keyof CommandResults ? CommandResults[K] : unknown>;
};

/** A queue of commands sent one after another (`pipeline`) or as a transaction (`multi`), as ioredis's Pipeline. */
export type LockstepPipeline = { [K in CommandName]: (...args: (Arg | readonly Arg[])[]) => LockstepPipeline } & {
  call(command: string, ...args: Arg[]): LockstepPipeline;
  /** Sends the queue. Resolves with `[error, result]` per command; `null` when a WATCHed key changed (EXEC aborted). */
  exec(): Promise<[Error | null, unknown][] | null>;
};

/** The client an async client's code gets: ioredis's methods for the commands lock code sends. */
export type LockstepRedis = CommandMethods & {
  /** Any command: `call('SET', 'lock', token, 'NX', 'PX', 5000)`. */
  call(command: string, ...args: Arg[]): Promise<unknown>;
  /** Lua as a method, as ioredis does: EVALSHA first, EVAL when the server answers NOSCRIPT. */
  defineCommand(name: string, definition: { readonly numberOfKeys: number; readonly lua: string }): void;
  multi(commands?: readonly (readonly Arg[])[]): LockstepPipeline;
  pipeline(commands?: readonly (readonly Arg[])[]): LockstepPipeline;
  hgetall(key: string): Promise<Record<string, string>>;
  /**
   * SUBSCRIBE / PSUBSCRIBE and their UN- forms, one command per channel (each a scheduling point);
   * resolves, as ioredis does, with how many channels and patterns the connection now listens to.
   * The connection is then in subscribed mode: other commands are refused by the server, as Redis does.
   */
  subscribe(...channels: string[]): Promise<number>;
  psubscribe(...patterns: string[]): Promise<number>;
  unsubscribe(...channels: string[]): Promise<number>;
  punsubscribe(...patterns: string[]): Promise<number>;
  /** Commands defined with defineCommand. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as ioredis: defined commands are typed by the caller
  [defined: string]: any;
};

export function createRedisClient(send: SendCommand): LockstepRedis {
  const call = (command: string, ...args: unknown[]) => value(send([command, ...flatArgs(args, command)]));
  const client: Record<string, unknown> = {};
  for (const name of COMMANDS) client[name] = (...args: unknown[]) => call(name, ...args);
  client.call = (command: string, ...args: Arg[]) => call(command, ...args);
  client.hgetall = async (key: string) => {
    const pairs = (await call('hgetall', key)) as string[];
    const out: Record<string, string> = {};
    for (let i = 0; i + 1 < pairs.length; i += 2) out[pairs[i]] = pairs[i + 1];
    return out;
  };
  client.defineCommand = (name: string, definition: { numberOfKeys: number; lua: string }) => {
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) || name in client) throw new TypeError(`defineCommand: "${name}" is not a free method name`);
    const sha = sha1Hex(definition.lua);
    client[name] = async (...args: unknown[]) => {
      const flat = flatArgs(args, name);
      const first = await send(['evalsha', sha, String(definition.numberOfKeys), ...flat]);
      if (first.type === 'error' && first.value.startsWith('NOSCRIPT')) return value(send(['eval', definition.lua, String(definition.numberOfKeys), ...flat]));
      if (first.type === 'error') throw new ReplyError(first.value);
      return replyValue(first);
    };
  };
  for (const name of ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe']) {
    client[name] = async (...channels: unknown[]) => {
      const names = flatArgs(channels, name);
      // One command per name, so each confirmation is the command's own reply (the count after it).
      if (names.length === 0) throw new TypeError(`${name}: name the channels or patterns`);
      let count = 0;
      for (const argv of names.map((channel) => [name, channel])) {
        const reply = await send(argv);
        if (reply.type === 'error') throw new ReplyError(reply.value);
        if (reply.type === 'array' && reply.value[2]?.type === 'integer') count = Number(reply.value[2].value);
      }
      return count;
    };
  }
  client.multi = (commands?: readonly (readonly Arg[])[]) => createPipeline(send, true, commands);
  client.pipeline = (commands?: readonly (readonly Arg[])[]) => createPipeline(send, false, commands);
  return client as LockstepRedis;
}

function createPipeline(send: SendCommand, transaction: boolean, initial: readonly (readonly Arg[])[] | undefined): LockstepPipeline {
  const queue: string[][] = (initial ?? []).map((argv) => flatArgs(argv, String(argv[0])));
  const pipeline: Record<string, unknown> = {};
  const add = (command: string, args: unknown[]) => {
    queue.push([command, ...flatArgs(args, command)]);
    return pipeline;
  };
  for (const name of COMMANDS) pipeline[name] = (...args: unknown[]) => add(name, args);
  pipeline.call = (command: string, ...args: unknown[]) => add(command, args);
  pipeline.exec = async (): Promise<[Error | null, unknown][] | null> => {
    const pair = (r: Reply): [Error | null, unknown] => (r.type === 'error' ? [new ReplyError(r.value), null] : [null, replyValue(r)]);
    if (!transaction) {
      const replies = await Promise.all(queue.map((argv) => send(argv)));
      return replies.map(pair);
    }
    // MULTI, the queued commands and EXEC go out together, as ioredis writes them; each is one action.
    const sent = [send(['multi']), ...queue.map((argv) => send(argv)), send(['exec'])];
    const replies = await Promise.all(sent);
    const exec = replies[replies.length - 1];
    if (exec.type === 'nil') return null;
    if (exec.type === 'error') throw new ReplyError(exec.value);
    if (exec.type !== 'array') throw new ReplyError(`EXEC answered ${exec.type}`);
    return exec.value.map(pair);
  };
  return pipeline as LockstepPipeline;
}
