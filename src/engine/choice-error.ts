import { traceRef, type MessageRef } from '../i18n';

/** A schedule choice that cannot apply to the current world (replay does not fit). */
export class ChoiceError extends Error {
  override name = 'ChoiceError';
  constructor(
    /** Why, without the step (e.g. "cannot step A: it has finished"). */
    readonly reason: string,
    readonly stepIndex: number,
    /** The reason as a catalog key and parameters, for a reader in another language (null: English only). */
    readonly ref: MessageRef | null = null,
  ) {
    super(`step ${stepIndex + 1}: ${reason}`);
  }

  /** The refusal `ref`, worded in the trace's English. */
  static of(ref: MessageRef, stepIndex: number): ChoiceError {
    return new ChoiceError(traceRef(ref), stepIndex, ref);
  }
}

/**
 * A client's program cannot go on: arithmetic on a value that is not an integer, a node the
 * scenario lacks. The step that meets it is refused (a ChoiceError naming the client), so a
 * definition that validates but computes nonsense loses nothing of the run so far.
 */
export class ProgramError extends Error {
  override name = 'ProgramError';
}
