import type { SimRedisServer } from './redis/server';
import { lockKeyOf } from './scenario';
import type { LockView, NodeView, TraceEvent } from './trace';
import { activityOwner } from './activity';
import type { RunContext, WorldState } from './world';

export type EventBody = DistributiveOmit<TraceEvent, 'seq' | 'step' | 'atMs' | 'lockBefore' | 'lockAfter' | 'clientId' | 'nodes'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The lock key as the checkers see it: value (hashes as field=value pairs), PTTL, tracked holder. */
export function readLock(server: SimRedisServer, ctx: RunContext, nowMs: number, holder: string | null, world: Readonly<WorldState> | null = null): LockView {
  const lockKey = lockKeyOf(ctx.scenario, ctx.variant);
  const entry = server.keyspace.entry(lockKey);
  const holders = world === null ? undefined : holdersOf(server, ctx, world, nowMs);
  if (entry === null) return holders === undefined ? { value: null, pttlMs: -2, holder: null } : { value: null, pttlMs: -2, holder: null, holders };
  const value =
    entry.type === 'string'
      ? entry.value
      : entry.type === 'hash'
        ? `{${entry.value.map(([f, v]) => `${f}=${v}`).join(', ')}}`
        : JSON.stringify(entry.value);
  const view = { value, pttlMs: server.keyspace.pttl(lockKey, nowMs), holder };
  return holders === undefined ? view : { ...view, holders };
}

/** The clients whose tokens are in the scenario's holder keys (Scenario.holderKeys), or undefined without them. */
function holdersOf(server: SimRedisServer, ctx: RunContext, world: Readonly<WorldState>, nowMs: number): string[] | undefined {
  const keys = ctx.scenario.holderKeys;
  if (keys === undefined) return undefined;
  const names = new Set<string>();
  for (const key of keys) {
    if (server.keyspace.pttl(key, nowMs) === -2) continue;
    const entry = server.keyspace.entry(key);
    if (entry === null) continue;
    if (entry.type === 'string') names.add(entry.value);
    else if (entry.type === 'hash') for (const [field] of entry.value) names.add(field);
    else if (entry.type === 'zset') for (const [member] of entry.value) names.add(member);
  }
  // A client, not an activity, holds: the first client listed with the token (activities share their owner's).
  return world.clients.filter((c) => !c.id.includes('·') && names.has(c.vars.token ?? '')).map((c) => c.id);
}

/** Collects one choice's events, tracks who holds the lock, and runs the checkers after each event. */
export interface Emitter {
  readonly events: TraceEvent[];
  /** The lock as it is now. */
  lockNow(): LockView;
  /** Records an event whose effects already happened, given the lock as it was before them. */
  event(clientId: string | null, body: EventBody, lockBefore?: LockView): TraceEvent;
}

/** Where the lock is read (several nodes: the current primary on its own clock; null: it is down). */
export type LockSource = () => { readonly server: SimRedisServer; readonly nowMs: number } | null;

const ABSENT: LockView = { value: null, pttlMs: -2, holder: null };

/** Several nodes: every node's view now, in the scenario's order. */
export type NodeViewSource = () => readonly NodeView[];

/** A node view without the PTTL, which changes with time alone: a change of this key is worth an event field. */
const viewKey = (v: NodeView) => `${v.up ? 1 : 0}|${v.role}|${v.replicaOf ?? ''}|${v.offset}|${v.lock === null ? '' : `=${v.lock}`}`;

export function emitter(world: WorldState, server: SimRedisServer, ctx: RunContext, source: LockSource | null = null, nodeViews: NodeViewSource | null = null): Emitter {
  const events: TraceEvent[] = [];
  /** The node views that changed since the last event said (world.cluster.shown remembers what was said). */
  const changedNodes = (): NodeView[] => {
    const shown = world.cluster?.shown;
    if (nodeViews === null || shown === undefined) return [];
    const changed: NodeView[] = [];
    for (const view of nodeViews()) {
      const key = viewKey(view);
      if (shown[view.node] === key) continue;
      shown[view.node] = key;
      changed.push(view);
    }
    return changed;
  };
  const read = (holder: string | null): LockView => {
    if (source === null) return readLock(server, ctx, world.nowMs, holder, world);
    const at = source();
    return at === null ? ABSENT : readLock(at.server, ctx, at.nowMs, holder, world);
  };
  const lockNow = (): LockView => read(world.lock.holder);

  /** Updates who holds the lock after an event, and returns the lock as it is now. */
  const trackLock = (clientId: string | null, body: EventBody, before: LockView): LockView => {
    const lock = world.lock;
    const now = read(lock.holder);
    if (now.value === null) {
      lock.holder = null;
      lock.acquiredAtMs = null;
    } else if (body.kind === 'command' && clientId !== null && now.value !== before.value) {
      // A lock taken by an activity (a timer's callback) is held by the client it belongs to.
      const owner = activityOwner(clientId);
      if (lock.holder !== owner) {
        lock.holder = owner;
        lock.generation += 1;
        lock.acquiredAtMs = world.nowMs;
        const writer = world.clients.find((c) => c.id === owner);
        if (writer) writer.leaseGeneration = lock.generation;
      }
    }
    lock.value = now.value;
    return { ...now, holder: lock.holder };
  };

  const counterValue = (key: string) => {
    const entry = (source?.()?.server ?? server).keyspace.entry(key);
    return entry && entry.type === 'string' ? entry.value : null;
  };

  const check = (event: TraceEvent): void => {
    for (const checker of ctx.checkers) {
      for (const finding of checker(event, world, ctx, counterValue)) {
        const lock = event.lockAfter;
        events.push({
          seq: world.nextSeq++,
          step: world.stepIndex,
          atMs: world.nowMs,
          clientId: finding.clients[0] ?? null,
          lockBefore: lock,
          lockAfter: lock,
          kind: 'violation',
          violation: finding.kind,
          causeSeq: event.seq,
          message: finding.message,
          clients: finding.clients,
          ...(finding.property === undefined ? {} : { property: finding.property }),
        });
      }
    }
  };

  return {
    events,
    lockNow,
    event(clientId, body, lockBefore = lockNow()) {
      const lockAfter = trackLock(clientId, body, lockBefore);
      const event = {
        seq: world.nextSeq++,
        step: world.stepIndex,
        atMs: world.nowMs,
        clientId,
        lockBefore,
        lockAfter,
        ...body,
      } as TraceEvent;
      const nodes = changedNodes();
      if (nodes.length > 0) (event as { nodes?: readonly NodeView[] }).nodes = nodes;
      events.push(event);
      check(event);
      return event;
    },
  };
}
