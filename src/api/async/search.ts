/**
 * The explorer for async clients: the engine's breadth-first search for worlds that can only be
 * replayed (engine/explore/replay.ts), since a suspended async function cannot be copied: every
 * candidate schedule runs again from time 0 on one reusable run. This file is its replay space:
 * states are told apart by the world, the keyspace and every client's history (its actions and
 * the replies it got), so interleavings that end in the same place are expanded once; the moves
 * are the engine explorer's (explore/moves.ts), the advance its `next-due` (Simulation.applyNextDue).
 */
import { ChoiceError } from '../../engine/engine';
import { AsyncClientError } from '../errors';
import { failedProperties, FINDING_KINDS, type FindingKind, type Properties } from '../findings';
import type { FaultBudget, Scenario } from '../../engine/scenario';
import type { Choice } from '../../engine/schedule';
import { MoveTable, type FaultsUsed } from '../../engine/explore/moves';
import { searchByReplay, type Replayed, type ReplaySpace } from '../../engine/explore/replay';
import { stateCountMaxLimit, type ExploreBounds } from '../../engine/explore/bounds';
import type { ExploreResult, FoundViolation as EngineFoundViolation, SearchCut } from '../../engine/explore/result';
import type { Move } from '../../engine/explore/runner';
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

/** The engine explorer's found violation, of a checker's kind, `client-error` (code threw and nobody caught it), or `property` (one of yours, named). */
export type FoundViolation = EngineFoundViolation<FindingKind>;

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
  /** The search as the engine's explorer reports it: what `exploreVerdictLines` words (i18n/explore.ts). */
  readonly verdict: AsyncVerdict;
}

/** The engine's ExploreResult fields a verdict reads (the engine explorer's or this search's, always breadth-first). */
export type AsyncVerdict = Pick<ExploreResult, 'mode' | 'bounds' | 'statesExplored' | 'transitionsExplored' | 'exhaustive' | 'cut' | 'coverage' | 'properties'> & {
  readonly invariants: readonly string[];
  readonly violations: readonly FoundViolation[];
};

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
 * budget, in the engine's order. The advance is offered when it can apply: something is due, or
 * a client ready now runs first and may make something due (engine.applyAdvanceToNextDue).
 */
function movesOf(run: AsyncRun, table: MoveTable, used: FaultsUsed): Move[] {
  const sim = run.sim;
  const moves: Move[] = [];
  for (const ranked of table.movesAt(sim.state, used, (move) => (move.kind === 'next-due' ? null : sim.refusal(move)))) {
    if (ranked.move.kind !== 'next-due') {
      moves.push(ranked.move);
      continue;
    }
    // The activities the clients' code created (timers: `A·1`) step after the clients, before the advance.
    moves.push(...activitySteps(run));
    if (sim.nextDueMs() !== null || sim.state.clients.some((c) => c.status === 'ready')) moves.push(ranked.move);
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

/** An `AsyncRun` as the engine search's replay space (engine/explore/replay.ts). */
class AsyncReplaySpace implements ReplaySpace<FindingKind> {
  private readonly table: MoveTable;

  constructor(
    private readonly run: AsyncRun,
    faults: FaultBudget,
    private readonly wanted: readonly string[],
    private readonly properties: Properties,
  ) {
    this.table = new MoveTable(run.sim.ctx, run.sim.state, faults);
  }

  key(): string {
    return this.run.stateKey();
  }

  moves(used: FaultsUsed): readonly Move[] {
    return movesOf(this.run, this.table, used);
  }

  /**
   * Runs a schedule from time 0, then `move`: null when a choice does not fit. Code of a client
   * that threw is a finding when looked for (the run ends there, as the process would).
   */
  async replay(path: readonly Choice[], move: Move, known: (id: string) => boolean): Promise<Replayed<FindingKind> | null> {
    const run = this.run;
    run.reset();
    let choice: Choice | null = null;
    try {
      for (const c of path) await run.apply(c);
      if (move.kind === 'next-due') {
        choice = await run.applyNextDue().catch((error: unknown) => {
          // Code threw during the advance: the finding's schedule names the `+N` that replays it.
          choice = run.advanceBeforeThrow;
          throw error;
        });
        if (choice === null) return null;
      } else {
        choice = move;
        await run.apply(move);
      }
      await run.finish();
    } catch (error) {
      if (error instanceof ChoiceError) return null;
      // Not looked for (invariants without 'client-error'): the search stops with it, as simulate does.
      if (!(error instanceof AsyncClientError) || !this.wanted.includes('client-error') || choice === null) throw error;
      const thrown = { kind: 'client-error' as const, message: error.message, clients: [error.activityId ?? error.clientId], atMs: run.sim.nowMs };
      return { choice, found: [...this.foundAt(path.length, known), { id: 'client-error', finding: thrown }], ended: true, nowMs: run.sim.nowMs };
    }
    return { choice, found: this.foundAt(path.length, known), ended: false, nowMs: run.sim.nowMs };
  }

  /** The checkers' violations and the properties not `known` to fail that failed at choice `step`. */
  private foundAt(step: number, known: (id: string) => boolean): Replayed<FindingKind>['found'] {
    const sim = this.run.sim;
    if (sim.cursor <= step) return [];
    const events = sim.eventsOfStep(step);
    const found: Replayed<FindingKind>['found'][number][] = [];
    for (const event of events) {
      if (event.kind !== 'violation') continue;
      found.push({ id: event.violation, finding: { kind: event.violation, message: event.message, clients: event.clients, atMs: event.atMs } });
    }
    for (const failure of failedProperties(this.properties, events, (name) => known(`property:${name}`))) {
      const { event } = failure;
      found.push({ id: `property:${failure.property}`, finding: { kind: 'property', property: failure.property, message: failure.message, clients: event.clientId === null ? [] : [event.clientId], atMs: event.atMs } });
    }
    return found;
  }
}

async function search(scenario: Scenario, options: SearchOptions): Promise<AsyncSearchResult> {
  const { bounds } = options;
  const invariants = options.invariants ? FINDING_KINDS.filter((k) => options.invariants?.includes(k)) : FINDING_KINDS;
  const properties = options.properties ?? {};
  // Each kind looked for, and each property by name: what the search may find.
  const wanted = [...invariants, ...Object.keys(properties).map((name) => `property:${name}`)];
  const run = new AsyncRun(scenario, { variantId: options.variantId, seed: options.seed, clients: options.clients, redisClient: options.redisClient });
  const space = new AsyncReplaySpace(run, bounds.faults, wanted, properties);
  const engineBounds: ExploreBounds = { faults: bounds.faults, depthMax: bounds.depthMax, stateCountMax: stateCountMaxLimit, horizonMs: null };
  const stopAt = options.stopAt ?? 'first';
  const found = await searchByReplay(space, { bounds: engineBounds, wanted, stopAt, replayCountMax: bounds.runCountMax });
  const cut: SearchCut = { ...found.cut, sampled: false };
  return {
    scenarioId: scenario.id,
    variantId: options.variantId,
    seed: options.seed,
    bounds,
    invariants,
    properties: Object.keys(properties),
    runs: found.transitionsExplored,
    statesExplored: found.statesExplored,
    depthReached: found.depthReached,
    exhaustive: found.exhaustive,
    cut: { depth: cut.depthCutStates > 0, runBudget: cut.stateBudget, stoppedAtViolation: cut.stoppedAtViolation },
    violations: found.violations,
    verdict: { mode: 'bfs', bounds: engineBounds, invariants: wanted, statesExplored: found.statesExplored, transitionsExplored: found.transitionsExplored, exhaustive: found.exhaustive, cut, violations: found.violations, coverage: null },
  };
}
