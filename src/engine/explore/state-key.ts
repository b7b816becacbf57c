import type { ServerSnapshot } from '../redis/server';
import type { ClusterState } from '../nodes/state';
import type { WorldState } from '../world';

/**
 * The explorer's state key: equal for two states of one run exactly when Simulation.stateKey() is
 * (tests/unit/explore-state-key.test.ts checks both ways), but short. stateKey() is one JSON text
 * of the whole state, a few kilobytes; an explorer keeps millions. Here each part of the state
 * (each client with its run-order rank, the processes, the lock tracking, counters, resources,
 * the server) is turned into its JSON once per distinct value and replaced by a small number
 * (SPIN's "collapse" compression), so a key reads like `6000;123;0,1,2,3;4,5;6`.
 *
 * Like stateKey(), it leaves out what only records history (step index, event and order
 * counters) and keeps the order among clients as ranks (who runs first among equals).
 */
export class StateKeyer {
  private readonly ids = new Map<string, number>();
  /** Each part's JSON by id, and its stable hash once asked (stableHash). */
  private readonly texts: string[] = [];
  private readonly hashes: (string | undefined)[] = [];

  /**
   * canonical: key the cluster in its canonical form (canonicalCluster): message ids renumbered,
   * so states that differ only in how many messages were ever sent are one state. Off, the key is
   * equal exactly when Simulation.stateKey() is.
   */
  constructor(readonly canonical = false) {}

  /** How many distinct parts have been seen (memory the keyer holds). */
  get partCount(): number {
    return this.ids.size;
  }

  private id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(text, id);
      this.texts.push(text);
    }
    return id;
  }

  /**
   * A hash of a key that does not depend on this keyer's numbering: the same state gives the same
   * hash in another process (a shard of the search, shard.ts). The key's part numbers are replaced
   * by their parts' own hashes; 64 bits, so a million states collide with odds of about 1 in 10^7.
   */
  stableHash(key: string): string {
    const fields = key.split(';');
    let text = `${fields[0]};${fields[1]}`;
    for (let i = 2; i < fields.length; i++) text += `;${fields[i].replace(/[0-9]+/g, (id) => this.partHash(Number(id)))}`;
    return hash64(text);
  }

  private partHash(id: number): string {
    let h = this.hashes[id];
    if (h === undefined) {
      h = hash64(this.texts[id]);
      this.hashes[id] = h;
    }
    return h;
  }

  /**
   * With several nodes, the cluster's plain state (roles, up/down, replicaOf, offsets, node and
   * client clocks, links, messages in flight, replication backlogs, WAITs) is one part, and each
   * node's server (keys with their expiry times on the node's own clock, script cache) another.
   */
  key(world: WorldState, server: ServerSnapshot, nodes: Readonly<Record<string, ServerSnapshot>> | null = null): string {
    const { clients } = world;
    const byOrder = clients.map((c) => c.order).sort((a, b) => a - b);
    let text = `${world.nowMs};${world.rng};`;
    for (const c of clients) {
      // The client's JSON with its rank in place of its order (stateKey's `{ ...c, order: rank }`,
      // without building that object): set, read, put back.
      const order = c.order;
      (c as { order: number }).order = byOrder.indexOf(order);
      const json = JSON.stringify(c);
      (c as { order: number }).order = order;
      text += `${this.id(json)},`;
    }
    text += `;${this.id(JSON.stringify(world.processes))},${this.id(JSON.stringify(world.lock))},${this.id(JSON.stringify(world.counters))},${this.id(JSON.stringify(world.resources))}`;
    text += `;${this.id(JSON.stringify(server))}`;
    if (world.cluster === undefined || nodes === null) return text;
    text += `;${this.id(JSON.stringify(this.canonical ? canonicalCluster(world.cluster) : world.cluster))}:`;
    for (const id in nodes) text += `${this.id(JSON.stringify(nodes[id]))},`;
    return text;
  }
}

/**
 * The cluster with its message ids renumbered 0, 1, 2... in the order the live ones appear
 * (messages in flight in sending order, then WAITs' requests, then the clients' awaited ids in
 * client order), and no next id. An id is only ever compared for equality (a reply is taken when
 * its id is the one the client awaits; cluster.ts), never for order, and a new id only needs to
 * differ from every live one: two clusters equal after renumbering have the same futures. The
 * trace never shows an id.
 */
export function canonicalCluster(cluster: Readonly<ClusterState>): unknown {
  const ids = new Map<number, number>();
  const renumber = (id: number): number => {
    let n = ids.get(id);
    if (n === undefined) {
      n = ids.size;
      ids.set(id, n);
    }
    return n;
  };
  const messages = cluster.messages.map((m) => ({ ...m, id: renumber(m.id) }));
  const waits = cluster.waits.map((w) => ({ ...w, request: { ...w.request, id: renumber(w.request.id) } }));
  const awaiting: Record<string, unknown> = {};
  for (const id of Object.keys(cluster.awaiting).sort()) awaiting[id] = { ...cluster.awaiting[id], messageId: renumber(cluster.awaiting[id].messageId) };
  return { ...cluster, nextMessageId: 0, messages, waits, awaiting };
}

/** Two 32-bit FNV-1a hashes with different offsets, as 16 hex digits. */
export function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
