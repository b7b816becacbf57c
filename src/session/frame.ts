/**
 * The run at the cursor as plain data: what the store publishes after each command. Built from
 * the simulation, the projection and the inspector's snapshots; every list keeps the previous
 * frame's object when nothing in it changed, so readers selecting it do not re-render.
 */
import type { RunProjection } from '../engine/projection';
import type { KeyEntry } from '../engine/redis/keyspace';
import type { Choice } from '../engine/schedule';
import type { Simulation } from '../engine/simulation';
import type { LockView, TraceEvent, ViolationEvent } from '../engine/trace';
import { clientViews, isOnDefaultPath, keyViews } from './derive';
import type { MessageRef } from '../i18n';
import { faultRefusals } from './fault-refusals';
import { nodeStatuses, type NodeStatus } from './node-status';
import type { ClientView, KeyView } from './views';

export interface SessionFrame {
  readonly scenarioId: string;
  readonly variantId: string;
  readonly seed: number;
  readonly clientIds: readonly string[];
  /** Counts changes of the timeline (choices added, cut or replaced); the same while only the cursor moves. */
  readonly timelineVersion: number;
  readonly cursor: number;
  readonly length: number;
  readonly nowMs: number;
  readonly clients: readonly ClientView[];
  /** The log's events (append-only within a feed generation: read `[0, eventCount)` of the feed). */
  readonly events: readonly TraceEvent[];
  /** Events of the steps before the cursor. */
  readonly eventCountToCursor: number;
  readonly lastStepEvents: readonly TraceEvent[];
  readonly keys: readonly KeyView[];
  readonly lock: LockView;
  readonly violations: readonly ViolationEvent[];
  /** Canonical schedule text of the whole timeline. */
  readonly schedule: string;
  readonly nodes: readonly NodeStatus[];
  /** The run's node ids (none with one Redis). */
  readonly nodeIds: readonly string[];
  /** The node faults the engine refuses at the cursor, by `faultRefusalKey` (fault-refusals.ts). */
  readonly faultRefusals: Readonly<Record<string, MessageRef>>;
  /** clientId -> its token, and token -> clientId, as the run started. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly tokenOwners: Readonly<Record<string, string>>;
  readonly onDefaultPath: boolean;
  readonly finished: boolean;
  /** The earliest expiry at or after now among the keys, or null. */
  readonly nextExpiryAtMs: number | null;
}

/** What a frame is built from. `fresh`: a new run, whose clients, nodes and lists are not the previous frame's. */
export interface FrameInput {
  readonly sim: Simulation;
  readonly projection: RunProjection;
  readonly entries: readonly KeyEntry[];
  readonly previousEntries: readonly KeyEntry[] | null;
  readonly defaultChoices: readonly Choice[];
  readonly tokens: Readonly<Record<string, string>>;
  readonly tokenOwners: Readonly<Record<string, string>>;
  readonly timelineVersion: number;
  readonly previous: SessionFrame | null;
  readonly fresh: boolean;
}

function sameLock(a: LockView, b: LockView): boolean {
  return a.value === b.value && a.pttlMs === b.pttlMs && a.holder === b.holder;
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function nextExpiryOf(entries: readonly KeyEntry[], nowMs: number): number | null {
  let next: number | null = null;
  for (const entry of entries) {
    if (entry.expireAtMs !== null && entry.expireAtMs >= nowMs && (next === null || entry.expireAtMs < next)) next = entry.expireAtMs;
  }
  return next;
}

/** `previous` when it holds the same items as `next` (readers selecting the list do not re-render), else `next`. */
export function keep<T>(previous: readonly T[] | undefined, next: readonly T[]): readonly T[] {
  return previous !== undefined && sameList(previous, next) ? previous : next;
}

/** The run's first `count` violations (`previous` when it holds the same ones): how both a frame and a mirror of it (wire.ts) list them. */
export function violationsUpTo(log: RunProjection, count: number, previous: readonly ViolationEvent[] | undefined): readonly ViolationEvent[] {
  return keep(previous, log.violations.slice(0, count));
}

export function buildFrame(input: FrameInput): SessionFrame {
  const { sim, projection: log, entries, previous } = input;
  const kept = input.fresh ? null : previous;
  const cursor = sim.cursor;
  const lock = sim.lock();
  const onDefaultPath = cursor <= input.defaultChoices.length && isOnDefaultPath(sim.timeline.slice(0, cursor), input.defaultChoices);
  return {
    scenarioId: sim.scenarioId,
    variantId: sim.variantId,
    seed: sim.seed,
    clientIds: previous !== null && sameList(previous.clientIds, sim.ctx.clientIds) ? previous.clientIds : sim.ctx.clientIds.slice(),
    timelineVersion: input.timelineVersion,
    cursor,
    length: sim.length,
    nowMs: sim.nowMs,
    clients: clientViews(sim.clients, sim.state.processes, sim.nowMs, kept?.clients ?? []),
    events: log.events,
    eventCountToCursor: log.firstEventOfStep(cursor),
    lastStepEvents: keep(kept?.lastStepEvents, cursor > 0 ? log.eventsOfStep(cursor - 1) : []),
    keys: keyViews(entries, input.previousEntries, sim.nowMs, input.tokens),
    lock: previous !== null && sameLock(lock, previous.lock) ? previous.lock : lock,
    violations: violationsUpTo(log, log.violationCountBefore(cursor), kept?.violations),
    // Extended per choice by the projection, never formatted over the whole timeline per step.
    schedule: log.schedule,
    nodes: nodeStatuses(sim, input.tokenOwners, kept?.nodes ?? []),
    nodeIds: previous !== null && sameList(previous.nodeIds, sim.ctx.nodeIds) ? previous.nodeIds : sim.ctx.nodeIds.slice(),
    faultRefusals: faultRefusals(sim),
    tokens: input.tokens,
    tokenOwners: input.tokenOwners,
    onDefaultPath,
    finished: sim.isFinished,
    nextExpiryAtMs: nextExpiryOf(entries, sim.nowMs),
  };
}
