/**
 * One connection of an async client, as ioredis 5.11.1 keeps one socket (built/Redis.js
 * sendCommand, DataHandler.js, Script.js): what it refuses before the wire (a closed connection,
 * a non-subscriber command in subscriber mode), its subscriptions, and which defined scripts it
 * has sent (a script goes as EVAL the first time on a connection, as EVALSHA after, and as EVAL
 * again after NOSCRIPT). Each command it sends is one action of the client (a scheduling point).
 */
import { createHash } from 'node:crypto';
import type { Reply } from '../../engine/redis/reply';
import { clientTimeoutPrefix } from '../../engine/nodes/cluster';
import { commandError, replyValue, transformReply, wireArgs, type ReplyEncoding } from './ioredis-wire';

/** Where an async client's connections go: the host appends each command as an action of the client. */
export interface ClientLink {
  /** Sends argv on the client's connection `connection` (undefined: its own), with a client-side timeout (ms) or none. */
  send(argv: readonly string[], connection: string | undefined, timeoutMs: number | undefined): Promise<Reply>;
  /** Names a new connection of the client (duplicate()): `dup1`, `dup2`, ... */
  openConnection(): string;
}

/** Command.FLAGS.VALID_IN_SUBSCRIBER_MODE. */
const VALID_IN_SUBSCRIBER_MODE: ReadonlySet<string> = new Set(['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'ssubscribe', 'sunsubscribe', 'ping', 'quit']);
const SUBSCRIPTION_KIND: Readonly<Record<string, 'channel' | 'pattern'>> = { subscribe: 'channel', unsubscribe: 'channel', psubscribe: 'pattern', punsubscribe: 'pattern' };

export type ConnectionStatus = 'ready' | 'end';

export class Connection {
  status: ConnectionStatus = 'ready';
  /** The socket's identity: scripts remember per socket, and a reconnect is a new one. */
  socket: object = {};
  /** Subscriber mode (DataHandler's condition.subscriber): the channels and patterns, or null. */
  subscriber: { readonly channel: Set<string>; readonly pattern: Set<string> } | null = null;

  constructor(
    readonly link: ClientLink,
    /** The client's connection name for the host (undefined: the client's own). */
    readonly name: string | undefined,
    /** ioredis's `commandTimeout` (ms), or undefined. */
    readonly commandTimeoutMs: number | undefined,
  ) {}

  /** Redis#sendCommand for one command: refused here as ioredis refuses it, or sent; the reply as ioredis gives it. */
  send(name: string, args: readonly string[], encoding: ReplyEncoding): Promise<unknown> {
    const lower = name.toLowerCase();
    return this.sendRaw(name, args).then((reply) => {
      if (Object.hasOwn(SUBSCRIPTION_KIND, lower)) return this.subscribed(lower, args);
      if (lower === 'quit') this.status = 'end';
      return transformReply(name, replyValue(reply, encoding));
    });
  }

  /** As `send`, resolving with the reply itself (EXEC's array, whose values take their own commands' shapes); errors reject. */
  sendRaw(name: string, args: readonly string[]): Promise<Reply> {
    if (this.status === 'end') return Promise.reject(new Error('Connection is closed.'));
    if (this.subscriber !== null && !VALID_IN_SUBSCRIBER_MODE.has(name.toLowerCase())) return Promise.reject(new Error('Connection in subscriber mode, only subscriber commands may be used'));
    return this.link.send([name, ...args], this.name, this.commandTimeoutMs).then((reply) => {
      if (reply.type !== 'error') return reply;
      // The simulator's client-side timeout (with nodes): ioredis's commandTimeout rejects so.
      if (reply.value.startsWith(clientTimeoutPrefix)) throw new Error('Command timed out');
      throw commandError(reply.value, name, args);
    });
  }

  /**
   * What a (un)subscribe resolves with: the connection's count of channels and patterns after it
   * (the last confirmation's count, which ioredis waits for); subscriber mode ends at 0.
   */
  private subscribed(lower: string, names: readonly string[]): number {
    const kind = SUBSCRIPTION_KIND[lower];
    const set = this.subscriber ?? { channel: new Set<string>(), pattern: new Set<string>() };
    if (lower.startsWith('un') || lower.startsWith('pun')) {
      if (names.length === 0) set[kind].clear();
      for (const n of names) set[kind].delete(n);
    } else {
      for (const n of names) set[kind].add(n);
    }
    const count = set.channel.size + set.pattern.size;
    this.subscriber = count === 0 ? null : set;
    return count;
  }

  /** A closed connection connects again: a new socket (scripts go as EVAL again), no subscriptions. */
  reopen(): void {
    this.status = 'ready';
    this.socket = {};
    this.subscriber = null;
  }
}

/** A command defined with defineCommand (Script.js): its SHA1 and the sockets it has been sent on. */
export class Script {
  readonly sha: string;
  private readonly loaded = new WeakSet<object>();

  constructor(
    readonly lua: string,
    /** null: the caller passes the key count as the first argument (as @sesamecare-oss/redlock does). */
    readonly numberOfKeys: number | null,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  /**
   * Script#execute: EVALSHA, written as EVAL when this socket has not had the script yet; on
   * NOSCRIPT the socket forgets it and the command is sent again (so as EVAL).
   */
  execute(conn: Connection, args: readonly unknown[], encoding: ReplyEncoding): Promise<unknown> {
    const rest = wireArgs('evalsha', this.numberOfKeys === null ? args : [this.numberOfKeys, ...args]);
    const attempt = (): Promise<unknown> => {
      const socket = conn.socket;
      const first = !this.loaded.has(socket);
      if (first) this.loaded.add(socket);
      return conn.send(first ? 'eval' : 'evalsha', [first ? this.lua : this.sha, ...rest], encoding).catch((error: Error) => {
        if (error.message.includes('NOSCRIPT')) this.loaded.delete(socket);
        throw error;
      });
    };
    return attempt().catch((error: Error) => {
      if (!error.message.includes('NOSCRIPT')) throw error;
      return attempt();
    });
  }
}
