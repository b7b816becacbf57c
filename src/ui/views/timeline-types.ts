/**
 * What the timeline draws (pure data, no React, no DOM): the shapes the model builder produces
 * (timeline-model.ts) and the layout places (timeline-layout.ts).
 *
 * The lesson of a lock scenario is a disagreement between two truths: who Redis says holds the
 * lock (the value's writer, until it is deleted, overwritten or expires) and who believes it holds
 * the lock (from entering the critical section until its release command, a crash or the end).
 * The model holds both as bands, plus what each client did (commands, waits) and where checkers
 * reported violations.
 */
import type { Reply, ViolationKind } from '../store/published';
import type { TextPart } from './text-parts';
/**
 * A point of the run: an event (`seq`), a pure time (`seq: null`, e.g. an expiry nobody observed
 * at that instant), or the end of the run (`runEnd`). Pure times come before the events of the
 * same millisecond: a key that expires at t=8000 is already gone for a command at t=8000.
 */
export interface Moment {
  readonly ms: number;
  readonly seq: number | null;
  readonly runEnd?: true;
}

export interface Span {
  readonly start: Moment;
  readonly end: Moment;
  /** Still going when the run's last event happened. */
  readonly open: boolean;
}

export interface CommandMark {
  readonly seq: number;
  readonly step: number;
  readonly atMs: number;
  readonly clientId: string;
  /** Upper-case command name: SET, GET, DEL, EVAL. */
  readonly verb: string;
  /** The key it touches, when there is one (EVAL's first key). */
  readonly key: string | null;
  readonly command: readonly TextPart[];
  readonly reply: readonly TextPart[];
  readonly replyType: Reply['type'];
  /** When the reply reached the client, if later than the command (a slow script). */
  readonly replyAtMs: number | null;
  readonly releases: boolean;
  /** The command changed the lock's value (acquired, deleted, overwrote). */
  readonly changedLock: boolean;
  /** Violations this command caused (their seqs). */
  readonly violationSeqs: readonly number[];
}

/** Why a client waits (the engine's reasons), or `stall`: its process is frozen by a fault. */
export type BlockReason = 'work' | 'sleep' | 'retry' | 'hang' | 'reply' | 'busy' | 'message' | 'network' | 'await' | 'pop' | 'stall';

export interface BlockSpan extends Span {
  readonly seq: number;
  readonly step: number;
  readonly clientId: string;
  readonly reason: BlockReason;
  /** How long the wait was meant to take; null for a wait with no end (a hang). */
  readonly durationMs: number | null;
  /** When it was due to end; null for a wait with no end. */
  readonly untilMs: number | null;
  /** Cut short by a crash. */
  readonly cut: boolean;
  /** How much later than due it ended (a stall held it), in ms. */
  readonly lateMs: number;
}

export type PointKind = 'enter' | 'leave' | 'end' | 'crash' | 'give-up' | 'write' | 'mark' | 'drop';

export interface ClientPoint {
  readonly kind: PointKind;
  readonly seq: number;
  readonly step: number;
  readonly atMs: number;
  readonly clientId: string;
  /** write: the value (tokens marked) and whether it was accepted; mark: the count; give-up: attempts; drop: the lost message. */
  readonly detail: readonly TextPart[];
  readonly rejected: boolean;
}

type BeliefEnd = 'released' | 'crashed' | 'ended' | 'open';

/** "Client X believes it holds the lock": from entering the critical section to its release. */
export interface BeliefBand extends Span {
  readonly clientId: string;
  readonly endReason: BeliefEnd;
}

/** Part of a belief during which Redis says someone else (or nobody) holds the lock. */
export interface StaleBelief extends Span {
  readonly clientId: string;
  readonly redisHolder: string | null;
}

export type HolderEnd = 'expired' | 'deleted' | 'overwritten' | 'open';

/** "Redis says X holds the lock": the lock key holds a value X's command wrote. */
export interface HolderBand extends Span {
  /** The client whose command wrote the value; null when it was written outside the clients. */
  readonly holder: string | null;
  /** A lock several hold at once (the scenario's holder keys): every holder; undefined otherwise. */
  readonly holders?: readonly string[];
  readonly value: readonly TextPart[];
  readonly endReason: HolderEnd;
  /** The client whose command ended it (deleted, overwritten). */
  readonly endedBy: string | null;
}

/** One lease: the lock's expiry as set by a command, until it expires or is cut. */
export interface TtlBar extends Span {
  readonly holder: string | null;
  /** null: the key has no expiry (PTTL -1). */
  readonly expireAtMs: number | null;
  readonly cut: 'deleted' | 'overwritten' | 'renewed' | null;
  /** The expiry lies after the run's last event: drawn as what would happen next. */
  readonly projected: boolean;
}

export interface ViolationMarker {
  readonly seq: number;
  readonly step: number;
  readonly causeSeq: number;
  readonly at: Moment;
  readonly kind: ViolationKind;
  readonly message: string;
  readonly clients: readonly string[];
  /** foreign-release: the lock was deleted (not overwritten). */
  readonly deleted: boolean;
}

export interface ClockMark {
  readonly seq: number;
  readonly step: number;
  readonly atMs: number;
  readonly fromMs: number;
  readonly toMs: number;
  readonly reason: 'advance' | 'wait';
  readonly clientId: string | null;
}

export interface ClientRow {
  readonly clientId: string;
  readonly commands: readonly CommandMark[];
  readonly blocks: readonly BlockSpan[];
  readonly points: readonly ClientPoint[];
  readonly beliefs: readonly BeliefBand[];
  readonly criticalSections: readonly Span[];
  readonly staleBeliefs: readonly StaleBelief[];
}

export interface StepInfo {
  readonly step: number;
  readonly atMs: number;
  /** Events of the step in order, violations left out (they sit at their cause). */
  readonly seqs: readonly number[];
  /** Virtual time of each event in `seqs` (a step that lets time pass spans several times). */
  readonly times: readonly number[];
  /** Which events in `seqs` are Redis commands. */
  readonly isCommand: readonly boolean[];
}

/**
 * A stretch of time during which a node's state (several nodes only) stayed the same: up or down,
 * its role, the lock key on it, and for a replica how many of its primary's writes it lacks.
 */
export interface NodeSegment extends Span {
  readonly up: boolean;
  readonly role: 'primary' | 'replica';
  readonly replicaOf: string | null;
  /** The lock key's value on the node (tokens marked), or null when absent or down. */
  readonly lock: readonly TextPart[] | null;
  /** The client whose token the lock key holds, when it is one. */
  readonly holder: string | null;
  /** A replica: writes of its primary it has not applied yet (0: in sync). */
  readonly lagWrites: number;
}

/** A fault on a node from the schedule (crash, restart, promote, partition, clock jump...). */
export interface NodeFaultMark {
  readonly seq: number;
  readonly step: number;
  readonly atMs: number;
  readonly fault: string;
  /** restart: with its data (fsync) or empty. */
  readonly withData: boolean | null;
  /** Keys the fault lost on this node (a crash, a restart without data, a promotion). */
  readonly lostKeys: readonly string[];
}

/** One Redis node's row (several nodes only). */
export interface NodeRow {
  readonly nodeId: string;
  readonly segments: readonly NodeSegment[];
  readonly faults: readonly NodeFaultMark[];
}

export interface TimelineModel {
  readonly clientIds: readonly string[];
  readonly rows: readonly ClientRow[];
  /** Several nodes: one row per node, in the scenario's order (empty with one node: the Redis row). */
  readonly nodes: readonly NodeRow[];
  readonly holders: readonly HolderBand[];
  readonly ttlBars: readonly TtlBar[];
  readonly violations: readonly ViolationMarker[];
  readonly clocks: readonly ClockMark[];
  readonly steps: readonly StepInfo[];
  readonly firstMs: number;
  readonly lastEventMs: number;
  /** Latest time the drawing needs: the last event, or a pending expiry or wake-up after it. */
  readonly horizonMs: number;
  readonly eventCount: number;
}

/** The end of the run: whatever is still going reaches it. */
export const RUN_END: Moment = { ms: Number.POSITIVE_INFINITY, seq: null, runEnd: true };

/** Orders moments: by time, pure times before the events of their millisecond, the run's end last. */
export function compareMoments(a: Moment, b: Moment): number {
  if (a.runEnd || b.runEnd) return (a.runEnd ? 1 : 0) - (b.runEnd ? 1 : 0);
  if (a.ms !== b.ms) return a.ms - b.ms;
  return (a.seq ?? -1) - (b.seq ?? -1);
}
