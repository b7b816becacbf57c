/**
 * The explorer for async clients: breadth-first over schedules, like the engine's explorer, but
 * without snapshots of the code (a suspended async function cannot be copied): every candidate
 * schedule runs again from time 0 on one reusable run. States are told apart by the world, the
 * keyspace and every client's history (its actions and the replies it got), so interleavings that
 * end in the same place are expanded once. The first schedule found for a kind is a shortest one.
 */
import { ChoiceError } from '../../engine/engine';
import { AsyncClientError } from '../errors';
import { failedProperties, FINDING_KINDS, type FindingKind, type Properties } from '../findings';
import type { FaultBudget, Scenario } from '../../engine/scenario';
import { formatSchedule, type Choice } from '../../engine/schedule';
import { MoveTable, noFaultsUsed, usedKey, type FaultsUsed } from '../../engine/explore/moves';
import { AsyncRun, type AsyncClients } from './run';
import type { RedisClientChoice } from './client-links';
import { withVirtualGlobals } from './virtual-globals';

export interface AsyncSearchBounds {
  /** Faults the search may add: the engine explorer's budget (stalls, crashes, and with several nodes node crashes, promotions, clock jumps, partitions). */
  readonly faults: FaultBudget;
  /** Longest schedule searched, in choices. */
  readonly depthMax: number;
  /** Schedules run at most (each from time 0): the search's budget of work. */
  readonly runCountMax: number;
}

export interface FoundViolation {
  /** A checker's kind, `client-error` (code threw and nobody caught it), or `property` (one of yours). */
  readonly kind: FindingKind;
  /** The property's name, for `kind: 'property'`. */
  readonly property?: string;
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
  readonly invariants: readonly Exclude<FindingKind, 'property'>[];
  /** Your properties' names, each checked at every event. */
  readonly properties: readonly string[];
  /** Schedules run (each a replay from time 0). */
  readonly runs: number;
  /** Distinct states reached. */
  readonly statesExplored: number;
  readonly depthReached: number;
  /** Every state within the depth bound was explored (the search did not stop early or run out of budget). */
  readonly exhaustive: boolean;
  readonly cut: { readonly depth: boolean; readonly runBudget: boolean; readonly stoppedAtViolation: boolean };
  /** The first violation found of each kind looked for (and of each property), shortest first. */
  readonly violations: readonly FoundViolation[];
}

interface Node {
  readonly choices: readonly Choice[];
  readonly used: FaultsUsed;
  readonly moves: readonly Choice[];
}

/** Steps of the activities (timers' callbacks) that can be stepped now, in the order they were created. */
function activitySteps(run: AsyncRun): Choice[] {
  const steps: Choice[] = [];
  for (const c of run.sim.state.clients) {
    if (c.spawnedBy === undefined) continue;
    const step: Choice = { kind: 'step', clientId: c.id };
    if (run.sim.refusal(step) === null) steps.push(step);
  }
  return steps;
}

/**
 * The moves at the run's current state, from the engine explorer's move table (explore/moves.ts):
 * each client that can be stepped, the advance to the next due time, and the faults left in the
 * budget, in the engine's order. The advance is made a `+N` here (the run applies choices).
 */
function movesOf(run: AsyncRun, table: MoveTable, used: FaultsUsed): Choice[] {
  const sim = run.sim;
  const moves: Choice[] = [];
  for (const ranked of table.movesAt(sim.state, used, (move) => (move.kind === 'next-due' ? null : sim.refusal(move)))) {
    // The activities the clients' code created (timers: `A·1`) step after the clients, before the advance.
    if (ranked.move.kind === 'next-due') moves.push(...activitySteps(run));
    if (ranked.move.kind !== 'next-due') {
      moves.push(ranked.move);
      continue;
    }
    const due = sim.nextDueMs();
    if (due !== null) moves.push({ kind: 'advance', ms: due - sim.nowMs });
  }
  return moves;
}

type SearchOptions = {
  readonly variantId: string;
  readonly seed: number;
  readonly clients: AsyncClients;
  readonly bounds: AsyncSearchBounds;
  readonly invariants?: readonly Exclude<FindingKind, 'property'>[];
  readonly properties?: Properties;
  readonly stopAt?: 'first' | 'all';
  readonly redisClient?: RedisClientChoice;
};

/** Searches with the clients' timers, clock and randomness virtual (virtual-globals.ts) for the whole search. */
export async function searchAsync(scenario: Scenario, options: SearchOptions): Promise<AsyncSearchResult> {
  return withVirtualGlobals(() => search(scenario, options));
}

async function search(scenario: Scenario, options: SearchOptions): Promise<AsyncSearchResult> {
  const { bounds } = options;
  const invariants = options.invariants ? FINDING_KINDS.filter((k) => options.invariants?.includes(k)) : FINDING_KINDS;
  const properties = options.properties ?? {};
  // Each kind looked for, and each property by name: what the search may find.
  const wanted = [...invariants, ...Object.keys(properties).map((name) => `property:${name}`)];
  const run = new AsyncRun(scenario, { variantId: options.variantId, seed: options.seed, clients: options.clients, redisClient: options.redisClient });
  const found = new Map<string, FoundViolation>();
  const visited = new Set<string>([run.stateKey() + usedKey(noFaultsUsed)]);
  let runs = 0;
  let depthReached = 0;
  let runBudget = false;
  let depthCut = false;
  let stoppedEarly = false;
  const table = new MoveTable(run.sim.ctx, run.sim.state, bounds.faults);
  let level: Node[] = [{ choices: [], used: noFaultsUsed, moves: movesOf(run, table, noFaultsUsed) }];

  /**
   * Runs a schedule from time 0: 'ran', 'refused' when a choice does not fit, or the error its
   * clients' code threw (a finding when looked for: the run ends there, as the process would).
   */
  const replay = async (choices: readonly Choice[]): Promise<'ran' | 'refused' | AsyncClientError> => {
    runs += 1;
    run.reset();
    try {
      for (const choice of choices) await run.apply(choice);
      await run.finish();
      return 'ran';
    } catch (error) {
      if (error instanceof ChoiceError) return 'refused';
      // Not looked for (invariants without 'client-error'): the search stops with it, as simulate does.
      if (error instanceof AsyncClientError && wanted.includes('client-error')) return error;
      throw error;
    }
  };
  const record = (key: string, finding: Omit<FoundViolation, 'schedule' | 'steps' | 'choices'>, choices: readonly Choice[]) => {
    if (found.has(key) || !wanted.includes(key)) return;
    found.set(key, { ...finding, choices, schedule: formatSchedule(choices), steps: choices.length });
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
        const outcome = await replay(choices);
        if (outcome === 'refused') continue;
        depthReached = Math.max(depthReached, choices.length);
        const events = run.sim.eventsOfStep(choices.length - 1);
        for (const event of events) {
          if (event.kind !== 'violation') continue;
          record(event.violation, { kind: event.violation, message: event.message, clients: event.clients, atMs: event.atMs }, choices);
        }
        for (const failure of failedProperties(properties, events, (name) => found.has(`property:${name}`))) {
          const { event } = failure;
          record(`property:${failure.property}`, { kind: 'property', property: failure.property, message: failure.message, clients: event.clientId === null ? [] : [event.clientId], atMs: event.atMs }, choices);
        }
        if (outcome !== 'ran') record('client-error', { kind: 'client-error', message: outcome.message, clients: [outcome.activityId ?? outcome.clientId], atMs: run.sim.nowMs }, choices);
        if ((found.size > 0 && (options.stopAt ?? 'first') === 'first') || wanted.every((k) => found.has(k))) {
          stoppedEarly = true;
          break search;
        }
        // Code that threw ended its run: nothing follows it.
        if (outcome !== 'ran') continue;
        // The same state with more of the fault budget left can do more: it is another state.
        const used = MoveTable.spend(node.used, move);
        const key = run.stateKey() + usedKey(used);
        if (visited.has(key)) continue;
        visited.add(key);
        next.push({ choices, used, moves: movesOf(run, table, used) });
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
    properties: Object.keys(properties),
    runs,
    statesExplored: visited.size,
    depthReached,
    exhaustive: !runBudget && !depthCut && !stoppedEarly,
    cut: { depth: depthCut, runBudget, stoppedAtViolation: stoppedEarly },
    violations: [...found.values()].sort((a, b) => a.steps - b.steps),
  };
}
