import { commandText, tokenNamer } from '../../engine/describe';
import { formatReplyShort, type Reply } from '../../engine/redis/reply';
import type { ViolationEvent } from '../../engine/trace';
import { asSimShape } from './compare';
import type { RealReply } from './connection';
import { timingMarginMinMs, type ReplayPlan } from './plan';
import type { ReplayResult } from './run';

/**
 * The replay's report: both timelines side by side, the first divergence, and both runs'
 * violation verdicts. The real run's verdict is what the replay established: a client's choices
 * depend only on the replies it got (and the run's seed and clock), so wherever every reply
 * matched, the real clients did what the simulated ones did and the checkers' findings up to that
 * point hold for the real run too. After a divergence (or where the replay stopped) the real
 * clients would have acted on other replies, which a recorded replay cannot follow: unknown.
 */
interface RealVerdict {
  readonly violations: readonly ViolationEvent[];
  /** Whether the verdict covers the whole run (every reply matched and the replay reached the end). */
  readonly complete: boolean;
  /** The first command (0-based) from which the real run is not known, or null. */
  readonly unknownFromCommand: number | null;
}

function realVerdict(plan: ReplayPlan, result: ReplayResult): RealVerdict {
  const stop = result.divergence ?? (result.rows.length < plan.commands.length ? result.rows.length : null);
  if (stop === null) return { violations: plan.simViolations, complete: true, unknownFromCommand: null };
  const seq = plan.commandSeqs[stop];
  // A violation found before the first command that did not match (by the trace's order) holds.
  const known = seq < 0 ? [] : plan.simViolations.filter((v) => v.seq < seq);
  return { violations: known, complete: false, unknownFromCommand: stop };
}

/** 0 = no divergence, 1 = a divergence, 2 = an error (the replay could not run or finish). */
export function exitCodeOf(result: ReplayResult): 0 | 1 | 2 {
  if (result.error !== null || (result.cleanup !== null && result.cleanup.left.length > 0)) return 2;
  return result.divergence === null ? 0 : 1;
}

interface Display {
  readonly command: (index: number) => string;
  readonly reply: (reply: Reply) => string;
}

function display(plan: ReplayPlan, tokens: Readonly<Record<string, string>>): Display {
  const scripts: Record<string, string> = {};
  for (const [name, spec] of Object.entries({ ...(plan.scenario.scripts ?? {}), ...(plan.variant.scripts ?? {}) })) scripts[spec.source] = name;
  const name = tokenNamer(tokens, 'en');
  return {
    command: (index) => name(commandText(plan.commands[index].argv, scripts)),
    reply: (reply) => name(formatReplyShort(reply)),
  };
}

/** What follows a real reply: nothing when it is the simulated one, the scaled-back value when it is near it. */
function matchMark(match: 'same' | 'near' | 'different', real: RealReply, k: number): string {
  if (match === 'same') return '';
  if (match === 'different') return '  <-- DIVERGES';
  return `  (x${k} = ${real.type === 'integer' ? Number(real.value) * k : '?'} on the run's clock: within ${timingMarginMinMs} ms real)`;
}

export function textReport(plan: ReplayPlan, result: ReplayResult, server: string, tokens: Readonly<Record<string, string>>): string {
  const show = display(plan, tokens);
  const lines: string[] = [];
  const k = plan.timeScale;
  lines.push(`replay ${plan.scenario.id} / ${plan.variant.id}   seed ${plan.seed}   schedule: ${plan.schedule}`);
  lines.push(`server ${server}${result.serverVersion ? ` (Redis ${result.serverVersion})` : ''}   time scale ${k} (1 s of the run takes ${formatMs(1000 / k)} ms)   key prefix ${plan.keyPrefix}`);
  lines.push(
    plan.margin === null
      ? 'tightest timing margin: none (no command uses a key with an expiry)'
      : `tightest timing margin: ${plan.margin.virtualMs} ms of the run = ${formatMs(plan.margin.virtualMs / k)} ms real (key ${plan.margin.key} at t=${plan.commands[plan.margin.commandIndex].atMs}; at least ${timingMarginMinMs} ms real needed)`,
  );
  lines.push('');
  const rows = plan.commands.map((c) => {
    const row = result.rows[c.index];
    return {
      n: String(c.index + 1),
      step: c.step === null ? 'setup' : String(c.step + 1),
      t: String(c.atMs),
      client: c.clientId ?? '-',
      command: show.command(c.index),
      sim: show.reply(c.simReply),
      real: row === undefined ? '(not sent)' : show.reply(asSimShape(row.real, c.simReply)),
      mark: row === undefined ? '' : matchMark(row.match, row.real, k),
    };
  });
  const header = { n: '#', step: 'step', t: 'time', client: 'client', command: 'command', sim: 'simulated', real: 'real', mark: '' };
  const width = (key: 'n' | 'step' | 't' | 'client' | 'command' | 'sim') => Math.min(60, Math.max(header[key].length, ...rows.map((r) => r[key].length)));
  const w = { n: width('n'), step: width('step'), t: width('t'), client: width('client'), command: width('command'), sim: width('sim') };
  const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
  for (const r of [header, ...rows]) {
    lines.push(
      `${r.n.padStart(w.n)}  ${r.step.padStart(w.step)}  ${r.t.padStart(w.t)}  ${r.client.padEnd(w.client)}  ${cut(r.command, w.command).padEnd(w.command)}  ${cut(r.sim, w.sim).padEnd(w.sim)}  ${r.real}${r.mark}`.trimEnd(),
    );
  }
  lines.push('');
  if (result.divergence !== null) {
    const c = plan.commands[result.divergence];
    const row = result.rows[result.divergence];
    lines.push(
      `First divergence at #${c.index + 1} (${c.step === null ? 'setup' : `step ${c.step + 1}`}, ${c.clientId ?? 'setup'}, t=${c.atMs}): ${show.command(c.index)}`,
      `  simulated: ${show.reply(c.simReply)}`,
      `  real:      ${show.reply(asSimShape(row.real, c.simReply))}`,
      `  sent to the server as: ${plan.commands[c.index].realArgv.map((a) => (a.length > 60 ? `${a.slice(0, 59)}…` : a)).join(' ').replace(/\n/g, ' ')}`,
    );
  } else if (result.error === null) lines.push(`No divergence: all ${plan.commands.length} replies matched.`);
  if (result.error !== null) lines.push(`Replay stopped: ${result.error.message}`);
  lines.push('');
  lines.push(verdictLine('Violations in the simulation', plan.simViolations));
  const real = realVerdict(plan, result);
  if (real.complete) lines.push(verdictLine('Violations in the real run (every reply matched, so every client made the same choices)', real.violations));
  else {
    lines.push(verdictLine(`Violations in the real run up to #${(real.unknownFromCommand ?? 0) + 1}`, real.violations));
    lines.push(`  from #${(real.unknownFromCommand ?? 0) + 1} on the real clients would have acted on other replies: unknown`);
  }
  lines.push('');
  lines.push(cleanupLine(result));
  return `${lines.join('\n')}\n`;
}

function verdictLine(title: string, violations: readonly ViolationEvent[]): string {
  if (violations.length === 0) return `${title}: none.`;
  return [`${title}: ${violations.length}`, ...violations.map((v) => `  step ${v.step + 1}  ${v.violation}: ${v.message}`)].join('\n');
}

function cleanupLine(result: ReplayResult): string {
  const c = result.cleanup;
  if (c === null) return 'Nothing was written to the server.';
  if (c.left.length > 0) return `Could not remove the replay's keys (${c.problem ?? 'unknown reason'}); they may still be there: ${c.left.join(', ')}`;
  return `Removed the replay's keys (${c.removed} existed at the end).`;
}

function formatMs(ms: number): string {
  return Number.isInteger(ms) ? String(ms) : ms.toFixed(1);
}

export function jsonReport(plan: ReplayPlan, result: ReplayResult, server: string): unknown {
  const real = realVerdict(plan, result);
  const violation = (v: ViolationEvent) => ({ kind: v.violation, step: v.step, seq: v.seq, atMs: v.atMs, message: v.message, clients: v.clients });
  return {
    scenario: plan.scenario.id,
    variant: plan.variant.id,
    seed: plan.seed,
    schedule: plan.schedule,
    server: { url: server, version: result.serverVersion },
    timeScale: plan.timeScale,
    keyPrefix: plan.keyPrefix,
    margin: plan.margin === null ? null : { ...plan.margin, realMs: plan.margin.virtualMs / plan.timeScale, realMsMin: timingMarginMinMs },
    timeScaleLimit: plan.timeScaleLimit,
    commands: plan.commands.map((c) => {
      const row = result.rows[c.index];
      return {
        n: c.index + 1,
        step: c.step,
        atMs: c.atMs,
        clientId: c.clientId,
        argv: c.argv,
        realArgv: c.realArgv,
        simReply: c.simReply,
        realReply: row?.real ?? null,
        match: row?.match ?? null,
        sentAtRealMs: row === undefined ? null : Math.round(row.sentAtMs * 10) / 10,
        lateRealMs: row === undefined ? null : Math.round(row.lateMs * 10) / 10,
      };
    }),
    firstDivergence: result.divergence === null ? null : result.divergence + 1,
    verdicts: {
      simulation: plan.simViolations.map(violation),
      real: { violations: real.violations.map(violation), complete: real.complete, unknownFromCommand: real.unknownFromCommand === null ? null : real.unknownFromCommand + 1 },
    },
    error: result.error?.message ?? null,
    cleanup: result.cleanup,
    elapsedRealMs: Math.round(result.elapsedMs),
    exitCode: exitCodeOf(result),
  };
}
