/**
 * The explorer for async clients: breadth-first over schedules, like the engine's explorer, but
 * without snapshots of the code (a suspended async function cannot be copied): every candidate
 * schedule runs again from time 0 on one reusable run. States are told apart by the world, the
 * keyspace and every client's history (its actions and the replies it got), so interleavings that
 * end in the same place are expanded once. The first schedule found for a kind is a shortest one.
 */
import { activityOwner } from '../../engine/activity';
import { ChoiceError } from '../../engine/engine';
import type { Scenario } from '../../engine/scenario';
import { formatSchedule, type Choice } from '../../engine/schedule';
import { VIOLATION_KINDS, type ViolationKind } from '../../engine/trace';
import { isLive } from '../../engine/world';
import { AsyncRun, type AsyncClients } from './run';
import { withVirtualGlobals } from './virtual-globals';

/** Faults the search may add: stalls of the given lengths and crashes, of any process (or only `clients`'). */
export interface FaultBudget {
  readonly stallCountMax: number;
  readonly stallLengthsMs: readonly number[];
  readonly crashCountMax: number;
  readonly clients?: readonly string[];
}

export interface AsyncSearchBounds {
  readonly faults: FaultBudget;
  /** Longest schedule searched, in choices. */
  readonly depthMax: number;
  /** Schedules run at most (each from time 0): the search's budget of work. */
  readonly runCountMax: number;
}

export interface FoundViolation {
  readonly kind: ViolationKind;
  readonly choices: readonly Choice[];
  /** Canonical schedule text: `simulate({ ..., schedule })` replays it. */
  readonly schedule: string;
  readonly steps: number;
  readonly message: string;
  readonly clients: readonly string[];
  readonly atMs: number;
}

export interface AsyncSearchResult {
  readonly scenarioId: string;
  readonly variantId: string;
  readonly seed: number;
  readonly bounds: AsyncSearchBounds;
  readonly invariants: readonly ViolationKind[];
  /** Schedules run (each a replay from time 0). */
  readonly runs: number;
  /** Distinct states reached. */
  readonly statesExplored: number;
  readonly depthReached: number;
  /** Every state within the depth bound was explored (the search did not stop early or run out of budget). */
  readonly exhaustive: boolean;
  readonly cut: { readonly depth: boolean; readonly runBudget: boolean; readonly stoppedAtViolation: boolean };
  /** The first violation found of each kind looked for, shortest first. */
  readonly violations: readonly FoundViolation[];
}

interface Node {
  readonly choices: readonly Choice[];
  readonly moves: readonly Choice[];
}

function faultsUsed(choices: readonly Choice[]): { stalls: number; crashes: number } {
  let stalls = 0;
  let crashes = 0;
  for (const c of choices) {
    if (c.kind === 'stall') stalls += 1;
    if (c.kind === 'crash') crashes += 1;
  }
  return { stalls, crashes };
}

/** The moves at the run's current state: each client that can be stepped, the advance to the next due time, and the faults left. */
function movesOf(run: AsyncRun, choices: readonly Choice[], faults: FaultBudget): Choice[] {
  const sim = run.sim;
  const world = sim.state;
  const moves: Choice[] = [];
  // Every client of the world, with the activities its code created (timers: `A·1`).
  for (const { id } of world.clients) {
    const step: Choice = { kind: 'step', clientId: id };
    if (sim.refusal(step) === null) moves.push(step);
  }
  let next: number | null = null;
  const consider = (t: number | null) => {
    if (t !== null && t > world.nowMs && (next === null || t < next)) next = t;
  };
  for (const c of world.clients) if (c.status === 'blocked') consider(c.blockedUntilMs);
  for (const p of Object.values(world.processes)) consider(p.stalledUntilMs);
  for (const key of sim.inspect()) if (key.expireAtMs !== null) consider(key.expireAtMs + 1);
  if (next !== null) moves.push({ kind: 'advance', ms: (next as number) - world.nowMs });
  const used = faultsUsed(choices);
  const seen = new Set<string>();
  for (const c of world.clients) {
    if (seen.has(c.process) || !isLive(c) || (faults.clients && !faults.clients.includes(activityOwner(c.id)))) continue;
    seen.add(c.process);
    if (used.stalls < faults.stallCountMax) for (const ms of faults.stallLengthsMs) moves.push({ kind: 'stall', clientId: c.id, ms });
    if (used.crashes < faults.crashCountMax) moves.push({ kind: 'crash', clientId: c.id });
  }
  return moves;
}

type SearchOptions = { readonly variantId: string; readonly seed: number; readonly clients: AsyncClients; readonly bounds: AsyncSearchBounds; readonly invariants?: readonly ViolationKind[]; readonly stopAt?: 'first' | 'all' };

/** Searches with the clients' timers, clock and randomness virtual (virtual-globals.ts) for the whole search. */
export async function searchAsync(scenario: Scenario, options: SearchOptions): Promise<AsyncSearchResult> {
  return withVirtualGlobals(() => search(scenario, options));
}

async function search(scenario: Scenario, options: SearchOptions): Promise<AsyncSearchResult> {
  const { bounds } = options;
  const invariants = options.invariants ? VIOLATION_KINDS.filter((k) => options.invariants?.includes(k)) : VIOLATION_KINDS;
  const run = new AsyncRun(scenario, { variantId: options.variantId, seed: options.seed, clients: options.clients });
  const found = new Map<ViolationKind, FoundViolation>();
  const visited = new Set<string>([run.stateKey()]);
  let runs = 0;
  let depthReached = 0;
  let runBudget = false;
  let depthCut = false;
  let stoppedEarly = false;
  let level: Node[] = [{ choices: [], moves: movesOf(run, [], bounds.faults) }];

  /** Runs a schedule from time 0; null when a choice does not fit. */
  const replay = async (choices: readonly Choice[]): Promise<boolean> => {
    runs += 1;
    run.reset();
    try {
      for (const choice of choices) await run.apply(choice);
      return true;
    } catch (error) {
      if (error instanceof ChoiceError) return false;
      throw error;
    }
  };

  search: for (let depth = 0; depth < bounds.depthMax && level.length > 0; depth++) {
    const next: Node[] = [];
    for (const node of level) {
      for (const move of node.moves) {
        if (runs >= bounds.runCountMax) {
          runBudget = true;
          break search;
        }
        const choices = [...node.choices, move];
        if (!(await replay(choices))) continue;
        depthReached = Math.max(depthReached, choices.length);
        for (const event of run.sim.eventsOfStep(choices.length - 1)) {
          if (event.kind !== 'violation' || !invariants.includes(event.violation) || found.has(event.violation)) continue;
          found.set(event.violation, {
            kind: event.violation,
            choices,
            schedule: formatSchedule(choices),
            steps: choices.length,
            message: event.message,
            clients: event.clients,
            atMs: event.atMs,
          });
        }
        if ((found.size > 0 && (options.stopAt ?? 'first') === 'first') || invariants.every((k) => found.has(k))) {
          stoppedEarly = true;
          break search;
        }
        const key = run.stateKey();
        if (visited.has(key)) continue;
        visited.add(key);
        next.push({ choices, moves: movesOf(run, choices, bounds.faults) });
      }
    }
    if (depth + 1 === bounds.depthMax && next.some((n) => n.moves.length > 0)) depthCut = true;
    level = next;
  }
  return {
    scenarioId: scenario.id,
    variantId: options.variantId,
    seed: options.seed,
    bounds,
    invariants,
    runs,
    statesExplored: visited.size,
    depthReached,
    exhaustive: !runBudget && !depthCut && !stoppedEarly,
    cut: { depth: depthCut, runBudget, stoppedAtViolation: stoppedEarly },
    violations: [...found.values()].sort((a, b) => a.steps - b.steps),
  };
}
