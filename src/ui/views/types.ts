import type { Lang } from '../../i18n';
import type { TraceEvent } from '../store/published';

/**
 * What the timeline and the sequence diagram need: the whole run (past and future of the cursor)
 * and where the cursor is. Both views are pure: they read nothing else and change nothing but
 * through `onJump`.
 */
export interface RunViewProps {
  /** Every event of the run, including those after the cursor (they are drawn dimmed). */
  readonly events: readonly TraceEvent[];
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
