import { commandText, tokenNamer } from '../../engine/describe';
import { formatReplyShort, type Reply } from '../../engine/redis/reply';
import type { ViolationEvent } from '../../engine/trace';
import { asSimShape, type Match } from './compare';
import type { RealReply } from './connection';
import { timingMarginMinMs, type PlannedCommand, type ReplayPlan } from './plan';
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
function matchMark(match: Match, real: RealReply | null, k: number, command: PlannedCommand): string {
  if (match === 'emulated') return `  (emulated: the request was lost in the simulation (${dropText(command.notSent)}), so nothing was sent; the client's own timeout)`;
  if (command.replyLost !== null && match !== 'different') return `  (the client never saw it: the reply was lost (${dropText(command.replyLost)}))`;
  if (match === 'same' || real === null) return '';
  if (match === 'different') return '  <-- DIVERGES';
  return `  (x${k} = ${real.type === 'integer' ? Number(real.value) * k : '?'} on the run's clock: near)`;
}

export function textReport(plan: ReplayPlan, result: ReplayResult, server: string, tokens: Readonly<Record<string, string>>): string {
  const show = display(plan, tokens);
  const lines: string[] = [];
  const k = plan.timeScale;
  lines.push(`replay ${plan.scenario.id} / ${plan.variant.id}   seed ${plan.seed}   schedule: ${plan.schedule}`);
  const node = result.clusterNode === null ? '' : `   cluster master ${result.clusterNode.display} (slot ${result.clusterNode.slot} of the key prefix's hash tag)`;
  lines.push(`server ${server}${result.serverVersion ? ` (Redis ${result.serverVersion})` : ''}${node}   time scale ${k} (1 s of the run takes ${formatMs(1000 / k)} ms)   key prefix ${plan.keyPrefix}`);
  lines.push(
    plan.margin === null
      ? 'tightest timing margin: none (no command uses a key with an expiry)'
      : `tightest timing margin: ${plan.margin.virtualMs} ms of the run = ${formatMs(plan.margin.virtualMs / k)} ms real (${plan.margin.what ?? `key ${plan.margin.key}`} at t=${plan.commands[plan.margin.commandIndex].atMs}; at least ${timingMarginMinMs} ms real needed)`,
  );
  lines.push('');
  const rows = plan.commands.map((c) => {
    const row = result.rows[c.index];
    return {
      n: String(c.index + 1),
      step: c.step === null ? 'setup' : String(c.step + 1),
      t: String(c.atMs),
      client: plan.nodes === null ? (c.clientId ?? '-') : `${c.clientId ?? '-'} > ${c.node}`,
      command: show.command(c.index),
      sim: show.reply(c.simReply),
      real: row === undefined ? '(not sent)' : row.real === null ? '(not sent)' : show.reply(asSimShape(row.real, c.simReply)),
      mark: row === undefined ? '' : matchMark(row.match, row.real, k, c),
    };
  });
  const header = { n: '#', step: 'step', t: 'time', client: plan.nodes === null ? 'client' : 'client > node', command: 'command', sim: 'simulated', real: 'real', mark: '' };
  const width = (key: 'n' | 'step' | 't' | 'client' | 'command' | 'sim') => Math.min(60, Math.max(header[key].length, ...rows.map((r) => r[key].length)));
  const w = { n: width('n'), step: width('step'), t: width('t'), client: width('client'), command: width('command'), sim: width('sim') };
  const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
  const faultLines = faultLinesBefore(plan, result);
  for (const [i, r] of [header, ...rows].entries()) {
    if (i > 0) for (const line of faultLines.get(i - 1) ?? []) lines.push(`${''.padStart(w.n)}  ${line}`);
    lines.push(
      `${r.n.padStart(w.n)}  ${r.step.padStart(w.step)}  ${r.t.padStart(w.t)}  ${r.client.padEnd(w.client)}  ${cut(r.command, w.command).padEnd(w.command)}  ${cut(r.sim, w.sim).padEnd(w.sim)}  ${r.real}${r.mark}`.trimEnd(),
    );
  }
  for (const line of faultLines.get(plan.commands.length) ?? []) lines.push(`${''.padStart(w.n)}  ${line}`);
  lines.push('');
  if (plan.messages.length > 0 || result.unexpectedMessages.length > 0) {
    lines.push('Pub/Sub messages (each awaited on its subscriber before the next command):');
    plan.messages.forEach((m, i) => {
      const row = result.messages[i];
      const got = row === undefined ? '(not reached)' : row.match ? 'received' : row.real === null ? `not received within the wait  <-- DIVERGES` : `received ${messageText(row.real)}  <-- DIVERGES`;
      lines.push(`  after #${m.afterCommand + 1}  to ${m.connection}  ${messageText(m)}  ${got}`);
    });
    for (const u of result.unexpectedMessages) lines.push(`  unexpected, to ${u.connection}: ${messageText(u.message)}  <-- DIVERGES`);
    lines.push('');
  }
  if (result.divergence !== null && (result.rows[result.divergence]?.match ?? 'different') !== 'different') {
    const c = plan.commands[result.divergence];
    lines.push(`First divergence after #${c.index + 1} (${c.step === null ? 'setup' : `step ${c.step + 1}`}, ${c.clientId ?? 'setup'}, t=${c.atMs}): the Pub/Sub messages it published (above)`);
  } else if (result.divergence !== null) {
    const c = plan.commands[result.divergence];
    const row = result.rows[result.divergence];
    lines.push(
      `First divergence at #${c.index + 1} (${c.step === null ? 'setup' : `step ${c.step + 1}`}, ${c.clientId ?? 'setup'}, t=${c.atMs}): ${show.command(c.index)}`,
      `  simulated: ${show.reply(c.simReply)}`,
      `  real:      ${row.real === null ? '(not sent)' : show.reply(asSimShape(row.real, c.simReply))}`,
      `  sent to the server as: ${plan.commands[c.index].realArgv.map((a) => (a.length > 60 ? `${a.slice(0, 59)}…` : a)).join(' ').replace(/\n/g, ' ')}`,
    );
  } else if (result.error === null) {
    const emulated = result.rows.filter((r) => r.match === 'emulated').length;
    lines.push(
      emulated === 0
        ? `No divergence: all ${plan.commands.length} replies matched.`
        : `No divergence: all ${plan.commands.length - emulated} replies matched; ${emulated} requests the simulation lost were not sent (emulated).`,
    );
  }
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

function dropText(cause: PlannedCommand['notSent']): string {
  switch (cause) {
    case 'partition':
      return 'a partition between the client and the node';
    case 'loss':
      return 'a lost message';
    case 'node-down':
      return 'the node was down';
    case 'not-serving':
      return 'the node had restarted and served no client yet';
    case 'late':
      return 'the client had stopped waiting';
    case 'client-gone':
      return 'the client was gone';
    default:
      return 'unknown';
  }
}

/** The node faults the replay caused and the client-side ones it emulated, by the command they come before. */
function faultLinesBefore(plan: ReplayPlan, result: ReplayResult): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const add = (at: number, line: string) => out.set(at, [...(out.get(at) ?? []), line]);
  const reached = result.rows.length;
  for (const a of plan.nodeActions) {
    const what =
      a.fault === 'node-crash'
        ? `@${a.node} crashes: SHUTDOWN NOSAVE NOW on its server`
        : a.fault === 'node-restart'
          ? `@${a.node} restarts: its server starts again ${plan.nodes?.find((n) => n.id === a.node)?.persistence === 'fsync' ? 'with its append-only file (fsync)' : 'empty (no fsync)'}`
          : a.fault === 'promote'
            ? `@${a.node} is promoted: REPLICAOF NO ONE; the other replicas replicate from it`
            : `@${a.node}'s replication delay becomes ${a.ms ?? 0} ms (its proxy holds the stream ${formatMs((a.ms ?? 0) / plan.timeScale)} ms real)`;
    add(a.beforeCommand, `-- step ${a.step + 1}, t=${a.atMs}: ${what}${a.beforeCommand > reached ? ' (not reached)' : ''}`);
  }
  for (const f of plan.emulatedFaults) {
    const what =
      f.fault === 'partition'
        ? `${f.clientId} and @${f.node} are partitioned: emulated (the replay sends nothing the simulation lost on that link)`
        : f.fault === 'heal'
          ? `${f.clientId} and @${f.node} are healed: emulated`
          : f.fault === 'lose-next'
            ? `${f.clientId} and @${f.node} lose the next message: emulated`
            : `${f.clientId}'s clock jumps: the client's decisions are the recording's`;
    add(f.beforeCommand, `-- step ${f.step + 1}, t=${f.atMs}: ${what}`);
  }
  return out;
}

function messageText(m: { readonly channel: string; readonly pattern: string | null; readonly payload: string }): string {
  return `${m.pattern === null ? '' : `pattern ${m.pattern} `}channel ${m.channel} payload ${JSON.stringify(m.payload)}`;
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
    server: { url: server, version: result.serverVersion, clusterNode: result.clusterNode },
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
        ...(plan.nodes === null ? {} : { node: c.node, notSent: c.notSent, replyLost: c.replyLost }),
        argv: c.argv,
        realArgv: c.realArgv,
        simReply: c.simReply,
        realReply: row?.real ?? null,
        match: row?.match ?? null,
        sentAtRealMs: row === undefined ? null : Math.round(row.sentAtMs * 10) / 10,
        lateRealMs: row === undefined ? null : Math.round(row.lateMs * 10) / 10,
      };
    }),
    messages: plan.messages.map((m, i) => {
      const row = result.messages[i];
      return { afterCommand: m.afterCommand + 1, connection: m.connection, channel: m.channel, pattern: m.pattern, payload: m.payload, real: row?.real ?? null, match: row?.match ?? null };
    }),
    unexpectedMessages: result.unexpectedMessages,
    ...(plan.nodes === null
      ? {}
      : {
          nodes: plan.nodes.map((n) => n.id),
          nodeActions: plan.nodeActions.map((a) => ({ ...a, beforeCommand: a.beforeCommand + 1 })),
          emulatedFaults: plan.emulatedFaults.map((f) => ({ ...f, beforeCommand: f.beforeCommand + 1 })),
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
