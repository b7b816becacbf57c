/**
 * Inspector snapshots by cursor, for "changed since the previous step": the keys before a step
 * are remembered when the step starts, so showing the step needs no trip back in time. Valid for
 * one timeline: a cut drops what lay after it. Bounded (oldest out first).
 */
import type { KeyEntry } from '../engine/redis/keyspace';

export const inspectorCacheCapacity = 256;

export class InspectorCache {
  private readonly byCursor = new Map<number, KeyEntry[]>();

  constructor(private readonly capacity = inspectorCacheCapacity) {}

  get(cursor: number): KeyEntry[] | undefined {
    return this.byCursor.get(cursor);
  }

  remember(cursor: number, entries: KeyEntry[]): KeyEntry[] {
    if (!this.byCursor.has(cursor) && this.byCursor.size >= this.capacity) {
      const oldest = this.byCursor.keys().next().value;
      if (oldest !== undefined) this.byCursor.delete(oldest);
    }
    this.byCursor.set(cursor, entries);
    return entries;
  }

  /** Forgets every snapshot after `cursor` (the timeline was cut there). */
  dropAfter(cursor: number): void {
    for (const key of [...this.byCursor.keys()]) if (key > cursor) this.byCursor.delete(key);
  }

  clear(): void {
    this.byCursor.clear();
  }
}
