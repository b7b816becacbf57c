import { traceText } from '../i18n';
import { activityOwner } from './activity';
import type { ClusterState } from './nodes/state';
import type { RunContext, WorldState } from './world';
import { VIOLATION_KINDS, type CheckerKind, type TraceEvent, type ViolationKind } from './trace';

/**
 * Checkers watch the event stream and report lessons as violation events. They are not
 * assertions: "A deleted B's lock" is what a scenario exists to show, so a checker never throws.
 * Each checker sees one event after the world has absorbed it (lock tracking, client states).
 */
export interface Finding {
  readonly kind: ViolationKind;
  readonly message: string;
  readonly clients: readonly string[];
  /** A `property` finding: the property's name. */
  readonly property?: string;
}

export type Checker = (event: TraceEvent, world: WorldState, ctx: RunContext, counterValue: (key: string) => string | null) => Finding[];

/**
 * A client deleted or overwrote a lock value that another client's command had written. With
 * several nodes, on each node: Redlock's lock is one key per node, and deleting another client's
 * key on any one of them is a foreign release there.
 */
export const foreignRelease: Checker = (event, world) => {
  if (world.cluster !== undefined) return foreignReleaseOnNodes(event, world.cluster);
  if (event.kind !== 'command' || event.clientId === null) return [];
  const owner = event.lockBefore.holder;
  if (owner === null || owner === activityOwner(event.clientId) || event.lockAfter.value === event.lockBefore.value) return [];
  const params = { a: event.clientId, b: owner };
  const message = event.lockAfter.value === null ? traceText('vForeignReleaseDeleted', params) : traceText('vForeignReleaseOverwrote', params);
  return [{ kind: 'foreign-release', message, clients: [event.clientId, owner] }];
};

/**
 * Per node: the lock value before a client's command on it (as the last event showed the node),
 * after it (the node's view in this event, present when it changed), and who wrote the value
 * before. Every event's node views update the memory, so expiries, crashes, restarts and
 * replication are followed too.
 */
function foreignReleaseOnNodes(event: TraceEvent, cluster: ClusterState): Finding[] {
  const findings: Finding[] = [];
  if (event.kind === 'command' && event.clientId !== null && event.node !== undefined) {
    const node = event.node;
    const view = event.nodes?.find((v) => v.node === node);
    const before = cluster.nodeLocks[node] ?? null;
    if (view !== undefined && view.lock !== before) {
      const owner = before === null || !Object.hasOwn(cluster.lockWriters, before) ? null : cluster.lockWriters[before];
      if (owner !== null && owner !== activityOwner(event.clientId)) {
        const params = { a: event.clientId, b: owner, node };
        const message = view.lock === null ? traceText('vForeignReleaseDeletedOn', params) : traceText('vForeignReleaseOverwroteOn', params);
        findings.push({ kind: 'foreign-release', message, clients: [event.clientId, owner] });
      }
      if (view.lock !== null && !Object.hasOwn(cluster.lockWriters, view.lock)) cluster.lockWriters[view.lock] = activityOwner(event.clientId);
    }
  }
  for (const view of event.nodes ?? []) cluster.nodeLocks[view.node] = view.lock;
  return findings;
}

/** Two live clients inside the critical section at the same virtual time. */
export const mutualExclusion: Checker = (event, world) => {
  if (event.kind !== 'enter' || event.clientId === null) return [];
  const others = world.clients.filter((c) => c.id !== event.clientId && c.inCriticalSection && c.status !== 'crashed');
  return others.map((other) => ({
    kind: 'mutual-exclusion' as const,
    message: traceText('vMutualExclusion', { a: event.clientId as string, b: other.id }),
    clients: [event.clientId as string, other.id],
  }));
};

/** The lock has no expiry and its holder crashed or finished: nobody can ever acquire it. */
export const lockNeverReleased: Checker = (event, world) => {
  const { lock } = world;
  const view = event.lockAfter;
  if (view.value === null || view.pttlMs !== -1 || lock.holder === null) return [];
  if (lock.neverReleasedReportedGeneration === lock.generation) return [];
  const holder = world.clients.find((c) => c.id === lock.holder);
  if (!holder || (holder.status !== 'crashed' && holder.status !== 'done')) return [];
  lock.neverReleasedReportedGeneration = lock.generation;
  return [
    {
      kind: 'lock-never-released',
      message: traceText(holder.status === 'crashed' ? 'vLockNeverReleasedCrashed' : 'vLockNeverReleasedFinished', { a: holder.id }),
      clients: [holder.id],
    },
  ];
};

/** More sales recorded than there was stock, or a sale whose decrement was lost (read-modify-write race). */
export const oversell: Checker = (event, world, ctx, counterValue) => {
  if (event.kind !== 'mark' || event.clientId === null) return [];
  const spec = (ctx.scenario.counters ?? []).find((c) => c.id === event.counter);
  const state = world.counters[event.counter];
  if (!spec || !state || state.reported || (spec.kind ?? 'sale') !== 'sale') return [];
  const sold = state.sold;
  if (sold > spec.initial) {
    state.reported = true;
    return [{ kind: 'oversell', message: traceText('vOversold', { sold, initial: spec.initial }), clients: [event.clientId] }];
  }
  const text = counterValue(spec.key);
  const left = text !== null && /^-?[0-9]+$/.test(text) ? Number(text) : null;
  if (left !== null && left > spec.initial - sold) {
    state.reported = true;
    return [
      {
        kind: 'oversell',
        message: traceText('vLostUpdate', { sold, initial: spec.initial, key: spec.key, left }),
        clients: [event.clientId],
      },
    ];
  }
  return [];
};

/** A protected resource accepted a write from a client whose lease had already passed to another. */
export const staleWrite: Checker = (event, world) => {
  if (event.kind !== 'write' || !event.accepted || event.clientId === null) return [];
  const writer = world.clients.find((c) => c.id === event.clientId);
  const { lock } = world;
  if (!writer) return [];
  // Only a lease that existed can pass on; writes by clients that never held the lock are another story.
  const passedOn = writer.leaseGeneration !== null && lock.generation > writer.leaseGeneration;
  if (!passedOn) return [];
  const other = lock.holder !== null && lock.holder !== writer.id ? lock.holder : null;
  return [
    {
      kind: 'stale-write',
      message: other
        ? traceText('vStaleWrite', { a: writer.id, resource: event.resource, b: other })
        : traceText('vStaleWriteNobody', { a: writer.id, resource: event.resource }),
      clients: other ? [writer.id, other] : [writer.id],
    },
  ];
};

/**
 * The database queried for the same cache entry more often than the story needs (a 'rebuild'
 * counter): each extra query is a duplicate (cache breakdown: everyone rebuilds a hot key at once;
 * cache penetration: a key the database does not have is looked up again and again).
 */
export const duplicateRebuild: Checker = (event, world, ctx) => {
  if (event.kind !== 'mark' || event.clientId === null) return [];
  const spec = (ctx.scenario.counters ?? []).find((c) => c.id === event.counter);
  const state = world.counters[event.counter];
  if (!spec || !state || spec.kind !== 'rebuild' || state.sold <= spec.initial) return [];
  return [
    {
      kind: 'duplicate-rebuild',
      message: traceText('vDuplicateRebuild', { a: event.clientId, key: spec.key, count: state.sold, initial: spec.initial }),
      clients: [event.clientId],
    },
  ];
};

/**
 * The lock has been held by one owner longer than the scenario's lockHoldMsMax: typically a lease
 * kept alive by renewals while its owner hangs (a zombie lock), so everyone else waits forever.
 */
export const lockHeldTooLong: Checker = (event, world, ctx) => {
  const limitMs = ctx.scenario.lockHoldMsMax;
  const { lock } = world;
  if (limitMs === undefined || lock.holder === null || lock.acquiredAtMs === null) return [];
  if (lock.heldTooLongReportedGeneration === lock.generation) return [];
  const heldMs = world.nowMs - lock.acquiredAtMs;
  if (heldMs <= limitMs) return [];
  lock.heldTooLongReportedGeneration = lock.generation;
  return [
    {
      kind: 'lock-held-too-long',
      message: traceText('vLockHeldTooLong', { a: lock.holder, heldMs, limitMs }),
      clients: [lock.holder],
    },
  ];
};

/**
 * More database queries within a short window than the database takes (a 'db-read' counter's
 * burstMax per burstWindowMs): typically many cache keys expiring at once (cache avalanche).
 * Reported once per burst: the window must empty before it can fire again.
 */
export const loadSpike: Checker = (event, world, ctx) => {
  if (event.kind !== 'mark' || event.clientId === null) return [];
  const spec = (ctx.scenario.counters ?? []).find((c) => c.id === event.counter);
  const state = world.counters[event.counter];
  if (!spec || !state || spec.kind !== 'db-read' || spec.burstMax === undefined || spec.burstWindowMs === undefined) return [];
  const windowMs = spec.burstWindowMs;
  state.recentMs = state.recentMs.filter((t) => t > world.nowMs - windowMs);
  if (state.recentMs.length === 0) state.reported = false;
  state.recentMs.push(world.nowMs);
  if (state.reported || state.recentMs.length <= spec.burstMax) return [];
  state.reported = true;
  return [
    {
      kind: 'load-spike',
      message: traceText('vLoadSpike', { count: state.recentMs.length, windowMs, max: spec.burstMax }),
      clients: [event.clientId],
    },
  ];
};

/**
 * More live clients inside the critical section than the scenario's holderCountMax (a counting
 * semaphore's limit): typically a holder whose entry was pruned while it still worked, and a
 * newcomer given its place.
 */
export const overLimit: Checker = (event, world, ctx) => {
  const limit = ctx.scenario.holderCountMax;
  if (limit === undefined || event.kind !== 'enter' || event.clientId === null) return [];
  const inside = world.clients.filter((c) => c.inCriticalSection && c.status !== 'crashed');
  if (inside.length <= limit) return [];
  const others = inside.filter((c) => c.id !== event.clientId).map((c) => c.id);
  return [{ kind: 'over-limit', message: traceText('vOverLimit', { a: event.clientId, count: inside.length, limit }), clients: [event.clientId, ...others] }];
};

/**
 * A live client has waited longer than the scenario's waitMsMax to get into the critical section
 * for the first time: a fair lock's queue stuck behind a dead head, a writer that overlapping
 * readers keep out. The wait starts at the client's arrival (only clients whose program enters);
 * reported once per client, at the first event past the limit. With acquisitionsWhileWaitingMax,
 * also (starvationByCount) a client that others overtake more than that many times.
 */
export const starvation: Checker = (event, world, ctx) => {
  const byCount = starvationByCount(event, world, ctx);
  const limitMs = ctx.scenario.waitMsMax;
  if (limitMs === undefined) return byCount;
  const own = event.clientId === null ? undefined : world.clients.find((c) => c.id === event.clientId);
  if (own !== undefined && event.kind === 'start' && entersSomewhere(own.id, ctx)) own.waitingSinceMs = event.atMs;
  if (own !== undefined && event.kind === 'enter') delete own.waitingSinceMs;
  const findings: Finding[] = [];
  for (const c of world.clients) {
    if (c.waitingSinceMs === undefined || c.status === 'crashed' || c.status === 'done') continue;
    const waitedMs = world.nowMs - c.waitingSinceMs;
    if (waitedMs <= limitMs) continue;
    delete c.waitingSinceMs;
    findings.push({ kind: 'starvation', message: traceText('vStarvation', { a: c.id, waitedMs, limitMs }), clients: [c.id] });
  }
  return [...byCount, ...findings];
};

function entersSomewhere(clientId: string, ctx: RunContext): boolean {
  return (ctx.programs[clientId] ?? []).some((s) => s.op === 'enter');
}

/**
 * Starvation by count, not by time: a live client still waiting to get in for the first time (from
 * its arrival, as above) while other clients have got in more than the scenario's
 * acquisitionsWhileWaitingMax times. Each other client's `enter` overtakes every waiter; reported
 * once per client, at the enter that passes the limit. It needs no clock, so a search finds it
 * however the schedule spends time: an unfair lock that lets one client in again and again.
 */
function starvationByCount(event: TraceEvent, world: WorldState, ctx: RunContext): Finding[] {
  const limit = ctx.scenario.acquisitionsWhileWaitingMax;
  if (limit === undefined || event.clientId === null) return [];
  const own = world.clients.find((c) => c.id === event.clientId);
  if (own !== undefined && event.kind === 'start' && entersSomewhere(own.id, ctx)) own.overtakenCount = 0;
  if (event.kind !== 'enter') return [];
  if (own !== undefined) delete own.overtakenCount;
  const findings: Finding[] = [];
  for (const c of world.clients) {
    if (c.overtakenCount === undefined || c.id === event.clientId || c.status === 'crashed' || c.status === 'done') continue;
    c.overtakenCount += 1;
    if (c.overtakenCount <= limit) continue;
    const count = c.overtakenCount;
    delete c.overtakenCount;
    findings.push({ kind: 'starvation', message: traceText('vStarvationOvertaken', { a: c.id, count, limit }), clients: [c.id, event.clientId] });
  }
  return findings;
}

/** Each kind's checker (each checker reports one kind), in the order every run applies them. */
const CHECKER_OF_KIND: Readonly<Record<CheckerKind, Checker>> = {
  'foreign-release': foreignRelease,
  'mutual-exclusion': mutualExclusion,
  'lock-never-released': lockNeverReleased,
  oversell,
  'stale-write': staleWrite,
  'duplicate-rebuild': duplicateRebuild,
  'lock-held-too-long': lockHeldTooLong,
  'load-spike': loadSpike,
  'over-limit': overLimit,
  starvation,
};

export const CHECKERS: readonly Checker[] = [
  foreignRelease,
  mutualExclusion,
  lockNeverReleased,
  oversell,
  staleWrite,
  duplicateRebuild,
  lockHeldTooLong,
  loadSpike,
  overLimit,
  starvation,
];

/**
 * The kinds a search of a scenario can claim anything about: those asked for (every kind when
 * absent) that the scenario's checkers watch (Scenario.checkers; every kind when absent), in
 * VIOLATION_KINDS order. A kind no checker watches is never reported, so "no violation of it"
 * would say nothing.
 */
export function checkedKinds(scenarioKinds: readonly ViolationKind[] | undefined, asked: readonly ViolationKind[] | undefined): readonly CheckerKind[] {
  return VIOLATION_KINDS.filter((kind) => (scenarioKinds === undefined || scenarioKinds.includes(kind)) && (asked === undefined || asked.includes(kind)));
}

/** The checkers a scenario applies: every one (absent), or those of the listed kinds, in CHECKERS order. */
export function checkersFor(kinds: readonly ViolationKind[] | undefined): readonly Checker[] {
  if (kinds === undefined) return CHECKERS;
  const chosen = new Set(kinds.map((kind) => (kind === 'property' ? undefined : CHECKER_OF_KIND[kind])));
  return CHECKERS.filter((checker) => chosen.has(checker));
}
