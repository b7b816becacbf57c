import { callMock, createMockInstance, withPinnedClock, type MockInstance, type MockOutcome } from './mock-bridge';

/** The Redis data types a learner can see (`TYPE key`). */
export type RedisType = 'string' | 'hash' | 'list' | 'set' | 'zset';

/**
 * Plain, JSON-able value of one key, used by snapshots, hashing and the inspector. Hash fields
 * keep their insertion order (HGETALL shows it, as a small Redis hash does); set members are
 * sorted (Lockstep answers SMEMBERS in a canonical order, see sets.ts).
 */
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
 * A value as stored in ioredis-mock's keyspace. Strings, lists (arrays) and sets (Set) use the
 * mock's own representation. Hashes are a Map of field to value: the mock's plain-object hashes
 * reorder integer-like fields ("10" before "b") and cannot hold a field named `__proto__`, and
 * every hash command is Lockstep's own (commands/hashes.ts). Zsets (Map of member to
 * {score, value}) are only ever restored from snapshots; no zset command is offered.
 */
export type StoredValue =
  | { type: 'string'; value: string }
  | { type: 'hash'; value: Map<string, string> }
  | { type: 'list'; value: string[] }
  | { type: 'set'; value: Set<string> }
  | { type: 'zset'; value: Map<string, { score: number; value: string }> };

/**
 * The mock keeps keys as properties of a plain object: a prefix keeps names such as `__proto__`
 * or `constructor` from meeting Object.prototype, and keeps integer-like keys from being reordered.
 */
const KEY_PREFIX = 'k:';

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
  readonly mock: MockInstance = createMockInstance(KEY_PREFIX);

  /** Drops every key whose expiry time has passed at `nowMs`. */
  expireDue(nowMs: number): void {
    for (const key of this.keysUnsorted()) {
      const when = this.mock.expires.get(key);
      if (when !== undefined && nowMs > when) this.mock.data.delete(key);
    }
  }

  /**
   * The mock's own data accessors expire keys lazily against the wall clock (`Date.now`). Expiry is ours
   * (expireDue), so every direct access runs with its clock pinned before any expiry time.
   */
  private quiet<T>(fn: () => T): T {
    return withPinnedClock(Number.MIN_SAFE_INTEGER, fn);
  }

  private keysUnsorted(): string[] {
    // The mock lists keys with its prefix; every other accessor adds it itself.
    return this.quiet(() => this.mock.data.keys()).map((key) => key.slice(KEY_PREFIX.length));
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

  /** Number of live keys (after expireDue). */
  size(): number {
    return this.keysUnsorted().length;
  }

  typeOf(key: string): RedisType | null {
    if (!this.has(key)) return null;
    return typeOfRaw(this.raw(key));
  }

  /** The value of `key` (a copy: change it, then `write` it back), or null when absent. */
  get(key: string): StoredValue | null {
    if (!this.has(key)) return null;
    return toStored(this.raw(key));
  }

  /** The string value of `key`, or null when absent. Throws on a non-string: check typeOf first. */
  getString(key: string): string | null {
    const stored = this.get(key);
    if (stored === null) return null;
    if (stored.type !== 'string') throw new Error(`key ${key} holds a ${stored.type}, not a string`);
    return stored.value;
  }

  /**
   * Stores a value. `keepTtl: false` is Redis's setKey (SET, MSET, RENAME target: the old TTL goes);
   * `keepTtl: true` is an in-place change (APPEND, INCR, HSET, LPUSH: the TTL stays). An empty
   * hash, list or set deletes the key, as Redis never keeps empty aggregates.
   */
  write(key: string, stored: StoredValue, options: { keepTtl: boolean }): void {
    if (isEmptyAggregate(stored)) {
      this.delete(key);
      return;
    }
    const expireAtMs = options.keepTtl ? this.expireAtMs(key) : null;
    this.quiet(() => this.mock.data.set(key, stored.value));
    this.setExpireAt(key, expireAtMs);
  }

  delete(key: string): boolean {
    if (!this.has(key)) return false;
    this.quiet(() => this.mock.data.delete(key));
    return true;
  }

  clear(): void {
    this.mock.data.clear();
    this.mock.expires.clear();
  }

  expireAtMs(key: string): number | null {
    if (!this.has(key)) return null;
    return this.mock.expires.has(key) ? (this.mock.expires.get(key) as number) : null;
  }

  setExpireAt(key: string, atMs: number | null): void {
    if (atMs === null) this.mock.expires.delete(key);
    else this.mock.expires.set(key, atMs);
  }

  /** The earliest expiry time of any key, or null when no key has one. */
  nextExpiryAtMs(): number | null {
    let next: number | null = null;
    for (const key of this.keysUnsorted()) {
      const when = this.mock.expires.get(key);
      if (when !== undefined && (next === null || when < next)) next = when;
    }
    return next;
  }

  /** Keys whose expiry time has passed at `nowMs` (now > when), earliest first, then by name. */
  expiredKeys(nowMs: number): string[] {
    const out: [string, number][] = [];
    for (const key of this.keysUnsorted()) {
      const when = this.mock.expires.get(key);
      if (when !== undefined && nowMs > when) out.push([key, when]);
    }
    return out.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([key]) => key);
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
    this.clear();
    for (const entry of snapshot.entries) {
      this.quiet(() => this.mock.data.set(entry.key, fromKeyValue(entry)));
      if (entry.expireAtMs !== null) this.mock.expires.set(entry.key, entry.expireAtMs);
    }
  }
}

function isEmptyAggregate(stored: StoredValue): boolean {
  switch (stored.type) {
    case 'string':
      return false;
    case 'list':
      return stored.value.length === 0;
    default:
      return stored.value.size === 0;
  }
}

function typeOfRaw(value: unknown): RedisType {
  if (typeof value === 'string' || value instanceof Uint8Array) return 'string';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Set) return 'set';
  if (value instanceof Map) {
    // Never empty (empty aggregates are deleted): the first value tells hash from zset.
    const first = value.values().next().value;
    return typeof first === 'string' ? 'hash' : 'zset';
  }
  if (value && typeof value === 'object') return 'hash';
  throw new Error(`unknown ioredis-mock value: ${String(value)}`);
}

function toStored(value: unknown): StoredValue {
  switch (typeOfRaw(value)) {
    case 'string':
      return { type: 'string', value: typeof value === 'string' ? value : new TextDecoder().decode(value as Uint8Array) };
    case 'list':
      return { type: 'list', value: (value as unknown[]).map(String) };
    case 'set':
      return { type: 'set', value: new Set([...(value as Set<unknown>)].map(String)) };
    case 'zset':
      return { type: 'zset', value: new Map(value as Map<string, { score: number; value: string }>) };
    case 'hash':
      // A plain object only if someone wrote one through the mock's own hash commands.
      return {
        type: 'hash',
        value: value instanceof Map ? new Map(value as Map<string, string>) : new Map(Object.entries(value as Record<string, unknown>).map(([f, v]) => [f, String(v)])),
      };
  }
}

function toKeyValue(value: unknown): KeyValue {
  const stored = toStored(value);
  switch (stored.type) {
    case 'string':
      return stored;
    case 'list':
      return { type: 'list', value: stored.value };
    case 'set':
      return { type: 'set', value: [...stored.value].sort(compareCodeUnits) };
    case 'zset':
      return { type: 'zset', value: [...stored.value].map(([member, v]) => [member, String(v.score)] as [string, string]) };
    case 'hash':
      return { type: 'hash', value: [...stored.value] };
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
      return new Map(entry.value);
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
