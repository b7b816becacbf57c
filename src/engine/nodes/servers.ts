import { SimRedisServer, type ServerOptions, type ServerSnapshot } from '../redis/server';

/**
 * The servers of a world with several Redis nodes, one SimRedisServer each (own keyspace, script
 * cache and connections), and the keys each write touched since it was last collected: what the
 * node's replication stream must carry. A node's server object lives as long as the run; a
 * restart empties it (restore) rather than replacing it.
 */
export class NodeServers {
  private readonly servers = new Map<string, SimRedisServer>();
  private readonly touched = new Map<string, Set<string>>();

  constructor(ids: readonly string[], options: ServerOptions) {
    for (const id of ids) {
      // A node's requests travel as messages: a blocking pop there answers at once (not modelled).
      const server = new SimRedisServer({ ...options, blocking: false });
      const touched = new Set<string>();
      const watch = server.keyspace.onTouch;
      server.keyspace.onTouch = (key) => {
        watch?.(key);
        touched.add(key);
      };
      this.servers.set(id, server);
      this.touched.set(id, touched);
    }
  }

  get(id: string): SimRedisServer {
    const server = this.servers.get(id);
    if (server === undefined) throw new Error(`no node ${id}`);
    return server;
  }

  ids(): string[] {
    return [...this.servers.keys()];
  }

  /** The keys changed on `id` since the last call, in the order first changed; then forgets them. */
  takeTouched(id: string): string[] {
    const touched = this.touched.get(id) as Set<string>;
    const keys = [...touched];
    touched.clear();
    return keys;
  }

  snapshot(): Record<string, ServerSnapshot> {
    const out: Record<string, ServerSnapshot> = {};
    for (const [id, server] of this.servers) out[id] = server.snapshot();
    return out;
  }

  restore(snapshots: Readonly<Record<string, ServerSnapshot>>): void {
    for (const [id, server] of this.servers) {
      server.restore(snapshots[id]);
      this.touched.get(id)?.clear();
    }
  }
}

/** A server's state after a restart without its data: no keys, no cached scripts, no connections. */
export const EMPTY_SERVER: ServerSnapshot = { keyspace: { entries: [] }, scripts: {}, runningScript: null };
