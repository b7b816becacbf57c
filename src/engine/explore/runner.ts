import { applyAdvanceToNextDue, applyChoice, ChoiceError, nextDueMs, refusalOf } from '../engine';
import type { SimRedisServer, ServerSnapshot } from '../redis/server';
import type { Scenario } from '../scenario';
import type { Choice } from '../schedule';
import { startRun } from '../simulation';
import type { TraceEvent } from '../trace';
import { cloneWorld, type RunContext, type WorldState } from '../world';
import { StateKeyer } from './state-key';

/** A state the explorer can come back to: the world and the server, both plain and never mutated. */
export interface ExploreSnapshot {
  readonly world: WorldState;
  readonly server: ServerSnapshot;
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
  private world: WorldState;
  private readonly keyer: StateKeyer;
  private readonly rootSnapshot: ExploreSnapshot;

  constructor(scenario: Scenario, options: { readonly variantId?: string; readonly seed?: number; readonly keyer?: StateKeyer } = {}) {
    const start = startRun(scenario, options);
    this.ctx = start.ctx;
    this.server = start.server;
    this.world = start.world;
    this.keyer = options.keyer ?? new StateKeyer();
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
  }

  /**
   * The live state as a snapshot. The world object itself is handed over (no copy): the runner
   * never mutates it again, since every later move starts with `restore`.
   */
  snapshot(): ExploreSnapshot {
    return { world: this.world, server: this.server.snapshot() };
  }

  /** The live state as a snapshot that stays as it is while the live state moves on. */
  copy(): ExploreSnapshot {
    return { world: cloneWorld(this.world), server: this.server.snapshot() };
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
      if (move.kind === 'next-due') return applyAdvanceToNextDue(this.world, this.server, this.ctx);
      if (refusalOf(this.world, this.ctx, move) !== null) return null;
      return { choice: move, events: applyChoice(this.world, this.server, this.ctx, move) };
    } catch (error) {
      if (error instanceof ChoiceError) return null;
      throw error;
    }
  }

  /** The next time something is due in the live state (engine.nextDueMs). */
  nextDueMs(): number | null {
    return nextDueMs(this.world, this.server, this.ctx);
  }

  /** A key of the live state equal for two states exactly when Simulation.stateKey() is (state-key.ts). */
  key(server: ServerSnapshot = this.server.snapshot()): string {
    return this.keyer.key(this.world, server);
  }
}
