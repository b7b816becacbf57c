import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Mutex } from 'redis-semaphore';
import type RedlockClass from 'redlock';
import type * as Api from '../src/api';
import type * as LockModule from '../examples/my-lock-tests/src/lock';
import type * as RunModule from '../src/api/async/run';
import type * as SimulateModule from '../src/api/simulate';
import type * as SourceModule from '../src/api/source';
import type * as VirtualGlobalsModule from '../src/api/async/virtual-globals';
import { fmt, fmtRatio } from './format';
import { median, ratio } from './stats';
import type { BenchOptions, BenchPart, Figure, TextTable } from './types';

/**
 * Real lock libraries under the Node API (issue 24), for the checkout `--src` names, side by side
 * in one run:
 * - explore throughput (runs/s, states/s) of async clients: the example's naive lock, a
 *   redis-semaphore Mutex pair, a 3-node Redlock with a node crash, against the engine explorer on
 *   the built-in get-then-del lesson (the reference row);
 * - the cost of virtualization per command: `simulate` of one client awaiting N GETs, through
 *   Lockstep's client and through the real ioredis, each with the virtual globals (what `simulate`
 *   always does) and without them (AsyncRun driven directly: the client code here uses no timer,
 *   clock or randomness, so the patches change nothing but their own cost).
 * Every search runs with stopAt 'all' so each does a fixed amount of work (its whole bounded space,
 * or its run budget) rather than stopping wherever its first finding happens to lie. Repetitions are
 * interleaved across rows (load on this shared machine hits every row alike); figures are medians.
 */

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(benchDir, '..');

/** Timed repetitions per row, after one warm-up (a search cut to WARMUP_RUN_COUNT_MAX runs). */
const REPETITION_COUNT = 3;
const WARMUP_RUN_COUNT_MAX = 40;
/** GETs in the per-command measurement, and its timed repetitions after one warm-up. */
const GET_COUNT = 2000;
const SIMULATE_REPETITION_COUNT = 9;

type Redlock = typeof RedlockClass;
type AsyncClientCode = Api.AsyncClientCode;
type ExploreOptions = Api.ExploreOptions;

interface Loaded {
  readonly api: typeof Api;
  readonly lock: typeof LockModule;
  readonly Redlock: Redlock;
  /** The internals the no-virtual-globals rows drive; null when the checkout lacks them. */
  readonly direct: {
    readonly run: typeof RunModule;
    readonly simulate: typeof SimulateModule;
    readonly source: typeof SourceModule;
    readonly virtualGlobals: typeof VirtualGlobalsModule;
  } | null;
}

async function importFrom<T>(root: string, file: string): Promise<T> {
  return (await import(pathToFileURL(path.join(root, file)).href)) as T;
}

async function load(root: string): Promise<Loaded> {
  const api = await importFrom<typeof Api>(root, 'src/api/index.ts');
  const lock = await importFrom<typeof LockModule>(root, 'examples/my-lock-tests/src/lock.ts');
  // By file: tsconfig's `paths` maps 'redlock' to its .d.ts (for its types), and tsx follows `paths`
  // at run time, so `import Redlock from 'redlock'` would load a class without methods here.
  const Redlock = (await importFrom<{ default: Redlock }>(repoRoot, 'node_modules/redlock/dist/esm/index.js')).default;
  let direct: Loaded['direct'];
  try {
    direct = {
      run: await importFrom<typeof RunModule>(root, 'src/api/async/run.ts'),
      simulate: await importFrom<typeof SimulateModule>(root, 'src/api/simulate.ts'),
      source: await importFrom<typeof SourceModule>(root, 'src/api/source.ts'),
      virtualGlobals: await importFrom<typeof VirtualGlobalsModule>(root, 'src/api/async/virtual-globals.ts'),
    };
  } catch {
    direct = null;
  }
  return { api, lock, Redlock, direct };
}

// The clients. Each library types its client as ioredis; the redis the run gives has what they call.

/** (a) The example's lock (examples/my-lock-tests), as tests/unit/api-async.test.ts runs it. */
const exampleJob =
  (l: Loaded, naive: boolean): AsyncClientCode =>
  (redis, ctx) =>
    l.lock.lockedJob({ lock: new l.lock.RedisLock(redis, 'lock', 5000), token: ctx.token, naive, work: () => ctx.work(2000), onEnter: ctx.enter, onLeave: ctx.leave });

/** (b) redis-semaphore's Mutex, refresh on, one attempt; a lost lock is only noted. */
const mutexJob: AsyncClientCode = async (redis, ctx) => {
  const mutex = new Mutex(redis as unknown as ConstructorParameters<typeof Mutex>[0], 'lock', { lockTimeout: 1000, refreshInterval: 400, acquireAttemptsLimit: 1, onLockLost: () => {} });
  // acquire() with acquireAttemptsLimit 1 rejects when the lock is taken: the client gives up.
  if ((await mutex.acquire().then(() => true, () => false)) === false) return;
  ctx.enter();
  await ctx.work(1000);
  ctx.leave();
  await mutex.release();
};

/** (c) Redlock over the run's three nodes, no retries. */
const redlockJob =
  (Redlock: Redlock): AsyncClientCode =>
  async (_redis, ctx) => {
    const redlock = new Redlock(ctx.nodes as unknown as ConstructorParameters<Redlock>[0], { retryCount: 0 });
    const lock = await redlock.acquire(['lock'], 1000).catch(() => null);
    if (lock === null) return;
    ctx.enter();
    await ctx.work(300);
    ctx.leave();
    await lock.release().catch(() => null);
  };

interface SearchRow {
  readonly id: string;
  readonly name: string;
  readonly what: string;
  readonly options: ExploreOptions;
}

function searchRows(l: Loaded): SearchRow[] {
  const naive = exampleJob(l, true);
  const script = exampleJob(l, false);
  const redlock = redlockJob(l.Redlock);
  const stall5000 = { stalls: 1, stallLengthsMs: [5000] };
  return [
    { id: 'naive', name: '(a) get-then-del, async', what: 'examples lock, releaseNaive; A, B; 1 stall 5000 ms; depth 10', options: { clients: { A: naive, B: naive }, faults: stall5000, depthMax: 10 } },
    { id: 'script', name: "(a') script release, async", what: 'examples lock, release (EVAL); A, B; 1 stall 5000 ms; depth 10 (the "before" row)', options: { clients: { A: script, B: script }, faults: stall5000, depthMax: 10 } },
    {
      id: 'mutex',
      name: '(b) redis-semaphore Mutex',
      what: 'refresh 400/1000 ms, 1 attempt, work 1000; A, B; 1 stall 3000 ms; depth 7',
      options: { clients: { A: mutexJob, B: mutexJob }, lockKey: 'mutex:lock', faults: { stalls: 1, stallLengthsMs: [3000] }, depthMax: 7, runCountMax: 3000 },
    },
    {
      id: 'redlock',
      name: '(c) redlock, 3 nodes',
      what: "retryCount 0, TTL 1000, work 300; A, B; 1 node crash; depth 7",
      options: { nodes: ['r1', 'r2', 'r3'], lockKey: 'lock', clients: { A: redlock, B: redlock }, faults: { nodeCrashes: 1 }, depthMax: 7, runCountMax: 3000 },
    },
    { id: 'engine', name: '(d) engine explorer, get-then-del', what: "explore({ scenario: 'get-then-del' }) at its declared bounds; runs = transitions", options: { scenario: 'get-then-del' } },
  ];
}

interface SearchResult {
  readonly id: string;
  readonly name: string;
  readonly what: string;
  readonly runs: number;
  readonly states: number;
  readonly depth: number;
  readonly exhaustive: boolean;
  /** Why not exhaustive: the depth bound, the run budget, or both (empty when exhaustive). */
  readonly cut: string;
  readonly found: string;
  readonly samplesMs: readonly number[];
  readonly medianMs: number;
}

async function searches(l: Loaded): Promise<SearchResult[]> {
  const rows = searchRows(l);
  const results = rows.map(() => ({ samplesMs: [] as number[], last: null as Api.ExploreResult | null }));
  for (const row of rows) await l.api.explore({ ...row.options, stopAt: 'all', runCountMax: WARMUP_RUN_COUNT_MAX });
  for (let repetition = 0; repetition < REPETITION_COUNT; repetition++) {
    for (const [i, row] of rows.entries()) {
      const start = performance.now();
      const result = await l.api.explore({ ...row.options, stopAt: 'all' });
      results[i].samplesMs.push(performance.now() - start);
      const before = results[i].last;
      if (before !== null && (before.runs !== result.runs || before.statesExplored !== result.statesExplored)) throw new Error(`${row.id}: a search is deterministic, yet its counts changed between repetitions`);
      results[i].last = result;
    }
  }
  return rows.map((row, i) => {
    const r = results[i].last as Api.ExploreResult;
    return {
      id: row.id,
      name: row.name,
      what: row.what,
      runs: r.runs,
      states: r.statesExplored,
      depth: r.depthReached,
      exhaustive: r.exhaustive,
      cut: [r.cut.depth ? 'depth' : '', r.cut.runBudget ? 'budget' : ''].filter(Boolean).join('+'),
      found: r.violations.map((v) => v.kind).sort().join(', ') || '—',
      samplesMs: results[i].samplesMs,
      medianMs: median(results[i].samplesMs),
    };
  });
}

// The cost of virtualization per command.

interface CommandVariant {
  readonly id: string;
  readonly name: string;
  /** One simulate-equivalent run; resolves with the commands the trace holds. */
  readonly once: () => Promise<number>;
}

const getsJob: AsyncClientCode = async (redis) => {
  for (let i = 0; i < GET_COUNT; i++) await redis.get('k');
};

const commandCountOf = (events: readonly { readonly kind: string }[]) => events.filter((e) => e.kind === 'command').length;

function commandVariants(l: Loaded): CommandVariant[] {
  const schedule = Array.from({ length: GET_COUNT }, () => 'A').join(' ');
  const viaSimulate = (redisClient: 'lockstep' | 'ioredis') => async () => commandCountOf((await l.api.simulate({ clients: { A: getsJob }, schedule, redisClient })).trace.events);
  const variants: CommandVariant[] = [
    { id: 'lockstep', name: "simulate, redisClient 'lockstep'", once: viaSimulate('lockstep') },
    { id: 'ioredis', name: "simulate, redisClient 'ioredis'", once: viaSimulate('ioredis') },
  ];
  const d = l.direct;
  if (d === null) return variants;
  // What simulate does for async clients, minus withVirtualGlobals (the patched timers, clock, randomness).
  const bare = (redisClient: 'lockstep' | 'ioredis') => async () => {
    const clients = { A: getsJob };
    const scenario = d.simulate.scenarioOf({ clients });
    const variant = d.source.resolveVariant(scenario, undefined);
    const run = new d.run.AsyncRun(scenario, { variantId: variant.id, seed: d.source.resolveSeed(undefined), clients, redisClient });
    for (const choice of d.source.resolveSchedule(schedule, scenario.defaultSchedule, run.sim.ctx.clientIds, run.sim.ctx.nodeIds)) await run.apply(choice);
    await run.finish();
    return commandCountOf(run.sim.trace().events);
  };
  // The floor: the same number of awaits, of nothing, inside the host's AsyncLocalStorage context.
  const awaitsInContext = async () => {
    await d.virtualGlobals.actorStorage.run(undefined as never, async () => {
      for (let i = 0; i < GET_COUNT; i++) await Promise.resolve(i);
    });
    return GET_COUNT;
  };
  variants.push(
    { id: 'lockstepNoGlobals', name: "no virtual globals, 'lockstep'", once: bare('lockstep') },
    { id: 'ioredisNoGlobals', name: "no virtual globals, 'ioredis'", once: bare('ioredis') },
    { id: 'awaitFloor', name: 'floor: bare awaits in the context', once: awaitsInContext },
  );
  return variants;
}

interface CommandResult {
  readonly id: string;
  readonly name: string;
  readonly commands: number;
  readonly samplesUs: readonly number[];
  readonly medianUsPerCommand: number;
}

async function perCommand(l: Loaded): Promise<CommandResult[]> {
  const variants = commandVariants(l);
  const samples = variants.map(() => [] as number[]);
  const counts = variants.map(() => 0);
  for (const v of variants) await v.once();
  for (let repetition = 0; repetition < SIMULATE_REPETITION_COUNT; repetition++) {
    for (const [i, v] of variants.entries()) {
      const start = performance.now();
      const commands = await v.once();
      const elapsedMs = performance.now() - start;
      if (commands !== GET_COUNT) throw new Error(`${v.id}: expected ${GET_COUNT} commands (or awaits), got ${commands}`);
      counts[i] = commands;
      samples[i].push((elapsedMs * 1000) / commands);
    }
  }
  return variants.map((v, i) => ({ id: v.id, name: v.name, commands: counts[i], samplesUs: samples[i], medianUsPerCommand: median(samples[i]) }));
}

const perSec = (count: number, ms: number) => (ms > 0 ? (count * 1000) / ms : null);

export async function run(options: BenchOptions): Promise<BenchPart> {
  const l = await load(options.srcRoot);
  const searchResults = await searches(l);
  const commandResults = await perCommand(l);

  const engine = searchResults.find((r) => r.id === 'engine') as SearchResult;
  const engineRunsPerSec = perSec(engine.runs, engine.medianMs);
  const engineStatesPerSec = perSec(engine.states, engine.medianMs);
  const lockstep = commandResults.find((r) => r.id === 'lockstep') as CommandResult;

  const figures: Figure[] = [
    ...searchResults.flatMap((r): Figure[] => {
      const runsPerSec = perSec(r.runs, r.medianMs);
      const statesPerSec = perSec(r.states, r.medianMs);
      const base = `libraries.explore.${r.id}`;
      return [
        { id: `${base}.runsPerSec`, value: runsPerSec, unit: 'runs/s', better: 'higher', note: r.what },
        { id: `${base}.statesPerSec`, value: statesPerSec, unit: 'states/s', better: 'higher' },
        { id: `${base}.medianMs`, value: r.medianMs, unit: 'ms', better: 'lower' },
        { id: `${base}.runs`, value: r.runs, unit: 'runs', better: 'higher' },
        { id: `${base}.states`, value: r.states, unit: 'states', better: 'higher' },
        { id: `${base}.exhaustive`, value: r.exhaustive ? 1 : 0, unit: 'bool', better: 'higher' },
        ...(r.id === 'engine' ? [] : [{ id: `${base}.statesPerSecVsEngine`, value: ratio(statesPerSec, engineStatesPerSec), unit: 'x', better: 'higher' as const }]),
      ];
    }),
    ...commandResults.flatMap((r): Figure[] => [
      { id: `libraries.simulate.${r.id}.usPerCommand`, value: r.medianUsPerCommand, unit: 'µs', better: 'lower', note: `${GET_COUNT} GETs, one async client` },
      ...(r.id === 'lockstep' ? [] : [{ id: `libraries.simulate.${r.id}.vsLockstep`, value: ratio(r.medianUsPerCommand, lockstep.medianUsPerCommand), unit: 'x', better: 'lower' as const }]),
    ]),
  ];

  const searchTable: TextTable = {
    title: `Explore throughput: async clients and real lock libraries against the engine explorer (median of ${REPETITION_COUNT}, stopAt 'all')`,
    columns: ['ms', 'runs', 'states', 'runs/s', 'states/s', 'runs/s vs (d)', 'states/s vs (d)', 'depth', 'exhaustive', 'found'],
    rows: searchResults.map((r) => ({
      name: r.name,
      cells: [
        fmt(r.medianMs, 0),
        fmt(r.runs, 0),
        fmt(r.states, 0),
        fmt(perSec(r.runs, r.medianMs), 0),
        fmt(perSec(r.states, r.medianMs), 0),
        fmtRatio(ratio(perSec(r.runs, r.medianMs), engineRunsPerSec)),
        fmtRatio(ratio(perSec(r.states, r.medianMs), engineStatesPerSec)),
        fmt(r.depth, 0),
        r.exhaustive ? 'yes' : `no (${r.cut || '?'})`,
        r.found,
      ],
    })),
    notes: [
      ...searchResults.map((r) => `${r.name}: ${r.what}.`),
      'An async run replays its schedule from time 0 (a suspended async function cannot be copied); the engine explorer restores snapshots, and its "runs" are transitions.',
    ],
  };
  const commandTable: TextTable = {
    title: `The cost of virtualization per command: one async client awaiting ${fmt(GET_COUNT, 0)} GETs, schedule of ${fmt(GET_COUNT, 0)} A (median of ${SIMULATE_REPETITION_COUNT})`,
    columns: ['µs/command', 'vs lockstep', 'runs (µs/command)'],
    rows: commandResults.map((r) => ({
      name: r.name,
      cells: [fmt(r.medianUsPerCommand, 1), fmtRatio(ratio(r.medianUsPerCommand, lockstep.medianUsPerCommand)), r.samplesUs.map((us) => fmt(us, us < 10 ? 1 : 0)).join(' ')],
    })),
    notes: [
      l.direct === null
        ? 'No virtual-globals rows: this checkout lacks src/api/async/run.ts (AsyncRun).'
        : 'No virtual globals: AsyncRun driven directly, as simulate does it minus withVirtualGlobals. The host still runs each client under AsyncLocalStorage (it asks "whose code runs now?"); that part cannot be bypassed without changing host.ts.',
      'Floor: the same number of `await`s of a resolved promise inside actorStorage.run (the host\'s AsyncLocalStorage), no Redis: per await, not per command.',
      'Every run is checked to trace exactly the GETs it sent.',
    ],
  };
  return { tables: [searchTable, commandTable], figures, details: { searches: searchResults, perCommand: commandResults } };
}
