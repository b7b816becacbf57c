import RedisMock from 'ioredis-mock';

/**
 * The one place Lockstep talks to ioredis-mock.
 *
 * ioredis-mock runs every command body synchronously inside a Promise executor and reads
 * the wall clock (`Date.now`) for expiry. We need synchronous replies (a Lua `redis.call` must return a value, and
 * the engine steps synchronously), and expiry on the virtual clock. So for the synchronous part of
 * one call only, we pin `Date.now` to virtual time and swap the global `Promise` for a capturing
 * thenable; both are restored before control returns. Nothing is ever pinned across an `await`.
 */

// ioredis-mock's command methods take strings and return a Promise-like.
type MockMethod = (...args: string[]) => unknown;
export interface MockInstance {
  data: {
    keys(): string[];
    get(key: string): unknown;
    set(key: string, value: unknown): void;
    has(key: string): boolean;
    delete(key: string): void;
    clear(): void;
  };
  expires: {
    get(key: string): number | undefined;
    set(key: string, atMs: number): void;
    has(key: string): boolean;
    delete(key: string): void;
    clear(): void;
  };
  [command: string]: unknown;
}

class CapturedResult {
  settled = false;
  ok = false;
  value: unknown = undefined;
  constructor(executor: (resolve: (v: unknown) => void, reject: (e: unknown) => void) => void) {
    try {
      executor(
        (v) => this.settle(true, v),
        (e) => this.settle(false, e),
      );
    } catch (error) {
      this.settle(false, error);
    }
  }
  private settle(ok: boolean, value: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.ok = ok;
    this.value = value;
  }
  then(): this {
    return this;
  }
  catch(): this {
    return this;
  }
  finally(): this {
    return this;
  }
}

export type MockOutcome = { ok: true; value: unknown } | { ok: false; error: Error };

let instanceCount = 0;

/**
 * A fresh ioredis-mock keyspace. Each gets its own host name: instances sharing host:port share
 * data. `keyPrefix` is applied by the mock's data layer to every key it stores.
 */
export function createMockInstance(keyPrefix = ''): MockInstance {
  instanceCount += 1;
  // Identity only: the host name never reaches a trace.
  const Ctor = RedisMock as unknown as new (options: object) => MockInstance;
  return new Ctor({ host: `lockstep-${instanceCount}`, port: 6379, lazyConnect: false, keyPrefix });
}

/**
 * Runs `fn` with `Date.now` answering `clockMs`. Used for every touch of the mock's keyspace, since
 * its `data.get` expires keys lazily by reading the clock.
 */
export function withPinnedClock<T>(clockMs: number, fn: () => T): T {
  const realNow = Date.now;
  Date.now = () => clockMs;
  try {
    return fn();
  } finally {
    Date.now = realNow;
  }
}

/** Calls one ioredis-mock command synchronously with the clock pinned to `clockMs`. */
export function callMock(mock: MockInstance, clockMs: number, command: string, args: readonly string[]): MockOutcome {
  const method = mock[command] as MockMethod | undefined;
  if (typeof method !== 'function') {
    return { ok: false, error: new Error(`ERR unknown command '${command}'`) };
  }
  const RealPromise = globalThis.Promise;
  let captured: unknown;
  try {
    (globalThis as { Promise: unknown }).Promise = CapturedResult;
    captured = withPinnedClock(clockMs, () => method.apply(mock, args as string[]));
  } catch (error) {
    return { ok: false, error: toError(error) };
  } finally {
    globalThis.Promise = RealPromise;
  }
  if (!(captured instanceof CapturedResult) || !captured.settled) {
    throw new Error(`ioredis-mock '${command}' did not settle synchronously; the bridge needs updating`);
  }
  return captured.ok ? { ok: true, value: captured.value } : { ok: false, error: toError(captured.value) };
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
