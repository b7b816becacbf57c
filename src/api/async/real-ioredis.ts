/**
 * A real ioredis client over the simulated server. When the engineer's project has ioredis 5
 * installed (it is the client their lock library was written for), each async client gets a true
 * `ioredis` `Redis` instance: `instanceof Redis` holds, and ioredis's own code builds every command
 * (argument flattening, `defineCommand` and its EVAL-first-then-EVALSHA bookkeeping per connection,
 * pipelines and their script checks, `multi`, callbacks, reply transforms). Only the transport is
 * Lockstep's: `sendCommand` serializes the command with ioredis's own `toWritable` (what it would
 * write on the socket), reads the RESP request back into argv and hands it to the host as one action.
 *
 * The connection is modelled as already connected and ready: ioredis's handshake (its INFO ready
 * check, CLIENT SETNAME, SELECT) never happens, so a run's schedule holds only the commands the
 * code sends. Nothing opens a socket, starts a timer or reads the wall clock.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { decodeBytes, encodeString } from '../../engine/redis/commands/bytes';
import { clientTimeoutPrefix } from '../../engine/nodes/cluster';
import type { Reply } from '../../engine/redis/reply';
import type { ClientLink } from './ioredis-connection';

/** What ioredis passes to `sendCommand`: its Command, which serializes itself and settles its promise. */
interface IoredisCommand {
  readonly name: string;
  readonly args: readonly unknown[];
  readonly promise: Promise<unknown>;
  toWritable(socket: object): string | Buffer;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ioredis is the engineer's, loaded at run time
export type IoredisClass = new (options?: Record<string, unknown>) => any;

/** ioredis as loaded from the engineer's project: its client class and the error class its replies reject with. */
export interface Ioredis {
  readonly Redis: IoredisClass;
  readonly ReplyError: new (message: string) => Error;
}

let loaded: Ioredis | null | undefined;

/**
 * ioredis 5 as the engineer's project resolves it (from the working directory, where their lock
 * library finds it too), or null when it is not installed or not version 5.
 */
export function loadIoredis(fromDir: string = process.cwd()): Ioredis | null {
  if (loaded !== undefined) return loaded;
  try {
    const require = createRequire(join(fromDir, 'lockstep-resolve.cjs'));
    const version = (require('ioredis/package.json') as { version: string }).version;
    const module = require('ioredis') as { default?: IoredisClass; ReplyError?: new (message: string) => Error };
    const Redis = module.default ?? (module as unknown as IoredisClass);
    loaded = version.startsWith('5.') && typeof Redis === 'function' && module.ReplyError ? { Redis, ReplyError: module.ReplyError } : null;
  } catch {
    loaded = null;
  }
  return loaded;
}

/** ioredis if a run has loaded it (null otherwise): no resolution happens here. */
export function loadedIoredis(): Ioredis | null {
  return loaded ?? null;
}

/** Reads a RESP request (an array of bulk strings, what a client writes) back into argv. */
export function parseRespRequest(wire: string | Uint8Array): string[] {
  const bytes = typeof wire === 'string' ? encodeString(wire) : wire;
  let at = 0;
  const line = (): string => {
    const end = bytes.indexOf(13, at);
    if (end < 0 || bytes[end + 1] !== 10) throw new Error('a RESP request line without CRLF');
    const text = decodeBytes(bytes.subarray(at, end));
    at = end + 2;
    return text;
  };
  const header = line();
  if (header[0] !== '*') throw new Error(`a RESP request must be an array, got "${header}"`);
  const count = Number(header.slice(1));
  const argv: string[] = [];
  for (let i = 0; i < count; i++) {
    const bulk = line();
    if (bulk[0] !== '$') throw new Error(`a RESP request argument must be a bulk string, got "${bulk}"`);
    const length = Number(bulk.slice(1));
    argv.push(decodeBytes(bytes.subarray(at, at + length)));
    at += length + 2;
  }
  return argv;
}

/** A reply as ioredis's parser hands it to a Command (bulk and status as Buffers; the Command converts them). */
function wireValue(reply: Reply, ReplyError: new (message: string) => Error): unknown {
  switch (reply.type) {
    case 'status':
    case 'bulk':
      return Buffer.from(encodeString(reply.value));
    case 'integer':
      return Number(reply.value);
    case 'nil':
      return null;
    case 'error':
      return new ReplyError(reply.value);
    case 'array':
      return reply.value.map((r) => wireValue(r, ReplyError));
  }
}

/** ioredis's Command.FLAGS.VALID_IN_SUBSCRIBER_MODE, and what each (un)subscribe changes. */
const VALID_IN_SUBSCRIBER_MODE: ReadonlySet<string> = new Set(['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'ssubscribe', 'sunsubscribe', 'ping', 'quit']);
const SUBSCRIPTION_KIND: Readonly<Record<string, readonly ['channel' | 'pattern', boolean]>> = {
  subscribe: ['channel', true],
  unsubscribe: ['channel', false],
  psubscribe: ['pattern', true],
  punsubscribe: ['pattern', false],
};

/**
 * A real ioredis instance for one client's connection: its commands go through `link` as actions
 * of the client. `duplicate()` opens another connection of the same client (`dup1`, `dup2`, ...).
 * ioredis's `commandTimeout` becomes the command's client-side timeout on the virtual clock.
 */
export function createIoredisClient(io: Ioredis, link: ClientLink, connection?: string, options: Record<string, unknown> = {}): unknown {
  const { Redis, ReplyError } = io;
  class SimulatedRedis extends Redis {
    /** The connection's identity: ioredis keys "this script is loaded here" on the socket object (a new one per connect). */
    private socket = {};
    /** Subscriber mode (what ioredis's DataHandler tracks): the channels and patterns, or null. */
    private subscriptions: { readonly channel: Set<string>; readonly pattern: Set<string> } | null = null;
    constructor() {
      // The engineer's options (keyPrefix, scripts, commandTimeout...) with a transport that never connects.
      super({ ...options, lazyConnect: true, enableReadyCheck: false, enableOfflineQueue: false, maxRetriesPerRequest: null });
      // The connection is ready from the start: nothing to connect. ioredis says so as it does
      // (its events on the next tick), for code that waits for 'ready'.
      this.opened();
    }
    sendCommand(command: IoredisCommand): Promise<unknown> {
      if (this.status === 'end') {
        command.reject(new Error('Connection is closed.'));
        return command.promise;
      }
      if (this.subscriptions !== null && !VALID_IN_SUBSCRIBER_MODE.has(command.name)) {
        command.reject(new Error('Connection in subscriber mode, only subscriber commands may be used'));
        return command.promise;
      }
      let argv: string[];
      try {
        argv = parseRespRequest(command.toWritable(this.socket));
      } catch (error) {
        command.reject(error as Error);
        return command.promise;
      }
      const timeoutMs = typeof this.options.commandTimeout === 'number' ? this.options.commandTimeout : undefined;
      link.send(argv, connection, timeoutMs).then(
        (reply) => {
          // The engine's client-side timeout is ioredis's commandTimeout firing: its plain Error.
          if (reply.type === 'error' && reply.value.startsWith(clientTimeoutPrefix)) command.reject(new Error('Command timed out'));
          else if (reply.type === 'error') command.reject(Object.assign(new ReplyError(reply.value), { command: { name: command.name, args: command.args } }));
          else if (Object.hasOwn(SUBSCRIPTION_KIND, command.name)) command.resolve(this.subscribed(command.name, argv.slice(1)));
          else command.resolve(wireValue(reply, ReplyError));
          if (command.name === 'quit') this.closed();
        },
        (error: Error) => command.reject(error),
      );
      return command.promise;
    }
    /** What a (un)subscribe resolves with in ioredis: the channels and patterns left after it (subscriber mode ends at 0). */
    private subscribed(name: string, names: readonly string[]): number {
      const [kind, adds] = SUBSCRIPTION_KIND[name];
      const set = this.subscriptions ?? { channel: new Set<string>(), pattern: new Set<string>() };
      if (adds) for (const n of names) set[kind].add(n);
      else if (names.length === 0) set[kind].clear();
      else for (const n of names) set[kind].delete(n);
      const count = set.channel.size + set.pattern.size;
      this.subscriptions = count === 0 ? null : set;
      // ioredis's `mode` reads the connection's condition.
      this.condition = { select: 0, auth: undefined, subscriber: this.subscriptions !== null };
      return count;
    }
    /** A new connection: a new socket (scripts go as EVAL again), no subscriptions, 'connect' and 'ready' emitted. */
    private opened(): void {
      this.socket = {};
      this.subscriptions = null;
      this.condition = { select: 0, auth: undefined, subscriber: false };
      this.setStatus('connect');
      this.setStatus('ready');
    }
    private closed(): void {
      this.setStatus('close');
      this.setStatus('end');
    }
    /** As ioredis: a new connection with this one's options (defined commands are not carried over). */
    duplicate(override: Record<string, unknown> = {}): unknown {
      return createIoredisClient(io, link, link.openConnection(), { ...options, ...override });
    }
    /** As ioredis: refused while connected; after quit() or disconnect(), a new connection. */
    connect(): Promise<void> {
      if (this.status !== 'end') return Promise.reject(new Error('Redis is already connecting/connected'));
      this.opened();
      return Promise.resolve();
    }
    disconnect(): void {
      if (this.status !== 'end') this.closed();
    }
  }
  return new SimulatedRedis();
}
