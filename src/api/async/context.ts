/**
 * What an async client's code gets besides Redis: its id and token, the virtual clock, and the
 * actions the checkers watch (entering and leaving the critical section, writes to a protected
 * resource, marks on a counter, starting a helper). Waits run on the virtual clock.
 */
import { definitionBounds } from '../../definition';
import type { AsyncHost } from './host';
import type { LockstepRedis } from './ioredis';

export interface ClientContext {
  /** The client's id in schedules: `A`. */
  readonly id: string;
  /** A token unique to this client, from the run's seed (what lock code puts in the lock's value). */
  readonly token: string;
  /**
   * One ioredis-compatible client per Redis node of the run, in node order (`nodes: ['r1', 'r2',
   * 'r3']`, or the scenario's): each sends to its node. `redis` is the first; `[redis]` with one node.
   */
  readonly nodes: readonly LockstepRedis[];
  /** The virtual time (ms) the code runs at: when its last reply arrived or its last wait ended. */
  now(): number;
  /** A timer on the virtual clock (a retry's backoff, a watchdog's interval). */
  sleep(ms: number): Promise<void>;
  /** Business logic that takes `ms` of virtual time (a schedule's stall can make it late). */
  work(ms: number): Promise<void>;
  /** From here the client believes it holds the lock: the mutual-exclusion checker watches. */
  enter(): void;
  leave(): void;
  /** A write to a protected resource of the scenario (with fencing, older tokens are refused). */
  write(resource: string, value: string, options?: { readonly fencingToken?: string | number }): void;
  /** One business event on a counter of the scenario (e.g. one item sold). */
  mark(counter: string): void;
  /** Starts a helper client of the same process (a watchdog), declared with `startedBy`. */
  start(clientId: string): void;
}

function checkMs(what: string, ms: unknown): number {
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > definitionBounds.durationMsMax) {
    throw new RangeError(`${what}(ms): a whole number of milliseconds from 0 to ${definitionBounds.durationMsMax}, got ${String(ms)}`);
  }
  return ms;
}

/** What the scenario defines, so a wrong name fails in the client's code, where it was written. */
export interface ContextScope {
  readonly resources: readonly string[];
  readonly counters: readonly string[];
  /** Helpers this client may start (clients whose `startedBy` is this client). */
  readonly helpers: readonly string[];
}

function known(kind: string, name: string, names: readonly string[]): string {
  if (!names.includes(name)) throw new RangeError(`no ${kind} "${name}" in this scenario (${names.join(', ') || 'none'})`);
  return name;
}

export function createClientContext(host: AsyncHost, generation: number, id: string, token: string, scope: ContextScope): Omit<ClientContext, 'nodes'> {
  const started = new Set<string>();
  return {
    id,
    token,
    now: () => host.nowMs(id),
    sleep: (ms) => host.append(generation, id, { op: 'sleep', durationMs: checkMs('sleep', ms) }, 'wake'),
    work: (ms) => host.append(generation, id, { op: 'work', durationMs: checkMs('work', ms) }, 'wake'),
    enter: () => host.append(generation, id, { op: 'enter' }, null),
    leave: () => host.append(generation, id, { op: 'leave' }, null),
    write: (resource, value, options) =>
      host.append(generation, id, { op: 'write', resource: known('protected resource', resource, scope.resources), value: String(value), ...(options?.fencingToken === undefined ? {} : { fencingToken: String(options.fencingToken) }) }, null),
    mark: (counter) => host.append(generation, id, { op: 'mark', counter: known('counter', counter, scope.counters) }, null),
    start: (clientId) => {
      known(`helper of ${id} (a client with startedBy: '${id}')`, clientId, scope.helpers);
      if (started.has(clientId)) throw new RangeError(`${clientId} is already started`);
      started.add(clientId);
      host.append(generation, id, { op: 'start', client: clientId }, null);
    },
  };
}
