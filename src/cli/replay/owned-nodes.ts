import type { NodeSpec } from '../../engine/scenario';
import type { ServerAddress } from './address';
import { OwnedServers } from './owned-servers';
import { ReplicationProxy } from './replication-proxy';
import type { NodeOps } from './run';

/**
 * One private redis-server per simulated node (`--start-server` with several nodes), set up as
 * the scenario declares: a replica replicates from its primary through a ReplicationProxy that
 * holds the stream for the node's replication delay (scaled by the time scale). The node faults
 * of the schedule act on these servers: a crash is SHUTDOWN NOSAVE NOW (the proxies from the
 * crashed primary drop what is still on its way), a restart starts the server again on its port
 * (empty without fsync, from its append-only file with it; a replica again replicates), a promotion
 * is REPLICAOF NO ONE and the other replicas (and the old primary, when it is back) replicate from
 * the promoted node, as Sentinel reconfigures them and as the simulation does.
 */
export class OwnedNodes implements NodeOps {
  private readonly servers = new OwnedServers();
  readonly addresses = new Map<string, ServerAddress>();
  private readonly replicaOf = new Map<string, string | null>();
  private readonly delayMs = new Map<string, number>();
  private readonly proxies = new Map<string, { proxy: ReplicationProxy; primary: string }>();
  private readonly up = new Map<string, boolean>();

  constructor(
    private readonly nodes: readonly NodeSpec[],
    private readonly timeScale: number,
  ) {}

  /** Starts every node's server, primaries first, and waits until every replica has synced. */
  async start(): Promise<void> {
    for (const node of [...this.nodes].sort((a, b) => (a.role === b.role ? 0 : a.role === 'primary' ? -1 : 1))) {
      this.addresses.set(node.id, await this.servers.start({ fsync: node.persistence === 'fsync' }));
      this.replicaOf.set(node.id, node.role === 'replica' ? (node.replicaOf as string) : null);
      this.delayMs.set(node.id, node.replicationDelayMs ?? 0);
      this.up.set(node.id, true);
    }
    for (const node of this.nodes) if (node.role === 'replica') await this.follow(node.id, node.replicaOf as string);
  }

  isReplica(node: string): boolean {
    return (this.replicaOf.get(node) ?? null) !== null;
  }

  async crash(node: string): Promise<void> {
    for (const [replica, link] of this.proxies) {
      if (link.primary === node) {
        link.proxy.cut();
        await link.proxy.stop();
        this.proxies.delete(replica);
      }
    }
    await this.servers.shutdown(this.address(node));
    this.up.set(node, false);
  }

  async restart(node: string): Promise<void> {
    const primary = this.replicaOf.get(node) ?? null;
    const proxy = primary === null ? null : await this.proxyFor(node, primary);
    await this.servers.restart(this.address(node), proxy?.port ?? null);
    this.up.set(node, true);
    if (primary !== null) await this.servers.waitLinkUp(this.address(node));
    // A primary's replicas resync from it (the simulation's restart does the same).
    for (const [replica, of] of this.replicaOf) if (of === node && this.up.get(replica) === true) await this.follow(replica, node);
  }

  async promote(node: string): Promise<void> {
    const previous = this.replicaOf.get(node) ?? null;
    await this.dropProxy(node);
    await this.servers.replicaOf(this.address(node), null);
    this.replicaOf.set(node, null);
    for (const [other, of] of [...this.replicaOf]) {
      if (other === node || (of !== previous && other !== previous)) continue;
      this.replicaOf.set(other, node);
      if (this.up.get(other) === true) await this.follow(other, node);
    }
  }

  async setReplicationDelay(node: string, ms: number): Promise<void> {
    this.delayMs.set(node, ms);
    this.proxies.get(node)?.proxy.setDelay(ms / this.timeScale);
  }

  async stopAll(): Promise<void> {
    for (const { proxy } of this.proxies.values()) await proxy.stop();
    this.proxies.clear();
    await this.servers.stopAll();
  }

  private address(node: string): ServerAddress {
    const address = this.addresses.get(node);
    if (address === undefined) throw new Error(`no server for node ${node}`);
    return address;
  }

  /** REPLICAOF the primary through a fresh delaying proxy, and wait for the sync. */
  private async follow(replica: string, primary: string): Promise<void> {
    const proxy = await this.proxyFor(replica, primary);
    await this.servers.replicaOf(this.address(replica), proxy.port);
    await this.servers.waitLinkUp(this.address(replica));
  }

  private async proxyFor(replica: string, primary: string): Promise<ReplicationProxy> {
    await this.dropProxy(replica);
    const port = Number(new URL(this.address(primary).url).port);
    const proxy = await ReplicationProxy.start(port, (this.delayMs.get(replica) ?? 0) / this.timeScale);
    this.proxies.set(replica, { proxy, primary });
    return proxy;
  }

  private async dropProxy(replica: string): Promise<void> {
    const link = this.proxies.get(replica);
    if (link === undefined) return;
    this.proxies.delete(replica);
    await link.proxy.stop();
  }
}
