import { ProgramError } from './choice-error';

/**
 * Client programs are data: a list of steps a simulated client runs, one scheduling step at a
 * time. Strings may hold `${name}` placeholders, resolved from the client's variables (its `token`,
 * replies saved with `saveAs`, values from `set`) and then the scenario's params (`lockKey`,
 * `ttlMs`...). A nil reply resolves to the empty string.
 */

/** Text in the two languages Lockstep speaks. */
export interface LocalizedText {
  readonly en: string;
  readonly zh: string;
}

/** A condition on client variables. Integer-looking operands compare as integers, others as strings. */
export type Condition =
  | { readonly test: 'nil' | 'notNil' | 'error' | 'notError'; readonly reply: string }
  | { readonly test: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'; readonly left: string; readonly right: string };

interface StepBase {
  /** A name other steps can jump to (`if`, `goto`, `retry`). */
  readonly label?: string;
  /** What this line is for, shown beside it like a code comment. */
  readonly note?: LocalizedText;
}

/** One Redis command. Its reply is saved under `saveAs` (text) for later conditions and templates. */
export interface CommandStep extends StepBase {
  readonly op: 'command';
  readonly argv: readonly string[];
  readonly saveAs?: string;
  /** This command gives the lock up: after it the client no longer believes it holds the lock. */
  readonly releases?: boolean;
  /**
   * The node to send it to (a template: `r${i}`), in a scenario with several nodes. Absent: the
   * scenario's current primary, looked up when the command is sent (after a failover, the promoted node).
   */
  readonly node?: string;
  /**
   * The client's own timeout for this command (ms): without a reply by then, the reply is a
   * client-side timeout error (`clientTimeoutPrefix`). Absent: the client waits as long as it takes.
   */
  readonly timeoutMs?: number;
  /**
   * Send it on another connection of this client, named here (e.g. `pubsub`): a subscribed RESP2
   * connection may only run the subscribe family, so clients such as Redisson keep a separate
   * connection for Pub/Sub. Absent: the client's own connection.
   */
  readonly connection?: string;
}

/**
 * A transaction sent as one pipeline (redis-py's pipeline, ioredis's multi().exec()): MULTI, each
 * command (Redis answers QUEUED), then EXEC, back to back in one scheduling step. EXEC's reply
 * (an array of the commands' replies, or nil when a WATCHed key changed) is saved under `saveAs`.
 * WATCH and the reads that decide what to queue are separate `command` steps before it.
 */
export interface TransactionStep extends StepBase {
  readonly op: 'transaction';
  readonly commands: readonly (readonly string[])[];
  readonly saveAs?: string;
}

/**
 * Wait for a Pub/Sub message on one of this client's subscribed connections (from a channel, or
 * any), at most `timeoutMs` (a number, or a template such as `${ttl}` that resolves to one): the
 * wait ends at the message or at the timeout, whichever is first. A message that arrived before
 * the wait is taken at once (it waited in the connection's buffer). `saveAs` gets the message's
 * payload, or nil at the timeout. A timed wait lasts at least 1 ms (the clock's resolution), so a
 * loop that waits for 0 ms cannot spin forever at one instant.
 */
export interface WaitMessageStep extends StepBase {
  readonly op: 'waitMessage';
  readonly channel?: string;
  readonly timeoutMs: number | string;
  readonly saveAs?: string;
}

/** EVAL of one of the scenario's named scripts: `EVAL <source> numkeys keys... args...`. */
export interface EvalStep extends StepBase {
  readonly op: 'eval';
  readonly script: string;
  readonly keys: readonly string[];
  readonly args: readonly string[];
  readonly saveAs?: string;
  readonly releases?: boolean;
  /** Send EVALSHA instead of EVAL (the script must be cached, else Redis answers NOSCRIPT). */
  readonly bySha?: boolean;
  /** As CommandStep.node. */
  readonly node?: string;
  /** As CommandStep.timeoutMs. */
  readonly timeoutMs?: number;
}

export interface IfStep extends StepBase {
  readonly op: 'if';
  readonly when: Condition;
  readonly goto: string;
}

export interface GotoStep extends StepBase {
  readonly op: 'goto';
  readonly goto: string;
}

/**
 * A local computation: `var = value (+ add)`; `add` makes it integer arithmetic. `jitterMax` adds a
 * seeded random integer in [0, jitterMax] (a jittered TTL, from the run's RNG so it replays).
 */
export interface SetStep extends StepBase {
  readonly op: 'set';
  readonly var: string;
  readonly value: string;
  readonly add?: number;
  readonly jitterMax?: number;
  /** Integer templates subtracted from the value (`elapsedMs = ${nowMs} - ${startMs}`). */
  readonly subtract?: readonly string[];
}

/**
 * Reads the client's own clock (ms, with its drift and jumps) into `saveAs`: what
 * `System.currentTimeMillis()` or a monotonic clock would answer. Redlock measures elapsed time with it.
 */
export interface ClockStep extends StepBase {
  readonly op: 'clock';
  readonly saveAs: string;
}

/**
 * Business logic that takes virtual time. The client is busy until it ends. With `samplesMs`, each
 * run of the step takes one of those durations, drawn from the run's seeded RNG (a latency
 * distribution: mostly fast, sometimes slow); `durationMs` is then their typical value, for display.
 */
export interface WorkStep extends StepBase {
  readonly op: 'work';
  readonly durationMs: number;
  readonly samplesMs?: readonly number[];
}

/** A timer between rounds of a helper's loop, or any deliberate wait: the client sleeps. */
export interface SleepStep extends StepBase {
  readonly op: 'sleep';
  readonly durationMs: number;
}

/**
 * A call that never answers (a blocking call with no timeout, a deadlock): the client waits
 * forever while its process stays alive. A fault of the code itself, so it belongs in the
 * program; faults from outside (GC pauses, crashes) belong to the schedule.
 */
export interface HangStep extends StepBase {
  readonly op: 'hang';
}

/** Starts a helper client of the same process (e.g. a watchdog thread after the lock is taken). */
export interface StartStep extends StepBase {
  readonly op: 'start';
  readonly client: string;
  /**
   * A timer: the helper starts now, waiting this long before its first step (a timer's callback,
   * as a recording of async code has it, api/run-file.ts). Its wait begins at the start, so a
   * stall or other clients running first cannot delay when it is due.
   */
  readonly delayMs?: number;
}

/**
 * Try again later: jump to `goto` after `afterMs` (+ a seeded random jitter in [0, jitterMs]),
 * at most `attemptCountMax` times; after that, fall through to the next step (give up).
 */
export interface RetryStep extends StepBase {
  readonly op: 'retry';
  readonly goto: string;
  readonly afterMs: number;
  readonly jitterMs?: number;
  readonly attemptCountMax: number;
  /** Multiply the wait by this factor per attempt (exponential backoff); 1 when absent. */
  readonly backoffFactor?: number;
  /**
   * Give up instead of waiting when the next attempt would come later than this many ms after
   * the first failure (redis-py's blocking_timeout, Redisson's tryLock waitTime).
   */
  readonly deadlineMs?: number;
}

/** Enter the critical section: from here the client believes it holds the lock. */
export interface EnterStep extends StepBase {
  readonly op: 'enter';
}

export interface LeaveStep extends StepBase {
  readonly op: 'leave';
}

/** Write to a protected resource (a database row, a file). With fencing, older tokens are refused. */
export interface WriteStep extends StepBase {
  readonly op: 'write';
  readonly resource: string;
  readonly value: string;
  readonly fencingToken?: string;
}

/** Record a completed business event against a protected counter (e.g. one item sold). */
export interface MarkStep extends StepBase {
  readonly op: 'mark';
  readonly counter: string;
}

/** Stop the program (the end of the list does the same). */
export interface EndStep extends StepBase {
  readonly op: 'end';
}

/**
 * Hosted clients only (engine/host.ts): the code created an activity of its process (a timer's
 * callback, a run of an interval, a setImmediate). The activity `client` joins the run now, in the
 * creator's process, waiting `delayMs` before its first action (its program's step 0 is that sleep).
 */
export interface SpawnStep extends StepBase {
  readonly op: 'spawn';
  readonly client: string;
  readonly delayMs: number;
}

/** Hosted clients only: the code cleared a timer whose callback has not run: activity `client` ends with no actions. */
export interface CancelStep extends StepBase {
  readonly op: 'cancel';
  readonly client: string;
}

/**
 * Hosted clients only: the code awaits a promise that only another activity of its process can
 * settle (its own timer, an extension running beside it). It waits until another client of its
 * process takes a step; then the host asks its code again.
 */
export interface AwaitStep extends StepBase {
  readonly op: 'await';
}

export type Step =
  | CommandStep
  | EvalStep
  | TransactionStep
  | WaitMessageStep
  | IfStep
  | GotoStep
  | SetStep
  | ClockStep
  | WorkStep
  | SleepStep
  | HangStep
  | StartStep
  | RetryStep
  | EnterStep
  | LeaveStep
  | WriteStep
  | MarkStep
  | EndStep
  | SpawnStep
  | CancelStep
  | AwaitStep;

export type StepOp = Step['op'];

/** Steps that talk to Redis: at most one runs per scheduling step, so every command is a scheduling point. */
export function isRedisStep(step: Step): step is CommandStep | EvalStep | TransactionStep {
  return step.op === 'command' || step.op === 'eval' || step.op === 'transaction';
}

/** Steps that take virtual time: the client blocks until they end. */
export function isTimeStep(step: Step): step is WorkStep | SleepStep {
  return step.op === 'work' || step.op === 'sleep';
}

export type Variables = Readonly<Record<string, string | null>>;

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Resolves `${name}` from client variables, then scenario params. Unknown names are a scenario bug. */
export function resolveTemplate(text: string, vars: Variables, params: Variables): string {
  return text.replace(PLACEHOLDER, (_m, name: string) => {
    if (name in vars) return vars[name] ?? '';
    if (name in params) return params[name] ?? '';
    throw new Error(`unknown placeholder \${${name}} in "${text}"`);
  });
}

/** Substitutes scenario params only, leaving client variables as `${name}`: how a program reads as code. */
export function renderWithParams(text: string, params: Variables): string {
  return text.replace(PLACEHOLDER, (match, name: string) => (name in params ? params[name] ?? '' : match));
}

/** ` @ r${i} (timeout 50 ms)`: where a command goes and how long its client waits, when the step says. */
function routeSuffix(step: CommandStep | EvalStep, params: Variables): string {
  const node = step.node === undefined ? '' : ` @ ${renderWithParams(step.node, params)}`;
  const timeout = step.timeoutMs === undefined ? '' : ` (timeout ${step.timeoutMs} ms)`;
  return node + timeout;
}

function quoteArg(arg: string): string {
  return /^[^\s"']+$/.test(arg) ? arg : JSON.stringify(arg);
}

/** One program line as a learner reads it, e.g. `SET lock ${token} NX PX 5000`. */
export function renderStep(step: Step, params: Variables, scripts: Readonly<Record<string, { source: string }>> = {}): string {
  const p = (t: string) => renderWithParams(t, params);
  switch (step.op) {
    case 'command': {
      const line = step.argv.map((a) => quoteArg(p(a))).join(' ');
      return (step.connection === undefined ? line : `[${step.connection}] ${line}`) + routeSuffix(step, params);
    }
    case 'transaction':
      return ['MULTI', ...step.commands.map((argv) => argv.map((a) => quoteArg(p(a))).join(' ')), 'EXEC'].join('; ');
    case 'waitMessage':
      return `wait for a message${step.channel === undefined ? '' : ` on ${quoteArg(p(step.channel))}`}, at most ${p(String(step.timeoutMs))} ms`;
    case 'eval': {
      const keys = step.keys.map((k) => quoteArg(p(k)));
      const args = step.args.map((a) => quoteArg(p(a)));
      const head = step.bySha ? `EVALSHA sha1(${step.script})` : `EVAL ${step.script}`;
      void scripts;
      return [head, String(step.keys.length), ...keys, ...args].join(' ') + routeSuffix(step, params);
    }
    case 'clock':
      return `${step.saveAs} = my clock (ms)`;
    case 'if':
      return `if ${renderCondition(step.when, params)} goto ${step.goto}`;
    case 'goto':
      return `goto ${step.goto}`;
    case 'set':
      return `${step.var} = ${p(step.value)}${(step.subtract ?? []).map((x) => ` - ${p(x)}`).join('')}${step.add === undefined ? '' : step.add >= 0 ? ` + ${step.add}` : ` - ${-step.add}`}${
        step.jitterMax === undefined ? '' : ` + random(0..${step.jitterMax})`
      }`;
    case 'work':
      return step.samplesMs ? `work ${Math.min(...step.samplesMs)}-${Math.max(...step.samplesMs)} ms (seeded)` : `work ${step.durationMs} ms`;
    case 'sleep':
      return `sleep ${step.durationMs} ms`;
    case 'hang':
      return 'wait for a reply that never comes';
    case 'start':
      return step.delayMs === undefined ? `start ${step.client}` : `start ${step.client} in ${step.delayMs} ms`;
    case 'retry':
      return `retry ${step.goto} after ${step.afterMs} ms${step.jitterMs ? ` (+0..${step.jitterMs} ms jitter)` : ''}${
        step.backoffFactor && step.backoffFactor !== 1 ? ` x${step.backoffFactor} per attempt` : ''
      }, at most ${step.attemptCountMax} times${step.deadlineMs === undefined ? '' : ` and within ${step.deadlineMs} ms`}`;
    case 'enter':
      return 'enter critical section';
    case 'leave':
      return 'leave critical section';
    case 'write':
      return `write ${p(step.value)} to ${step.resource}${step.fencingToken ? ` with fencing token ${p(step.fencingToken)}` : ''}`;
    case 'mark':
      return `${step.counter} += 1`;
    case 'end':
      return 'end';
    case 'spawn':
      return `start activity ${step.client} in ${step.delayMs} ms`;
    case 'cancel':
      return `cancel activity ${step.client}`;
    case 'await':
      return 'await another activity of this process';
  }
}

export function renderCondition(cond: Condition, params: Variables): string {
  switch (cond.test) {
    case 'nil':
      return `${cond.reply} is nil`;
    case 'notNil':
      return `${cond.reply} is not nil`;
    case 'error':
      return `${cond.reply} is an error`;
    case 'notError':
      return `${cond.reply} is not an error`;
    default: {
      const symbol = { eq: '==', ne: '~=', lt: '<', le: '<=', gt: '>', ge: '>=' }[cond.test];
      return `${renderWithParams(cond.left, params)} ${symbol} ${renderWithParams(cond.right, params)}`;
    }
  }
}

/** Evaluates a condition. `replyTypes` holds the RESP type of each saved reply (for nil/error tests). */
export function evaluateCondition(
  cond: Condition,
  vars: Variables,
  replyTypes: Readonly<Record<string, string>>,
  params: Variables,
): boolean {
  switch (cond.test) {
    case 'nil':
      return replyTypes[cond.reply] === 'nil';
    case 'notNil':
      return replyTypes[cond.reply] !== undefined && replyTypes[cond.reply] !== 'nil';
    case 'error':
      return replyTypes[cond.reply] === 'error';
    case 'notError':
      return replyTypes[cond.reply] !== undefined && replyTypes[cond.reply] !== 'error';
    default: {
      const left = resolveTemplate(cond.left, vars, params);
      const right = resolveTemplate(cond.right, vars, params);
      const order = compareValues(left, right);
      switch (cond.test) {
        case 'eq':
          return order === 0;
        case 'ne':
          return order !== 0;
        case 'lt':
          return order < 0;
        case 'le':
          return order <= 0;
        case 'gt':
          return order > 0;
        case 'ge':
          return order >= 0;
      }
    }
  }
}

const INTEGER = /^-?(0|[1-9][0-9]*)$/;

function compareValues(a: string, b: string): number {
  if (INTEGER.test(a) && INTEGER.test(b)) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

export function addInteger(value: string, add: number, addBig = 0n): string {
  if (!INTEGER.test(value)) throw new ProgramError(`set: "${value}" is not an integer`);
  return (BigInt(value) + BigInt(add) + addBig).toString();
}
