import { callMock, createMockInstance, withPinnedClock, type MockInstance, type MockOutcome } from './mock-bridge';

/** The Redis data types a learner can see (`TYPE key`). */
export type RedisType = 'string' | 'hash' | 'list' | 'set' | 'zset';

/** Plain, JSON-able value of one key, used by snapshots, hashing and the inspector. */
export type KeyValue =
  | { type: 'string'; value: string }
  | { type: 'hash'; value: [field: string, value: string][] }
  | { type: 'list'; value: string[] }
  | { type: 'set'; value: string[] }
  | { type: 'zset'; value: [member: string, score: string][] };

export type KeyEntry = KeyValue & { key: string; expireAtMs: number | null };

/** A whole keyspace as plain data, keys sorted: equal keyspaces give byte-identical JSON. */
export interface KeyspaceSnapshot {
  readonly entries: readonly KeyEntry[];
}

/**
 * The keyspace of one simulated server, stored in ioredis-mock.
 *
 * Expiry follows Redis 7 exactly: a key with expiry time `when` exists while `now <= when` and is
 * gone once `now > when` (db.c keyIsExpired). ioredis-mock drops keys at `when <= now`, one
 * millisecond early, so this class removes expired keys itself before every command and then runs
 * the mock with its clock pinned one millisecond behind (its own lazy check then never fires on a
 * live key). Commands that set or read relative expiry must go through `setExpireAt`/`pttl`, not
 * through the mock's relative forms.
 */
export class Keyspace {
  readonly mock: MockInstance = createMockInstance();

  /** Drops every key whose expiry time has passed at `nowMs`. */
  expireDue(nowMs: number): void {
    for (const key of this.keysUnsorted()) {
      const when = this.mock.expires.get(key);
      if (when !== undefined && nowMs > when) this.mock.data.delete(key);
    }
  }

  /**
   * The mock's own data accessors expire keys lazily against `Date.now()`. Expiry is ours
   * (expireDue), so every direct access runs with its clock pinned before any expiry time.
   */
  private quiet<T>(fn: () => T): T {
    return withPinnedClock(Number.MIN_SAFE_INTEGER, fn);
  }

  private keysUnsorted(): string[] {
    return this.quiet(() => this.mock.data.keys());
  }

  /** Runs an ioredis-mock command. Call `expireDue(nowMs)` first (the server does). */
  call(nowMs: number, command: string, args: readonly string[]): MockOutcome {
    return callMock(this.mock, nowMs - 1, command, args);
  }

  private raw(key: string): unknown {
    // The mock's get() copies values and may expire lazily: pin its clock behind, as in call().
    return this.quiet(() => this.mock.data.get(key));
  }

  has(key: string): boolean {
    return this.quiet(() => this.mock.data.has(key));
  }

  typeOf(key: string): RedisType | null {
    if (!this.has(key)) return null;
    return typeOfRaw(this.raw(key));
  }

  /** The string value of `key`, or null when absent. Throws on a non-string: check typeOf first. */
  getString(key: string): string | null {
    if (!this.has(key)) return null;
    const value = this.raw(key);
    if (typeof value === 'string') return value;
    if (value instanceof Uint8Array) return new TextDecoder().decode(value);
    throw new Error(`key ${key} holds a ${typeOfRaw(value)}, not a string`);
  }

  expireAtMs(key: string): number | null {
    if (!this.has(key)) return null;
    return this.mock.expires.has(key) ? (this.mock.expires.get(key) as number) : null;
  }

  setExpireAt(key: string, atMs: number | null): void {
    if (atMs === null) this.mock.expires.delete(key);
    else this.mock.expires.set(key, atMs);
  }

  /** Milliseconds to live as PTTL reports them: -2 absent, -1 no expiry. */
  pttl(key: string, nowMs: number): number {
    if (!this.has(key)) return -2;
    const when = this.expireAtMs(key);
    return when === null ? -1 : Math.max(0, when - nowMs);
  }

  keys(): string[] {
    return this.keysUnsorted().sort();
  }

  entry(key: string): KeyEntry | null {
    if (!this.has(key)) return null;
    return { key, expireAtMs: this.expireAtMs(key), ...toKeyValue(this.raw(key)) };
  }

  snapshot(): KeyspaceSnapshot {
    const entries: KeyEntry[] = [];
    for (const key of this.keys()) {
      const entry = this.entry(key);
      if (entry) entries.push(entry);
    }
    return { entries };
  }

  restore(snapshot: KeyspaceSnapshot): void {
    this.mock.data.clear();
    this.mock.expires.clear();
    for (const entry of snapshot.entries) {
      this.mock.data.set(entry.key, fromKeyValue(entry));
      if (entry.expireAtMs !== null) this.mock.expires.set(entry.key, entry.expireAtMs);
    }
  }
}

function typeOfRaw(value: unknown): RedisType {
  if (typeof value === 'string' || value instanceof Uint8Array) return 'string';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Set) return 'set';
  if (value instanceof Map) return 'zset';
  if (value && typeof value === 'object') return 'hash';
  throw new Error(`unknown ioredis-mock value: ${String(value)}`);
}

function toKeyValue(value: unknown): KeyValue {
  switch (typeOfRaw(value)) {
    case 'string':
      return { type: 'string', value: typeof value === 'string' ? value : new TextDecoder().decode(value as Uint8Array) };
    case 'list':
      return { type: 'list', value: (value as unknown[]).map(String) };
    case 'set':
      return { type: 'set', value: [...(value as Set<unknown>)].map(String).sort() };
    case 'zset':
      return {
        type: 'zset',
        value: [...(value as Map<string, { score: number }>)].map(([member, v]) => [member, String(v.score)] as [string, string]),
      };
    case 'hash':
      return {
        type: 'hash',
        value: Object.entries(value as Record<string, unknown>)
          .map(([f, v]) => [f, String(v)] as [string, string])
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      };
  }
}

function fromKeyValue(entry: KeyValue): unknown {
  switch (entry.type) {
    case 'string':
      return entry.value;
    case 'list':
      return entry.value.slice();
    case 'set':
      return new Set(entry.value);
    case 'zset':
      return new Map(entry.value.map(([member, score]) => [member, { score: Number(score), value: member }]));
    case 'hash':
      return Object.fromEntries(entry.value);
  }
}
