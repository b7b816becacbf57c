import net from 'node:net';
import { decodeBytes, encodeString } from '../../src/engine/redis/commands/bytes';
import type { Reply } from '../../src/engine/redis/reply';

/**
 * A tiny RESP2 client over a TCP socket, for tests only. It keeps what ioredis hides: status
 * (`+OK`) versus bulk (`$2\r\nOK`), integers as exact decimal text, nil bulk and nil array both as
 * nil. The connection is a stream of replies: `write` sends a command, `read` takes the next reply
 * in the order the server sent them (a SUBSCRIBE of two channels sends two; a subscriber receives
 * messages nobody asked for). `send` is write then read, for commands with one reply.
 *
 * Arguments and bulk strings go through the simulator's byte convention (commands/bytes.ts): valid
 * UTF-8 as text, other bytes as escaped lone surrogates, so binary values compare exactly.
 */
export class RespClient {
  private buffer: Buffer = Buffer.alloc(0);
  /** Replies received and not read yet. */
  private readonly received: Reply[] = [];
  private readonly waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void }[] = [];
  private closed = false;

  private constructor(
    private readonly socket: net.Socket,
    /** The server's port, for opening more connections to it. */
    readonly port: number,
  ) {
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (error) => this.failAll(error));
    socket.on('close', () => {
      this.closed = true;
      this.failAll(new Error('connection closed'));
    });
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RespClient> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ port, host });
      socket.setNoDelay(true);
      const onError = (error: Error) => reject(error);
      socket.once('error', onError);
      socket.once('connect', () => {
        socket.off('error', onError);
        resolve(new RespClient(socket, port));
      });
    });
  }

  /** Sends one command (argv[0] is the name) and resolves with the next reply, errors included as replies. */
  send(argv: readonly string[]): Promise<Reply> {
    this.write(argv);
    return this.read();
  }

  /** Sends one command without waiting for anything. */
  write(argv: readonly string[]): void {
    if (this.closed) throw new Error('connection closed');
    const parts: Buffer[] = [Buffer.from(`*${argv.length}\r\n`)];
    for (const arg of argv) {
      const bytes = Buffer.from(encodeString(arg));
      parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, Buffer.from('\r\n'));
    }
    this.socket.write(Buffer.concat(parts));
  }

  /**
   * The next reply on this connection, in the order the server sent them. With `timeoutMs`, fails
   * when none arrives in time (a test that expected a reply the server will never send).
   */
  read(timeoutMs?: number): Promise<Reply> {
    const ready = this.received.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    if (this.closed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      this.waiting.push(waiter);
      if (timeoutMs === undefined) return;
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new Error(`no reply within ${timeoutMs} ms`));
      }, timeoutMs);
      waiter.resolve = (reply) => {
        clearTimeout(timer);
        resolve(reply);
      };
    });
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.end();
    });
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    // Bounded by the bytes received: each iteration consumes at least one complete reply.
    for (;;) {
      const parsed = parseReply(this.buffer, 0);
      if (parsed === null) return;
      this.buffer = this.buffer.subarray(parsed.end);
      const next = this.waiting.shift();
      if (next) next.resolve(parsed.reply);
      else this.received.push(parsed.reply);
    }
  }

  private failAll(error: Error): void {
    for (const pending of this.waiting.splice(0)) pending.reject(error);
  }
}

const ARRAY_DEPTH_MAX = 64;

/** Parses one RESP2 reply at `start`; null when the buffer does not yet hold all of it. */
export function parseReply(buffer: Buffer, start: number, depth = 0): { reply: Reply; end: number } | null {
  if (depth > ARRAY_DEPTH_MAX) throw new Error('RESP array nesting too deep');
  const lineEnd = buffer.indexOf('\r\n', start);
  if (lineEnd < 0) return null;
  const kind = String.fromCharCode(buffer[start]);
  const line = buffer.toString('utf8', start + 1, lineEnd);
  const afterLine = lineEnd + 2;
  switch (kind) {
    case '+':
      return { reply: { type: 'status', value: line }, end: afterLine };
    case '-':
      return { reply: { type: 'error', value: line }, end: afterLine };
    case ':':
      return { reply: { type: 'integer', value: BigInt(line).toString() }, end: afterLine };
    case '$': {
      const length = Number(line);
      if (length < 0) return { reply: { type: 'nil' }, end: afterLine };
      if (buffer.length < afterLine + length + 2) return null;
      return { reply: { type: 'bulk', value: decodeBytes(buffer.subarray(afterLine, afterLine + length)) }, end: afterLine + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { reply: { type: 'nil' }, end: afterLine };
      const items: Reply[] = [];
      let at = afterLine;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, at, depth + 1);
        if (item === null) return null;
        items.push(item.reply);
        at = item.end;
      }
      return { reply: { type: 'array', value: items }, end: at };
    }
    default:
      throw new Error(`unexpected RESP type byte ${JSON.stringify(kind)}`);
  }
}
