import net from 'node:net';
import os from 'node:os';
import { commandLine, headerLine, type HistoryCommand } from '../../history';
import { RespReader } from './resp-reader';

/**
 * The recording proxy (`lockstep record`): listens where the application expects Redis, opens one
 * connection to the real Redis per application connection, and forwards every byte both ways as it
 * arrives, untouched and in order; a copy of each stream is read to write one history line per
 * command with its reply. The times bracket Redis's execution: the command had arrived at the proxy
 * before Redis ran it, and the reply left Redis before it reached the proxy.
 */
export interface ProxyOptions {
  readonly listenPort: number;
  readonly listenHost?: string;
  readonly upstream: { readonly host: string; readonly port: number };
  /** Takes each history line (without its newline). */
  readonly write: (line: string) => void;
  /** A problem on one connection (it is closed; the others go on). */
  readonly onProblem?: (message: string) => void;
}

export interface RecordingProxy {
  readonly port: number;
  /** Connections seen so far, and commands recorded. */
  stats(): { connections: number; commands: number };
  close(): Promise<void>;
}

interface Pending {
  readonly argv: readonly string[];
  readonly startMs: number;
  readonly startWallMs: number;
}

/** Commands a client cannot expect a reply to in order (subscriber mode answers in pushes). */
const SUBSCRIBE = new Set(['SUBSCRIBE', 'PSUBSCRIBE', 'SSUBSCRIBE', 'UNSUBSCRIBE', 'PUNSUBSCRIBE', 'SUNSUBSCRIBE']);

export async function startRecordingProxy(options: ProxyOptions): Promise<RecordingProxy> {
  const clock = `${os.hostname()}:${process.pid}`;
  const sockets = new Set<net.Socket>();
  let connectionCount = 0;
  let commandCount = 0;
  options.write(headerLine({ history: 1, recorder: 'proxy' }));
  const server = net.createServer((app) => {
    connectionCount++;
    const id = `#${connectionCount} ${app.remoteAddress ?? '?'}:${app.remotePort ?? '?'}`;
    let client = id;
    const redis = net.connect(options.upstream.port, options.upstream.host);
    sockets.add(app);
    sockets.add(redis);
    app.setNoDelay(true);
    redis.setNoDelay(true);
    const requests = new RespReader('request');
    const replies = new RespReader('reply');
    const pending: Pending[] = [];
    let subscribed = false;
    /** Reading the copy failed: the bytes still flow, this connection is just no longer recorded. */
    let recording = true;
    const fail = (message: string) => {
      options.onProblem?.(`${id}: ${message}; its traffic goes on unrecorded`);
      recording = false;
      pending.length = 0;
    };
    // Bytes first, reading second: the application's traffic never waits for the recording.
    // Backpressure both ways: a side that cannot take more pauses the other.
    app.on('data', (chunk: Buffer) => {
      if (!redis.write(chunk)) app.pause();
      if (!recording) return;
      const startMs = performance.now();
      const startWallMs = Date.now();
      try {
        for (const argv of requests.push(chunk)) {
          if (!Array.isArray(argv) || argv.length === 0) continue;
          const name = String(argv[0]).toUpperCase();
          if (name === 'CLIENT' && String(argv[1]).toUpperCase() === 'SETNAME' && argv[2] !== undefined) client = String(argv[2]);
          if (SUBSCRIBE.has(name)) subscribed = true;
          pending.push({ argv: [name, ...argv.slice(1).map(String)], startMs, startWallMs });
        }
      } catch (error) {
        fail(`unreadable request: ${(error as Error).message}`);
      }
    });
    redis.on('drain', () => app.resume());
    app.on('drain', () => redis.resume());
    redis.on('data', (chunk: Buffer) => {
      if (!app.write(chunk)) redis.pause();
      if (!recording) return;
      const endMs = performance.now();
      const endWallMs = Date.now();
      try {
        for (const value of replies.push(chunk)) {
          if (Array.isArray(value) || !('kind' in value)) continue;
          // A Pub/Sub message is not a reply to a command.
          if (value.kind === 'push' || (subscribed && value.kind === 'value' && isMessage(value.value))) continue;
          const request = pending.shift();
          if (request === undefined) continue;
          const outcome = value.kind === 'error' ? { error: value.message } : { reply: value.value };
          const line: HistoryCommand = { client, conn: id, argv: [...request.argv], ...outcome, startMs: request.startMs, endMs, startWallMs: request.startWallMs, endWallMs, clock };
          commandCount++;
          options.write(commandLine(line));
        }
      } catch (error) {
        fail(`unreadable reply: ${(error as Error).message}`);
      }
    });
    const closeBoth = () => {
      // Commands sent but never answered (the connection went away) are recorded without a reply.
      for (const request of pending.splice(0)) {
        options.write(commandLine({ client, conn: id, argv: [...request.argv], startMs: request.startMs, endMs: performance.now(), startWallMs: request.startWallMs, endWallMs: Date.now(), clock }));
      }
      app.end();
      redis.end();
      sockets.delete(app);
      sockets.delete(redis);
    };
    app.on('close', closeBoth);
    redis.on('close', closeBoth);
    app.on('error', () => redis.destroy());
    redis.on('error', (error) => {
      options.onProblem?.(`${id}: Redis: ${error.message}`);
      app.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listenPort, options.listenHost ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : options.listenPort,
    stats: () => ({ connections: connectionCount, commands: commandCount }),
    close: async () => {
      for (const socket of sockets) socket.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function isMessage(value: unknown): boolean {
  return Array.isArray(value) && (value[0] === 'message' || value[0] === 'pmessage' || value[0] === 'smessage');
}
