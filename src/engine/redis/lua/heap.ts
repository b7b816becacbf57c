import type { LuaState } from './fengari-api';
import { memoryPrices } from './budget';

/**
 * Measures what a Lua state keeps alive, for the script memory budget (budget.ts): a mark phase
 * like Lua's own collector, over fengari's objects, from the roots (the registry, the metatables
 * of the basic types, the main thread's stack), without freeing anything. Each string, table,
 * function, coroutine and userdata is counted once, at its estimated size in fengari
 * (`memoryPrices`). Deterministic: it reads only the Lua state.
 *
 * Tables listed in `skip` are not entered (the engine's cache of compiled scripts belongs to the
 * server, not to the running script).
 */

// fengari's type tags (defs.js constant_types): the low 4 bits are the basic type, bits 4-5 the variant.
const T_STRING = 4;
const T_TABLE = 5;
const T_FUNCTION = 6;
const T_USERDATA = 7;
const T_THREAD = 8;
const VARIANT_LUA_CLOSURE = T_FUNCTION | (0 << 4);
const VARIANT_C_CLOSURE = T_FUNCTION | (2 << 4);

interface TValueLike {
  type: number;
  value: unknown;
}
interface TStringLike {
  realstring: Uint8Array;
  /** fengari's table key for the string (a hex copy), once computed. */
  readonly hashKey?: string | null;
}
interface TableLike {
  strong: Map<unknown, { key: TValueLike; value: TValueLike }>;
  metatable: TableLike | null;
}
interface ProtoLike {
  k: TValueLike[];
  p: ProtoLike[];
  code: unknown[];
}
interface LClosureLike {
  p: ProtoLike;
  upvals: (TValueLike | undefined)[];
}
interface CClosureLike {
  upvalue: TValueLike[];
}
interface UdataLike {
  metatable: TableLike | null;
  uservalue: TValueLike;
}
interface ThreadLike {
  stack: (TValueLike | undefined)[];
  top: number;
  l_G: { l_registry: TValueLike; mt: (TableLike | null | undefined)[] };
}

/** Bytes of one compiled instruction and its line information, as fengari keeps them. */
const INSTRUCTION_BYTES = 64;

export interface HeapMeasure {
  readonly bytes: number;
  readonly objects: number;
}

export function measureHeap(L: LuaState, skip: ReadonlySet<unknown> = new Set()): HeapMeasure {
  const thread = L as unknown as ThreadLike;
  const seen = new Set<unknown>(skip);
  const pending: unknown[] = [];
  let bytes = 0;
  let objects = 0;

  const visitValue = (tv: TValueLike | undefined): void => {
    if (tv === undefined) return;
    const basic = tv.type & 0x0f;
    if (basic < T_STRING || basic > T_THREAD) return;
    const object = tv.value;
    if (object === null || typeof object !== 'object' || seen.has(object)) return;
    seen.add(object);
    if (basic === T_STRING) {
      const ts = object as TStringLike;
      objects++;
      bytes += memoryPrices.stringOverhead + ts.realstring.length + (typeof ts.hashKey === 'string' ? ts.hashKey.length : 0);
      return;
    }
    // Tables, functions, userdata, threads: walked from the pending list, not recursively, so a
    // deep structure cannot overflow the JS stack.
    pending.push(tv.type, object);
  };
  const visitTable = (t: TableLike | null | undefined): void => {
    if (t === null || t === undefined || seen.has(t)) return;
    seen.add(t);
    pending.push(T_TABLE, t);
  };
  const visitProto = (p: ProtoLike): void => {
    if (seen.has(p)) return;
    seen.add(p);
    objects++;
    bytes += memoryPrices.object + p.code.length * INSTRUCTION_BYTES;
    for (const k of p.k) visitValue(k);
    for (const inner of p.p) visitProto(inner);
  };

  const g = thread.l_G;
  visitValue(g.l_registry);
  for (const mt of g.mt) visitTable(mt);
  seen.add(thread);
  pending.push(T_THREAD, thread);

  // Bounded by the number of reachable objects: each is pushed once (the `seen` set).
  while (pending.length > 0) {
    const object = pending.pop();
    const type = pending.pop() as number;
    objects++;
    switch (type & 0x0f) {
      case T_TABLE: {
        const t = object as TableLike;
        bytes += memoryPrices.table + t.strong.size * memoryPrices.tableSlot;
        for (const entry of t.strong.values()) {
          visitValue(entry.key);
          visitValue(entry.value);
        }
        visitTable(t.metatable);
        break;
      }
      case T_FUNCTION: {
        bytes += memoryPrices.object;
        if (type === VARIANT_LUA_CLOSURE) {
          const cl = object as LClosureLike;
          for (const uv of cl.upvals) visitValue(uv);
          if (cl.p !== null) visitProto(cl.p);
        } else if (type === VARIANT_C_CLOSURE) {
          for (const uv of (object as CClosureLike).upvalue) visitValue(uv);
        }
        break;
      }
      case T_USERDATA: {
        const u = object as UdataLike;
        bytes += memoryPrices.object;
        visitTable(u.metatable);
        visitValue(u.uservalue);
        break;
      }
      case T_THREAD: {
        const co = object as ThreadLike;
        bytes += memoryPrices.object + (co.stack?.length ?? 0) * 16;
        for (let i = 0; i < co.top; i++) visitValue(co.stack[i]);
        break;
      }
    }
  }
  return { bytes, objects };
}
