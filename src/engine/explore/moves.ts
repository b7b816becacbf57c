import type { FaultBudget } from '../scenario';
import { isLive, type RunContext, type WorldState } from '../world';
import type { Move } from './runner';

/** Faults a path has used so far (part of the explored state: more budget left is another state). */
export interface FaultsUsed {
  readonly stalls: number;
  readonly crashes: number;
}

export const noFaultsUsed: FaultsUsed = { stalls: 0, crashes: 0 };

/**
 * A move with its place in the search's fixed order, which also ranks it for the partial-order
 * reduction (por.ts): faults before steps, then by process and client order.
 */
export interface RankedMove {
  readonly move: Move;
  /** Stable identity across states: `A`, `+`, `A~5000`, `!A`. */
  readonly id: string;
  readonly rank: number;
  /** The process a step or fault belongs to (null for the clock). */
  readonly process: string | null;
}

/**
 * Every move the search may try from one state, in its fixed order. The table of moves is the same
 * for every state of a run (built once); `movesAt` filters it.
 */
export class MoveTable {
  private readonly faults: RankedMove[] = [];
  private readonly steps: RankedMove[] = [];
  private readonly advance: RankedMove;
  private readonly faultable: ReadonlySet<string>;

  constructor(
    private readonly ctx: RunContext,
    world: Readonly<WorldState>,
    readonly budget: FaultBudget,
  ) {
    const processOf = new Map(world.clients.map((c) => [c.id, c.process]));
    // A process is named by its first client (the schedule names processes through clients).
    const namers = new Map<string, string>();
    for (const id of ctx.clientIds) if (!namers.has(processOf.get(id) as string)) namers.set(processOf.get(id) as string, id);
    const allowed = budget.clients ? new Set(budget.clients.map((id) => processOf.get(id))) : null;
    this.faultable = new Set([...namers.keys()].filter((p) => allowed === null || allowed.has(p)));
    let rank = 0;
    for (const [process, clientId] of namers) {
      if (!this.faultable.has(process)) continue;
      for (const ms of budget.stallLengthsMs) this.faults.push({ move: { kind: 'stall', clientId, ms }, id: `${clientId}~${ms}`, rank: rank++, process });
      this.faults.push({ move: { kind: 'crash', clientId }, id: `!${clientId}`, rank: rank++, process });
    }
    for (const id of ctx.clientIds) this.steps.push({ move: { kind: 'step', clientId: id }, id, rank: rank++, process: processOf.get(id) as string });
    this.advance = { move: { kind: 'next-due' }, id: '+', rank, process: null };
  }

  /**
   * The moves worth trying at `world` with `used` faults spent: steps of clients that can be
   * stepped, the advance to the next due time, and faults within the budget of processes that
   * still have a live client (a fault of a finished or crashed process changes nothing).
   * Output order: steps, advance, faults (the breadth-first order; ranks are separate).
   */
  movesAt(world: Readonly<WorldState>, used: FaultsUsed, refusal: (move: Move) => string | null): RankedMove[] {
    const out: RankedMove[] = [];
    for (const m of this.steps) if (refusal(m.move) === null) out.push(m);
    out.push(this.advance);
    const stallsLeft = used.stalls < this.budget.stallCountMax;
    const crashesLeft = used.crashes < this.budget.crashCountMax;
    if (!stallsLeft && !crashesLeft) return out;
    const live = new Set<string>();
    for (const c of world.clients) if (isLive(c)) live.add(c.process);
    for (const m of this.faults) {
      if (!live.has(m.process as string)) continue;
      if (m.move.kind === 'stall' ? !stallsLeft : !crashesLeft) continue;
      if (refusal(m.move) === null) out.push(m);
    }
    return out;
  }

  /** The faults spent after `move`. */
  static spend(used: FaultsUsed, move: Move): FaultsUsed {
    if (move.kind === 'stall') return { stalls: used.stalls + 1, crashes: used.crashes };
    if (move.kind === 'crash') return { stalls: used.stalls, crashes: used.crashes + 1 };
    return used;
  }

  get context(): RunContext {
    return this.ctx;
  }
}
