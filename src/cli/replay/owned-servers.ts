import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerAddress } from './address';
import { RealConnection } from './connection';

/**
 * redis-server processes the replay starts itself (`--start-server`): private, on a free loopback
 * port, no persistence. Node faults are caused only on these: a crash without fsync is
 * `SHUTDOWN NOSAVE` and a restart on the same port (the data is gone, as after a crash with
 * nothing on disk), a promotion is `REPLICAOF NO ONE`. On a server the replay did not start they
 * are refused (NodeFaultRefusal) before anything is sent: it is somebody else's server.
 */
export class NodeFaultRefusal extends Error {
  override name = 'NodeFaultRefusal';
}

const readyWaitMsMax = 10_000;
const readyPollMs = 5;
const exitWaitMsMax = 5_000;

interface Owned {
  readonly port: number;
  readonly dir: string;
  readonly args: readonly string[];
  child: ChildProcess;
  exited: Promise<void>;
}

export class OwnedServers {
  private readonly servers = new Map<string, Owned>();

  /**
   * Starts one redis-server on a free loopback port; its address. `fsync`: every write is in its
   * append-only file before it is acknowledged (appendfsync always), so a restart keeps it.
   */
  async start(options: { readonly fsync?: boolean } = {}): Promise<ServerAddress> {
    const binary = findRedisServer();
    if (binary === null) throw new Error('--start-server: redis-server is not installed (or not on PATH); on Debian: apt-get install -y redis-server');
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-replay-'));
    const persistence = options.fsync === true ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
    // A full resync starts at once (the default waits 5 s for more replicas to join it).
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--repl-diskless-sync-delay', '0', '--dir', dir, '--daemonize', 'no', '--logfile', ''];
    const owned: Owned = { port, dir, args, ...launch(binary, args) };
    const address = addressOf(port);
    this.servers.set(address.url, owned);
    await waitReady(address, owned);
    return address;
  }

  owns(address: ServerAddress): boolean {
    return this.servers.has(address.url);
  }

  /** A node crash without fsync: SHUTDOWN NOSAVE, then the same server restarted, empty, on the same port. */
  async crash(address: ServerAddress): Promise<void> {
    const owned = this.owned(address, 'crash it (SHUTDOWN NOSAVE and a restart)');
    const connection = await RealConnection.open(address, 'fault');
    await connection.send(['SHUTDOWN', 'NOSAVE']).catch(() => undefined);
    connection.close();
    await waitExit(owned);
    Object.assign(owned, launch(findRedisServer() as string, owned.args));
    await waitReady(address, owned);
  }

  /**
   * A node crash (several nodes): `SHUTDOWN NOSAVE NOW` (NOW: without waiting for lagging
   * replicas, as a crash does not wait); the server stays down until `restart`.
   */
  async shutdown(address: ServerAddress): Promise<void> {
    const owned = this.owned(address, 'crash it (SHUTDOWN NOSAVE NOW)');
    const connection = await RealConnection.open(address, 'fault');
    await connection.send(['SHUTDOWN', 'NOSAVE', 'NOW']).catch(() => undefined);
    connection.close();
    await waitExit(owned);
  }

  /** Starts a server `shutdown` stopped, on the same port and directory: empty, or with its append-only file. */
  async restart(address: ServerAddress, replicaOfPort: number | null = null): Promise<void> {
    const owned = this.owned(address, 'restart it');
    const replicaOf = replicaOfPort === null ? [] : ['--replicaof', '127.0.0.1', String(replicaOfPort)];
    Object.assign(owned, launch(findRedisServer() as string, [...owned.args, ...replicaOf]));
    await waitReady(address, owned);
  }

  /** `REPLICAOF 127.0.0.1 <port>` (a replica of that primary, or of a proxy in front of it), or `REPLICAOF NO ONE` for null. */
  async replicaOf(address: ServerAddress, port: number | null): Promise<void> {
    this.owned(address, port === null ? 'promote it (REPLICAOF NO ONE)' : 'make it a replica (REPLICAOF)');
    const connection = await RealConnection.open(address, 'fault');
    try {
      const reply = await connection.send(port === null ? ['REPLICAOF', 'NO', 'ONE'] : ['REPLICAOF', '127.0.0.1', String(port)]);
      if (reply.type === 'error') throw new Error(`REPLICAOF on ${address.display}: ${reply.value}`);
    } finally {
      connection.close();
    }
  }

  /** Waits until a replica's link to its primary is up and its first sync is done (INFO replication). */
  async waitLinkUp(address: ServerAddress): Promise<void> {
    const deadline = performance.now() + readyWaitMsMax;
    const connection = await RealConnection.open(address, 'fault');
    try {
      while (performance.now() < deadline) {
        const info = await connection.send(['INFO', 'replication']);
        if (info.type === 'string' && /^master_link_status:up\s*$/m.test(info.value) && /^master_sync_in_progress:0\s*$/m.test(info.value)) return;
        await sleep(5);
      }
    } finally {
      connection.close();
    }
    throw new Error(`the replica on ${address.display} did not finish syncing with its primary within ${readyWaitMsMax} ms`);
  }

  /** A promotion: REPLICAOF NO ONE (the node stops replicating and takes writes). */
  async promote(address: ServerAddress): Promise<void> {
    this.owned(address, 'promote it (REPLICAOF NO ONE)');
    const connection = await RealConnection.open(address, 'fault');
    try {
      const reply = await connection.send(['REPLICAOF', 'NO', 'ONE']);
      if (reply.type === 'error') throw new Error(`REPLICAOF NO ONE on ${address.display}: ${reply.value}`);
    } finally {
      connection.close();
    }
  }

  /** The pid of the running server (tests check that a crash restarted it). */
  pidOf(address: ServerAddress): number | null {
    return this.servers.get(address.url)?.child.pid ?? null;
  }

  /** Stops every server it started (SIGTERM, then SIGKILL) and removes their directories. */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.servers.values()].map(async (owned) => {
        if (owned.child.exitCode === null && owned.child.signalCode === null) owned.child.kill('SIGTERM');
        if (!(await within(owned.exited, exitWaitMsMax))) {
          owned.child.kill('SIGKILL');
          await owned.exited;
        }
        fs.rmSync(owned.dir, { recursive: true, force: true });
      }),
    );
    this.servers.clear();
  }

  private owned(address: ServerAddress, what: string): Owned {
    const owned = this.servers.get(address.url);
    if (owned === undefined) {
      throw new NodeFaultRefusal(`${address.display} was not started by this replay, so it will not ${what}: node faults happen only on servers the replay starts itself (--start-server)`);
    }
    return owned;
  }
}

function addressOf(port: number): ServerAddress {
  return { url: `redis://127.0.0.1:${port}`, display: `redis://127.0.0.1:${port}` };
}

function launch(binary: string, args: readonly string[]): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(binary, args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  return { child, exited };
}

async function waitReady(address: ServerAddress, owned: Owned): Promise<void> {
  const deadline = performance.now() + readyWaitMsMax;
  let exited = false;
  void owned.exited.then(() => (exited = true));
  while (performance.now() < deadline && !exited) {
    try {
      const connection = await RealConnection.open(address, 'ready');
      const pong = await connection.send(['PING']);
      connection.close();
      if (pong.type === 'string' && pong.value === 'PONG') return;
    } catch {
      // Not listening yet.
    }
    await sleep(readyPollMs);
  }
  throw new Error(`the redis-server started on ${address.display} did not answer PING within ${readyWaitMsMax} ms${exited ? ' (it exited)' : ''}`);
}

async function waitExit(owned: Owned): Promise<void> {
  if (await within(owned.exited, exitWaitMsMax)) return;
  owned.child.kill('SIGKILL');
  await owned.exited;
}

async function within(done: Promise<void>, ms: number): Promise<boolean> {
  const controller = new AbortController();
  const result = await Promise.race([done.then(() => true), sleep(ms, false, { signal: controller.signal }).catch(() => false)]);
  controller.abort();
  return result;
}

/** LOCKSTEP_REDIS_SERVER, else redis-server on PATH or in Debian's /usr/bin and /usr/sbin. */
function findRedisServer(): string | null {
  const explicit = process.env.LOCKSTEP_REDIS_SERVER;
  if (explicit !== undefined && explicit !== '') return explicit;
  for (const dir of [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/usr/sbin', '/usr/local/bin']) {
    if (dir === '') continue;
    const candidate = path.join(dir, 'redis-server');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
