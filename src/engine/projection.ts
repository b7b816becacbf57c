/**
 * An append-only projection of a run: its events, the schedule text, each client's lane, the
 * lock's intervals and each key's history, extended per step from what the step appended and
 * never recomputed over the history (event sourcing: a step at event 10,000 costs what it costs
 * at event 10). A projection belongs to one timeline; when the timeline is cut or replaced (a
 * fork, another variant, a loaded run) its owner, who knows it (the simulation's `cutCount`, a
 * new simulation), starts a new projection with the next generation.
 *
 * Every array it hands out only grows within a generation: a reader that remembers a count can
 * read the prefix it saw, unchanged, later on.
 */
import { formatChoice, type Choice } from './schedule';
import type { TraceEvent, ViolationEvent } from './trace';

/** "Redis says the lock holds this value" as the trace saw it: from the event that wrote it to the event that saw it gone. */
export interface LockInterval {
  readonly value: string;
  /** The client whose command wrote the value (null: written outside the clients). */
  readonly holder: string | null;
  readonly startSeq: number;
  readonly startMs: number;
  /** The event that first saw it end (null while open). */
  readonly endSeq: number | null;
  readonly endMs: number | null;
  /** How it ended: a command deleted or overwrote it, or it expired; null while open. */
  readonly endReason: 'deleted' | 'overwritten' | 'expired' | null;
}

/** What `extend` did: appended new events or choices, or found nothing new. */
export type SyncResult = 'appended' | 'unchanged';

type OpenLock = Omit<LockInterval, 'endSeq' | 'endMs' | 'endReason'>;

/** The keys a command names: an EVAL's KEYS, else its first argument (the convention of the commands Lockstep's lessons use). */
function keysOf(argv: readonly string[]): readonly string[] {
  const verb = (argv[0] ?? '').toUpperCase();
  if (verb === 'EVAL' || verb === 'EVALSHA' || verb === 'EVAL_RO' || verb === 'EVALSHA_RO' || verb === 'FCALL' || verb === 'FCALL_RO') {
    const count = Number(argv[2]);
    return Number.isSafeInteger(count) && count > 0 ? argv.slice(3, 3 + count) : [];
  }
  return argv.length > 1 ? [argv[1]] : [];
}

export class RunProjection {
  private readonly eventLog: TraceEvent[] = [];
  private readonly choiceLog: Choice[] = [];
  /** stepStarts[i]: index of the first event of a step >= i, for every step up to the last event's. */
  private readonly stepStarts: number[] = [0];
  private readonly laneByClient = new Map<string, number[]>();
  private readonly historyByKey = new Map<string, number[]>();
  private readonly closedLocks: LockInterval[] = [];
  private readonly violationLog: ViolationEvent[] = [];
  private open: OpenLock | null = null;
  private scheduleText = '';

  constructor(readonly generation: number) {}

  /**
   * Extends the projection by the events and choices past the ones it has. The owner calls it
   * only on a timeline this projection belongs to: one that was not cut since (the simulation's
   * `cutCount` says so); a cut timeline gets a new projection. A shorter timeline is a broken
   * promise and throws.
   */
  extend(events: readonly TraceEvent[], choices: readonly Choice[]): SyncResult {
    const eventCount = this.eventLog.length;
    const choiceCount = this.choiceLog.length;
    if (events.length < eventCount || choices.length < choiceCount) {
      throw new RangeError(`RunProjection.extend: the timeline shrank (${events.length} < ${eventCount} events or ${choices.length} < ${choiceCount} choices); a cut timeline needs a new projection`);
    }
    if (events.length === eventCount && choices.length === choiceCount) return 'unchanged';
    for (let i = eventCount; i < events.length; i++) this.appendEvent(events[i]);
    for (let i = choiceCount; i < choices.length; i++) this.appendChoice(choices[i]);
    return 'appended';
  }

  /** Appends events and choices that follow the ones it has (a mirror fed from another thread's projection). */
  append(events: readonly TraceEvent[], choices: readonly Choice[]): void {
    for (const event of events) this.appendEvent(event);
    for (const choice of choices) this.appendChoice(choice);
  }

  /** Every choice so far, in order (grows). */
  get choices(): readonly Choice[] {
    return this.choiceLog;
  }

  get eventCount(): number {
    return this.eventLog.length;
  }
  get stepCount(): number {
    return this.choiceLog.length;
  }
  /** Every event so far, in order (grows; read up to a count you remember). */
  get events(): readonly TraceEvent[] {
    return this.eventLog;
  }
  /** The canonical schedule text of every choice so far (formatSchedule's), extended per choice. */
  get schedule(): string {
    return this.scheduleText;
  }
  get violations(): readonly ViolationEvent[] {
    return this.violationLog;
  }
  /** Closed lock intervals in order; the open one (if any) is `openLock`. */
  get lockIntervals(): readonly LockInterval[] {
    return this.closedLocks;
  }
  get openLock(): LockInterval | null {
    return this.open === null ? null : { ...this.open, endSeq: null, endMs: null, endReason: null };
  }
  /** Indices (into `events`) of the events of one client, in order. */
  lane(clientId: string): readonly number[] {
    return this.laneByClient.get(clientId) ?? [];
  }
  /** Indices (into `events`) of the commands that named the key, in order. */
  keyHistory(key: string): readonly number[] {
    return this.historyByKey.get(key) ?? [];
  }
  /** Index of step `step`'s first event (a step past the end: the event count). */
  firstEventOfStep(step: number): number {
    if (step <= 0) return 0;
    const starts = this.stepStarts;
    return step < starts.length ? starts[step] : this.eventLog.length;
  }
  /** The events of one step (0-based). */
  eventsOfStep(step: number): readonly TraceEvent[] {
    return this.eventLog.slice(this.firstEventOfStep(step), this.firstEventOfStep(step + 1));
  }
  /** How many violations happened in steps before `step` (binary search). */
  violationCountBefore(step: number): number {
    const list = this.violationLog;
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (list[mid].step < step) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private appendChoice(choice: Choice): void {
    this.choiceLog.push(choice);
    this.scheduleText = this.scheduleText === '' ? formatChoice(choice) : `${this.scheduleText} ${formatChoice(choice)}`;
  }

  private appendEvent(event: TraceEvent): void {
    const index = this.eventLog.length;
    this.eventLog.push(event);
    // Events come in step order: steps up to this one start at or before it.
    while (this.stepStarts.length <= event.step) this.stepStarts.push(index);
    if (event.clientId !== null) {
      let lane = this.laneByClient.get(event.clientId);
      if (!lane) this.laneByClient.set(event.clientId, (lane = []));
      lane.push(index);
    }
    if (event.kind === 'violation') {
      this.violationLog.push(event);
      return;
    }
    if (event.kind === 'command') {
      for (const key of keysOf(event.argv)) {
        let history = this.historyByKey.get(key);
        if (!history) this.historyByKey.set(key, (history = []));
        history.push(index);
      }
    }
    this.extendLock(event);
  }

  /** Redis's truth about the lock, first as it was before the event (a lease may have expired in between), then after it. */
  private extendLock(event: TraceEvent): void {
    const before = event.lockBefore;
    if (this.open && before.value !== this.open.value) this.closeLock(event, before.value === null ? 'expired' : 'overwritten');
    if (!this.open && before.value !== null) this.open = { value: before.value, holder: before.holder, startSeq: event.seq, startMs: event.atMs };
    const after = event.lockAfter;
    if (after.value === before.value && after.holder === before.holder) return;
    if (event.kind === 'command') this.closeLock(event, after.value === null ? 'deleted' : 'overwritten');
    else this.closeLock(event, after.value === null ? 'expired' : 'overwritten');
    if (after.value !== null) this.open = { value: after.value, holder: after.holder, startSeq: event.seq, startMs: event.atMs };
  }

  private closeLock(event: TraceEvent, endReason: NonNullable<LockInterval['endReason']>): void {
    if (!this.open) return;
    this.closedLocks.push({ ...this.open, endSeq: event.seq, endMs: event.atMs, endReason });
    this.open = null;
  }
}
