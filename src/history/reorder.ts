/**
 * A bounded reorder buffer: records arrive roughly in the order their replies came (a recorder
 * writes a line when the reply arrives) and leave in the order they started. It holds at most
 * `capacity` records, so memory stays flat in the file's length; a record that arrives after
 * later-starting ones already left is handed over anyway and flagged `late`.
 */
export interface Timed {
  readonly t0: number;
  readonly line: number;
}

export class ReorderBuffer<T extends Timed> {
  private readonly heap: T[] = [];
  private lastOutT0 = -Infinity;

  constructor(private readonly capacity: number) {}

  /** Adds one; returns the record that leaves to make room (in start order), if any. */
  push(item: T): { item: T; late: boolean } | null {
    this.heap.push(item);
    this.up(this.heap.length - 1);
    return this.heap.length > this.capacity ? this.pop() : null;
  }

  /** The next record in start order, or null when empty. */
  pop(): { item: T; late: boolean } | null {
    if (this.heap.length === 0) return null;
    const top = this.heap[0];
    const last = this.heap.pop() as T;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    const late = top.t0 < this.lastOutT0;
    if (!late) this.lastOutT0 = top.t0;
    return { item: top, late };
  }

  private less(a: T, b: T): boolean {
    return a.t0 < b.t0 || (a.t0 === b.t0 && a.line < b.line);
  }

  private up(index: number): void {
    let i = index;
    // Bounded by the heap's height.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.heap[i], this.heap[parent])) break;
      [this.heap[i], this.heap[parent]] = [this.heap[parent], this.heap[i]];
      i = parent;
    }
  }

  private down(index: number): void {
    let i = index;
    const n = this.heap.length;
    // Bounded by the heap's height.
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < n && this.less(this.heap[left], this.heap[best])) best = left;
      if (right < n && this.less(this.heap[right], this.heap[best])) best = right;
      if (best === i) return;
      [this.heap[i], this.heap[best]] = [this.heap[best], this.heap[i]];
      i = best;
    }
  }
}
