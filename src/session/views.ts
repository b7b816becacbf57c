/**
 * The run's clients and keys as plain data, derived by the session (derive.ts) and published by
 * the store as they are: compared field by field so unchanged ones keep their object.
 */
import type { RedisType } from '../engine/redis/keyspace';
import type { BlockReason, ClientStatus } from '../engine/world';

/** One client as the lanes show it: plain, compared field by field so unchanged lanes keep their object. */
export interface ClientView {
  readonly id: string;
  /** 0-based position: colour, number key. */
  readonly index: number;
  readonly pc: number;
  readonly status: ClientStatus;
  readonly blockReason: BlockReason | null;
  /** While blocked: when the wait ends; null for a wait with no end (a hang). */
  readonly blockedUntilMs: number | null;
  /** Its process is frozen by a stall until this time (null: running). */
  readonly stalledUntilMs: number | null;
  readonly inCriticalSection: boolean;
  readonly believesHoldsLock: boolean;
  readonly token: string;
  readonly live: boolean;
}

export type KeyChange = 'created' | 'changed' | 'deleted' | 'expired' | null;

/** One key as the inspector shows it, with how it changed since the previous step. */
export interface KeyView {
  readonly key: string;
  readonly type: RedisType;
  /** Value as text (hash fields `f=v`, lists `[a, b]`), cut for display. */
  readonly text: string;
  /** The client whose token this value is (or contains), or null. */
  readonly tokenOwner: string | null;
  readonly expireAtMs: number | null;
  readonly change: KeyChange;
}
