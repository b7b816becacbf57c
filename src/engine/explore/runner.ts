import { applyAdvanceToNextDue, applyChoice, ChoiceError, nextDueMs, refusalOf, refusalRefOf } from '../engine';
import type { NodeServers } from '../nodes/servers';
import type { SimRedisServer, ServerSnapshot } from '../redis/server';
import type { Scenario } from '../scenario';
import type { Choice } from '../schedule';
import { startRun } from '../simulation';
import type { TraceEvent } from '../trace';
import { cloneWorld, type RunContext, type WorldState } from '../world';
import { StateKeyer } from './state-key';

/** A state the explorer can come back to: the world and the servers, all plain and never mutated. */
export interface ExploreSnapshot {
  readonly world: WorldState;
  readonly server: ServerSnapshot;
  /** Several Redis nodes: each node's server (keyspace on its own clock, script cache); null with one node. */
  readonly nodes: Readonly<Record<string, ServerSnapshot>> | null;
}

/**
 * What the explorer may do next: a schedule choice, or `next-due` (the `+N` that ends at the next
 * time anything is due, computed when applied: engine.applyAdvanceToNextDue).
 */
export type Move = Choice | { readonly kind: 'next-due' };

export interface Transition {
  /** The schedule choice that was applied (a `next-due` move becomes `+N`). */
  readonly choice: Choice;
  readonly events: readonly TraceEvent[];
}

/**
 * One scenario variant's world and server, moved between states: restore a snapshot, apply a move,
 * take the result. The explorer's only door into the engine: it uses the same step rule as a
 * Simulation (`applyChoice`), so a found schedule replays to the same trace.
 */
export class ExploreRunner {
  readonly ctx: RunContext;
  private readonly server: SimRedisServer;
  /** Several Redis nodes (null: the one `server`). Their roles, clocks, links and messages are in the world. */
  private readonly nodes: NodeServers | null;
  private world: WorldState;
  private readonly keyer: StateKeyer;
  private readonly rootSnapshot: ExploreSnapshot;

  /** canonical: the keyer's canonical form (state-key.ts), when no keyer is given. */
  constructor(scenario: Scenario, options: { readonly variantId?: string; readonly seed?: number; readonly keyer?: StateKeyer; readonly canonical?: boolean } = {}) {
    const start = startRun(scenario, options);
    this.ctx = start.ctx;
    this.server = start.server;
    this.nodes = start.nodes;
    this.world = start.world;
    this.keyer = options.keyer ?? new StateKeyer(options.canonical === true);
    this.rootSnapshot = this.snapshot();
  }

  get root(): ExploreSnapshot {
    return this.rootSnapshot;
  }

  /** The live world (read it, do not keep it: the next restore replaces it). */
  get state(): WorldState {
    return this.world;
  }

  restore(snapshot: ExploreSnapshot): void {
    this.world = cloneWorld(snapshot.world);
    this.server.restore(snapshot.server);
    if (this.nodes !== null) this.nodes.restore(snapshot.nodes as Record<string, ServerSnapshot>);
  }

  /**
   * The live state as a snapshot. The world object itself is handed over (no copy): the runner
   * never mutates it again, since every later move starts with `restore`.
   */
  snapshot(): ExploreSnapshot {
    return { world: this.world, server: this.server.snapshot(), nodes: this.nodes?.snapshot() ?? null };
  }

  /** The live state as a snapshot that stays as it is while the live state moves on. */
  copy(): ExploreSnapshot {
    return { world: cloneWorld(this.world), server: this.server.snapshot(), nodes: this.nodes?.snapshot() ?? null };
  }

  /** Why `move` does not apply now, or null. (A `next-due` move is only known by applying it.) */
  refusal(move: Move): string | null {
    return move.kind === 'next-due' ? null : refusalOf(this.world, this.ctx, move);
  }

  /**
   * Applies `move` to the live state. Returns null when it does not apply (refused, nothing due,
   * or more client steps than one choice may run); the live state is then undefined until the
   * next restore.
   */
  apply(move: Move): Transition | null {
    try {
      if (move.kind === 'next-due') return applyAdvanceToNextDue(this.world, this.server, this.ctx, undefined, this.nodes);
      if (refusalRefOf(this.world, this.ctx, move) !== null) return null;
      return { choice: move, events: applyChoice(this.world, this.server, this.ctx, move, this.nodes) };
    } catch (error) {
      if (error instanceof ChoiceError) return null;
      throw error;
    }
  }

  /** The next time something is due in the live state (engine.nextDueMs). */
  nextDueMs(): number | null {
    return nextDueMs(this.world, this.server, this.ctx, this.nodes);
  }

  /** A hash of a key that another process computes alike for the same state (StateKeyer.stableHash). */
  stableHash(key: string): string {
    return this.keyer.stableHash(key);
  }

  /** A key of the live state (or of its snapshot) equal for two states exactly when Simulation.stateKey() is (state-key.ts). */
  key(snapshot: ExploreSnapshot = this.snapshot()): string {
    return this.keyer.key(snapshot.world, snapshot.server, snapshot.nodes);
  }
}
