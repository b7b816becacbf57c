/**
 * `npm run sim -- explore`: runs the explorer (src/engine/explore, docs/EXPLORER.md) on one
 * variant or every variant of a scenario and prints its verdicts. Exit code 3 when a violation is
 * found, so a CI job can fail on it; 0 when none was found within the bounds.
 */
import { formatNumber, translator } from '../i18n';
import { BoundsError, CheckpointError, createCheckpointedSearch, explore, exploreShard, formatFaultBudget, mergeShards, parseFaultBudget, ShardError, resolveBounds, verdictLines, withProperties, type BoundsOverrides, type ExploreResult } from '../engine/explore';
import { validateBounds } from '../engine/explore/bounds';
import { findVariant, nodeIdsOf, type FaultBudget, type Scenario } from '../engine/scenario';
import { VIOLATION_KINDS, type ViolationKind } from '../engine/trace';
import { VariantRuns, type VariantOutcome } from '../engine/variant-outcomes';
import { findScenario } from '../scenarios';
import { UsageError, type ExploreCommand, type ExploreMergeCommand } from './args';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readDefinitionFile } from './definition-file';
import { exploreInWorkers } from '../api/explore-workers';

/** Exit code when a violation was found (documented in the help and docs/EXPLORER.md). */
const exitViolationFound = 3;

/** The JSON form of one exploration (the fields the issue and docs/EXPLORER.md promise). */
function exploreJson(result: ExploreResult, elapsedMs: number): Record<string, unknown> {
  const first = result.violations[0] ?? null;
  return {
    scenario: result.scenarioId,
    variant: result.variantId,
    seed: result.seed,
    mode: result.mode,
    bounds: result.bounds,
    invariants: result.invariants,
    exhaustive: result.exhaustive,
    statesExplored: result.statesExplored,
    transitionsExplored: result.transitionsExplored,
    transitionsSkipped: result.transitionsSkipped,
    depthReached: result.depthReached,
    elapsedMs: Math.round(elapsedMs),
    cut: result.cut,
    coverage: result.coverage,
    violation: first === null ? null : { kind: first.kind, schedule: first.schedule, steps: first.steps },
    violations: result.violations.map((v) => ({ kind: v.kind, ...(v.property === undefined ? {} : { property: v.property }), schedule: v.schedule, steps: v.steps, atMs: v.atMs, clients: v.clients, message: v.message, ...(v.walk ? { walk: v.walk } : {}) })),
    pct: result.pct,
    ...(result.properties === undefined
      ? {}
      : { properties: result.properties.map((p) => ({ name: p.name, kind: p.kind, status: p.status, schedule: p.found?.schedule ?? null, steps: p.found?.steps ?? null, exhaustive: p.exhaustive, statesExplored: p.statesExplored })) }),
    verdict: verdictLines(result),
  };
}

/** The command that takes one walk alone again (the same mode, bounds and seeds, that walk's seed). */
function walkReplayCommand(command: ExploreCommand, scenarioId: string, variantId: string, result: ExploreResult, walkSeed: number): string {
  const parts = ['npm run sim -- explore', command.file !== null ? `--file ${command.file}` : scenarioId, `--variant ${variantId}`, `--seed ${result.seed}`, `--mode ${result.mode}`];
  if (result.pct) parts.push(`--bug-depth ${result.pct.bugDepth}`);
  parts.push(`--depth ${result.bounds.depthMax}`, `--faults ${formatFaultBudget(result.bounds.faults)}`);
  if (result.bounds.horizonMs !== null) parts.push(`--horizon-ms ${result.bounds.horizonMs}`);
  parts.push(`--walk-seed ${walkSeed}`, '--walks 1');
  return parts.join(' ');
}

/** One found schedule replayed on every variant (the page's side-by-side, engine/variant-outcomes.ts). */
function compareVariants(scenario: Scenario, seed: number, variantId: string, schedule: string): readonly VariantOutcome[] {
  return new VariantRuns(scenario, seed).update(schedule, variantId).outcomes;
}

function comparisonJson(outcomes: readonly VariantOutcome[]): Record<string, unknown>[] {
  return outcomes.map((o) => ({
    variant: o.variantId,
    stepsApplied: o.stepsApplied,
    stepCount: o.stepCount,
    refused: o.stopDetail,
    violations: o.violations.map((v) => ({ kind: v.kind, step: v.step, message: v.message })),
    firstDivergentStep: o.firstDivergentStep,
  }));
}

function comparisonLines(outcomes: readonly VariantOutcome[], baseVariantId: string, t: ReturnType<typeof translator>): string[] {
  const width = Math.max(...outcomes.map((o) => o.variantId.length));
  return outcomes.map((o) => {
    const what =
      o.stopDetail !== null
        ? t('cliCompareRefused', { step: o.stepsApplied + 1, reason: o.stopDetail })
        : o.violations.length === 0
          ? t('cliCompareClean')
          : o.violations.map((v) => t('cliCompareViolation', { step: v.step + 1, message: v.message })).join('; ');
    const where = o.variantId === baseVariantId ? t('cliCompareBase') : o.firstDivergentStep === null ? t('cliCompareSame') : t('cliCompareDiverges', { step: o.firstDivergentStep + 1 });
    return `${o.variantId.padEnd(width)}  ${what} (${where})`;
  });
}

function boundsOf(command: ExploreCommand, scenario: Scenario): BoundsOverrides {
  const declared = command.faults !== undefined ? parseFaultBudget(command.faults) : resolveBounds(scenario).faults;
  const anyFault = command.stalls !== undefined || command.stallMs !== undefined || command.crashes !== undefined || command.faultClients !== undefined;
  const faults: FaultBudget | undefined = anyFault
    ? {
        ...declared,
        stallCountMax: command.stalls ?? declared.stallCountMax,
        stallLengthsMs: command.stallMs ?? declared.stallLengthsMs,
        crashCountMax: command.crashes ?? declared.crashCountMax,
        ...((command.faultClients ?? declared.clients) ? { clients: command.faultClients ?? declared.clients } : {}),
      }
    : command.faults !== undefined
      ? declared
      : undefined;
  return {
    ...(faults ? { faults } : {}),
    ...(command.depth !== undefined ? { depthMax: command.depth } : {}),
    ...(command.states !== undefined ? { stateCountMax: command.states } : {}),
    ...(command.horizonMs !== undefined ? { horizonMs: command.horizonMs } : {}),
  };
}

function invariantsOf(command: ExploreCommand): ViolationKind[] | undefined {
  if (command.invariants === undefined) return undefined;
  for (const kind of command.invariants) {
    if (!(VIOLATION_KINDS as readonly string[]).includes(kind)) throw new UsageError(`unknown invariant "${kind}" (kinds: ${VIOLATION_KINDS.join(', ')})`, 'explore');
  }
  return command.invariants as ViolationKind[];
}

/** Exit code when a search stopped at its time limit or Ctrl-C and wrote its checkpoint. */
const exitCheckpointed = 4;

/**
 * `--checkpoint <file>`: resumes the search from the file when it exists, runs it in slices until
 * it ends, `--max-seconds` pass or Ctrl-C; then either reports (and removes the file) or writes
 * the file (through a temporary one, so a killed write leaves the old file) and exits 4.
 */
async function exploreWithCheckpoint(command: ExploreCommand, scenario: Scenario, options: Parameters<typeof createCheckpointedSearch>[0], path: string): Promise<number> {
  let existing: { name: string; data: unknown } | undefined;
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    try {
      existing = { name: path, data: JSON.parse(text) as unknown };
    } catch (error) {
      throw new CheckpointError(`${path}: not JSON, or cut short (${(error as Error).message}): delete it to start over`);
    }
  }
  const startedMs = performance.now();
  const { search, write } = createCheckpointedSearch(options, existing);
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
  };
  // on, not once: under tsx a Ctrl-C may arrive twice (the terminal's and the one tsx relays).
  process.on('SIGINT', onInterrupt);
  const deadlineMs = command.maxSeconds === undefined ? Number.POSITIVE_INFINITY : startedMs + command.maxSeconds * 1000;
  try {
    for (;;) {
      // Short slices: a signal is handled between them (and tsx, under npm run sim, gives its child 30 ms to answer one).
      const sliceEndMs = performance.now() + checkpointSliceMs;
      while (!search.done && performance.now() < sliceEndMs) search.run(checkpointSliceTransitions);
      if (search.done) break;
      if (interrupted || performance.now() >= deadlineMs) {
        search.pause();
        search.run();
        if (search.done) break;
        const temporary = `${path}.tmp`;
        writeFileSync(temporary, JSON.stringify(write()));
        renameSync(temporary, path);
        const p = search.progress();
        process.stderr.write(`lockstep: stopped (${interrupted ? 'interrupted' : `${command.maxSeconds} s`}) at ${formatNumber(p.statesExplored, 'en')} states, depth ${p.depth}; checkpoint written to ${path}: run the same command again to go on\n`);
        return exitCheckpointed;
      }
      // Let Ctrl-C reach its handler between slices.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
  rmSync(path, { force: true });
  const result = search.result();
  const one = reportOne(command, scenario, options.variantId as string, result, performance.now() - startedMs);
  process.stdout.write(command.json ? `${JSON.stringify(one.json)}\n` : `${one.lines.join('\n')}\n`);
  return result.violations.length > 0 ? exitViolationFound : 0;
}

/** Transitions between two looks at the clock, and wall time between two looks for Ctrl-C. */
const checkpointSliceTransitions = 20;
const checkpointSliceMs = 10;

export function exploreCommand(command: ExploreCommand): number | Promise<number> {
  const scenario = command.file !== null ? readDefinitionFile(command.file).scenario : findScenario(command.scenario ?? '');
  const variantIds = command.variant === 'all' ? scenario.variants.map((v) => v.id) : [findVariant(scenario, command.variant).id];
  const invariants = invariantsOf(command);
  let bounds: BoundsOverrides;
  try {
    bounds = boundsOf(command, scenario);
    resolveBounds(scenario, bounds);
    for (const variantId of variantIds) {
      const variant = findVariant(scenario, variantId);
      validateBounds(resolveBounds(scenario, bounds), variant.clients.map((c) => c.id), nodeIdsOf(scenario, variant));
    }
  } catch (error) {
    if (error instanceof BoundsError) throw new UsageError(error.message, 'explore');
    throw error;
  }
  if (command.checkpoint !== undefined) {
    return exploreWithCheckpoint(command, scenario, { scenario, variantId: variantIds[0], seed: command.seed, bounds, invariants, reduce: command.reduce }, command.checkpoint);
  }
  if (command.shard !== undefined) {
    const file = exploreShard({ scenario, variantId: variantIds[0], seed: command.seed, bounds, invariants, reduce: command.reduce, shard: command.shard });
    process.stdout.write(`${JSON.stringify(file)}\n`);
    return 0;
  }
  if (command.workers > 1) return exploreOnWorkers(command, scenario, variantIds, { bounds, invariants });
  const outputs: Record<string, unknown>[] = [];
  const text: string[] = [];
  let found = false;
  for (const variantId of variantIds) {
    const startedMs = performance.now();
    const result = explore({
      scenario,
      variantId,
      seed: command.seed,
      bounds,
      invariants,
      mode: command.mode,
      reduce: command.reduce,
      walkSeed: command.walkSeed,
      walkCountMax: command.walks,
      bugDepth: command.bugDepth,
    });
    const one = reportOne(command, scenario, variantId, result, performance.now() - startedMs);
    found ||= result.violations.length > 0;
    outputs.push(one.json);
    if (text.length > 0) text.push('');
    text.push(...one.lines);
  }
  if (command.json) process.stdout.write(`${JSON.stringify(command.variant === 'all' ? outputs : outputs[0])}\n`);
  else process.stdout.write(`${text.join('\n')}\n`);
  return found ? exitViolationFound : 0;
}

/** One variant's result: its JSON object and its lines of text. */
function reportOne(command: ExploreCommand, scenario: Scenario, variantId: string, result: ExploreResult, elapsedMs: number): { json: Record<string, unknown>; lines: string[] } {
  const t = translator('en');
  const text: string[] = [];
  const compared = command.compareVariants ? result.violations.map((v) => ({ schedule: v.schedule, outcomes: compareVariants(scenario, result.seed, variantId, v.schedule) })) : [];
  const json = { ...exploreJson(result, elapsedMs), ...(command.compareVariants ? { compared: compared.map((c) => ({ schedule: c.schedule, variants: comparisonJson(c.outcomes) })) } : {}) };
  text.push(`${scenario.id} / ${variantId}   seed ${result.seed}`);
  if (scenario.explore?.note) text.push(`  ${scenario.explore.note.en}`);
  for (const line of verdictLines(result)) text.push(`  ${line}`);
  const statesPerS = elapsedMs > 0 ? Math.round((result.statesExplored / elapsedMs) * 1000) : 0;
  text.push(
    `  ${t('cliExploreFigures', {
      states: formatNumber(result.statesExplored, 'en'),
      transitions: formatNumber(result.transitionsExplored, 'en'),
      skipped: formatNumber(result.transitionsSkipped, 'en'),
      depth: result.depthReached,
      ms: formatNumber(Math.round(elapsedMs), 'en'),
      rate: formatNumber(statesPerS, 'en'),
    })}`,
  );
  for (const v of result.violations) {
    text.push(`  ${t('cliExploreReplay', { command: `npm run sim -- run ${scenario.id} --variant ${variantId} --seed ${result.seed} --schedule "${v.schedule}"` })}`);
    if (v.walk !== undefined) text.push(`  ${t('cliExploreWalkReplay', { index: v.walk.index, seed: v.walk.seed, command: walkReplayCommand(command, scenario.id, variantId, result, v.walk.seed) })}`);
  }
  for (const c of compared) {
    text.push(`  ${t('cliCompareHeading', { schedule: c.schedule })}`);
    for (const line of comparisonLines(c.outcomes, variantId, t)) text.push(`    ${line}`);
  }
  return { json, lines: text };
}

/** `--workers n`: each variant's breadth-first search on n worker threads (api/explore-workers.ts), printed as one run. */
async function exploreOnWorkers(command: ExploreCommand, scenario: Scenario, variantIds: readonly string[], looked: { bounds: BoundsOverrides; invariants: ViolationKind[] | undefined }): Promise<number> {
  const outputs: Record<string, unknown>[] = [];
  const text: string[] = [];
  let found = false;
  for (const variantId of variantIds) {
    const startedMs = performance.now();
    const options = { variantId, seed: command.seed, bounds: looked.bounds, invariants: looked.invariants, reduce: command.reduce };
    const result = withProperties(await exploreInWorkers({ scenarioId: command.file === null ? scenario.id : null, scenario, options }, command.workers), { ...options, scenario });
    const one = reportOne(command, scenario, variantId, result, performance.now() - startedMs);
    found ||= result.violations.length > 0;
    outputs.push({ ...one.json, workers: command.workers });
    if (text.length > 0) text.push('');
    text.push(...one.lines);
  }
  if (command.json) process.stdout.write(`${JSON.stringify(command.variant === 'all' ? outputs : outputs[0])}\n`);
  else process.stdout.write(`${text.join('\n')}\n`);
  return found ? exitViolationFound : 0;
}

/** `explore merge`: every shard's file in, one verdict out (engine/explore/shard.ts); exit 3 on a violation. */
export function exploreMergeCommand(command: ExploreMergeCommand): number {
  const files = command.files.map((name) => {
    let text: string;
    try {
      text = readFileSync(name, 'utf8');
    } catch (error) {
      throw new ShardError(`${name}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    try {
      return { name, data: JSON.parse(text) as unknown };
    } catch (error) {
      throw new ShardError(`${name}: not JSON, or cut short (${(error as Error).message}): write each shard's whole output to its file`);
    }
  });
  const startedMs = performance.now();
  const result = mergeShards(files);
  const elapsedMs = performance.now() - startedMs;
  if (command.json) process.stdout.write(`${JSON.stringify({ ...exploreJson(result, elapsedMs), shards: files.length })}\n`);
  else {
    const lines = [`${result.scenarioId} / ${result.variantId}   seed ${result.seed}   merged from ${files.length} shards`, ...verdictLines(result).map((l) => `  ${l}`)];
    for (const v of result.violations) lines.push(`  ${translator('en')('cliExploreReplay', { command: `npm run sim -- run ${result.scenarioId} --variant ${result.variantId} --seed ${result.seed} --schedule "${v.schedule}"` })}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return result.violations.length > 0 ? exitViolationFound : 0;
}
