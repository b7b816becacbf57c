import type { LuaState } from './fengari-api';

/**
 * What one script may spend before the engine stops it. A real Redis has no such limit: a
 * runaway script runs until SCRIPT KILL (or, inside a C library such as cjson, until the server
 * is restarted). A simulator in a browser tab must end every script in bounded time and memory,
 * so it stops the script itself, with an error that says which budget ran out.
 *
 * Work is counted in units of about one Lua VM instruction: the VM's own instructions (counted
 * by a hook), plus what the script makes libraries and the server do for it, priced by size
 * (reply conversion, cjson, cmsgpack, struct, string building, pattern matching, string
 * hashing and comparison, table writes, redis.call arguments and replies, compiling loadstring
 * chunks). Prices (`workPrices`) are fengari's cost relative to one instruction, so the budget
 * bounds running time on any input.
 *
 * Memory is the estimated size of the strings and tables the script keeps alive: every string,
 * table slot and table it creates is counted when created; once the count passes what the
 * budget still allows, the engine measures what is really reachable (heap.ts) and stops the
 * script only if that is over the budget. A string bigger than the budget is refused before it
 * is built.
 *
 * Sizes: see `defaultScriptLimits`; docs/REDIS-FIDELITY.md ("Script budgets") has the
 * measurements behind them.
 */
export interface ScriptLimits {
  /** Work units one script may use (about one Lua VM instruction each). */
  readonly workUnitsMax: number;
  /** Estimated bytes of live strings and tables one script may hold. */
  readonly memoryBytesMax: number;
}

/**
 * 80 million units: about 3 s of fengari on a desktop for a plain loop (a loop is the cheapest
 * work per unit; heap-heavy work can take up to about twice as long per unit). That passes, with
 * room, the heaviest realistic scripts measured, each of which a real redis-server 7.0.15
 * finishes well under a second: packing and unpacking 100,000-entry tables with cmsgpack (about
 * 26 million units), encoding and decoding 100,000 objects with cjson (about 48 million), filling
 * a 1,000,000-entry table and joining it (about 41 million), 100,000 redis.call (12 million).
 * 256 MiB of live Lua data, as fengari lays it out (a table slot costs about 170 bytes there,
 * against 40 in C Lua).
 */
export const defaultScriptLimits: ScriptLimits = { workUnitsMax: 80_000_000, memoryBytesMax: 256 * 1024 * 1024 };

/**
 * Work prices, in units of one plain VM instruction (about 40 ns in fengari on a desktop),
 * measured with `npx tsx scripts/measure-lua-budget.ts --calibrate`, which times each kind of
 * work against a plain loop on the same machine (docs/REDIS-FIDELITY.md has the table). Rounded
 * up: overcharging only makes a budget end sooner.
 */
export const workPrices = {
  /** A table write (an existing slot). */
  tableWrite: 6,
  /** A new table slot, on top of the write (fengari grows a Map and makes its entry). */
  tableSlotCreated: 40,
  /** A new table (fengari makes two Maps). */
  tableCreated: 5,
  /** A new string, on top of its bytes. */
  stringCreated: 6,
  /** Copying or scanning bytes: one unit per this many. */
  bytesPerUnitCopied: 16,
  /** Hashing a string for a table key (fengari keys tables by a hex text of the bytes): one unit per this many bytes. */
  bytesPerUnitHashed: 2,
  /** One value converted (reply, redis.call result, cjson, cmsgpack, struct item). */
  valueConverted: 16,
  /** One value encoded or decoded by cjson (the JSON text's pieces and tokens are JS strings and objects). */
  jsonValue: 32,
  /** One table converted to a reply (its err/ok fields are looked up first). */
  tableConverted: 80,
  /** One step of the pattern matcher (a call of `match` or one character tried). */
  patternStep: 1,
  /** One replacement made by gsub (before the bytes it adds). */
  replacement: 2,
  /** One comparison in table.sort (without a Lua comparator, whose instructions count themselves). */
  sortComparison: 4,
  /** One redis.call / redis.pcall, before the size of its arguments and reply. */
  redisCall: 100,
  /** Compiling source (loadstring, load): per byte. */
  compiledByte: 1,
  /** Switching to or from a coroutine (fengari unwinds the JS stack to yield). */
  coroutineSwitch: 100,
  /** Raising an error (fengari throws and unwinds a JS exception). */
  errorRaised: 150,
  /** A heap measurement (heap.ts): per object visited. */
  heapObjectVisited: 2,
} as const;

/** Estimated bytes of fengari's objects (measured with --expose-gc on Node 20). */
export const memoryPrices = {
  /** A string: its bytes plus this (TString, Uint8Array, TValue). */
  stringOverhead: 120,
  /** A table slot (a Map entry and two TValues). */
  tableSlot: 170,
  /** An empty table (two Maps). */
  table: 460,
  /** A function or userdata. */
  object: 200,
  /** A coroutine (its own stack and call frames). */
  coroutine: 3000,
  /** A compiled chunk, per byte of its source (instructions, constants, line information). */
  compiledPerSourceByte: 16,
  /** One value of a reply being built (a JS object), plus two bytes per character of a string. */
  replyValue: 64,
} as const;

/** The least memory a script creates between two heap measurements. */
const measurePaceBytesMin = 4 * 1024 * 1024;

export type BudgetKind = 'work' | 'memory';

/**
 * The error a script gets when a budget runs out. Redis adds " script: <sha>, on
 * @user_script:<line>." (where the script was when it was stopped), as for any script error.
 */
export function budgetErrorMessage(kind: BudgetKind, limits: ScriptLimits): string {
  return kind === 'work'
    ? `ERR Script exceeded Lockstep's work budget (${limits.workUnitsMax} units: Lua instructions and the work done on its behalf)`
    : `ERR Script exceeded Lockstep's memory budget (${Math.round(limits.memoryBytesMax / (1024 * 1024))} MiB of strings and tables)`;
}

/**
 * The running script's meter. Once a budget is exceeded the script is over for good: the error is
 * raised where the charge was made when that is possible, and the engine's count hook raises it
 * again on every later instruction, so a pcall inside the script cannot swallow it.
 *
 * Charges made deep inside fengari, where no Lua state is at hand (`L` null), only record the
 * overrun; the count hook raises it at most `hookInstructionStep` instructions later.
 */
export class ScriptBudget {
  units = 0;
  exceeded: BudgetKind | null = null;
  /** Estimated live bytes at the last heap measurement (0 until one is taken). */
  private liveBytes = 0;
  /** Bytes created since the last measurement. */
  private createdBytes = 0;
  /** Bytes the engine holds outside Lua for the script (its reply, while it is built). */
  private heldBytes = 0;
  /** Set while the engine builds the error itself (its strings must not be charged). */
  private quiet = false;
  /** Raises the Lua error for `kind` on `L` (never returns). */
  raise: (L: LuaState, kind: BudgetKind) => never = (_L, kind) => {
    throw new BudgetExceeded(kind);
  };
  /** Measures the live heap (heap.ts); injected so this file stays free of fengari's internals. */
  measureHeap: (L: LuaState | null) => { bytes: number; objects: number } = () => ({ bytes: 0, objects: 0 });

  constructor(readonly limits: ScriptLimits) {}

  charge(L: LuaState | null, units: number): void {
    if (this.quiet) return;
    this.units += units;
    if (this.exceeded === null && this.units > this.limits.workUnitsMax) this.exceed(L, 'work');
  }

  /** Counts `bytes` of new strings or tables; measures the heap when the count may be over the budget. */
  allocate(L: LuaState | null, bytes: number): void {
    if (this.quiet) return;
    this.createdBytes += bytes;
    // Near the budget, measure at most every `measurePaceBytesMin`: live memory then stays under
    // the budget plus that much, and the measurements cost at most one per that many bytes made.
    if (this.createdBytes > Math.max(this.limits.memoryBytesMax - this.liveBytes, measurePaceBytesMin)) this.measure(L, 0);
  }

  /** Before building one object of `bytes` (a string): refuses what cannot fit, before it is allocated. */
  reserve(L: LuaState, bytes: number): void {
    if (this.quiet) return;
    if (bytes + this.heldBytes > this.limits.memoryBytesMax) this.exceed(L, 'memory');
    else if (this.liveBytes + this.createdBytes + this.heldBytes + bytes > this.limits.memoryBytesMax) this.measure(L, bytes);
  }

  /** Counts `bytes` the engine keeps outside Lua for the script until it ends (the reply it builds). */
  hold(L: LuaState, bytes: number): void {
    if (this.quiet) return;
    this.heldBytes += bytes;
    if (this.liveBytes + this.createdBytes + this.heldBytes > this.limits.memoryBytesMax) this.measure(L, 0);
  }

  private measure(L: LuaState | null, pendingBytes: number): void {
    const heap = this.measureHeap(L);
    this.liveBytes = heap.bytes;
    this.createdBytes = 0;
    this.charge(L, heap.objects * workPrices.heapObjectVisited);
    if (this.exceeded === null && this.liveBytes + this.heldBytes + pendingBytes > this.limits.memoryBytesMax) this.exceed(L, 'memory');
  }

  private exceed(L: LuaState | null, kind: BudgetKind): void {
    this.exceeded ??= kind;
    if (L !== null) this.raiseNow(L);
  }

  /** Raises the recorded overrun on `L` (the engine's count hook calls this after an overrun). */
  raiseNow(L: LuaState): never {
    this.quiet = true;
    try {
      return this.raise(L, this.exceeded ?? 'work');
    } finally {
      this.quiet = false;
    }
  }
}

/** Thrown (in JS, outside Lua) when a budget runs out during work the engine does after the script returned. */
export class BudgetExceeded extends Error {
  constructor(readonly kind: BudgetKind) {
    super(`script ${kind} budget exceeded`);
  }
}

/** The budget of the script running now (one at a time per JS realm: scripts run synchronously). */
let active: ScriptBudget | null = null;

export function setActiveBudget(budget: ScriptBudget | null): void {
  active = budget;
}

export function activeBudget(): ScriptBudget | null {
  return active;
}

/** Charges the running script `units` of work, if a script is running. */
export function chargeWork(L: LuaState, units: number): void {
  if (active !== null) active.charge(L, units);
}

/** Charges copying or scanning `bytes`. */
export function chargeBytes(L: LuaState, bytes: number): void {
  if (active !== null) active.charge(L, bytes / workPrices.bytesPerUnitCopied);
}

/** Before a library function builds a string of `bytes`: the work of writing it, and room for it in memory. */
export function reserveString(L: LuaState, bytes: number): void {
  if (active === null) return;
  active.reserve(L, bytes);
  active.charge(L, bytes / workPrices.bytesPerUnitCopied);
}
