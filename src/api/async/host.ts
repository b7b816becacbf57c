/**
 * The host of async clients (engine/host.ts): it turns an engineer's `async (redis, ctx) => {}`
 * into a hosted client whose program is the log of actions its code reaches. Each redis command,
 * `ctx.sleep` or `ctx.work` is appended as a step and parks the code on a promise; the engine runs
 * the step when the schedule says, and the host settles the promise: with the reply (as soon as the
 * engine produces it) or, for a wait, when the engine asks for the client's next action. Between
 * engine calls the host lets the code run on microtasks only, never real timers or I/O, so a run is
 * the same every time, and code that waits for anything else is caught (UncontrolledAwaitError).
 *
 * Timers are virtual (virtual-globals.ts): `setTimeout`, `setInterval` and `setImmediate` in a
 * client's code create an activity of its process (engine/activity.ts), a hosted client of its own
 * named `A·1`, `A·2`, … in the order the process's code creates them, whose log starts with a sleep
 * of the timer's delay and goes on with what its callback does. Code that awaits a promise only
 * another activity of its process can settle (its own timer) gets an `await` step.
 */
import { activityId, activityOwner } from '../../engine/activity';
import { hash53 } from '../../engine/hash';
import type { ClientHost } from '../../engine/host';
import { renderStep, type Step } from '../../engine/program';
import type { Reply } from '../../engine/redis/reply';
import { nextUint32, seedRng, type RngState } from '../../engine/rng';
import { AsyncClientError, UncontrolledAwaitError, type ActivityInfo } from '../errors';
import { actorStorage, VirtualTimer, type TimerKind, type VirtualActor } from './virtual-globals';

/**
 * Microtask turns an async client may take to reach its next action after it was resumed. Each
 * `await` of a settled promise takes one; client libraries nest a few per command. Code that has
 * not parked after this many awaits something no microtask will settle.
 */
export const parkHopCountMax = 10_000;
/**
 * Microtask turns without reaching an action after which code whose process has timers pending
 * (or other activities running) is taken to await them: it gets an `await` step. Lower than
 * parkHopCountMax because every wait on a timer pays it; library promise chains take tens.
 */
const quietHopCount = 1_000;

type Awaiting = { readonly kind: 'reply'; readonly settle: (reply: Reply) => void } | { readonly kind: 'wake'; readonly settle: () => void } | null;

interface ActionRecord {
  awaiting: Awaiting;
  /** The first reply delivered (a re-applied choice delivers it again: it must be the same). */
  reply: Reply | null;
}

/** An async client's code: it gets an ioredis-like client and its context, and returns when done. */
export type ClientCode<R, C> = (redis: R, ctx: C) => unknown;

/** What kind of code a hosted client runs: a client's own code, or an activity (a timer's callback). */
type CodeKind = 'main' | TimerKind;

interface HostedClient {
  readonly id: string;
  /** The client whose process it runs in (its own id for a client's main code). */
  readonly owner: string;
  readonly kind: CodeKind;
  /** The program the engine reads (ClientSpec.program, or the host's log of an activity): emptied, never replaced, on reset. */
  readonly log: Step[];
  records: ActionRecord[];
  /** Starts the code for one run (when the engine first needs the client's action). */
  readonly start: (generation: number) => unknown;
  state: 'waiting' | 'running' | 'returned' | 'threw';
  error: unknown;
  /** Its seeded random stream (Math.random, crypto): from the run's seed and its id, whatever the interleaving. */
  rng: RngState;
  /** An activity whose timer was cleared before its callback ran: it ends with no actions. */
  cancelled: boolean;
}

/** A virtual timer of the run: each of its runs is an activity (an interval has one per run). */
interface TimerRecord {
  readonly kind: TimerKind;
  readonly callback: (...args: unknown[]) => unknown;
  readonly args: readonly unknown[];
  readonly delayMs: number;
  readonly generation: number;
  /** The activity of its pending run, or null (fired, cleared). */
  current: string | null;
  cleared: boolean;
  object: VirtualTimer | null;
}

/** The client's wall clock: a fixed epoch plus the client's own clock at virtual time `nowMs`. */
export type WallClock = (ownerId: string, nowMs: number) => number;

/** An action from a run that was reset: that run's code is abandoned and must not touch the new one. */
class StaleRunError extends Error {
  override name = 'StaleRunError';
}

/** The code running now (actorStorage's store): one hosted client's code in one run. */
class Actor implements VirtualActor {
  constructor(
    readonly host: AsyncHost,
    readonly generation: number,
    readonly client: HostedClient,
  ) {}
  wallMs(): number {
    return this.host.wallMs(this);
  }
  monotonicMs(): number {
    this.host.checkRun(this.generation, this.client.id);
    return this.host.atMsOf(this.client);
  }
  nextUint32(): number {
    this.host.checkRun(this.generation, this.client.id);
    const [value, next] = nextUint32(this.client.rng);
    this.client.rng = next;
    return value;
  }
  setTimer(kind: TimerKind, callback: (...args: unknown[]) => unknown, args: readonly unknown[], delayMs: number): VirtualTimer {
    return this.host.createTimer(this, kind, callback, args, delayMs);
  }
  clearTimerById(id: number): boolean {
    return this.host.clearTimerById(id);
  }
}

const KIND_WORDS: Record<CodeKind, string> = { main: 'its code', timeout: "a setTimeout's callback", interval: "a setInterval's run", immediate: "a setImmediate's callback" };

export class AsyncHost implements ClientHost {
  private readonly clients = new Map<string, HostedClient>();
  /** Activities of this run (timers' callbacks), by id; forgotten on reset. */
  private activities = new Map<string, HostedClient>();
  private activityCounts = new Map<string, number>();
  private timers = new Map<number, TimerRecord>();
  private nextTimerId = 1;
  /**
   * The virtual time each client's process runs its code at (by owner): when the last reply reached
   * any of its code, or the engine last asked it for an action. Code woken by a timer's callback runs
   * at the callback's time.
   */
  private processAtMs = new Map<string, number>();
  /** Which run the code belongs to: bumped by reset(), so code left over from an earlier run is refused. */
  private generation = 0;

  constructor(
    private readonly seed: number = 1,
    private readonly wallClock: WallClock = (_owner, nowMs) => nowMs,
  ) {}

  /**
   * Registers a client; `start(generation)` calls its code for one run, with objects that pass
   * that generation to `append` (the host calls it when the client arrives).
   */
  add(id: string, start: (generation: number) => unknown): Step[] {
    const client = this.newClient(id, id, 'main', start);
    this.clients.set(id, client);
    return client.log;
  }

  /** Forgets every client's run (their code starts afresh when they arrive again); the logs are emptied in place. */
  reset(): void {
    this.generation += 1;
    for (const c of this.clients.values()) {
      c.log.length = 0;
      c.records = [];
      c.state = 'waiting';
      c.error = null;
      c.rng = this.rngOf(c.id);
    }
    this.processAtMs = new Map();
    this.activities = new Map();
    this.activityCounts = new Map();
    this.timers = new Map();
    this.nextTimerId = 1;
  }

  /** The generation code started now belongs to. */
  get currentGeneration(): number {
    return this.generation;
  }

  /** The virtual time the code running now (client `id`'s, or one of its activities') runs at. */
  nowMs(id: string): number {
    return this.atMsOf(this.actorOf(id));
  }

  atMsOf(c: HostedClient): number {
    return this.processAtMs.get(c.owner) ?? 0;
  }

  program(clientId: string): readonly Step[] | undefined {
    return this.activities.get(clientId)?.log;
  }

  /** This run's activities in the order they were created: whose process, and the log each reached (copies). */
  activityLogs(): { readonly id: string; readonly owner: string; readonly log: readonly Step[] }[] {
    return [...this.activities.values()].map((c) => ({ id: c.id, owner: c.owner, log: [...c.log] }));
  }

  /** Appends an action the code reached. `awaits` says what settles the promise the code gets back. */
  append(generation: number, id: string, step: Step, awaits: 'reply'): Promise<Reply>;
  append(generation: number, id: string, step: Step, awaits: 'wake'): Promise<void>;
  append(generation: number, id: string, step: Step, awaits: null): void;
  append(generation: number, id: string, step: Step, awaits: 'reply' | 'wake' | null): Promise<Reply> | Promise<void> | void {
    this.checkRun(generation, id);
    // The action is the running activity's when client `id`'s redis or ctx is used inside one of its timers.
    const c = this.actorOf(id);
    if (c.state === 'returned' || c.state === 'threw') throw new Error(`${describeClient(c)} used Lockstep after it ${c.state === 'returned' ? 'returned' : 'threw'}`);
    const record: ActionRecord = { awaiting: null, reply: null };
    c.log.push(step);
    c.records.push(record);
    if (awaits === 'reply') return new Promise<Reply>((resolve) => (record.awaiting = { kind: 'reply', settle: resolve }));
    if (awaits === 'wake') return new Promise<void>((resolve) => (record.awaiting = { kind: 'wake', settle: resolve }));
  }

  reply(clientId: string, pc: number, reply: Reply, atMs: number): void {
    const c = this.client(clientId);
    const record = c.records[pc];
    if (!record) throw new Error(`client ${clientId} got a reply for action ${pc}, which it never sent`);
    if (record.reply !== null) {
      if (JSON.stringify(record.reply) !== JSON.stringify(reply)) throw new Error(`client ${clientId}'s action ${pc} got two different replies: the run is not deterministic`);
      return;
    }
    record.reply = reply;
    this.processAtMs.set(c.owner, atMs);
    if (record.awaiting?.kind === 'reply') record.awaiting.settle(reply);
    record.awaiting = null;
  }

  /**
   * The engine needs action `pc` of client `id` at `nowMs`: every earlier action is done. Ends its
   * waits, starts its code if it has not started, and lets microtasks run until the code has
   * appended action `pc` or returned. Code that gets nowhere while its process has timers pending
   * awaits them (an `await` step); without any, it is an UncontrolledAwaitError.
   */
  async park(id: string, pc: number, nowMs: number): Promise<void> {
    const c = this.client(id);
    this.processAtMs.set(c.owner, nowMs);
    for (let i = 0; i < pc && i < c.records.length; i++) {
      const record = c.records[i];
      if (record.awaiting?.kind === 'wake') record.awaiting.settle();
      if (record.awaiting?.kind !== 'reply') record.awaiting = null;
    }
    if (c.state === 'waiting' && c.cancelled) {
      this.finish(c);
      return;
    }
    if (c.state === 'waiting') this.run(c);
    for (let hop = 0; hop < parkHopCountMax; hop++) {
      this.throwIfFailed();
      if (c.log.length > pc) return;
      if (hop >= quietHopCount && this.othersLive(c)) {
        c.log.push({ op: 'await' });
        c.records.push({ awaiting: null, reply: null });
        return;
      }
      await null;
    }
    throw new UncontrolledAwaitError(c.owner, parkHopCountMax, { ...this.activityInfo(c), lastAction: lastActionOf(c) });
  }

  /** Lets every client's code run on what it has been given, without waiting for anyone to park. */
  async settle(hopCount = 64): Promise<void> {
    for (let hop = 0; hop < hopCount; hop++) await null;
    this.throwIfFailed();
  }

  /** Every client's and activity's actions and the replies they got: what its code has seen and done. */
  historyKey(): string {
    return JSON.stringify([...this.clients.values(), ...this.activities.values()].map((c) => [c.id, c.state, c.cancelled, c.log, c.records.map((r) => r.reply)]));
  }

  /** Stops the run at the first client (or activity) whose code threw. */
  throwIfFailed(): void {
    for (const c of [...this.clients.values(), ...this.activities.values()]) {
      if (c.state === 'threw') throw new AsyncClientError(c.owner, c.error, this.activityInfo(c));
    }
  }

  /** Refuses code from a run that has ended (the explorer reset the host since it started). */
  checkRun(generation: number, id: string): void {
    if (generation !== this.generation) throw new StaleRunError(`client ${id}'s code belongs to a run that has ended`);
  }

  wallMs(actor: Actor): number {
    this.checkRun(actor.generation, actor.client.id);
    return this.wallClock(actor.client.owner, this.atMsOf(actor.client));
  }

  /** A timer created by the code running as `actor`: its first run is an activity due in `delayMs`. */
  createTimer(actor: Actor, kind: TimerKind, callback: (...args: unknown[]) => unknown, args: readonly unknown[], delayMs: number): VirtualTimer {
    this.checkRun(actor.generation, actor.client.id);
    const record: TimerRecord = { kind, callback, args: [...args], delayMs: kind === 'immediate' ? 0 : delayMs, generation: this.generation, current: null, cleared: false, object: null };
    const numericId = this.nextTimerId++;
    const timer = new VirtualTimer(numericId, kind, { clear: () => this.clearTimer(record), refresh: () => this.refreshTimer(record) });
    record.object = timer;
    this.timers.set(numericId, record);
    record.current = this.spawnRun(actor.client.id, record);
    return timer;
  }

  clearTimerById(numericId: number): boolean {
    const record = this.timers.get(numericId);
    if (record === undefined) return false;
    this.clearTimer(record);
    return true;
  }

  /** A run of a timer: an activity of the creator's process, whose log starts with the sleep of the delay. */
  private spawnRun(creatorId: string, record: TimerRecord): string {
    const owner = activityOwner(creatorId);
    const n = (this.activityCounts.get(owner) ?? 0) + 1;
    this.activityCounts.set(owner, n);
    const id = activityId(owner, n);
    const activity = this.newClient(id, owner, record.kind, () => this.fire(record, id));
    activity.log.push({ op: 'sleep', durationMs: record.delayMs });
    activity.records.push({ awaiting: null, reply: null });
    this.activities.set(id, activity);
    this.append(this.generation, creatorId, { op: 'spawn', client: id, delayMs: record.delayMs }, null);
    return id;
  }

  /** The timer's callback runs, as activity `id` (an interval first creates its next run, as Node reschedules it). */
  private fire(record: TimerRecord, id: string): unknown {
    record.current = null;
    if (record.kind === 'interval' && !record.cleared) record.current = this.spawnRun(id, record);
    return record.callback.apply(record.object, record.args as unknown[]);
  }

  /** clearTimeout: a run whose callback has not started is cancelled (a `cancel` action of the code that cleared it). */
  private clearTimer(record: TimerRecord): void {
    if (record.generation !== this.generation) return;
    record.cleared = true;
    const pending = record.current === null ? undefined : this.activities.get(record.current);
    record.current = null;
    if (pending === undefined || pending.state !== 'waiting' || pending.cancelled) return;
    pending.cancelled = true;
    const running = this.runningActor();
    if (running !== null) this.append(this.generation, running.client.id, { op: 'cancel', client: pending.id }, null);
  }

  private refreshTimer(record: TimerRecord): void {
    const running = this.runningActor();
    if (running === null || record.generation !== this.generation) throw new Error('refresh() of a Lockstep timer outside the code of its run');
    this.clearTimer(record);
    record.cleared = false;
    record.current = this.spawnRun(running.client.id, record);
  }

  /** The hosted code running now in this run, or null (the test's own code, another run's). */
  private runningActor(): Actor | null {
    const store = actorStorage.getStore();
    return store instanceof Actor && store.host === this && store.generation === this.generation ? store : null;
  }

  /** The client whose code runs now when it is client `id` or one of its activities; else client `id`. */
  private actorOf(id: string): HostedClient {
    const running = this.runningActor();
    if (running !== null && running.client.owner === activityOwner(id)) return running.client;
    return this.client(id);
  }

  /** Another client or activity of c's process may still run code that settles what c awaits. */
  private othersLive(c: HostedClient): boolean {
    for (const x of [...this.clients.values(), ...this.activities.values()]) {
      if (x === c || x.owner !== c.owner) continue;
      if (x.state === 'running' || (x.state === 'waiting' && x.kind !== 'main' && !x.cancelled)) return true;
    }
    return false;
  }

  private activityInfo(c: HostedClient): ActivityInfo | undefined {
    return c.kind === 'main' ? undefined : { id: c.id, what: KIND_WORDS[c.kind] };
  }

  private newClient(id: string, owner: string, kind: CodeKind, start: (generation: number) => unknown): HostedClient {
    return { id, owner, kind, log: [], records: [], start, state: 'waiting', error: null, rng: this.rngOf(id), cancelled: false };
  }

  private rngOf(id: string): RngState {
    return seedRng(hash53(`${this.seed}|${id}`));
  }

  /** The code is done: its log ends. */
  private finish(c: HostedClient): void {
    c.state = 'returned';
    c.log.push({ op: 'end' });
    c.records.push({ awaiting: null, reply: null });
  }

  private run(c: HostedClient): void {
    c.state = 'running';
    const generation = this.generation;
    const actor = new Actor(this, generation, c);
    let code: Promise<unknown>;
    try {
      code = Promise.resolve(actorStorage.run(actor, () => c.start(generation)));
    } catch (error) {
      code = Promise.reject(error);
    }
    code.then(
      () => {
        if (generation !== this.generation) return;
        this.finish(c);
      },
      (error: unknown) => {
        if (generation !== this.generation) return;
        c.state = 'threw';
        c.error = error;
      },
    );
  }

  private client(id: string): HostedClient {
    const c = this.clients.get(id) ?? this.activities.get(id);
    if (!c) throw new Error(`no async client ${id}`);
    return c;
  }
}

function describeClient(c: HostedClient): string {
  return c.kind === 'main' ? `client ${c.id}'s code` : `activity ${c.id} (${KIND_WORDS[c.kind]} in client ${c.owner}'s process)`;
}

/** What the code did last, in words (for the error that says where it stopped). */
function lastActionOf(c: HostedClient): string {
  const last = c.log[c.log.length - 1];
  return last === undefined ? 'nothing yet' : `${renderStep(last, {})} (action ${c.log.length - 1})`;
}
