/**
 * The host of async clients (engine/host.ts): it turns an engineer's `async (redis, ctx) => {}`
 * into a hosted client whose program is the log of actions its code reaches. Each redis command,
 * `ctx.sleep` or `ctx.work` is appended as a step and parks the code on a promise; the engine runs
 * the step when the schedule says, and the host settles the promise: with the reply (as soon as the
 * engine produces it) or, for a wait, when the engine asks for the client's next action. Between
 * engine calls the host lets the code run on microtasks only, never timers or I/O, so a run is the
 * same every time, and code that waits for anything else is caught (UncontrolledAwaitError).
 */
import type { ClientHost } from '../../engine/host';
import type { Step } from '../../engine/program';
import type { Reply } from '../../engine/redis/reply';
import { AsyncClientError, UncontrolledAwaitError } from '../errors';

/**
 * Microtask turns an async client may take to reach its next action after it was resumed. Each
 * `await` of a settled promise takes one; client libraries nest a few per command. Code that has
 * not parked after this many awaits something no microtask will settle.
 */
export const parkHopCountMax = 10_000;

type Awaiting = { readonly kind: 'reply'; readonly settle: (reply: Reply) => void } | { readonly kind: 'wake'; readonly settle: () => void } | null;

interface ActionRecord {
  awaiting: Awaiting;
  /** The first reply delivered (a re-applied choice delivers it again: it must be the same). */
  reply: Reply | null;
}

/** An async client's code: it gets an ioredis-like client and its context, and returns when done. */
export type ClientCode<R, C> = (redis: R, ctx: C) => unknown;

interface HostedClient {
  readonly id: string;
  /** The program the engine reads (ClientSpec.program of a hosted client): emptied, never replaced, on reset. */
  readonly log: Step[];
  records: ActionRecord[];
  /** Starts the code for one run (when the engine first needs the client's action). */
  readonly start: (generation: number) => unknown;
  state: 'waiting' | 'running' | 'returned' | 'threw';
  error: unknown;
  /** The virtual time its code runs at: when its last reply arrived or its last wait ended. */
  atMs: number;
}

/** An action from a run that was reset: that run's code is abandoned and must not touch the new one. */
class StaleRunError extends Error {
  override name = 'StaleRunError';
}

export class AsyncHost implements ClientHost {
  private readonly clients = new Map<string, HostedClient>();
  /** Which run the code belongs to: bumped by reset(), so code left over from an earlier run is refused. */
  private generation = 0;

  /**
   * Registers a client; `start(generation)` calls its code for one run, with objects that pass
   * that generation to `append` (the host calls it when the client arrives).
   */
  add(id: string, start: (generation: number) => unknown): Step[] {
    const log: Step[] = [];
    this.clients.set(id, { id, log, records: [], start, state: 'waiting', error: null, atMs: 0 });
    return log;
  }

  /** Forgets every client's run (their code starts afresh when they arrive again); the logs are emptied in place. */
  reset(): void {
    this.generation += 1;
    for (const c of this.clients.values()) {
      c.log.length = 0;
      c.records = [];
      c.state = 'waiting';
      c.error = null;
      c.atMs = 0;
    }
  }

  /** The generation code started now belongs to. */
  get currentGeneration(): number {
    return this.generation;
  }

  nowMs(id: string): number {
    return this.client(id).atMs;
  }

  /** Appends an action the code reached. `awaits` says what settles the promise the code gets back. */
  append(generation: number, id: string, step: Step, awaits: 'reply'): Promise<Reply>;
  append(generation: number, id: string, step: Step, awaits: 'wake'): Promise<void>;
  append(generation: number, id: string, step: Step, awaits: null): void;
  append(generation: number, id: string, step: Step, awaits: 'reply' | 'wake' | null): Promise<Reply> | Promise<void> | void {
    if (generation !== this.generation) throw new StaleRunError(`client ${id}'s code belongs to a run that has ended`);
    const c = this.client(id);
    if (c.state === 'returned' || c.state === 'threw') throw new Error(`client ${id} used Lockstep after its code ${c.state === 'returned' ? 'returned' : 'threw'}`);
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
    c.atMs = atMs;
    if (record.awaiting?.kind === 'reply') record.awaiting.settle(reply);
    record.awaiting = null;
  }

  /**
   * The engine needs action `pc` of client `id` at `nowMs`: every earlier action is done. Ends its
   * waits, starts its code if it has not started, and lets microtasks run until the code has
   * appended action `pc` or returned (UncontrolledAwaitError past the bound).
   */
  async park(id: string, pc: number, nowMs: number): Promise<void> {
    const c = this.client(id);
    c.atMs = nowMs;
    for (let i = 0; i < pc && i < c.records.length; i++) {
      const record = c.records[i];
      if (record.awaiting?.kind === 'wake') record.awaiting.settle();
      if (record.awaiting?.kind !== 'reply') record.awaiting = null;
    }
    if (c.state === 'waiting') this.run(c);
    for (let hop = 0; hop < parkHopCountMax; hop++) {
      this.throwIfFailed();
      if (c.log.length > pc) return;
      await null;
    }
    throw new UncontrolledAwaitError(id, parkHopCountMax);
  }

  /** Lets every client's code run on what it has been given, without waiting for anyone to park. */
  async settle(hopCount = 64): Promise<void> {
    for (let hop = 0; hop < hopCount; hop++) await null;
    this.throwIfFailed();
  }

  /** Every client's actions and the replies they got: what its code has seen and done. */
  historyKey(): string {
    return JSON.stringify([...this.clients.values()].map((c) => [c.id, c.state, c.log, c.records.map((r) => r.reply)]));
  }

  /** Stops the run at the first client whose code threw. */
  throwIfFailed(): void {
    for (const c of this.clients.values()) if (c.state === 'threw') throw new AsyncClientError(c.id, c.error);
  }

  private run(c: HostedClient): void {
    c.state = 'running';
    const generation = this.generation;
    let code: Promise<unknown>;
    try {
      code = Promise.resolve(c.start(generation));
    } catch (error) {
      code = Promise.reject(error);
    }
    code.then(
      () => {
        if (generation !== this.generation) return;
        c.state = 'returned';
        c.log.push({ op: 'end' });
        c.records.push({ awaiting: null, reply: null });
      },
      (error: unknown) => {
        if (generation !== this.generation) return;
        c.state = 'threw';
        c.error = error;
      },
    );
  }

  private client(id: string): HostedClient {
    const c = this.clients.get(id);
    if (!c) throw new Error(`no async client ${id}`);
    return c;
  }
}
