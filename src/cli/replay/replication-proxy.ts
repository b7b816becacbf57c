import net from 'node:net';

/**
 * A replication link with a delay, for servers the replay starts itself: the replica replicates
 * from this proxy (`REPLICAOF 127.0.0.1 <proxy port>`), which forwards to the primary. Bytes from
 * the primary to the replica (the replication stream, and the answers of the handshake) are held
 * for `delayMs` real ms each; bytes from the replica (its acknowledgements, which WAIT counts) go
 * at once, as the simulation applies a write `replicationDelayMs` after the primary made it and
 * counts its acknowledgement at that moment. Real replication is as fast as the machine; this is
 * how the replay gives it the simulated delay.
 *
 * `cut()` is the primary's crash: what the primary produced and the replica has not received yet
 * is thrown away, as the simulation drops the writes still on their way to replicas of a crashed
 * primary, and the link stays closed (the replica's reconnects find no primary behind it).
 */
export class ReplicationProxy {
  private readonly server: net.Server;
  private readonly links = new Set<{ replica: net.Socket; primary: net.Socket; queue: { dueAt: number; data: Buffer }[]; timer: NodeJS.Timeout | null }>();
  private isCut = false;

  private constructor(
    private readonly primaryPort: number,
    private delayMs: number,
  ) {
    this.server = net.createServer((replica) => this.accept(replica));
  }

  /** A proxy on a free loopback port, in front of the primary at `primaryPort`. */
  static async start(primaryPort: number, delayMs: number): Promise<ReplicationProxy> {
    const proxy = new ReplicationProxy(primaryPort, delayMs);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** A new delay (the schedule's replication-delay fault) for what the primary sends from now on. */
  setDelay(delayMs: number): void {
    this.delayMs = delayMs;
  }

  /** The primary crashed: drop what is still on its way, close the link, accept nothing more. */
  cut(): void {
    this.isCut = true;
    for (const link of this.links) this.close(link);
    this.links.clear();
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(replica: net.Socket): void {
    if (this.isCut) {
      replica.destroy();
      return;
    }
    const primary = net.connect(this.primaryPort, '127.0.0.1');
    // Redis sets TCP_NODELAY on its own sockets; so does the proxy, or Nagle would add its own delay.
    primary.setNoDelay(true);
    replica.setNoDelay(true);
    const link = { replica, primary, queue: [] as { dueAt: number; data: Buffer }[], timer: null as NodeJS.Timeout | null };
    this.links.add(link);
    const drop = () => {
      this.close(link);
      this.links.delete(link);
    };
    replica.on('data', (data) => primary.write(data));
    primary.on('data', (data) => {
      link.queue.push({ dueAt: performance.now() + this.delayMs, data });
      this.flush(link);
    });
    for (const socket of [replica, primary]) {
      socket.on('error', drop);
      socket.on('close', drop);
    }
  }

  /** Delivers the queued bytes that are due, in order, and waits for the next. */
  private flush(link: { replica: net.Socket; queue: { dueAt: number; data: Buffer }[]; timer: NodeJS.Timeout | null }): void {
    if (link.timer !== null) return;
    const now = performance.now();
    while (link.queue.length > 0 && link.queue[0].dueAt <= now) link.replica.write((link.queue.shift() as { data: Buffer }).data);
    if (link.queue.length === 0) return;
    link.timer = setTimeout(() => {
      link.timer = null;
      this.flush(link);
    }, Math.max(0, link.queue[0].dueAt - now));
  }

  private close(link: { replica: net.Socket; primary: net.Socket; queue: unknown[]; timer: NodeJS.Timeout | null }): void {
    if (link.timer !== null) clearTimeout(link.timer);
    link.timer = null;
    link.queue.length = 0;
    link.replica.destroy();
    link.primary.destroy();
  }
}
