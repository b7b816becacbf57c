#!/usr/bin/env -S npx tsx
/**
 * Lockstep's command line: `npm run sim -- <command>`.
 *   list [--json]
 *   run <scenario> [--variant <id>] [--schedule "<text>"] [--seed N] [--json]
 *   console [--json]
 * Errors go to stderr with a non-zero exit; a run that shows a violation is still a success.
 */
import { translator } from '../i18n';
import { eventDescriber, scriptNamesOf } from '../engine/describe';
import { lockState } from '../engine/lock-state';
import { ScenarioError, findVariant } from '../engine/scenario';
import { ScheduleSyntaxError } from '../engine/schedule';
import { ChoiceError } from '../engine/engine';
import { Simulation, defaultSeed } from '../engine/simulation';
import { SCENARIOS, findScenario } from '../scenarios';

const USAGE = `Usage: npm run sim -- <command>
  list [--json]                        scenarios, titles and variants
  run <scenario> [--variant <id>] [--schedule "<text>"] [--seed N] [--json]
                                       run a scenario (its default schedule unless given)
  console [--json]                     a redis-cli-like console on a simulated server
Schedules: "A A +6000 B A" (A = step client A, +N = advance N ms, !A = crash A, A~N = stall A N ms).`;

class UsageError extends Error {}

interface Flags {
  positional: string[];
  values: Record<string, string>;
  booleans: Set<string>;
}

const VALUE_FLAGS = new Set(['variant', 'schedule', 'seed', 'lang']);
const BOOLEAN_FLAGS = new Set(['json', 'help']);

function parseFlags(args: readonly string[]): Flags {
  const flags: Flags = { positional: [], values: {}, booleans: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) {
      flags.positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (BOOLEAN_FLAGS.has(name)) flags.booleans.add(name);
    else if (VALUE_FLAGS.has(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.values[name] = value;
    } else throw new UsageError(`unknown option --${name}`);
  }
  return flags;
}

function list(flags: Flags): number {
  const lang = flags.values.lang === 'zh' ? 'zh' : 'en';
  if (flags.booleans.has('json')) {
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
  for (const s of SCENARIOS) {
    process.stdout.write(`${s.id}  ${s.title[lang]}\n    ${s.summary[lang]}\n`);
    for (const v of s.variants) {
      const tag = v.id === s.defaultVariant ? ' (default)' : '';
      const needs = v.requiresRedis ? ` [Redis ${v.requiresRedis}+]` : '';
      process.stdout.write(`    --variant ${v.id}${tag}${needs}: ${v.title[lang]}\n`);
    }
  }
  return 0;
}

function parseSeed(text: string | undefined): number {
  if (text === undefined) return defaultSeed;
  if (!/^[0-9]+$/.test(text) || Number(text) > 0xffff_ffff) throw new UsageError(`--seed must be an integer from 0 to 4294967295, got "${text}"`);
  return Number(text);
}

function run(flags: Flags): number {
  const [id] = flags.positional;
  if (!id) throw new UsageError('run needs a scenario id (see `list`)');
  const scenario = findScenario(id);
  const variant = findVariant(scenario, flags.values.variant);
  const seed = parseSeed(flags.values.seed);
  const sim = new Simulation(scenario, { variantId: variant.id, seed });
  sim.applySchedule(flags.values.schedule ?? scenario.defaultSchedule);
  const trace = sim.trace();
  if (flags.booleans.has('json')) {
    const out = {
      ...trace,
      finalTimeMs: sim.nowMs,
      keys: sim.inspect(),
      violations: trace.violations.map((v) => ({ kind: v.violation, step: v.step, seq: v.seq, causeSeq: v.causeSeq, atMs: v.atMs, message: v.message, clients: v.clients })),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  }
  // The CLI speaks English, in the catalog's words.
  const t = translator('en');
  const tokens = Object.fromEntries(sim.clients.map((c) => [c.id, c.vars.token ?? '']));
  const describe = eventDescriber({ lang: 'en', tokens, scripts: scriptNamesOf(scenario, variant) });
  const lines: string[] = [];
  lines.push(`${scenario.id} / ${variant.id}   seed ${seed}   schedule: ${trace.schedule}`);
  lines.push(`${scenario.title.en}`);
  lines.push('');
  lines.push(` ${t('cliStepHeader').padStart(4)}  ${t('cliTimeHeader').padStart(6)}  ${t('cliClientHeader').padEnd(6)}  ${t('cliEventHeader')}`);
  for (const event of trace.events) {
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
  }
  lines.push('');
  if (trace.violations.length === 0) lines.push(t('cliNoViolations'));
  else {
    lines.push(t('cliViolations', { n: trace.violations.length }));
    for (const v of trace.violations) lines.push(`  ${t('cliViolationLine', { step: v.step + 1, kind: v.violation, message: v.message })}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    const flags = parseFlags(rest);
    switch (command) {
      case 'list':
        return list(flags);
      case 'run':
        return run(flags);
      case 'console': {
        const { runConsole } = await import('./console');
        return await runConsole({ json: flags.booleans.has('json'), input: process.stdin, output: process.stdout });
      }
      case undefined:
      case 'help':
      case '--help':
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof ScheduleSyntaxError) {
      process.stderr.write(`lockstep: bad schedule: ${error.message}\n${error.pointer()}\n`);
      return 2;
    }
    if (error instanceof UsageError || error instanceof ScenarioError || error instanceof ChoiceError) {
      process.stderr.write(`lockstep: ${error.message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
      return 2;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`lockstep: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
