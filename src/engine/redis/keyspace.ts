import { scoreFromText, scoreText, type ZSet } from './commands/zset-core';
import { exactMs, isExpiredAt, msLeft, toBigMs, type ExactMs } from './time';

/** The Redis data types a learner can see (`TYPE key`). */
export type RedisType = 'string' | 'hash' | 'list' | 'set' | 'zset';

/**
 * Plain, JSON-able value of one key, used by snapshots, hashing and the inspector. Hash fields
 * keep their insertion order (HGETALL shows it, as a small Redis hash does); set members are
 * sorted (Lockstep answers SMEMBERS in a canonical order, see sets.ts); zset members are in
 * ZRANGE order, each score as Redis replies it ("0.10000000000000001", "inf").
 */
export type KeyValue =
  | { type: 'string'; value: string }
  | { type: 'hash'; value: [field: string, value: string][] }
  | { type: 'list'; value: string[] }
  | { type: 'set'; value: string[] }
  | { type: 'zset'; value: [member: string, score: string][] };

/**
 * One key as plain data. `expireAtMs` is on the virtual clock (null: no expiry); an expiry beyond
 * 2^53 ms, which a double cannot hold exactly, also carries its exact decimal text.
 */
export type KeyEntry = KeyValue & { key: string; expireAtMs: number | null; expireAtExact?: string };

/** A whole keyspace as plain data, keys sorted: equal keyspaces give byte-identical JSON. */
export interface KeyspaceData {
  readonly entries: readonly KeyEntry[];
}

/**
 * A stored value. Values are immutable: a command that changes a list, set or hash builds a new
 * one and writes it back (copy-on-write), so a snapshot can share them with the live keyspace.
 * A zset is its members sorted by score then bytes (commands/zset-core.ts).
 */
export type StoredValue =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'hash'; readonly value: ReadonlyMap<string, string> }
  | { readonly type: 'list'; readonly value: readonly string[] }
  | { readonly type: 'set'; readonly value: ReadonlySet<string> }
  | { readonly type: 'zset'; readonly value: ZSet };

/**
 * A keyspace at one moment: two shallow map copies, O(keys) to take and to restore, sharing the
 * immutable values. JSON.stringify gives the plain `KeyspaceData` form (`toJSON`), built once.
 */
export class KeyspaceSnapshot implements KeyspaceData {
  private plain: KeyEntry[] | null = null;

  constructor(
    readonly values: ReadonlyMap<string, StoredValue>,
    readonly expires: ReadonlyMap<string, ExactMs>,
  ) {}

  /** Every key as plain data, sorted by key. */
  get entries(): readonly KeyEntry[] {
    this.plain ??= [...this.values.keys()].sort(compareCodeUnits).map((key) => toEntry(key, this.values.get(key) as StoredValue, this.expires.get(key)));
    return this.plain;
  }

  toJSON(): KeyspaceData {
    return { entries: this.entries };
  }

  /** A snapshot from plain data (e.g. parsed JSON). */
  static fromData(data: KeyspaceData): KeyspaceSnapshot {
    const values = new Map<string, StoredValue>();
    const expires = new Map<string, ExactMs>();
    for (const entry of data.entries) {
      values.set(entry.key, fromKeyValue(entry));
      if (entry.expireAtMs !== null) expires.set(entry.key, entry.expireAtExact !== undefined ? exactMs(BigInt(entry.expireAtExact)) : entry.expireAtMs);
    }
    return new KeyspaceSnapshot(values, expires);
  }
}

/**
 * The keyspace of one simulated server: values and expiry times in two Maps.
 *
 * Expiry follows Redis 7 exactly: a key with expiry time `when` exists while `now <= when` and is
 * gone once `now > when` (db.c keyIsExpired). The server removes expired keys itself before every
 * command (`expireDue`), so a command never meets one; Redis does the same lazily on access plus
 * an active cycle, which only DBSIZE can tell apart (see docs/REDIS-FIDELITY.md).
 *
 * Every change goes through `write`, `delete`, `setExpireAt` or `clear`, which report the key to
 * `onTouch` (Redis's signalModifiedKey: what makes a WATCHed key dirty). A command calls them only
 * when Redis would signal: SADD of an existing member writes nothing.
 */
export class Keyspace {
  private values = new Map<string, StoredValue>();
  private expires = new Map<string, ExactMs>();
  /** No key expires before this virtual time: lets `expireDue` skip the scan. A lower bound. */
  private expiresNotBeforeMs = Number.POSITIVE_INFINITY;
  /** Called with every key a command changes, deletes or expires. */
  onTouch: ((key: string) => void) | null = null;

  /** Drops every key whose expiry time has passed at `nowMs`. */
  expireDue(nowMs: number): void {
    if (nowMs <= this.expiresNotBeforeMs) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const [key, at] of this.expires) {
      if (isExpiredAt(at, nowMs)) {
        this.values.delete(key);
        this.expires.delete(key);
        this.onTouch?.(key);
      } else if (typeof at === 'number' && at < earliest) earliest = at;
    }
    this.expiresNotBeforeMs = earliest;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  /** Number of keys (after expireDue: the live ones). */
  size(): number {
    return this.values.size;
  }

  typeOf(key: string): RedisType | null {
    return this.values.get(key)?.type ?? null;
  }

  /** The value of `key` (immutable: build a new one to change it), or null when absent. */
  get(key: string): StoredValue | null {
    return this.values.get(key) ?? null;
  }

  /** The string value of `key`, or null when absent. Throws on a non-string: check typeOf first. */
  getString(key: string): string | null {
    const stored = this.values.get(key);
    if (stored === undefined) return null;
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
    this.values.set(key, stored);
    if (!options.keepTtl) this.expires.delete(key);
    this.onTouch?.(key);
  }

  delete(key: string): boolean {
    if (!this.values.delete(key)) return false;
    this.expires.delete(key);
    this.onTouch?.(key);
    return true;
  }

  /** FLUSHALL: every key goes, and each one counts as changed. */
  clear(): void {
    const keys = [...this.values.keys()];
    this.values.clear();
    this.expires.clear();
    this.expiresNotBeforeMs = Number.POSITIVE_INFINITY;
    if (this.onTouch) for (const key of keys) this.onTouch(key);
  }

  /** The exact expiry time of a live key, or null (no expiry, or no key). */
  expireAt(key: string): ExactMs | null {
    return this.expires.get(key) ?? null;
  }

  /** The expiry time as a number (rounded beyond 2^53), for views. */
  expireAtMs(key: string): number | null {
    const at = this.expires.get(key);
    return at === undefined ? null : Number(at);
  }

  /** Sets (or with null removes) the expiry of an existing key. */
  setExpireAt(key: string, at: ExactMs | null): void {
    if (!this.values.has(key)) return;
    if (at === null) this.expires.delete(key);
    else {
      this.expires.set(key, at);
      if (typeof at === 'number' && at < this.expiresNotBeforeMs) this.expiresNotBeforeMs = at;
    }
    this.onTouch?.(key);
  }

  /**
   * The earliest expiry time of any key, or null when no key has one. An expiry beyond 2^53 ms
   * (285,000 years) is never due on the virtual clock, whose times are safe integers: left out.
   */
  nextExpiryAtMs(): number | null {
    let next: number | null = null;
    for (const at of this.expires.values()) if (typeof at === 'number' && (next === null || at < next)) next = at;
    return next;
  }

  /** Keys whose expiry time has passed at `nowMs` (now > when), earliest first, then by name. */
  expiredKeys(nowMs: number): string[] {
    const due: [string, ExactMs][] = [];
    for (const [key, at] of this.expires) if (isExpiredAt(at, nowMs)) due.push([key, at]);
    return due.sort(([ka, a], [kb, b]) => compareMs(a, b) || compareCodeUnits(ka, kb)).map(([key]) => key);
  }

  /** Milliseconds to live as PTTL reports them: -2 absent, -1 no expiry. */
  pttl(key: string, nowMs: number): number {
    if (!this.values.has(key)) return -2;
    const at = this.expires.get(key);
    return at === undefined ? -1 : Number(msLeft(at, nowMs));
  }

  keys(): string[] {
    return [...this.values.keys()].sort(compareCodeUnits);
  }

  entry(key: string): KeyEntry | null {
    const stored = this.values.get(key);
    return stored === undefined ? null : toEntry(key, stored, this.expires.get(key));
  }

  /** The keyspace now: O(keys), shares the immutable values. */
  snapshot(): KeyspaceSnapshot {
    return new KeyspaceSnapshot(new Map(this.values), new Map(this.expires));
  }

  /** Back to a snapshot (or plain data); the snapshot stays usable for later restores. */
  restore(snapshot: KeyspaceSnapshot | KeyspaceData): void {
    const from = snapshot instanceof KeyspaceSnapshot ? snapshot : KeyspaceSnapshot.fromData(snapshot);
    this.values = new Map(from.values);
    this.expires = new Map(from.expires);
    this.expiresNotBeforeMs = Number.NEGATIVE_INFINITY;
  }
}

function isEmptyAggregate(stored: StoredValue): boolean {
  switch (stored.type) {
    case 'string':
      return false;
    case 'list':
    case 'zset':
      return stored.value.length === 0;
    default:
      return stored.value.size === 0;
  }
}

/** Key, expiry, type, value: the property order the trace and state-key JSON have always had. */
function toEntry(key: string, stored: StoredValue, at: ExactMs | undefined): KeyEntry {
  // Assigned one by one (no spread): this runs for every key of every state key.
  const entry: Record<string, unknown> = { key, expireAtMs: at === undefined ? null : Number(at) };
  if (typeof at === 'bigint') entry.expireAtExact = at.toString();
  entry.type = stored.type;
  entry.value = plainValue(stored);
  return entry as KeyEntry;
}

/** Plain forms of stored values, built once per value: values are immutable, so are these. */
const plainValues = new WeakMap<StoredValue, KeyValue['value']>();

function plainValue(stored: StoredValue): KeyValue['value'] {
  if (stored.type === 'string') return stored.value;
  let plain = plainValues.get(stored);
  if (plain === undefined) {
    plain = Object.freeze(toPlain(stored)) as KeyValue['value'];
    plainValues.set(stored, plain);
  }
  return plain;
}

function toPlain(stored: Exclude<StoredValue, { type: 'string' }>): KeyValue['value'] {
  switch (stored.type) {
    case 'list':
      return stored.value.slice();
    case 'set':
      return [...stored.value].sort(compareCodeUnits);
    case 'zset':
      return stored.value.map(([member, score]) => [member, scoreText(score)] as [string, string]);
    case 'hash':
      return [...stored.value];
  }
}

function fromKeyValue(entry: KeyValue): StoredValue {
  switch (entry.type) {
    case 'string':
      return { type: 'string', value: entry.value };
    case 'list':
      return { type: 'list', value: entry.value.slice() };
    case 'set':
      return { type: 'set', value: new Set(entry.value) };
    case 'zset':
      return { type: 'zset', value: entry.value.map(([member, score]) => [member, scoreFromText(score)] as const) };
    case 'hash':
      return { type: 'hash', value: new Map(entry.value) };
  }
}

function compareMs(a: ExactMs, b: ExactMs): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const big = toBigMs(a) - toBigMs(b);
  return big < 0n ? -1 : big > 0n ? 1 : 0;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
