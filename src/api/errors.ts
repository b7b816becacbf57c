/**
 * The Node API's errors: each is a LockstepError with a `code` and the `path` of the problem in
 * what the caller passed (`schedule`, `variants[0].clients[1].program[3].goto`, `clients.A`), so a
 * test can tell a broken definition from a race it was looking for.
 */
import type { DefinitionProblem } from '../definition';

export type LockstepErrorCode =
  | 'bad-definition'
  | 'bad-argument'
  | 'bad-schedule'
  | 'schedule-does-not-fit'
  | 'client-threw'
  | 'client-not-parked'
  | 'not-a-recording';

export class LockstepError extends Error {
  override name = 'LockstepError';
  constructor(
    readonly code: LockstepErrorCode,
    /** Where the problem is in the input ('' for the input as a whole). */
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(path === '' ? message : `${path}: ${message}`, options);
  }
}

/** The scenario definition does not validate: every problem, with its path. */
export class DefinitionError extends LockstepError {
  override name = 'DefinitionError';
  constructor(readonly problems: readonly DefinitionProblem[]) {
    super('bad-definition', problems[0]?.path ?? '', `${problems[0]?.message ?? 'invalid definition'}${problems.length > 1 ? ` (and ${problems.length - 1} more problems: see .problems)` : ''}`);
  }
}

/** An option is missing, of the wrong type or out of its bounds. */
export class ArgumentError extends LockstepError {
  override name = 'ArgumentError';
  constructor(path: string, message: string) {
    super('bad-argument', path, message);
  }
}

/** Schedule text that does not parse (docs/SCHEDULES.md); `position` is 1-based. */
export class ScheduleError extends LockstepError {
  override name = 'ScheduleError';
  constructor(
    message: string,
    readonly position: number,
  ) {
    super('bad-schedule', 'schedule', message);
  }
}

/** A schedule choice that cannot apply (a finished client, a helper nobody started); `step` is 0-based. */
export class ScheduleDoesNotFitError extends LockstepError {
  override name = 'ScheduleDoesNotFitError';
  constructor(
    message: string,
    readonly step: number,
  ) {
    super('schedule-does-not-fit', 'schedule', message);
  }
}

/** Which activity of a client (a timer's callback, `A·1`) was running, and what it is. */
export interface ActivityInfo {
  readonly id: string;
  /** "a setTimeout's callback", "a setInterval's run", … */
  readonly what: string;
}

function where(clientId: string, activity: ActivityInfo | undefined): string {
  return activity === undefined ? `client ${clientId}'s code` : `client ${clientId}'s activity ${activity.id} (${activity.what})`;
}

/** An async client's code (or one of its activities: a timer's callback) threw or rejected: the run stops there. */
export class AsyncClientError extends LockstepError {
  override name = 'AsyncClientError';
  /** The activity that threw (`A·1`), or null when it was the client's main code. */
  readonly activityId: string | null;
  constructor(
    readonly clientId: string,
    cause: unknown,
    activity?: ActivityInfo,
  ) {
    super('client-threw', `clients.${clientId}`, `${where(clientId, activity)} threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.activityId = activity?.id ?? null;
  }
}

/**
 * An async client awaited something Lockstep does not control (real I/O, a real timer, a promise
 * only another client resolves): it did not reach a Lockstep action within the microtask bound,
 * and a run that waited for it could not be replayed.
 */
export class UncontrolledAwaitError extends LockstepError {
  override name = 'UncontrolledAwaitError';
  /** The activity that stopped (`A·1`), or null when it was the client's main code. */
  readonly activityId: string | null;
  /** The last action it reached, in words. */
  readonly lastAction: string | null;
  constructor(
    readonly clientId: string,
    hopCountMax: number,
    details?: Partial<ActivityInfo> & { readonly lastAction?: string },
  ) {
    const activity = details?.id !== undefined && details.what !== undefined ? { id: details.id, what: details.what } : undefined;
    super(
      'client-not-parked',
      `clients.${clientId}`,
      `${where(clientId, activity)} did not reach a Lockstep action (a redis command, a timer, ctx.sleep, ctx.work) or return within ${hopCountMax} microtask turns: ` +
        'it awaits something Lockstep does not control (real I/O such as a socket or a file, another process, a promise another client resolves), and no timer of its process is pending. ' +
        `${details?.lastAction === undefined ? '' : `Its last action: ${details.lastAction}. `}` +
        'Use the redis object for Redis; share state between clients through Redis or plain variables.',
    );
    this.activityId = activity?.id ?? null;
    this.lastAction = details?.lastAction ?? null;
  }
}


/** runFileOf: the run cannot be shown as a recording (replaying what its code sent gives another run); the message says where. */
export class RunFileError extends LockstepError {
  override name = 'RunFileError';
  constructor(message: string) {
    super('not-a-recording', 'result', message);
  }
}
