import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import type * as ExploreApi from '../src/engine/explore';
import type * as MovesApi from '../src/engine/explore/moves';
import type * as RunnerApi from '../src/engine/explore/runner';
import type { Scenario } from '../src/engine/scenario';
import { fmt } from './format';
import { ratio } from './stats';
import type { BenchOptions, BenchPart, Figure, TextTable } from './types';

/**
 * The explorer (issue 13), for the checkout `--src` names:
 * - the race: get-then-del's foreign release, on every bench seed, found by the breadth-first
 *   explorer (time to its first, shortest counterexample) against fast-check's `scheduler()`
 *   driving the same race until it fails: the same moves (each client's steps, the clock's
 *   advance to the next due time, the scenario's stalls and crashes as a nemesis), the same
 *   bounds, each as an actor that asks fast-check for its turn; fast-check picks who goes next;
 * - every scenario variant's table row (tests/unit/explore-lessons.test.ts) at its declared
 *   bounds: states, transitions, time, states/s, and whether it was exhaustive.
 * - every node lesson (scenarios with several Redis nodes; issue 25) at its declared bounds, to the
 *   end of its budget (`stopAt: 'never'`), with the reductions and without (`reduce: false`):
 *   states, transitions, time, states/s, exhaustive or what cut it.
 * One measurement each (a search is deterministic; its time is what it is on this machine now).
 */

const RACE = { scenarioId: 'get-then-del', variantId: 'get-then-del', invariant: 'foreign-release' } as const;
const SEEDS = [1, 2, 3, 4, 5] as const;
/** The random peer gives up after this many runs or this much wall time per seed. */
const PEER_RUN_COUNT_MAX = 100_000;
const PEER_TIME_MS_MAX = 60_000;
/** The `lua` variant's default bound is to be exhausted in under this (issue 13). */
const LUA_GOAL_MS = 1_000;

interface Engine {
  readonly explore: typeof ExploreApi.explore;
  readonly resolveBounds: typeof ExploreApi.resolveBounds;
  readonly MoveTable: typeof MovesApi.MoveTable;
  readonly noFaultsUsed: typeof MovesApi.noFaultsUsed;
  readonly ExploreRunner: typeof RunnerApi.ExploreRunner;
  readonly scenarios: readonly Scenario[];
}

async function importFrom<T>(root: string, file: string): Promise<T> {
  return (await import(pathToFileURL(path.join(root, file)).href)) as T;
}

async function loadExplorer(root: string): Promise<Engine> {
  const api = await importFrom<typeof ExploreApi>(root, 'src/engine/explore/index.ts');
  const moves = await importFrom<typeof MovesApi>(root, 'src/engine/explore/moves.ts');
  const runner = await importFrom<typeof RunnerApi>(root, 'src/engine/explore/runner.ts');
  const registry = await importFrom<{ SCENARIOS: readonly Scenario[] }>(root, 'src/scenarios/index.ts');
  return { explore: api.explore, resolveBounds: api.resolveBounds, MoveTable: moves.MoveTable, noFaultsUsed: moves.noFaultsUsed, ExploreRunner: runner.ExploreRunner, scenarios: registry.SCENARIOS };
}

function scenarioOf(engine: Engine, id: string): Scenario {
  const scenario = engine.scenarios.find((s) => s.id === id);
  if (!scenario) throw new Error(`no scenario "${id}"`);
  return scenario;
}

interface PeerResult {
  readonly found: boolean;
  readonly runs: number;
  readonly elapsedMs: number;
  readonly steps: number | null;
  readonly choicesApplied: number;
}

/**
 * fast-check's scheduler driving the race: one actor per move of the explorer's move table; each
 * waits for fast-check to schedule it, then makes its move if the move applies now. A run ends
 * at a violation, at the explorer's depth or horizon bound, or when no move applies.
 */
async function peerFind(engine: Engine, scenario: Scenario, seed: number): Promise<PeerResult> {
  const runner = new engine.ExploreRunner(scenario, { variantId: RACE.variantId, seed });
  const bounds = engine.resolveBounds(scenario);
  const table = new engine.MoveTable(runner.ctx, runner.state, bounds.faults);
  const root = runner.root;
  const actorMoves = table.movesAt(runner.state, engine.noFaultsUsed, () => null);
  let steps: number | null = null;
  let choicesApplied = 0;
  const start = performance.now();
  const oneRun = async (s: fc.Scheduler): Promise<boolean> => {
    runner.restore(root);
    let used = engine.noFaultsUsed;
    let depth = 0;
    let over = false;
    let violated = false;
    const refusal = (move: Parameters<typeof runner.refusal>[0]) => runner.refusal(move);
    const actor = async (id: string) => {
      while (!over) {
        await s.schedule(Promise.resolve(id));
        if (over) return;
        const legal = table.movesAt(runner.state, used, refusal);
        if (legal.length === 1 && runner.nextDueMs() === null) {
          over = true; // nothing can step and nothing is due: the run is over
          return;
        }
        const mine = legal.find((m) => m.id === id);
        if (mine === undefined) continue;
        if (mine.move.kind === 'next-due' && runner.nextDueMs() === null) continue;
        const transition = runner.apply(mine.move);
        if (transition === null) {
          over = true; // the live state is undefined after a refused apply: end the run
          return;
        }
        choicesApplied += 1;
        used = engine.MoveTable.spend(used, mine.move);
        depth += 1;
        if (transition.events.some((e) => e.kind === 'violation' && e.violation === RACE.invariant)) {
          violated = true;
          steps = depth;
          over = true;
        } else if (depth >= bounds.depthMax || (bounds.horizonMs !== null && runner.state.nowMs > bounds.horizonMs)) {
          over = true;
        }
      }
    };
    const actors = actorMoves.map((m) => actor(m.id));
    await s.waitFor(Promise.all(actors));
    return !violated;
  };
  const out = await fc.check(
    fc.asyncProperty(fc.scheduler(), (s) => oneRun(s)),
    { seed, numRuns: PEER_RUN_COUNT_MAX, endOnFailure: true, interruptAfterTimeLimit: PEER_TIME_MS_MAX, markInterruptAsFailure: false },
  );
  return { found: out.failed, runs: out.numRuns, elapsedMs: performance.now() - start, steps, choicesApplied };
}

interface RaceRow {
  readonly seed: number;
  readonly explorerMs: number;
  readonly explorerStates: number;
  readonly explorerSteps: number | null;
  readonly peer: PeerResult;
}

async function race(engine: Engine): Promise<RaceRow[]> {
  const scenario = scenarioOf(engine, RACE.scenarioId);
  const rows: RaceRow[] = [];
  for (const seed of SEEDS) {
    const start = performance.now();
    const result = engine.explore({ scenario, variantId: RACE.variantId, seed, invariants: [RACE.invariant], stopAt: 'first' });
    const explorerMs = performance.now() - start;
    const found = result.violations.find((v) => v.kind === RACE.invariant);
    const peer = await peerFind(engine, scenario, seed);
    rows.push({ seed, explorerMs, explorerStates: result.statesExplored, explorerSteps: found?.steps ?? null, peer });
  }
  return rows;
}

interface LessonRow {
  readonly id: string;
  readonly elapsedMs: number;
  readonly states: number;
  readonly transitions: number;
  readonly depth: number;
  readonly exhaustive: boolean;
  readonly found: string;
}

function lessons(engine: Engine): LessonRow[] {
  const rows: LessonRow[] = [];
  for (const scenario of engine.scenarios) {
    for (const variant of scenario.variants) {
      const start = performance.now();
      const result = engine.explore({ scenario, variantId: variant.id });
      const elapsedMs = performance.now() - start;
      rows.push({
        id: `${scenario.id}/${variant.id}`,
        elapsedMs,
        states: result.statesExplored,
        transitions: result.transitionsExplored,
        depth: result.depthReached,
        exhaustive: result.exhaustive,
        found: result.violations.map((v) => v.kind).sort().join(', ') || '—',
      });
    }
  }
  return rows;
}

const perSec = (count: number, ms: number) => (ms > 0 ? (count * 1000) / ms : null);

interface NodeLessonRun {
  readonly elapsedMs: number;
  readonly states: number;
  readonly transitions: number;
  readonly exhaustive: boolean;
  readonly cut: string;
}

interface NodeLessonRow {
  readonly id: string;
  readonly reduced: NodeLessonRun;
  readonly full: NodeLessonRun;
}

/** Every variant of every scenario with several nodes, searched to the end of its declared budget, with and without the reductions. */
function nodeLessons(engine: Engine): NodeLessonRow[] {
  const rows: NodeLessonRow[] = [];
  const withNodes = engine.scenarios.filter((s) => s.nodes !== undefined || s.variants.some((v) => v.nodes !== undefined));
  for (const scenario of withNodes) {
    for (const variant of scenario.variants) {
      const measure = (reduce: boolean): NodeLessonRun => {
        const start = performance.now();
        const result = engine.explore({ scenario, variantId: variant.id, reduce, stopAt: 'never' });
        const cut = result.exhaustive
          ? '—'
          : [result.cut.depthCutStates > 0 ? `depth (${result.cut.depthCutStates} states)` : '', result.cut.horizonCutMoves > 0 ? `horizon (${result.cut.horizonCutMoves} moves)` : '', result.cut.stateBudget ? 'state budget' : ''].filter(Boolean).join(', ');
        return { elapsedMs: performance.now() - start, states: result.statesExplored, transitions: result.transitionsExplored, exhaustive: result.exhaustive, cut };
      };
      rows.push({ id: `${scenario.id}/${variant.id}`, reduced: measure(true), full: measure(false) });
    }
  }
  return rows;
}

export async function run(options: BenchOptions): Promise<BenchPart> {
  const engine = await loadExplorer(options.srcRoot);
  const raceRows = await race(engine);
  const lessonRows = lessons(engine);
  const nodeRows = nodeLessons(engine);
  const lua = lessonRows.find((r) => r.id === 'get-then-del/lua');
  const allFirst = raceRows.every((r) => r.explorerSteps !== null && (!r.peer.found || r.explorerMs < r.peer.elapsedMs));

  const figures: Figure[] = [
    ...raceRows.flatMap((r): Figure[] => [
      { id: `explore.race.seed${r.seed}.explorerMs`, value: r.explorerMs, unit: 'ms', better: 'lower', note: `${r.explorerStates} states, ${r.explorerSteps ?? '?'} choices` },
      { id: `explore.race.seed${r.seed}.peerMs`, value: r.peer.found ? r.peer.elapsedMs : null, unit: 'ms', better: 'lower', note: r.peer.found ? `${r.peer.runs} runs, ${r.peer.steps} choices` : `not found in ${r.peer.runs} runs` },
      { id: `explore.race.seed${r.seed}.peerVsExplorer`, value: r.peer.found ? ratio(r.peer.elapsedMs, r.explorerMs) : null, unit: 'x', better: 'higher' },
    ]),
    { id: 'explore.race.explorerFirstOnEverySeed', value: allFirst ? 1 : 0, unit: 'bool', better: 'higher', goal: '= 1', meetsGoal: allFirst },
    ...lessonRows.flatMap((r): Figure[] => [
      { id: `explore.lessons.${r.id.replace('/', '.')}.elapsedMs`, value: r.elapsedMs, unit: 'ms', better: 'lower', ...(r.id === 'get-then-del/lua' ? { goal: `< ${LUA_GOAL_MS}`, meetsGoal: r.elapsedMs < LUA_GOAL_MS && r.exhaustive } : {}) },
      { id: `explore.lessons.${r.id.replace('/', '.')}.states`, value: r.states, unit: 'states', better: 'lower' },
      { id: `explore.lessons.${r.id.replace('/', '.')}.statesPerSec`, value: perSec(r.states, r.elapsedMs), unit: 'states/s', better: 'higher' },
    ]),
    ...nodeRows.flatMap((r): Figure[] => {
      const id = `explore.nodes.${r.id.replace('/', '.')}`;
      return [
        { id: `${id}.elapsedMs`, value: r.reduced.elapsedMs, unit: 'ms', better: 'lower', goal: '< 60000', meetsGoal: r.reduced.elapsedMs < 60_000 && r.reduced.exhaustive },
        { id: `${id}.states`, value: r.reduced.states, unit: 'states', better: 'lower' },
        { id: `${id}.statesUnreduced`, value: r.full.states, unit: 'states', better: 'lower' },
        { id: `${id}.statesPerSec`, value: perSec(r.reduced.states, r.reduced.elapsedMs), unit: 'states/s', better: 'higher' },
      ];
    }),
  ];
  const raceTable: TextTable = {
    title: `Explorer against fast-check's scheduler(): ${RACE.scenarioId}/${RACE.variantId}, time to the first ${RACE.invariant} (the run's seed = fast-check's seed)`,
    columns: ['explorer ms', 'states', 'choices', 'peer ms', 'peer runs', 'choices', 'peer / explorer'],
    rows: raceRows.map((r) => ({
      name: `seed ${r.seed}`,
      cells: [
        fmt(r.explorerMs, 1),
        fmt(r.explorerStates, 0),
        r.explorerSteps === null ? 'none' : fmt(r.explorerSteps, 0),
        r.peer.found ? fmt(r.peer.elapsedMs, 0) : `none (${fmt(r.peer.elapsedMs, 0)})`,
        fmt(r.peer.runs, 0),
        r.peer.steps === null ? '' : fmt(r.peer.steps, 0),
        r.peer.found ? `${fmt(r.peer.elapsedMs / r.explorerMs, 1)}x` : '',
      ],
    })),
    notes: [
      `Explorer: breadth-first, stop at the first ${RACE.invariant} (a shortest schedule). Peer: fast-check ${'scheduler()'}, one actor per move (each client's step, the clock's advance to the next due time, each stall and crash of the scenario's budget), the same depth and horizon; at most ${fmt(PEER_RUN_COUNT_MAX, 0)} runs or ${PEER_TIME_MS_MAX / 1000} s per seed.`,
      `Goal: the explorer's shortest counterexample before the peer finds any, on every seed: ${allFirst ? 'met' : 'NOT met'}.`,
    ],
  };
  const lessonTable: TextTable = {
    title: 'Explorer, every scenario variant at its declared bounds (tests/unit/explore-lessons.test.ts)',
    columns: ['ms', 'states', 'transitions', 'states/s', 'depth', 'exhaustive', 'found'],
    rows: lessonRows.map((r) => ({
      name: r.id,
      cells: [fmt(r.elapsedMs, 1), fmt(r.states, 0), fmt(r.transitions, 0), fmt(perSec(r.states, r.elapsedMs) ?? 0, 0), fmt(r.depth, 0), r.exhaustive ? 'yes' : 'no', r.found],
    })),
    notes: [
      `Goal: get-then-del/lua exhausted in < ${fmt(LUA_GOAL_MS, 0)} ms: ${lua ? `${fmt(lua.elapsedMs, 1)} ms, ${lua.exhaustive ? 'exhaustive' : 'NOT exhaustive'}` : 'no such row'}.`,
      'One search each (deterministic counts; the time is this machine\'s, now).',
    ],
  };
  const nodeTable: TextTable = {
    title: 'Explorer, every node lesson to the end of its declared budget, with and without the reductions (issue 25)',
    columns: ['states', 'unreduced', 'saved', 'transitions', 'unreduced', 'ms', 'unreduced ms', 'states/s', 'exhaustive / cut'],
    rows: nodeRows.map((r) => ({
      name: r.id,
      cells: [
        fmt(r.reduced.states, 0),
        fmt(r.full.states, 0),
        fmt(r.full.states - r.reduced.states, 0),
        fmt(r.reduced.transitions, 0),
        fmt(r.full.transitions, 0),
        fmt(r.reduced.elapsedMs, 0),
        fmt(r.full.elapsedMs, 0),
        fmt(perSec(r.reduced.states, r.reduced.elapsedMs) ?? 0, 0),
        r.reduced.exhaustive ? 'yes' : r.reduced.cut,
      ],
    })),
    notes: [
      "Reductions: the partial-order reduction (saves transitions) and the canonical cluster key (message ids renumbered: saves states). stopAt 'never': the whole declared budget, not only up to the violations.",
      'Goal (issue 25): each exhausted in under 60 s; single-node lessons run at about 3,200-3,700 states/s.',
    ],
  };
  return { tables: [raceTable, lessonTable, nodeTable], figures, details: { race: raceRows, lessons: lessonRows, nodes: nodeRows } };
}
