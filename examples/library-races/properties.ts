/**
 * Properties the gallery states about locks, as functions of one trace event (the Node API's
 * `properties`, src/api/findings.ts): each sees the lock as it was before and after the event.
 */
import type { TraceEvent } from 'lockstep';

/**
 * Only an acquire creates the lock: a command that turns a free lock into a held one must be the
 * acquire (`SET ... NX`), never a refresh. A refresh that re-creates a lock that expired under its
 * holder hides that the holder lost it, and someone else may have held it in between.
 */
export function onlyAcquireCreatesTheLock(event: TraceEvent): boolean {
  if (event.kind !== 'command' || event.lockBefore.value !== null || event.lockAfter.value === null) return true;
  return event.argv[0].toLowerCase() === 'set' && event.argv.some((arg) => arg.toUpperCase() === 'NX');
}
