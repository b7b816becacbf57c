import type { HistoryReply } from '../../history';

/**
 * An incremental RESP reader for the recording proxy: bytes go in as they arrive, whole values come
 * out. It only reads a copy: the proxy forwards the bytes untouched. Requests are arrays of bulk
 * strings or inline commands; replies are RESP2 (and the common RESP3 types).
 */
export type RespValue = { readonly kind: 'value'; readonly value: HistoryReply } | { readonly kind: 'error'; readonly message: string } | { readonly kind: 'push'; readonly value: HistoryReply };

class NeedMore extends Error {}
const NEED_MORE = new NeedMore();

/** Longest reply string the record keeps (a bigger one is cut in the record, never in the stream). */
const KEEP_CHARS_MAX = 4096;
/** Longest request argument kept whole (a script's source must stay whole for its SHA-1). */
const ARG_BYTES_MAX = 1 << 20;

export class RespReader {
  private buffer: Buffer = Buffer.alloc(0);
  private offset = 0;

  constructor(private readonly side: 'request' | 'reply') {}

  /** Adds bytes; returns every whole value they complete, in order. */
  push(chunk: Buffer): (RespValue | readonly string[])[] {
    this.buffer = this.offset === this.buffer.length ? chunk : Buffer.concat([this.buffer.subarray(this.offset), chunk]);
    this.offset = 0;
    const out: (RespValue | readonly string[])[] = [];
    // Bounded by the buffer: each round consumes one whole value or stops.
    while (this.offset < this.buffer.length) {
      const start = this.offset;
      try {
        out.push(this.side === 'request' ? this.request() : this.reply());
      } catch (error) {
        if (error !== NEED_MORE) throw error;
        this.offset = start;
        break;
      }
    }
    return out;
  }

  private line(): string {
    const end = this.buffer.indexOf('\r\n', this.offset);
    if (end < 0) throw NEED_MORE;
    const text = this.buffer.toString('utf8', this.offset, end);
    this.offset = end + 2;
    return text;
  }

  private bulk(length: number): string {
    if (this.buffer.length < this.offset + length + 2) throw NEED_MORE;
    const text = this.buffer.toString('utf8', this.offset, this.offset + Math.min(length, ARG_BYTES_MAX));
    this.offset += length + 2;
    return text;
  }

  private request(): readonly string[] {
    if (this.buffer[this.offset] !== 0x2a) {
      // An inline command (redis-cli in a pipe, telnet): words on one line.
      return this.line().trim().split(/\s+/).filter((w) => w !== '');
    }
    const count = Number(this.line().slice(1));
    const argv: string[] = [];
    for (let i = 0; i < count; i++) {
      const header = this.line();
      if (header[0] !== '$') throw new Error(`a request element that is not a bulk string: ${JSON.stringify(header.slice(0, 20))}`);
      argv.push(this.bulk(Number(header.slice(1))));
    }
    return argv;
  }

  private reply(): RespValue {
    const header = this.line();
    const type = header[0];
    const rest = header.slice(1);
    switch (type) {
      case '-':
      case '!':
        return { kind: 'error', message: type === '!' ? this.bulk(Number(rest)) : rest };
      case '>':
        return { kind: 'push', value: this.elements(Number(rest)) };
      default:
        return { kind: 'value', value: this.valueAfter(type, rest) };
    }
  }

  private valueAfter(type: string | undefined, rest: string): HistoryReply {
    switch (type) {
      case '+':
        return rest;
      case ':':
        return Number(rest);
      case '$':
      case '=':
        return rest === '-1' ? null : clip(this.bulk(Number(rest)));
      case '*':
      case '~':
        return rest === '-1' ? null : this.elements(Number(rest));
      case '%':
        return this.elements(Number(rest) * 2);
      case '|': {
        // An attribute precedes the real value: read it and drop it.
        this.elements(Number(rest) * 2);
        const next = this.line();
        return this.valueAfter(next[0], next.slice(1));
      }
      case '_':
        return null;
      case '#':
        return rest === 't' ? 1 : 0;
      case ',':
      case '(':
        return rest;
      default:
        throw new Error(`not a RESP reply: ${JSON.stringify(`${type ?? ''}${rest}`.slice(0, 20))}`);
    }
  }

  private elements(count: number): HistoryReply[] {
    const out: HistoryReply[] = [];
    for (let i = 0; i < count; i++) {
      const header = this.line();
      out.push(header[0] === '-' ? `(error) ${header.slice(1)}` : this.valueAfter(header[0], header.slice(1)));
    }
    return out;
  }
}

function clip(text: string): string {
  return text.length > KEEP_CHARS_MAX ? `${text.slice(0, KEEP_CHARS_MAX)}…(cut: ${text.length} characters)` : text;
}
