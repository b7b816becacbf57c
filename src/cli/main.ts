#!/usr/bin/env -S npx tsx
/**
 * Lockstep's command line: `npm run sim -- <command>` (see `help`). Arguments are parsed by
 * args.ts. Errors go to stderr with exit code 2; a run that shows a violation is still a success
 * (`explore` exits 3 when it finds one: cli/explore.ts).
 * A closed output (`| head`) ends the CLI quietly with exit code 0, as command-line tools do.
 */
import { localized, translator, violationText } from '../i18n';
import { eventDescriber, scriptNamesOf } from '../engine/describe';
import { lockState } from '../engine/lock-state';
import { ScenarioError, findVariant, type Scenario, type VariantSpec } from '../engine/scenario';
import type { LocalizedText } from '../engine/program';
import { formatSchedule, parseSchedule, ScheduleSyntaxError } from '../engine/schedule';
import { ChoiceError } from '../engine/engine';
import { Simulation, defaultSeed } from '../engine/simulation';
import { SCENARIOS, findScenario } from '../scenarios';
import { helpText, parseCommandLine, UsageError, type Command } from './args';
import { DefinitionFileError, readDefinitionFile } from './definition-file';
import { exploreCommand, exploreMergeCommand } from './explore';
import { ShardError } from '../engine/explore/shard';
import { CheckpointError } from '../engine/explore/checkpoint';

function list(command: Extract<Command, { name: 'list' }>): number {
  const lang = command.lang;
  if (command.json) {
    const out = SCENARIOS.map((s) => ({
      id: s.id,
      title: s.title,
      summary: s.summary,
      defaultVariant: s.defaultVariant,
      defaultSchedule: s.defaultSchedule,
      variants: s.variants.map((v) => ({ id: v.id, title: v.title, requiresRedis: v.requiresRedis ?? null, expect: v.expect })),
    }));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const lines: string[] = [];
  for (const s of SCENARIOS) {
    lines.push(`${s.id}  ${s.title[lang]}`, `    ${s.summary[lang]}`);
    for (const v of s.variants) {
      const tag = v.id === s.defaultVariant ? ' (default)' : '';
      const needs = v.requiresRedis ? ` [Redis ${v.requiresRedis}+]` : '';
      lines.push(`    --variant ${v.id}${tag}${needs}: ${v.title[lang]}`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

function run(command: Extract<Command, { name: 'run' }>): number {
  const scenario = command.file !== null ? readDefinitionFile(command.file).scenario : findScenario(command.scenario ?? '');
  const variant = findVariant(scenario, command.variant);
  const seed = command.seed ?? defaultSeed;
  const sim = new Simulation(scenario, { variantId: variant.id, seed });
  sim.applySchedule(command.schedule ?? scenario.defaultSchedule);
  const trace = sim.trace();
  if (command.json) {
    const out = {
      ...trace,
      finalTimeMs: sim.nowMs,
      keys: sim.inspect(),
      violations: trace.violations.map((v) => ({ kind: v.violation, step: v.step, seq: v.seq, causeSeq: v.causeSeq, atMs: v.atMs, message: v.message, clients: v.clients })),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  }
  // The CLI speaks the language asked for (English by default), in the catalog's words.
  const lang = command.lang;
  const t = translator(lang);
  const tokens = Object.fromEntries(sim.clients.map((c) => [c.id, c.vars.token ?? '']));
  const describe = eventDescriber({ lang, tokens, scripts: scriptNamesOf(scenario, variant) });
  const story = storyOf(scenario, variant, trace.schedule);
  const lines: string[] = [];
  lines.push(`${scenario.id} / ${variant.id}   seed ${seed}   schedule: ${trace.schedule}`);
  lines.push(`${localized(scenario.title, lang)}`);
  lines.push('');
  lines.push(...wrap(localized(scenario.lesson, lang)).map((line) => `  ${line}`));
  lines.push('');
  lines.push(` ${t('cliStepHeader').padStart(4)}  ${t('cliTimeHeader').padStart(6)}  ${t('cliClientHeader').padEnd(6)}  ${t('cliEventHeader')}`);
  trace.events.forEach((event, i) => {
    const lock = lockState(event.lockAfter);
    const holder = lock.kind === 'held' ? (lock.holder ?? '?') : '';
    const lockText =
      lock.kind === 'free'
        ? t('cliLockFree')
        : event.lockAfter.pttlMs < 0
          ? t('cliLockNoTtl', { holder })
          : t('cliLockTtl', { holder, ms: event.lockAfter.pttlMs });
    lines.push(
      `${String(event.step + 1).padStart(5)}  ${String(event.atMs).padStart(6)}  ${(event.clientId ?? '-').padEnd(6)}  ${describe(event)}${
        event.kind === 'command' ? `   [${t('cliLock', { state: lockText })}]` : ''
      }`,
    );
    // After a step's last event, the scenario's narration of that step (on its own schedule).
    const next = trace.events[i + 1];
    const said = story.get(event.step);
    if (said && (next === undefined || next.step !== event.step)) lines.push(...wrap(localized(said, lang)).map((line) => `${' '.repeat(24)}» ${line}`));
  });
  lines.push('');
  if (trace.violations.length === 0) lines.push(t('cliNoViolations'));
  else {
    lines.push(t('cliViolations', { n: trace.violations.length }));
    for (const v of trace.violations) lines.push(`  ${t('cliViolationLine', { step: v.step + 1, kind: v.violation, message: violationText(v.violation, v.message, lang) })}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** The scenario's narration by step, when the run follows its own schedule (a prefix of it). */
function storyOf(scenario: Scenario, variant: VariantSpec, schedule: string): Map<number, LocalizedText> {
  const story = new Map<number, LocalizedText>();
  const own = formatSchedule(parseSchedule(scenario.defaultSchedule, variant.clients.map((c) => c.id)));
  if (schedule !== own && !own.startsWith(`${schedule} `)) return story;
  for (const n of scenario.narration ?? []) story.set(n.step, n.text);
  for (const n of variant.narration ?? []) story.set(n.step, n.text);
  return story;
}

/** Lines of at most 96 columns (a Chinese character takes two), broken between words or characters. */
function wrap(text: string): string[] {
  const widthMax = 96;
  const lines: string[] = [];
  let line = '';
  let width = 0;
  for (const token of text.match(/[\u2e80-\uffff]|[^\s\u2e80-\uffff]+|\s+/g) ?? []) {
    const tokenWidth = /^[\u2e80-\uffff]$/.test(token) ? 2 : token.length;
    if (width + tokenWidth > widthMax && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = '';
      width = 0;
    }
    if (line === '' && /^\s+$/.test(token)) continue;
    line += token;
    width += tokenWidth;
  }
  if (line.trim() !== '') lines.push(line.trimEnd());
  return lines;
}

async function main(argv: readonly string[]): Promise<number> {
  try {
    const command = parseCommandLine(argv);
    switch (command.name) {
      case 'help':
        (command.exitCode === 0 ? process.stdout : process.stderr).write(`${helpText(command.topic)}\n`);
        return command.exitCode;
      case 'list':
        return list(command);
      case 'run':
        return run(command);
      case 'explore':
        return await exploreCommand(command);
      case 'explore-merge':
        return exploreMergeCommand(command);
      case 'console': {
        const { runConsole } = await import('./console');
        return await runConsole({ json: command.json, input: process.stdin, output: process.stdout });
      }
      case 'check': {
        const { runCheck } = await import('./check');
        return await runCheck(command, { stdout: process.stdout, stderr: process.stderr });
      }
      case 'record': {
        const { runRecord } = await import('./record');
        const interrupt = new AbortController();
        process.once('SIGINT', () => interrupt.abort());
        process.once('SIGTERM', () => interrupt.abort());
        return await runRecord(command, { stderr: process.stderr, signal: interrupt.signal });
      }
      case 'replay': {
        // Loaded on demand: ioredis is only needed here.
        const { runReplay } = await import('./replay');
        const interrupt = new AbortController();
        // Ctrl-C stops the replay, which still removes its keys before exiting.
        process.once('SIGINT', () => interrupt.abort());
        return await runReplay(command, { stdout: process.stdout, stderr: process.stderr, signal: interrupt.signal });
      }
    }
  } catch (error) {
    if (error instanceof ScheduleSyntaxError) {
      process.stderr.write(`lockstep: bad schedule: ${error.message}\n${error.pointer()}\n`);
      return 2;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`lockstep: ${error.message}\n\n${helpText(error.topic)}\n`);
      return 2;
    }
    if (error instanceof ScenarioError || error instanceof ChoiceError || error instanceof DefinitionFileError || error instanceof ShardError || error instanceof CheckpointError || isLockstepError(error)) {
      process.stderr.write(`lockstep: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

/** The Node API's typed errors (loaded on demand with it): a readable message naming the path. */
function isLockstepError(error: unknown): error is Error {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string' && 'path' in error;
}

/** A reader that went away (`| head`) is not an error: stop quietly, as command-line tools do. */
function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

exitQuietlyOnClosedPipe(process.stdout);
exitQuietlyOnClosedPipe(process.stderr);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`lockstep: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
