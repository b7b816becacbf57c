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
  | 'explorer-unavailable';

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

/** An async client's code threw (or rejected) instead of returning: the run stops there. */
export class AsyncClientError extends LockstepError {
  override name = 'AsyncClientError';
  constructor(
    readonly clientId: string,
    cause: unknown,
  ) {
    super('client-threw', `clients.${clientId}`, `client ${clientId}'s code threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * An async client awaited something Lockstep does not control (real I/O, a real timer, a promise
 * only another client resolves): it did not reach a Lockstep action within the microtask bound,
 * and a run that waited for it could not be replayed.
 */
export class UncontrolledAwaitError extends LockstepError {
  override name = 'UncontrolledAwaitError';
  constructor(
    readonly clientId: string,
    hopCountMax: number,
  ) {
    super(
      'client-not-parked',
      `clients.${clientId}`,
      `client ${clientId} did not reach a Lockstep action (a redis command, ctx.sleep, ctx.work) or return within ${hopCountMax} microtask turns: ` +
        'it awaits something Lockstep does not control (real I/O, setTimeout, a promise another client resolves). ' +
        'Use ctx.sleep for timers and the redis object for Redis; share state between clients through Redis or plain variables.',
    );
  }
}

/** `explore` on something the explorer cannot search yet. */
export class ExplorerUnavailableError extends LockstepError {
  override name = 'ExplorerUnavailableError';
  constructor(message: string) {
    super('explorer-unavailable', '', message);
  }
}
