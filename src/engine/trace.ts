import type { Reply } from './redis/reply';
import type { BlockReason } from './world';

/** The lesson kinds a checker can report. Names are part of the interface (CLI JSON, tests, UI). */
export const VIOLATION_KINDS = [
  'foreign-release',
  'mutual-exclusion',
  'lock-never-released',
  'oversell',
  'stale-write',
  'duplicate-rebuild',
  'lock-held-too-long',
  'load-spike',
  'over-limit',
  'starvation',
] as const;
/** A kind a built-in checker reports. */
export type CheckerKind = (typeof VIOLATION_KINDS)[number];
/** A scenario's own `always` property broke (Scenario.properties); the event names the property. */
export const PROPERTY_VIOLATION_KIND = 'property';
export type ViolationKind = CheckerKind | typeof PROPERTY_VIOLATION_KIND;

/** The lock key as one event saw it. `holder` is the client whose command wrote the current value. */
export interface LockView {
  readonly value: string | null;
  /** PTTL semantics: -2 absent, -1 no expiry, else ms left. */
  readonly pttlMs: number;
  readonly holder: string | null;
  /** A lock several may hold at once (Scenario.holderKeys): the clients whose tokens are in its keys, in client order. */
  readonly holders?: readonly string[];
}

interface EventBase {
  /** Position in the whole trace. */
  readonly seq: number;
  /** Index of the schedule choice that produced this event. */
  readonly step: number;
  readonly atMs: number;
  readonly clientId: string | null;
  readonly lockBefore: LockView;
  readonly lockAfter: LockView;
  /**
   * Several nodes only: each node whose view changed with this event (the run's first event lists
   * them all), so the timeline draws one row per node without replaying the run.
   */
  readonly nodes?: readonly NodeView[];
}

/** One Redis node as the timeline shows it: up or down, its role, the lock key on it, its replication offset. */
export interface NodeView {
  readonly node: string;
  readonly up: boolean;
  readonly role: 'primary' | 'replica';
  readonly replicaOf: string | null;
  /** The lock key's value on this node, on its own clock (null: absent, or the node is down). */
  readonly lock: string | null;
  /** The lock key's PTTL on this node at the event (-2 absent, -1 no expiry). */
  readonly pttlMs: number;
  /** A primary: its last write's offset; a replica: how far into its primary's stream it has applied. */
  readonly offset: number;
}

export type TraceEvent =
  | (EventBase & {
      readonly kind: 'command';
      readonly pc: number;
      readonly argv: readonly string[];
      /**
       * What Redis answered, or null when the answer reaches the client later: a slow script's
       * reply arrives when the script ends (a `reply` event at `replyAtMs`).
       */
      readonly reply: Reply | null;
      /** When the reply reaches the client, if later than this event. */
      readonly replyAtMs?: number;
      /** The program step gives the lock up: the client's belief that it holds the lock ends here. */
      readonly releases: boolean;
      /** The node that ran it (only in scenarios with several nodes). */
      readonly node?: string;
    })
  | (EventBase & { readonly kind: 'clock'; readonly fromMs: number; readonly toMs: number; readonly reason: 'advance' | 'wait' })
  /** The client begins: its first scheduled step (its arrival), or another client's `start` step (`by`). */
  | (EventBase & { readonly kind: 'start'; readonly by: string | null })
  | (EventBase & { readonly kind: 'enter' | 'leave' | 'end'; readonly pc: number | null })
  | (EventBase & { readonly kind: 'branch'; readonly pc: number; readonly taken: boolean; readonly goto: string })
  | (EventBase & { readonly kind: 'set'; readonly pc: number; readonly var: string; readonly value: string })
  | (EventBase & {
      readonly kind: 'block';
      readonly pc: number | null;
      readonly reason: BlockReason;
      /** How long the wait is meant to take, or null when nothing will end it (hang). */
      readonly durationMs: number | null;
      readonly untilMs: number | null;
    })
  /**
   * A wait ended: a timer fired, a slow script's reply arrived, Redis became free, or the
   * client's process came back from a stall. `lateMs` > 0 only with a `lateCause`.
   */
  | (EventBase & {
      readonly kind: 'wake';
      /** What ended the wait; `timeout` when a `waitMessage` ran out of time without a message. */
      readonly reason: BlockReason | 'stall' | 'timeout';
      /** When the wake-up was due. */
      readonly dueMs: number;
      readonly lateMs: number;
      /** Why it ran late: its process was stalled (the schedule's fault), or null when on time. */
      readonly lateCause: 'stall' | null;
    })
  /** A fault from the schedule: the client's whole process freezes (a stop-the-world GC pause). */
  | (EventBase & {
      readonly kind: 'stall';
      readonly process: string;
      readonly clients: readonly string[];
      readonly durationMs: number;
      readonly untilMs: number;
    })
  | (EventBase & { readonly kind: 'give-up'; readonly pc: number; readonly attempts: number; readonly reason: 'attempts' | 'deadline' })
  | (EventBase & { readonly kind: 'crash'; readonly pc: number | null })
  /** A delayed reply reaches its client (see `command.replyAtMs`). */
  | (EventBase & {
      readonly kind: 'reply';
      readonly pc: number;
      readonly var: string | null;
      readonly reply: Reply;
      /** The node it came from (several nodes only). */
      readonly node?: string;
      /** No reply came in time: `reply` is the client's own timeout error, not Redis's (several nodes only). */
      readonly timeout?: boolean;
    })
  /**
   * A Pub/Sub message reached one of the client's connections (published by a command or a
   * script at this instant). It waits there until the client's `waitMessage` reads it.
   */
  | (EventBase & {
      readonly kind: 'message';
      readonly connection: string;
      readonly channel: string;
      /** The pattern it matched (PSUBSCRIBE), or null for a channel subscription. */
      readonly pattern: string | null;
      readonly payload: string;
    })
  /**
   * Redis dropped a key whose expiry time passed (a key with expiry `when` is gone from when+1);
   * `node`: on which node, on that node's clock (several nodes only).
   */
  | (EventBase & { readonly kind: 'expire'; readonly key: string; readonly node?: string })
  /** A request leaves its client for a node; it arrives at `arriveAtMs`, or never (null: lost). */
  | (EventBase & { readonly kind: 'send'; readonly pc: number; readonly node: string; readonly argv: readonly string[]; readonly arriveAtMs: number | null })
  /** A message between a client and a node was lost: a partition, a lost-message fault, a dead node or client. */
  | (EventBase & {
      readonly kind: 'drop';
      readonly node: string;
      readonly message: 'request' | 'reply';
      /** not-serving: a delayed restart; late: the client had stopped waiting (its timeout); client-gone: it crashed or finished. */
      readonly cause: 'partition' | 'loss' | 'node-down' | 'not-serving' | 'late' | 'client-gone';
      readonly argv: readonly string[];
    })
  /** A replica applied its primary's writes up to `offset` (`full`: a full resync, its keyspace replaced). */
  | (EventBase & { readonly kind: 'replicate'; readonly node: string; readonly from: string; readonly offset: number; readonly keys: readonly string[]; readonly full: boolean })
  /** A fault on nodes, links or clocks from the schedule (docs/SCHEDULES.md, "Many nodes"). */
  | (EventBase & {
      readonly kind: 'fault';
      readonly fault: NodeFault;
      /** The node concerned, or null for a client's clock. */
      readonly node: string | null;
      /** restart: with its data (fsync) or empty. */
      readonly withData?: boolean;
      /** clock-jump: by how much (ms, signed); replication-delay: the new delay. */
      readonly ms?: number;
      /** promote: the old primary, and what became of it. */
      readonly previous?: string | null;
      /** lose-next: which way the lost message goes. */
      readonly direction?: 'request' | 'reply';
      /** restart with a delay: the node serves clients from this time. */
      readonly servingFromMs?: number;
      /** restart and promote: keys that were lost (the node's memory, or writes the new primary never got). */
      readonly lostKeys?: readonly string[];
    })
  | (EventBase & {
      readonly kind: 'write';
      readonly pc: number;
      readonly resource: string;
      readonly value: string;
      readonly fencingToken: string | null;
      readonly accepted: boolean;
    })
  | (EventBase & { readonly kind: 'mark'; readonly pc: number; readonly counter: string; readonly count: number })
  | (EventBase & {
      readonly kind: 'violation';
      readonly violation: ViolationKind;
      /** seq of the event that caused it. */
      readonly causeSeq: number;
      /** Plain words for the banner, e.g. "A deleted B's lock". */
      readonly message: string;
      /** Clients involved, offender first. */
      readonly clients: readonly string[];
      /** A `property` violation: the property's name. */
      readonly property?: string;
    });

export type TraceEventKind = TraceEvent['kind'];
export type NodeFault = 'node-crash' | 'node-restart' | 'promote' | 'partition' | 'heal' | 'lose-next' | 'clock-jump' | 'replication-delay';
export type ViolationEvent = Extract<TraceEvent, { kind: 'violation' }>;

/** Everything one run produced; JSON.stringify of it is byte-identical for equal inputs. */
export interface Trace {
  readonly scenario: string;
  readonly variant: string;
  readonly seed: number;
  readonly schedule: string;
  readonly events: readonly TraceEvent[];
  readonly violations: readonly ViolationEvent[];
}
