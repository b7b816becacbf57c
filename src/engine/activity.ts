/**
 * Activities of a hosted client (engine/host.ts): every piece of its code that runs concurrently
 * (a timer's callback, each run of an interval, a setImmediate) is a client of its own in the
 * creator's process, named `A·1`, `A·2`, … (U+00B7 MIDDLE DOT) in the order the code of A's
 * process creates them. The client before the dot owns the process, its clock and its locks.
 */
const ACTIVITY_SEPARATOR = '·';

/** The client an activity belongs to (`A` for `A·3`); a client's own id for itself. */
export function activityOwner(clientId: string): string {
  const at = clientId.indexOf(ACTIVITY_SEPARATOR);
  return at < 0 ? clientId : clientId.slice(0, at);
}

/** The name of the `n`-th activity (from 1) of client `owner`'s process. */
export function activityId(owner: string, n: number): string {
  return `${owner}${ACTIVITY_SEPARATOR}${n}`;
}
