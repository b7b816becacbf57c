import type { Lang } from '../../i18n';
import type { TraceEvent } from '../store/published';

/**
 * What the timeline and the sequence diagram need: the whole run (past and future of the cursor)
 * and where the cursor is. Both views are pure: they read nothing else and change nothing but
 * through `onJump`.
 */
export interface RunViewProps {
  /**
   * The run's events, including those after the cursor (drawn dimmed): draw `[0, eventCount)`.
   * The store hands its log, which grows in place within one `generation`: no copy per step.
   */
  readonly events: readonly TraceEvent[];
  /** How many of `events` to draw (predict mode: the past only). */
  readonly eventCount: number;
  /**
   * The log's generation (the session's change feed): within one, the events only grow and a
   * view extends its model by what was appended; a new generation (a cut, fork or new run) rebuilds.
   */
  readonly generation: number;
  /** Clients in display order. */
  readonly clientIds: readonly string[];
  /** Redis nodes in the scenario's order (empty with one node: the timeline draws one Redis row). */
  readonly nodeIds?: readonly string[];
  /** Schedule choices applied: events with `step < cursorStep` have happened. */
  readonly cursorStep: number;
  /** Virtual time at the cursor. */
  readonly nowMs: number;
  readonly lang: Lang;
  /** token -> clientId, so values read `<A's token>`. */
  readonly tokenOwners: Readonly<Record<string, string>>;
  /** Move the cursor to just after `step` choices (a mark of step s jumps to s + 1). */
  readonly onJump: (step: number) => void;
}
