/**
 * The server's connections (Redis's `client` structs) and what each one carries between commands:
 * a MULTI queue, WATCHed keys and Pub/Sub subscriptions. A connection is named by the caller of
 * `SimRedisServer.execute` (one per simulated client, or the console's); it exists once it has
 * state, and a connection with none is not kept, so snapshots of servers that never use these
 * features are unchanged.
 */

/**
 * The name a WATCHed key goes by: a key of database 0 is itself (so servers that never SELECT
 * snapshot as before), a key of another database is tagged with it.
 */
export function watchName(db: number, key: string): string {
  return db === 0 ? key : `\u0000db${db}\u0000${key}`;
}

/** One connection's state. Sets keep insertion order (the order Redis reports and unsubscribes). */
export interface ClientState {
  readonly id: string;
  /** Commands queued since MULTI, or null outside a transaction (CLIENT_MULTI). */
  multi: (readonly string[])[] | null;
  /** A command was refused while queueing: EXEC answers EXECABORT (CLIENT_DIRTY_EXEC). */
  execAborted: boolean;
  /** A WATCHed key changed: EXEC answers nil (CLIENT_DIRTY_CAS). */
  watchedChanged: boolean;
  readonly watched: Set<string>;
  readonly channels: Set<string>;
  readonly patterns: Set<string>;
  /** The logical database SELECT chose (0-15). */
  db: number;
  /** CLIENT SETNAME's name, or null. */
  name: string | null;
  /** CLIENT ID's number, given the first time the connection asks (null: not asked yet). */
  clientId: number | null;
}

/** A connection as plain data (snapshots), only the parts that are not at their initial value. */
export interface ClientData {
  readonly id: string;
  readonly multi?: readonly (readonly string[])[];
  readonly execAborted?: true;
  readonly watchedChanged?: true;
  readonly watched?: readonly string[];
  readonly channels?: readonly string[];
  readonly patterns?: readonly string[];
  readonly db?: number;
  readonly name?: string;
  readonly clientId?: number;
}

export function subscriptionCount(client: ClientState): number {
  return client.channels.size + client.patterns.size;
}

function isIdle(client: ClientState): boolean {
  return (
    client.multi === null &&
    !client.execAborted &&
    !client.watchedChanged &&
    client.watched.size === 0 &&
    subscriptionCount(client) === 0 &&
    client.db === 0 &&
    client.name === null &&
    client.clientId === null
  );
}

function newClient(id: string): ClientState {
  return { id, multi: null, execAborted: false, watchedChanged: false, watched: new Set(), channels: new Set(), patterns: new Set(), db: 0, name: null, clientId: null };
}

function toData(client: ClientState): ClientData {
  return {
    id: client.id,
    ...(client.multi !== null ? { multi: client.multi.map((argv) => argv.slice()) } : {}),
    ...(client.execAborted ? { execAborted: true as const } : {}),
    ...(client.watchedChanged ? { watchedChanged: true as const } : {}),
    ...(client.watched.size > 0 ? { watched: [...client.watched] } : {}),
    ...(client.channels.size > 0 ? { channels: [...client.channels] } : {}),
    ...(client.patterns.size > 0 ? { patterns: [...client.patterns] } : {}),
    ...(client.db !== 0 ? { db: client.db } : {}),
    ...(client.name !== null ? { name: client.name } : {}),
    ...(client.clientId !== null ? { clientId: client.clientId } : {}),
  };
}

/** Every connection with state, and the index from a WATCHed key to the connections watching it. */
export class Clients {
  private byId = new Map<string, ClientState>();
  private watchers = new Map<string, Set<string>>();

  /** The connection named `id` (a fresh one if it has no state yet). */
  get(id: string): ClientState {
    let client = this.byId.get(id);
    if (client === undefined) {
      client = newClient(id);
      this.byId.set(id, client);
    }
    return client;
  }

  /** Forgets connections left without state (after a command), so they cost nothing. */
  release(client: ClientState): void {
    if (isIdle(client)) this.byId.delete(client.id);
  }

  /** WATCH one key (watchForKey: a key already watched is not added twice). */
  watch(client: ClientState, key: string): void {
    if (client.watched.has(key)) return;
    client.watched.add(key);
    let ids = this.watchers.get(key);
    if (ids === undefined) {
      ids = new Set();
      this.watchers.set(key, ids);
    }
    ids.add(client.id);
  }

  unwatchAll(client: ClientState): void {
    for (const key of client.watched) {
      const ids = this.watchers.get(key);
      ids?.delete(client.id);
      if (ids?.size === 0) this.watchers.delete(key);
    }
    client.watched.clear();
  }

  /**
   * A key changed (touchWatchedKey): every connection watching it will see EXEC fail, and stops
   * watching anything (there is no point once the transaction is doomed).
   */
  touch(key: string): void {
    const ids = this.watchers.get(key);
    if (ids === undefined) return;
    for (const id of [...ids]) {
      const client = this.get(id);
      client.watchedChanged = true;
      this.unwatchAll(client);
    }
  }

  /** discardTransaction: out of MULTI, flags cleared, nothing watched. */
  discardTransaction(client: ClientState): void {
    client.multi = null;
    client.execAborted = false;
    client.watchedChanged = false;
    this.unwatchAll(client);
  }

  /** One connection as plain data, or null when it has no state. */
  data(id: string): ClientData | null {
    const client = this.byId.get(id);
    return client === undefined || isIdle(client) ? null : toData(client);
  }

  /** Connections with state, by id, as plain data. */
  snapshot(): ClientData[] {
    const out: ClientData[] = [];
    for (const id of [...this.byId.keys()].sort()) {
      const data = this.data(id);
      if (data !== null) out.push(data);
    }
    return out;
  }

  restore(data: readonly ClientData[]): void {
    this.byId = new Map();
    this.watchers = new Map();
    for (const item of data) {
      const client = this.get(item.id);
      client.multi = item.multi ? item.multi.map((argv) => argv.slice()) : null;
      client.execAborted = item.execAborted === true;
      client.watchedChanged = item.watchedChanged === true;
      for (const key of item.watched ?? []) this.watch(client, key);
      for (const channel of item.channels ?? []) client.channels.add(channel);
      for (const pattern of item.patterns ?? []) client.patterns.add(pattern);
      client.db = item.db ?? 0;
      client.name = item.name ?? null;
      client.clientId = item.clientId ?? null;
    }
  }
}
