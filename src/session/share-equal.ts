/**
 * Structural sharing for plain data that crossed a thread (TanStack Query's `replaceEqualDeep`):
 * a structured clone makes every object new, so a reader comparing by identity would see a change
 * in everything. `shareEqual(previous, next)` returns `previous` where `next` holds the same data,
 * and otherwise `next` with each equal part replaced by the previous one. Plain arrays and objects
 * only (what a frame is made of); anything else is equal only when identical.
 */

/** Deeper than any frame goes; past it, data is taken as it came. */
const DEPTH_MAX = 8;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  // Any realm's Object.prototype (a clone may come from another realm): a prototype whose own is null.
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

export function shareEqual<T>(previous: T | undefined, next: T): T {
  return share(previous, next, 0) as T;
}

function share(previous: unknown, next: unknown, depth: number): unknown {
  if (Object.is(previous, next) || depth > DEPTH_MAX) return next;
  if (Array.isArray(previous) && Array.isArray(next)) {
    let same = previous.length === next.length;
    const out = next.map((item, i) => {
      const kept = share(previous[i], item, depth + 1);
      if (!Object.is(kept, previous[i])) same = false;
      return kept;
    });
    return same ? previous : out;
  }
  if (isPlainObject(previous) && isPlainObject(next)) {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(previous).length;
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const kept = share(previous[key], next[key], depth + 1);
      if (!Object.is(kept, previous[key]) || !Object.hasOwn(previous, key)) same = false;
      out[key] = kept;
    }
    return same ? previous : out;
  }
  return next;
}
