/**
 * The page's run session in the engine worker (session-job.ts), seen from the page as a
 * `SessionHost`: requests go out in order and each answer is applied to a mirror of the log
 * (session/wire.ts), so the page renders without running the engine. A request that takes long
 * (a heavy script) marks the host busy, and Stop ends the worker and starts a new one at the run
 * as it was before.
 */
import type { CommandResult, LoadOutcome, SessionCommand, SessionSpec } from '../../session/commands';
import { LoadTickets } from '../../session/load-tickets';
import { checkLoad } from '../../session/run-spec';
import { SessionMirror, type RunTarget, type SessionReply, type SessionRequest } from '../../session/wire';
import type { EngineJob } from '../worker/engine-worker-protocol';
import type { HostLoad, HostView, SessionHost } from './session-host';

/** What the host needs of a worker (a Web Worker; tests give it one that answers in the same thread). */
export interface SessionWorker {
  postMessage(message: EngineJob): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<SessionReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

export interface SessionWorkerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** After this long without an answer the page offers Stop: a step normally answers within a frame. */
export const sessionBusyAfterMs = 250;

type Waiting = (reply: SessionReply | null) => void;
/** A request before the host numbers it. */
type RequestBody = SessionRequest extends infer R ? (R extends SessionRequest ? Omit<R, 'id'> : never) : never;

const stoppedLoad: LoadOutcome = { ok: false, error: { reason: 'stopped', detail: 'stopped before the run was loaded' } };
const stoppedCommand: CommandResult = { ok: false, refusal: { kind: 'stopped' }, timelineChanged: false };

class WorkerSessionHost implements SessionHost {
  private worker: SessionWorker;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private mirror = new SessionMirror();
  private current: HostView | null = null;
  /** What Stop reloads: the last run loaded (its target, variant and seed). */
  private loaded: { readonly target: RunTarget; readonly spec: SessionSpec } | null = null;
  /** Kept here too: a command is refused on the page while a scenario's body loads, before it crosses. */
  private readonly tickets = new LoadTickets();
  private busy = false;
  private busyTimer: unknown = null;
  private readonly busyListeners: ((busy: boolean) => void)[] = [];
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly start: () => SessionWorker,
    private readonly timers: SessionWorkerTimers,
  ) {
    this.worker = this.started();
  }

  readonly simulation = null;

  load(request: HostLoad, done: (outcome: LoadOutcome, view: HostView | null) => void): void {
    // The checks that need no replay, here and at once (the worker repeats them): only a valid run crosses.
    const checked = checkLoad(request);
    if (!checked.ok) return done(checked, this.current);
    // A run replaces any scenario still loading (as the session does when it installs one).
    this.tickets.supersede();
    // Only plain data crosses: a built-in by its id, anything else by its definition (a scenario of code stays in Node).
    const target: RunTarget = request.definition !== null ? { definition: request.definition } : { scenarioId: request.scenarioId };
    const spec: SessionSpec = { variantId: request.variantId, seed: request.seed, schedule: request.schedule, cursor: request.cursor, cutToFit: request.cutToFit };
    this.send({ kind: 'load', target, spec }, (reply) => {
      if (reply === null) return done(stoppedLoad, null);
      const view = this.apply(reply);
      if (reply.kind === 'failed') return done({ ok: false, error: { reason: 'unknown-scenario', detail: reply.detail } }, view);
      if (reply.kind !== 'load') return;
      if (reply.outcome.ok) this.loaded = { target, spec: { variantId: view.frame.variantId, seed: view.frame.seed } };
      done(reply.outcome, view);
    });
  }

  command(command: SessionCommand, done: (result: CommandResult, view: HostView | null) => void): void {
    const loading = this.tickets.refusal();
    if (loading !== null) return done(loading, null);
    this.send({ kind: 'command', command }, (reply) => {
      if (reply === null) return done(stoppedCommand, null);
      const view = this.apply(reply);
      if (reply.kind === 'failed') return done({ ok: false, refusal: { kind: 'choice', detail: reply.detail, ref: null }, timelineChanged: false }, view);
      if (reply.kind === 'command') done(reply.result, view);
    });
  }

  beginLoading(scenarioId: string): number {
    return this.tickets.begin(scenarioId);
  }
  isCurrentLoad(ticket: number): boolean {
    return this.tickets.isCurrent(ticket);
  }
  endLoading(ticket: number): void {
    this.tickets.end(ticket);
  }

  view(): HostView | null {
    return this.current;
  }

  idle(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  pending(): boolean {
    return this.waiting.size > 0;
  }

  onBusyChange(listener: (busy: boolean) => void): void {
    this.busyListeners.push(listener);
  }

  /** Ends the worker and everything it was asked; a new one loads the run as it was before. */
  stop(done: (view: HostView | null) => void): void {
    if (this.waiting.size === 0) return done(this.current);
    const before = this.current;
    const abandoned = [...this.waiting.values()];
    this.waiting.clear();
    this.worker.onmessage = null;
    this.worker.terminate();
    this.worker = this.started();
    this.mirror = new SessionMirror();
    this.current = null;
    for (const waiting of abandoned) waiting(null);
    const loaded = this.loaded;
    if (loaded === null || before === null) {
      this.settled();
      return done(null);
    }
    const spec: SessionSpec = { ...loaded.spec, schedule: before.frame.schedule, cursor: before.frame.cursor, cutToFit: true };
    this.send({ kind: 'load', target: loaded.target, spec }, (reply) => done(reply === null ? null : this.apply(reply)));
  }

  dispose(): void {
    this.worker.terminate();
  }

  private started(): SessionWorker {
    const worker = this.start();
    worker.onmessage = (event) => this.answer(event.data);
    worker.onerror = () => {
      // The worker script failed (it did not load, or threw outside a request): nothing it was asked will be answered.
      const abandoned = [...this.waiting.values()];
      this.waiting.clear();
      for (const waiting of abandoned) waiting(null);
      this.settled();
    };
    return worker;
  }

  private send(body: RequestBody, waiting: Waiting): void {
    const id = this.nextId++;
    this.waiting.set(id, waiting);
    this.worker.postMessage({ job: 'session', body: { ...body, id } as SessionRequest });
    this.busyTimer ??= this.timers.setTimeout(() => this.setBusy(true), sessionBusyAfterMs);
  }

  private answer(reply: SessionReply): void {
    const waiting = this.waiting.get(reply.id);
    if (waiting === undefined) return;
    this.waiting.delete(reply.id);
    waiting(reply);
    if (this.waiting.size === 0) this.settled();
  }

  private apply(reply: SessionReply): HostView {
    const frame = this.mirror.apply(reply.update);
    this.current = { frame, log: this.mirror.log };
    return this.current;
  }

  /** Nothing is waiting: not busy, and whoever waited for idle goes on. */
  private settled(): void {
    if (this.busyTimer !== null) this.timers.clearTimeout(this.busyTimer);
    this.busyTimer = null;
    this.setBusy(false);
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private setBusy(busy: boolean): void {
    if (busy === this.busy) return;
    this.busy = busy;
    for (const listener of this.busyListeners) listener(busy);
  }
}

/** The run session in a worker `start` makes (the page: the engine worker, engine-worker.ts). */
export function createWorkerSessionHost(start: () => SessionWorker, timers: SessionWorkerTimers): SessionHost {
  return new WorkerSessionHost(start, timers);
}
