/**
 * Virtual time and randomness inside async clients' code. While `simulate` or `explore` drives
 * clients, the globals that read the clock, start timers or draw random numbers are replaced by
 * functions that ask "whose code is running?" (Node's AsyncLocalStorage, which follows promises
 * and the callbacks the host starts). In a client's code they answer from the run: timers become
 * activities of the client's process (host.ts), time is the run's virtual clock, randomness comes
 * from the run's seed. Anywhere else (the test runner, Vitest's own timers) they are the real
 * ones. The patches are installed for the length of the run only, and restored even on error.
 *
 * `node:crypto`'s named exports are live bindings for ES module importers: after patching its
 * module object, `syncBuiltinESMExports()` makes `import { randomBytes } from 'node:crypto'` see
 * the patch (and the original again after restoring).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import nodeCrypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import nodeTimers from 'node:timers';
import nodeTimersPromises from 'node:timers/promises';

export type TimerKind = 'timeout' | 'interval' | 'immediate';

/** A Node-like Timeout (or Immediate) for a virtual timer: `ref`/`unref`/`hasRef`/`refresh`, and its number. */
export class VirtualTimer {
  private referenced = true;
  constructor(
    /** What `+timer` gives (Node gives the timer's async id): unique within the run. */
    readonly numericId: number,
    readonly kind: TimerKind,
    private readonly controls: { readonly clear: () => void; readonly refresh: () => void },
  ) {}
  ref(): this {
    this.referenced = true;
    return this;
  }
  /** Recorded only: a run has no process exit for an unreferenced timer to allow. */
  unref(): this {
    this.referenced = false;
    return this;
  }
  hasRef(): boolean {
    return this.referenced;
  }
  /** Starts the timer again from now with its delay (Node's `timeout.refresh()`). */
  refresh(): this {
    this.controls.refresh();
    return this;
  }
  close(): this {
    this.controls.clear();
    return this;
  }
  clear(): void {
    this.controls.clear();
  }
  [Symbol.toPrimitive](): number {
    return this.numericId;
  }
}

/** What the code running now can ask of its run: the activity of a client whose code Lockstep drives. */
export interface VirtualActor {
  /** The client's wall clock: a fixed epoch plus its own clock's reading (Unix ms). */
  wallMs(): number;
  /** The run's virtual time since its start (ms): performance.now, process.hrtime. */
  monotonicMs(): number;
  /** A uint32 from this activity's seeded stream. */
  nextUint32(): number;
  setTimer(kind: TimerKind, callback: (...args: unknown[]) => unknown, args: readonly unknown[], delayMs: number): VirtualTimer;
  /** Clears a timer of this run by its number; false when the run has no such timer. */
  clearTimerById(id: number): boolean;
}

/** Whose code runs now: set by the host around each client's and activity's code. */
export const actorStorage = new AsyncLocalStorage<VirtualActor>();

const actor = (): VirtualActor | undefined => actorStorage.getStore();

/* eslint-disable @typescript-eslint/no-explicit-any -- the patched globals keep the real functions' loose signatures */
type AnyFunction = (...args: any[]) => any;

function randomFloat(a: VirtualActor): number {
  // 53 random bits, as V8's Math.random gives.
  const high = a.nextUint32() >>> 5;
  const low = a.nextUint32() >>> 6;
  return (high * 67_108_864 + low) / 9_007_199_254_740_992;
}

function fillRandom<T extends ArrayBufferView>(a: VirtualActor, view: T): T {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i += 4) {
    const word = a.nextUint32();
    for (let j = 0; j < 4 && i + j < bytes.length; j++) bytes[i + j] = (word >>> (8 * j)) & 0xff;
  }
  return view;
}

function uuidFrom(a: VirtualActor): string {
  const bytes = fillRandom(a, new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function toTimerDelay(ms: unknown): number {
  // Node: a delay that is not a number from 1 to 2^31-1 becomes 1 ms.
  const n = Number(ms);
  return n >= 1 && n <= 2_147_483_647 ? Math.trunc(n) : 1;
}

function virtualDate(RealDate: DateConstructor): DateConstructor {
  function Date(this: unknown, ...args: unknown[]): unknown {
    const a = actor();
    if (new.target === undefined) return a === undefined ? RealDate() : new RealDate(a.wallMs()).toString();
    const values = args.length === 0 && a !== undefined ? [a.wallMs()] : args;
    return Reflect.construct(RealDate, values, new.target);
  }
  // The same prototype: `instanceof Date` holds both ways and every method is the real one.
  Date.prototype = RealDate.prototype;
  Date.now = () => {
    const a = actor();
    return a === undefined ? RealDate.now() : a.wallMs();
  };
  Date.parse = RealDate.parse;
  Date.UTC = RealDate.UTC;
  return Date as unknown as DateConstructor;
}

interface Patch {
  readonly target: object;
  readonly key: PropertyKey;
  readonly value: unknown;
}

/** Replaces each property and returns how to put everything back (own properties restored, added ones deleted). */
function apply(patches: readonly Patch[]): () => void {
  const saved = patches.map(({ target, key }) => ({ target, key, own: Object.getOwnPropertyDescriptor(target, key) }));
  for (const { target, key, value } of patches) Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable: saved.find((s) => s.target === target && s.key === key)?.own?.enumerable ?? false });
  return () => {
    for (const { target, key, own } of saved.reverse()) {
      if (own === undefined) delete (target as Record<PropertyKey, unknown>)[key];
      else Object.defineProperty(target, key, own);
    }
  };
}

function buildPatches(): Patch[] {
  const g = globalThis as unknown as Record<string, AnyFunction>;
  const real = {
    setTimeout: g.setTimeout,
    setInterval: g.setInterval,
    setImmediate: g.setImmediate,
    clearTimeout: g.clearTimeout,
    clearInterval: g.clearInterval,
    clearImmediate: g.clearImmediate,
    random: Math.random,
    performanceNow: performance.now.bind(performance),
    hrtime: process.hrtime,
    nextTick: process.nextTick,
    randomBytes: nodeCrypto.randomBytes as AnyFunction,
    randomUUID: nodeCrypto.randomUUID as AnyFunction,
    randomFillSync: nodeCrypto.randomFillSync as AnyFunction,
    webGetRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) as AnyFunction,
    webRandomUUID: globalThis.crypto.randomUUID.bind(globalThis.crypto) as AnyFunction,
    sleep: nodeTimersPromises.setTimeout as AnyFunction,
  };
  const timer = (kind: TimerKind, realSet: AnyFunction) =>
    function (callback: AnyFunction, ...rest: unknown[]): unknown {
      const a = actor();
      if (a === undefined) return realSet(callback, ...rest);
      if (typeof callback !== 'function') throw new TypeError(`The "callback" argument must be of type function. Received ${typeof callback}`);
      if (kind === 'immediate') return a.setTimer(kind, callback, rest, 0);
      return a.setTimer(kind, callback, rest.slice(1), toTimerDelay(rest[0]));
    };
  const clear = (realClear: AnyFunction) =>
    function (handle: unknown): void {
      if (handle instanceof VirtualTimer) return handle.clear();
      const a = actor();
      if (a !== undefined && (typeof handle === 'number' || typeof handle === 'string') && a.clearTimerById(Number(handle))) return;
      realClear(handle);
    };
  const timers = {
    setTimeout: timer('timeout', real.setTimeout),
    setInterval: timer('interval', real.setInterval),
    setImmediate: timer('immediate', real.setImmediate),
    clearTimeout: clear(real.clearTimeout),
    clearInterval: clear(real.clearInterval),
    clearImmediate: clear(real.clearImmediate),
  };
  const hrtime = Object.assign(
    function (previous?: [number, number]): [number, number] {
      const a = actor();
      if (a === undefined) return real.hrtime(previous);
      const ns = BigInt(Math.round(a.monotonicMs() * 1e6));
      let seconds = Number(ns / 1_000_000_000n);
      let nanos = Number(ns % 1_000_000_000n);
      if (previous) {
        seconds -= previous[0];
        nanos -= previous[1];
        if (nanos < 0) {
          seconds -= 1;
          nanos += 1e9;
        }
      }
      return [seconds, nanos];
    },
    {
      bigint: () => {
        const a = actor();
        return a === undefined ? real.hrtime.bigint() : BigInt(Math.round(a.monotonicMs() * 1e6));
      },
    },
  );
  const randomBytes = (size: number, callback?: AnyFunction) => {
    const a = actor();
    if (a === undefined) return callback === undefined ? real.randomBytes(size) : real.randomBytes(size, callback);
    const bytes = fillRandom(a, Buffer.alloc(size));
    if (callback === undefined) return bytes;
    queueMicrotask(() => callback(null, bytes));
  };
  const randomUUID = (realUuid: AnyFunction) => (options?: unknown) => {
    const a = actor();
    return a === undefined ? realUuid(options) : uuidFrom(a);
  };
  const getRandomValues = (realGet: AnyFunction) => (view: ArrayBufferView) => {
    const a = actor();
    return a === undefined ? realGet(view) : fillRandom(a, view);
  };
  const randomFillSync = (view: ArrayBufferView, offset?: number, size?: number) => {
    const a = actor();
    if (a === undefined) return real.randomFillSync(view, offset, size);
    const start = offset ?? 0;
    const length = size ?? view.byteLength - start;
    fillRandom(a, new Uint8Array(view.buffer, view.byteOffset + start, length));
    return view;
  };
  const sleep = (ms?: number, value?: unknown, options?: unknown) => {
    const a = actor();
    if (a === undefined) return real.sleep(ms, value, options);
    return new Promise((resolve) => a.setTimer('timeout', resolve, [value], toTimerDelay(ms)));
  };
  return [
    ...Object.entries(timers).map(([key, value]) => ({ target: globalThis, key, value })),
    ...Object.entries(timers).map(([key, value]) => ({ target: nodeTimers, key, value })),
    { target: nodeTimersPromises, key: 'setTimeout', value: sleep },
    { target: globalThis, key: 'Date', value: virtualDate(globalThis.Date) },
    {
      target: Math,
      key: 'random',
      value: () => {
        const a = actor();
        return a === undefined ? real.random() : randomFloat(a);
      },
    },
    {
      target: performance,
      key: 'now',
      value: () => {
        const a = actor();
        return a === undefined ? real.performanceNow() : a.monotonicMs();
      },
    },
    { target: process, key: 'hrtime', value: hrtime },
    {
      target: process,
      key: 'nextTick',
      value: (callback: AnyFunction, ...args: unknown[]) => {
        // In a client's code: a microtask of the same activity (the context follows queueMicrotask).
        if (actor() === undefined) return real.nextTick(callback, ...args);
        queueMicrotask(() => callback(...args));
      },
    },
    { target: nodeCrypto, key: 'randomBytes', value: randomBytes },
    { target: nodeCrypto, key: 'randomUUID', value: randomUUID(real.randomUUID) },
    { target: nodeCrypto, key: 'randomFillSync', value: randomFillSync },
    // node:crypto's getRandomValues is a getter that reads this one.
    { target: globalThis.crypto, key: 'getRandomValues', value: getRandomValues(real.webGetRandomValues) },
    { target: globalThis.crypto, key: 'randomUUID', value: randomUUID(real.webRandomUUID) },
  ];
}
/* eslint-enable @typescript-eslint/no-explicit-any */

let installs = 0;
let restore: (() => void) | null = null;

/** Installs the patches (nested and concurrent runs share one installation). */
function install(): void {
  installs += 1;
  if (installs > 1) return;
  restore = apply(buildPatches());
  syncBuiltinESMExports();
}

function uninstall(): void {
  installs -= 1;
  if (installs > 0 || restore === null) return;
  restore();
  restore = null;
  syncBuiltinESMExports();
}

/** Runs `drive` (a run of async clients) with the virtual globals in place, and restores them after, even on error. */
export async function withVirtualGlobals<T>(drive: () => Promise<T>): Promise<T> {
  install();
  try {
    return await drive();
  } finally {
    uninstall();
  }
}

/** Whether the patches are in place now (tests check they are gone after a run). */
export function virtualGlobalsInstalled(): boolean {
  return restore !== null;
}
