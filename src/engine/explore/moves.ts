import type { FaultBudget } from '../scenario';
import { formatChoice, type Choice } from '../schedule';
import { isLive, type RunContext, type WorldState } from '../world';
import type { Move } from './runner';

/** Faults a path has used so far (part of the explored state: more budget left is another state). */
export interface FaultsUsed {
  readonly stalls: number;
  readonly crashes: number;
  /** Node faults (scenarios with several nodes): crashes, promotions, clock jumps, partitions. */
  readonly nodeCrashes: number;
  readonly promotions: number;
  readonly clockJumps: number;
  readonly partitions: number;
  /** Lost messages, client clock jumps, replication delay changes. */
  readonly losses: number;
  readonly clientClockJumps: number;
  readonly replicationDelays: number;
}

export const noFaultsUsed: FaultsUsed = { stalls: 0, crashes: 0, nodeCrashes: 0, promotions: 0, clockJumps: 0, partitions: 0, losses: 0, clientClockJumps: 0, replicationDelays: 0 };

/** Which budget a fault move spends (restarts and heals spend none: they undo a crash or a partition). */
type Spends = 'stalls' | 'crashes' | 'nodeCrashes' | 'promotions' | 'clockJumps' | 'partitions' | 'losses' | 'clientClockJumps' | 'replicationDelays' | null;

/**
 * A move with its place in the search's fixed order, which also ranks it for the partial-order
 * reduction (por.ts): faults before steps, then by process and client order.
 */
export interface RankedMove {
  readonly move: Move;
  /** Stable identity across states: `A`, `+`, `A~5000`, `!A`, `!@r1`, `A/@r2`. */
  readonly id: string;
  readonly rank: number;
  /** Its place in the breadth-first order (movesAt's output order): a found schedule's order key (shard.ts). */
  readonly position: number;
  /** The process a step or fault belongs to (null for the clock and node faults: por.ts treats them as global). */
  readonly process: string | null;
}

interface FaultMove extends RankedMove {
  readonly spends: Spends;
}

function limitOf(budget: FaultBudget, spends: Exclude<Spends, null>): number {
  switch (spends) {
    case 'stalls':
      return budget.stallCountMax;
    case 'crashes':
      return budget.crashCountMax;
    case 'nodeCrashes':
      return budget.nodeCrashCountMax ?? 0;
    case 'promotions':
      return budget.promoteCountMax ?? 0;
    case 'clockJumps':
      return budget.clockJumpCountMax ?? 0;
    case 'partitions':
      return budget.partitionCountMax ?? 0;
    case 'losses':
      return budget.lossCountMax ?? 0;
    case 'clientClockJumps':
      return budget.clientClockJumpCountMax ?? 0;
    case 'replicationDelays':
      return budget.replicationDelayCountMax ?? 0;
  }
}

function spendsOf(move: Move): Spends {
  switch (move.kind) {
    case 'stall':
      return 'stalls';
    case 'crash':
      return 'crashes';
    case 'node-crash':
      return 'nodeCrashes';
    case 'promote':
      return 'promotions';
    case 'node-clock':
      return 'clockJumps';
    case 'partition':
      return 'partitions';
    case 'lose':
      return 'losses';
    case 'client-clock':
      return 'clientClockJumps';
    case 'replication-delay':
      return 'replicationDelays';
    default:
      return null;
  }
}

/**
 * Every move the search may try from one state, in its fixed order. The table of moves is the same
 * for every state of a run (built once); `movesAt` filters it.
 */
export class MoveTable {
  private readonly faults: FaultMove[] = [];
  private readonly nodeFaults: FaultMove[] = [];
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
    const fault = (list: FaultMove[], move: Choice, process: string | null) => list.push({ move, id: formatChoice(move), rank: rank++, position: 0, process, spends: spendsOf(move) });
    for (const [process, clientId] of namers) {
      if (!this.faultable.has(process)) continue;
      for (const ms of budget.stallLengthsMs) fault(this.faults, { kind: 'stall', clientId, ms }, process);
      fault(this.faults, { kind: 'crash', clientId }, process);
    }
    this.buildNodeFaults(budget, (move) => fault(this.nodeFaults, move, null));
    for (const id of ctx.clientIds) this.steps.push({ move: { kind: 'step', clientId: id }, id, rank: rank++, position: 0, process: processOf.get(id) as string });
    this.advance = { move: { kind: 'next-due' }, id: '+', rank, position: 0, process: null };
    // Positions in the order movesAt lists moves: steps, the advance, faults, node faults.
    [...this.steps, this.advance, ...this.faults, ...this.nodeFaults].forEach((m, i) => ((m as { position: number }).position = i));
  }

  /**
   * The node faults of the budget, node by node in the scenario's order: crash, restart, promote,
   * each clock jump, then each client's partition and heal, the loss of each client's next
   * request and of the node's next reply to it, each replication delay (replicas only: the engine
   * refuses the others); then each client's clock jumps. Only the kinds the budget allows (restarts
   * with crashes, heals with partitions), only of the budget's nodes and clients.
   */
  private buildNodeFaults(budget: FaultBudget, add: (move: Choice) => void): void {
    const nodes = this.ctx.nodeIds.filter((id) => budget.nodes === undefined || budget.nodes.includes(id));
    const clients = this.ctx.clientIds.filter((id) => budget.clients === undefined || budget.clients.includes(id));
    for (const nodeId of nodes) {
      if ((budget.nodeCrashCountMax ?? 0) > 0) {
        add({ kind: 'node-crash', nodeId });
        add({ kind: 'node-restart', nodeId });
      }
      if ((budget.promoteCountMax ?? 0) > 0) add({ kind: 'promote', nodeId });
      if ((budget.clockJumpCountMax ?? 0) > 0) for (const ms of budget.clockJumpsMs ?? []) add({ kind: 'node-clock', nodeId, ms });
      if ((budget.partitionCountMax ?? 0) > 0) {
        for (const clientId of clients) {
          add({ kind: 'partition', clientId, nodeId });
          add({ kind: 'heal', clientId, nodeId });
        }
      }
      if ((budget.lossCountMax ?? 0) > 0) {
        for (const clientId of clients) {
          add({ kind: 'lose', clientId, nodeId, direction: 'request' });
          add({ kind: 'lose', clientId, nodeId, direction: 'reply' });
        }
      }
      if ((budget.replicationDelayCountMax ?? 0) > 0) for (const ms of budget.replicationDelaysMs ?? []) add({ kind: 'replication-delay', nodeId, ms });
    }
    if ((budget.clientClockJumpCountMax ?? 0) > 0) for (const clientId of clients) for (const ms of budget.clientClockJumpsMs ?? []) add({ kind: 'client-clock', clientId, ms });
  }

  private left(used: FaultsUsed, spends: Spends): boolean {
    return spends === null || used[spends] < limitOf(this.budget, spends);
  }

  /**
   * The moves worth trying at `world` with `used` faults spent: steps of clients that can be
   * stepped, the advance to the next due time, and faults within the budget: of processes that
   * still have a live client (a fault of a finished or crashed process changes nothing), and node
   * faults while any client is live (none is left to meet them otherwise).
   * Output order: steps, advance, faults, node faults (the breadth-first order; ranks are separate).
   */
  movesAt(world: Readonly<WorldState>, used: FaultsUsed, refusal: (move: Move) => string | null): RankedMove[] {
    const out: RankedMove[] = [];
    for (const m of this.steps) if (refusal(m.move) === null) out.push(m);
    out.push(this.advance);
    const live = new Set<string>();
    for (const c of world.clients) if (isLive(c)) live.add(c.process);
    for (const m of this.faults) {
      if (!live.has(m.process as string) || !this.left(used, m.spends)) continue;
      if (refusal(m.move) === null) out.push(m);
    }
    if (live.size === 0) return out;
    for (const m of this.nodeFaults) if (this.left(used, m.spends) && refusal(m.move) === null) out.push(m);
    return out;
  }

  /** The faults spent after `move`. */
  static spend(used: FaultsUsed, move: Move): FaultsUsed {
    const spends = spendsOf(move);
    return spends === null ? used : { ...used, [spends]: used[spends] + 1 };
  }

  /** Fault moves in the table (PCT's F: the moves a fault point picks among). */
  get faultMoveCount(): number {
    const allowed = (m: FaultMove) => m.spends === null || limitOf(this.budget, m.spends) > 0;
    return this.faults.filter(allowed).length + this.nodeFaults.filter(allowed).length;
  }

  get context(): RunContext {
    return this.ctx;
  }
}

/** The faults spent, as part of a state's key: the same world with more budget left can do more. */
export function usedKey(used: FaultsUsed): string {
  const base = `;${used.stalls},${used.crashes}`;
  const nodes = used.nodeCrashes + used.promotions + used.clockJumps + used.partitions;
  const more = used.losses + used.clientClockJumps + used.replicationDelays;
  const withNodes = nodes + more === 0 ? base : `${base},${used.nodeCrashes},${used.promotions},${used.clockJumps},${used.partitions}`;
  return more === 0 ? withNodes : `${withNodes},${used.losses},${used.clientClockJumps},${used.replicationDelays}`;
}
