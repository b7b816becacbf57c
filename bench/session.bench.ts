import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { createSimStore } from '../src/ui/store/create-sim-store';
import type { SimStore } from '../src/ui/store/store-types';
import { buildLongRun, LONG_RUN, LONG_RUN_APPEND_CLIENT } from './engine/long-run';
import { loadEngine, scenarioById, type EngineSource } from './engine/source';
import { fmt, fmtRatio } from './format';
import { median, p95, ratio } from './stats';
import type { BenchOptions, BenchPart, Figure, TextTable } from './types';

/**
 * A step's cost at 10,000 events against a fresh run, headless (Node, no page, no React), side by
 * side in one run, for the checkout `--src` names (so an older commit's store is measured by the
 * same code):
 * - store: the store's action alone (`stepBack`, `stepForward`, a client's Step or `advanceClock`
 *   at the end), through `createSimStore` as the page's buttons call it;
 * - store + timeline: the same, then what the timeline view does with the published log (the
 *   panel's events, TimelineSource's model and layout): the page's JavaScript minus React;
 * - session: the RunSession command and its frame (checkouts that have src/session).
 * Runs: 10k (bench/engine/long-run.ts: at least 10,000 events, its tail the watchdog W renewing a
 * lease) and fresh: the same recipe without its 6,000 lead-in clock advances, cut at
 * FRESH_STEP_COUNT steps. Both tails are steps of the same kind (W's EVAL, a client's turn) and
 * both are longer than the engine's checkpoint interval (32 steps: a step back replays up to 31),
 * so the ratio is what the history costs, not what a Lua step costs over a plain one or what a
 * run shorter than one checkpoint interval saves. Each figure is the p95 of PRESSES
 * presses (after WARMUP_PRESSES), the median over ROUND_COUNT rounds; runs alternate within a
 * round so a busy machine slows both. **Goal: each 10k p95 at most 1.2x the fresh one.**
 */

const ROUND_COUNT = 3;
const PRESSES = 200;
const WARMUP_PRESSES = 20;
const ADVANCE_MS = 1_000;
const FRESH_STEP_COUNT = 256;
const SLOTS = { commandStepPx: 120, plainStepPx: 44 };

type Action = 'back' | 'forward' | 'append' | 'advance';
const ACTIONS: readonly Action[] = ['back', 'forward', 'append', 'advance'];
type Layer = 'store' | 'store + timeline' | 'session';

interface RunSpec {
  readonly name: 'fresh' | '10k';
  readonly scenarioId: string;
  readonly variantId: string;
  readonly schedule: string;
}

interface Subject {
  readonly length: () => number;
  readonly load: () => void;
  readonly press: Record<Action, () => void>;
}

interface Modules {
  readonly createSimStore: typeof createSimStore;
  // Before src/session: update(events, ids, owners); after: update({ generation, events, eventCount }, ids, owners).
  readonly TimelineSource: new () => { update(log: unknown, ids: readonly string[], owners: Readonly<Record<string, string>>): unknown; layout(model: unknown, slots: typeof SLOTS): unknown };
  readonly RunSession: (new (scenario: unknown) => SessionLike) | null;
}

interface SessionLike {
  load(request: object): { ok: boolean };
  apply(command: object): { ok: boolean };
  frame(): { length: number };
}

async function importFrom<T>(root: string, file: string): Promise<T> {
  return (await import(pathToFileURL(path.join(root, file)).href)) as T;
}

async function loadModules(root: string): Promise<Modules> {
  const store = await importFrom<Pick<Modules, 'createSimStore'>>(root, 'src/ui/store/create-sim-store.ts');
  const source = await importFrom<Pick<Modules, 'TimelineSource'>>(root, 'src/ui/views/timeline-source.ts');
  const sessionFile = 'src/session/run-session.ts';
  const session = existsSync(path.join(root, sessionFile)) ? await importFrom<{ RunSession: Modules['RunSession'] }>(root, sessionFile) : null;
  return { createSimStore: store.createSimStore, TimelineSource: source.TimelineSource, RunSession: session?.RunSession ?? null };
}

/** The client whose Step appends at the end of `spec` (the first that can), or null: the clock instead. */
function appendClient(engine: EngineSource, spec: RunSpec, preferred?: string): string | null {
  const sim = new engine.Simulation(scenarioById(engine, spec.scenarioId), { variantId: spec.variantId });
  sim.applySchedule(spec.schedule);
  const ids = sim.clients.map((c) => c.id);
  const order = preferred !== undefined && ids.includes(preferred) ? [preferred, ...ids.filter((id) => id !== preferred)] : ids;
  return order.find((clientId) => sim.refusal({ kind: 'step', clientId }) === null) ?? null;
}

function storeSubject(modules: Modules, spec: RunSpec, clientId: string | null, withTimeline: boolean): Subject {
  const store: SimStore = modules.createSimStore();
  const feedViews = modules.RunSession !== null;
  let source = new modules.TimelineSource();
  const view = () => {
    if (!withTimeline) return;
    const s = store.getState();
    const log = s.runLog;
    // The panel before the session copied the log's prefix per change; after, it hands the log as it is.
    const input = feedViews ? { generation: log.generation, events: log.events, eventCount: log.eventCount } : log.events.slice(0, log.eventCount);
    source.layout(source.update(input, s.clientIds, s.tokenOwners), SLOTS);
  };
  const s = () => store.getState();
  return {
    length: () => s().length,
    load: () => {
      const result = s().loadRun({ scenarioId: spec.scenarioId, variantId: spec.variantId, schedule: spec.schedule, cursor: null });
      if (!result.ok) throw new Error(`bench: ${spec.name} did not load: ${JSON.stringify(result.error)}`);
      source = new modules.TimelineSource();
      view();
    },
    press: {
      back: () => (s().stepBack(), view()),
      forward: () => (s().stepForward(), view()),
      append: () => (clientId === null ? s().advanceClock(ADVANCE_MS) : s().stepClient(clientId), view()),
      advance: () => (s().advanceClock(ADVANCE_MS), view()),
    },
  };
}

function sessionSubject(modules: Modules, engine: EngineSource, spec: RunSpec, clientId: string | null): Subject {
  const RunSession = modules.RunSession;
  if (RunSession === null) throw new Error('bench: no src/session in this checkout');
  const scenario = scenarioById(engine, spec.scenarioId);
  const session = new RunSession(scenario);
  const apply = (command: object) => (session.apply(command), session.frame());
  return {
    length: () => session.frame().length,
    load: () => {
      if (!session.load({ scenarioId: spec.scenarioId, scenario, variantId: spec.variantId, schedule: spec.schedule, cursor: null }).ok) throw new Error(`bench: ${spec.name} did not load`);
      session.frame();
    },
    press: {
      back: () => apply({ kind: 'stepBack' }),
      forward: () => apply({ kind: 'stepForward' }),
      append: () => apply(clientId === null ? { kind: 'advance', ms: ADVANCE_MS } : { kind: 'step', clientId }),
      advance: () => apply({ kind: 'advance', ms: ADVANCE_MS }),
    },
  };
}

function time(press: () => void): number {
  const start = performance.now();
  press();
  return performance.now() - start;
}

/** PRESSES samples of one action (after warm-up); back / forward sweep from the end, appends reload when refused. */
function samplesOf(subject: Subject, action: Action): number[] {
  const samples: number[] = [];
  subject.load();
  const total = PRESSES + WARMUP_PRESSES;
  for (let press = 0; samples.length < PRESSES && press < total * 4; press++) {
    const keep = press >= WARMUP_PRESSES;
    if (action === 'back' || action === 'forward') {
      // A sweep: back K from the end, then forward K; only `action`'s presses are kept.
      const sweep = Math.max(1, Math.min(PRESSES, subject.length()));
      const phase = Math.floor(press / sweep) % 2 === 0 ? 'back' : 'forward';
      const ms = time(subject.press[phase]);
      if (keep && phase === action) samples.push(ms);
      continue;
    }
    const before = subject.length();
    const ms = time(subject.press[action]);
    if (subject.length() === before) subject.load(); // The client cannot step any more: load again, unmeasured.
    else if (keep) samples.push(ms);
  }
  return samples;
}

type Results = Record<Layer, Record<Action, Record<RunSpec['name'], number[]>>>;

function measure(modules: Modules, engine: EngineSource, runs: readonly RunSpec[], layers: readonly Layer[]): Results {
  const clients = new Map(runs.map((spec) => [spec.name, appendClient(engine, spec, LONG_RUN_APPEND_CLIENT)]));
  const subjects = new Map<string, Subject>();
  const subjectOf = (layer: Layer, spec: RunSpec) => {
    const key = `${layer}/${spec.name}`;
    let subject = subjects.get(key);
    if (!subject) {
      const clientId = clients.get(spec.name) ?? null;
      subject = layer === 'session' ? sessionSubject(modules, engine, spec, clientId) : storeSubject(modules, spec, clientId, layer === 'store + timeline');
      subjects.set(key, subject);
    }
    return subject;
  };
  const results = Object.fromEntries(layers.map((layer) => [layer, Object.fromEntries(ACTIONS.map((a) => [a, { fresh: [], '10k': [] }]))])) as unknown as Results;
  for (let round = 0; round < ROUND_COUNT; round++) {
    for (const layer of layers) {
      for (const action of ACTIONS) {
        for (const spec of runs) results[layer][action][spec.name].push(p95(samplesOf(subjectOf(layer, spec), action)));
      }
    }
  }
  return results;
}

export async function run(options: BenchOptions): Promise<BenchPart> {
  const engine = await loadEngine(options.srcRoot);
  const modules = await loadModules(options.srcRoot);
  const long = buildLongRun(engine, { eventCountMin: 10_000 });
  const short = buildLongRun(engine, { stepCount: FRESH_STEP_COUNT, leadInAdvanceCount: 0 });
  const runs: RunSpec[] = [
    { name: 'fresh', scenarioId: LONG_RUN.scenarioId, variantId: LONG_RUN.variantId, schedule: short.schedule },
    { name: '10k', scenarioId: LONG_RUN.scenarioId, variantId: LONG_RUN.variantId, schedule: long.schedule },
  ];
  const layers: Layer[] = modules.RunSession === null ? ['store', 'store + timeline'] : ['store', 'store + timeline', 'session'];
  const results = measure(modules, engine, runs, layers);

  const figures: Figure[] = [];
  const rows: TextTable['rows'][number][] = [];
  for (const layer of layers) {
    for (const action of ACTIONS) {
      const freshMs = median(results[layer][action].fresh);
      const longMs = median(results[layer][action]['10k']);
      const r = ratio(longMs, freshMs);
      const id = `session.${layer.replace(/ \+ /, '+')}.${action}`;
      figures.push(
        { id: `${id}.fresh.p95Ms`, value: freshMs, unit: 'ms', better: 'lower' },
        { id: `${id}.10k.p95Ms`, value: longMs, unit: 'ms', better: 'lower' },
        { id: `${id}.ratio`, value: r, unit: 'x', better: 'lower', goal: '<= 1.2', ...(r === null ? {} : { meetsGoal: r <= 1.2 }) },
      );
      rows.push({ name: `${layer}: ${action}`, cells: [fmt(freshMs, 3), fmt(longMs, 3), fmtRatio(r), r === null ? '' : r <= 1.2 ? 'yes' : 'no'] });
    }
  }
  const table: TextTable = {
    title: `A step at ${fmt(long.eventCount, 0)} events against a fresh run, headless (${engine.root === process.cwd() ? 'this checkout' : engine.root}): p95 ms, median of ${ROUND_COUNT} rounds of ${PRESSES} presses`,
    columns: ['fresh p95 ms', '10k p95 ms', '10k / fresh', '<= 1.2x'],
    rows,
    notes: [
      `${LONG_RUN.scenarioId}/${LONG_RUN.variantId}: fresh without the lead-in (${fmt(short.stepCount, 0)} steps, ${fmt(short.eventCount, 0)} events), 10k the long run (${fmt(long.stepCount, 0)} steps, ${fmt(long.eventCount, 0)} events).`,
      `append: ${LONG_RUN_APPEND_CLIENT}'s Step at the end (the run loaded again, unmeasured, when it can step no more); advance: the clock by 1,000 ms. store + timeline adds the timeline view's model and layout update.`,
    ],
  };
  return { tables: [table], figures, details: { roundCount: ROUND_COUNT, presses: PRESSES, freshRun: { stepCount: short.stepCount, eventCount: short.eventCount }, longRun: { stepCount: long.stepCount, eventCount: long.eventCount } } };
}
