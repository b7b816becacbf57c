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

// Redis nests a self-containing script reply 7995 levels deep (tests/differential/by-design.ts).
const ARRAY_DEPTH_MAX = 10_000;

/** An array reply whose items are still being read. */
interface OpenArray {
  readonly items: Reply[];
  remaining: number;
}

/**
 * Parses one RESP2 reply at `start`; null when the buffer does not yet hold all of it. Iterative
 * (an explicit stack of open arrays), so a reply thousands of levels deep cannot overflow the
 * JS stack.
 */
export function parseReply(buffer: Buffer, start: number): { reply: Reply; end: number } | null {
  const open: OpenArray[] = [];
  let at = start;
  // Bounded by the buffer: every round consumes one line (and its bulk payload).
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const kind = String.fromCharCode(buffer[at]);
    const line = buffer.toString('utf8', at + 1, lineEnd);
    at = lineEnd + 2;
    let value: Reply | null = null;
    switch (kind) {
      case '+':
        value = { type: 'status', value: line };
        break;
      case '-':
        value = { type: 'error', value: line };
        break;
      case ':':
        value = { type: 'integer', value: BigInt(line).toString() };
        break;
      case '$': {
        const length = Number(line);
        if (length < 0) value = { type: 'nil' };
        else {
          if (buffer.length < at + length + 2) return null;
          value = { type: 'bulk', value: decodeBytes(buffer.subarray(at, at + length)) };
          at += length + 2;
        }
        break;
      }
      case '*': {
        const count = Number(line);
        if (count < 0) value = { type: 'nil' };
        else if (count === 0) value = { type: 'array', value: [] };
        else {
          if (open.length >= ARRAY_DEPTH_MAX) throw new Error('RESP array nesting too deep');
          open.push({ items: [], remaining: count });
        }
        break;
      }
      default:
        throw new Error(`unexpected RESP type byte ${JSON.stringify(kind)}`);
    }
    // A complete value fills its array; a filled array is itself a complete value.
    while (value !== null) {
      const parent = open[open.length - 1];
      if (parent === undefined) return { reply: value, end: at };
      parent.items.push(value);
      parent.remaining--;
      if (parent.remaining > 0) value = null;
      else {
        open.pop();
        value = { type: 'array', value: parent.items };
      }
    }
  }
}
