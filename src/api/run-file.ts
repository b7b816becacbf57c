/**
 * `runFileOf`: a finished run of async clients (a library's code, yours) as a scenario file the
 * page's Import opens on the timeline. The page cannot run npm packages, so the file is a
 * recording: each client's program is the log of what its code reached in this run (commands with
 * their literal arguments, sleeps, work, enter/leave/write/mark, end). Activities (timers'
 * callbacks, `A·1`) become helper clients of their owner's process (`A_1`), started by whoever
 * created them with the timer's delay (`start` with `delayMs`); a wait on a timer (`await`) becomes
 * a sleep as long as the wait was; timers that did nothing visible are left out.
 *
 * The file is proved before it is returned: its definition is replayed under the rewritten
 * schedule and must give the run's Redis commands and replies, critical sections, writes and
 * violations, in the same order at the same times. If it does not, RunFileError says where they
 * part, rather than a file that shows something else.
 */
import { definitionOfScenario, parseDefinition } from '../definition';
import { formatScenarioFile, parseScenarioFileText, type ScenarioFile } from '../definition/file';
import { activityOwner } from '../engine/activity';
import type { LocalizedText, Step } from '../engine/program';
import type { ClientSpec, Scenario } from '../engine/scenario';
import { formatSchedule, parseSchedule, type Choice } from '../engine/schedule';
import { Simulation } from '../engine/simulation';
import type { TraceEvent } from '../engine/trace';
import { ArgumentError, RunFileError } from './errors';
import { recordingOf } from './recording';
import type { SimulateResult } from './simulate';
import type { RunRecording } from './async/run';

type Activity = RunRecording['activities'][number];

/** Steps that show on the timeline or talk to Redis: an activity with none of them changes nothing the page shows. */
const VISIBLE_OPS: ReadonlySet<Step['op']> = new Set(['command', 'eval', 'transaction', 'waitMessage', 'work', 'sleep', 'hang', 'start', 'enter', 'leave', 'write', 'mark']);

/** Activities that did something visible, or created one that did (an interval's runs create each other). */
function keptActivities(activities: readonly Activity[]): Set<string> {
  const kept = new Set<string>();
  // Each round keeps at least one more activity, or stops.
  for (let round = 0; round <= activities.length; round++) {
    const before = kept.size;
    for (const a of activities) {
      if (kept.has(a.id)) continue;
      const acts = a.log.some((step, i) => i > 0 && (VISIBLE_OPS.has(step.op) || (step.op === 'spawn' && kept.has(step.client))));
      if (acts) kept.add(a.id);
    }
    if (kept.size === before) break;
  }
  return kept;
}

/** `A·3` → `A_3` (or `A_3_`, … when a client already has that name). */
function activityNames(activities: readonly Activity[], kept: ReadonlySet<string>, taken: readonly string[]): Map<string, string> {
  const used = new Set(taken);
  const names = new Map<string, string>();
  for (const a of activities) {
    if (!kept.has(a.id)) continue;
    let name = a.id.replace('·', '_');
    for (let i = 0; used.has(name) && i < 64; i++) name += '_';
    used.add(name);
    names.set(a.id, name);
  }
  return names;
}

/** How long client `id`'s `await` at action `pc` waited in the run, or null when nothing ended it. */
function awaitedMs(events: readonly TraceEvent[], id: string, pc: number): number | null {
  const at = events.findIndex((e) => e.kind === 'block' && e.clientId === id && e.reason === 'await' && e.pc === pc);
  if (at < 0) return null;
  const woke = events.slice(at + 1).find((e) => e.clientId === id && (e.kind === 'wake' || e.kind === 'crash' || e.kind === 'end'));
  return woke?.kind === 'wake' ? woke.atMs - events[at].atMs : null;
}

/** A client's log as a plain program: activities started, cancels dropped, awaits as the waits they were. */
function programOfLog(id: string, log: readonly Step[], names: ReadonlyMap<string, string>, events: readonly TraceEvent[]): Step[] {
  const program: Step[] = [];
  for (let pc = 0; pc < log.length; pc++) {
    const step = log[pc];
    if (step.op === 'spawn') {
      const name = names.get(step.client);
      if (name !== undefined) program.push(step.delayMs > 0 ? { op: 'start', client: name, delayMs: step.delayMs } : { op: 'start', client: name });
    } else if (step.op === 'await') {
      const waitedMs = awaitedMs(events, id, pc);
      // Nothing ended the wait in this run: the client waits for ever.
      if (waitedMs === null) {
        program.push({ op: 'hang' });
        break;
      }
      program.push({ op: 'sleep', durationMs: waitedMs });
    } else if (step.op !== 'cancel') {
      program.push(step);
    }
  }
  return program;
}

const text = (en: string, zh: string): LocalizedText => ({ en, zh });

function describe(result: SimulateResult, scenario: Scenario): { title: LocalizedText; summary: LocalizedText; lesson: LocalizedText } {
  const kinds = result.violations.map((v) => v.kind);
  const seen = kinds.length === 0 ? { en: 'no violation', zh: '没有违规' } : { en: [...new Set(kinds)].join(', '), zh: [...new Set(kinds)].join('、') };
  return {
    title: text(`Recording: ${scenario.title.en}`, `录制：${scenario.title.zh}`),
    summary: text(`One run of your code, recorded (seed ${result.seed}): ${seen.en}.`, `你的代码的一次运行的录制（种子 ${result.seed}）：${seen.zh}。`),
    lesson: text(
      'This is a recording, not the code. Each client\'s program is what its code sent in this one run (Lockstep\'s Node API, runFileOf): ' +
        'the Redis commands with their literal arguments, its sleeps and work, entering and leaving the critical section, in order. ' +
        'Timers in the code (A·1, A·2, …) are helper clients of their owner\'s process (A_1, A_2, …) that start with the timer\'s delay; ' +
        'a wait on a timer is a sleep as long as the wait was. Under the run\'s schedule the timeline shows the commands, replies and violations of the run. ' +
        'Under another schedule the page replays these same commands, not the library\'s code: nothing is decided again (no retry that was not made, no new token), ' +
        'so to explore other schedules run the code itself with simulate or explore.',
      '这是一份录制，不是代码本身。每个客户端的程序就是它的代码在这一次运行中发出的内容（Lockstep 的 Node API，runFileOf）：' +
        '按顺序记录的 Redis 命令及其字面参数、休眠与工作、进入和离开临界区。' +
        '代码里的定时器（A·1、A·2……）成为其所有者进程中的辅助客户端（A_1、A_2……），以定时器的延迟开始；' +
        '等待定时器的地方是一段与当时等待同样长的休眠。在这次运行的调度下，时间线显示的命令、回复和违规与运行中的相同。' +
        '换一个调度，页面重放的仍是这些相同的命令，而不是库的代码：不会重新做任何决定（不会有当时没有发生的重试，也不会有新的令牌），' +
        '所以要探索其他调度，请用 simulate 或 explore 运行代码本身。',
    ),
  };
}

/** The recording's id: the run's scenario id with `-recording`, within the id's bounds. */
function recordingId(scenarioId: string): string {
  const id = scenarioId.toLowerCase().replace(/[^a-z0-9-]/g, '-').replace(/^-+/, '').slice(0, 54) || 'run';
  return `${id}-recording`;
}

/** What the page must show of an event, with client ids as the file names them; null for events it need not match. */
function shownOf(e: TraceEvent, name: (id: string) => string): string | null {
  const who = e.clientId === null ? null : name(e.clientId);
  switch (e.kind) {
    case 'command':
      return JSON.stringify(['command', who, e.atMs, e.argv, e.reply, e.replyAtMs ?? null]);
    case 'reply':
      return JSON.stringify(['reply', who, e.atMs, e.reply]);
    case 'enter':
    case 'leave':
      return JSON.stringify([e.kind, who, e.atMs]);
    case 'write':
      return JSON.stringify(['write', who, e.atMs, e.resource, e.value, e.fencingToken, e.accepted]);
    case 'mark':
      return JSON.stringify(['mark', who, e.atMs, e.counter, e.count]);
    case 'violation':
      return JSON.stringify(['violation', e.violation, e.atMs, e.clients.map(name)]);
    default:
      return null;
  }
}

/** The first event where the replay parts from the run, in words; null when they agree. */
function firstDifference(run: readonly TraceEvent[], replay: readonly TraceEvent[], name: (id: string) => string): string | null {
  const a = run.map((e) => shownOf(e, name)).filter((s): s is string => s !== null);
  const b = replay.map((e) => shownOf(e, (id) => id)).filter((s): s is string => s !== null);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `event ${i + 1} of what the page shows: the run had ${a[i] ?? 'nothing more'}, the recording replays ${b[i] ?? 'nothing more'}`;
  }
  return null;
}

/** The virtual time after each choice of the run. */
function timesAfterChoices(events: readonly TraceEvent[], choiceCount: number): number[] {
  const times: number[] = [];
  let nowMs = 0;
  let at = 0;
  for (let i = 0; i < choiceCount; i++) {
    for (; at < events.length && events[at].step <= i; at++) {
      const e = events[at];
      nowMs = Math.max(nowMs, e.kind === 'clock' ? e.toMs : e.atMs);
    }
    times.push(nowMs);
  }
  return times;
}

/**
 * Replays the recording under the run's choices, each naming the file's clients: a left-out
 * activity's step becomes the clock moving to where the run was after it; a fault on it goes to
 * its owner (the same process).
 */
function replay(scenario: Scenario, result: SimulateResult, name: (id: string) => string | null): { sim: Simulation; choices: Choice[] } {
  const sim = new Simulation(scenario, { variantId: scenario.defaultVariant, seed: result.seed });
  const choices = parseSchedule(result.schedule);
  const times = timesAfterChoices(result.trace.events, choices.length);
  const applied: Choice[] = [];
  const apply = (choice: Choice, index: number) => {
    try {
      sim.apply(choice);
    } catch (error) {
      throw new RunFileError(`choice ${index + 1} of the run's schedule does not fit the recording: ${error instanceof Error ? error.message : String(error)}`);
    }
    applied.push(choice);
  };
  choices.forEach((choice, i) => {
    if (!('clientId' in choice)) return apply(choice, i);
    const clientId = name(choice.clientId);
    if (clientId === null) {
      if (choice.kind === 'step') {
        const ms = times[i] - sim.nowMs;
        if (ms > 0) apply({ kind: 'advance', ms }, i);
        return;
      }
      return apply({ ...choice, clientId: activityOwner(choice.clientId) }, i);
    }
    apply({ ...choice, clientId }, i);
  });
  return { sim, choices: applied };
}

/**
 * The scenario file of a run `simulate` made of async clients: its definition holds each client's
 * recorded program, its run the seed and the schedule (activities renamed `A_1`). Throws
 * RunFileError when the recording would not show the same run.
 */
export function runFileOf(result: SimulateResult): ScenarioFile {
  const recording = typeof result === 'object' && result !== null ? recordingOf(result) : undefined;
  if (recording === undefined) {
    throw new ArgumentError('result', 'the result simulate returned for async clients (the `clients` option), as returned (not a copy); a run of programs alone is a scenario already (builtinDefinition, or the definition you ran)');
  }
  const base = recording.scenario;
  const variant = base.variants[0];
  const events = result.trace.events;
  const kept = keptActivities(recording.activities);
  const names = activityNames(recording.activities, kept, variant.clients.map((c) => c.id));
  const processOf = (id: string) => variant.clients.find((c) => c.id === id)?.process ?? id;
  const own: ClientSpec[] = variant.clients.map(({ hosted, ...c }) => (hosted ? { ...c, program: programOfLog(c.id, c.program, names, events) } : c));
  const helpers: ClientSpec[] = recording.activities
    .filter((a) => kept.has(a.id))
    .map((a) => {
      const creator = events.find((e) => e.kind === 'start' && e.clientId === a.id);
      const by = creator?.kind === 'start' && creator.by !== null ? creator.by : a.owner;
      // Its action 0 is the timer's delay: the `start` step that starts it carries it.
      const program = programOfLog(a.id, a.log, names, events).slice(1);
      return { id: names.get(a.id) as string, program, process: processOf(a.owner), startedBy: names.get(by) ?? by, tokenFrom: a.owner };
    });
  const about = describe(result, base);
  const kinds = [...new Set(result.violations.map((v) => v.kind))];
  const scenario: Scenario = {
    ...base,
    id: recordingId(base.id),
    ...about,
    narration: undefined,
    defaultSchedule: '',
    variants: [{ ...variant, narration: undefined, clients: [...own, ...helpers], expect: { violations: kinds, absent: [] } }],
  };
  const parsed = parseDefinition(definitionOfScenario(scenario));
  if (!parsed.ok) throw new RunFileError(`the recording is not a valid scenario definition: ${parsed.problems[0].path}: ${parsed.problems[0].message}`);
  const name = (id: string) => names.get(id) ?? (id.includes('·') ? null : id);
  const { sim, choices } = replay(parsed.scenario, result, name);
  const difference = firstDifference(events, sim.trace().events, (id) => name(id) ?? id);
  if (difference !== null) throw new RunFileError(`the run cannot be shown as a recording: replaying what its code sent parts from it at ${difference}`);
  const schedule = formatSchedule(choices);
  const file: ScenarioFile = { name: typeof parsed.definition.title === 'string' ? parsed.definition.title : parsed.definition.title?.en ?? parsed.definition.id, run: { variant: variant.id, seed: result.seed, schedule }, definition: { ...parsed.definition, defaultSchedule: schedule } };
  // What the page's Import reads: the file must pass its reader as it is.
  const read = parseScenarioFileText(formatScenarioFile(file));
  if (!read.ok) throw new RunFileError(`the recording does not read as a scenario file: ${read.problems[0].path}: ${read.problems[0].message}`);
  return read.file;
}
