import { reserveString } from './budget';
import type { LuaState } from './fengari-api';

/**
 * A growable byte buffer for library functions that build a string (cmsgpack.pack,
 * struct.pack). It doubles as it grows, and asks the script's budget for room before each
 * growth, so a huge result is refused before it is allocated.
 */
export class ByteWriter {
  private buffer = new Uint8Array(64);
  length = 0;

  constructor(private readonly L: LuaState) {}

  private ensure(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.buffer.length) return;
    const size = Math.max(needed, this.buffer.length * 2);
    reserveString(this.L, size);
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buffer[this.length++] = b & 0xff;
  }

  bytes(data: Uint8Array): void {
    this.range(data, 0, data.length);
  }

  /** data[start..end), without making a subarray (a replacement in gsub is often a byte or two). */
  range(data: Uint8Array, start: number, end: number): void {
    const count = end - start;
    if (count <= 0) return;
    this.ensure(count);
    if (count <= 16) {
      for (let i = start; i < end; i++) this.buffer[this.length++] = data[i];
      return;
    }
    this.buffer.set(data.subarray(start, end), this.length);
    this.length += count;
  }

  /** `count` zero bytes. */
  zeros(count: number): void {
    this.ensure(count);
    this.buffer.fill(0, this.length, this.length + count);
    this.length += count;
  }

  /** The bytes written, as a buffer of their own (the writer is done with). */
  take(): Uint8Array {
    return this.length === this.buffer.length ? this.buffer : this.buffer.slice(0, this.length);
  }
}
