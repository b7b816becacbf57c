import { reply, type Reply } from '../reply';
import type { StoredValue } from '../keyspace';
import { byteLength, encodeString } from './bytes';
import { stringMatch } from './keys';
import { command, errors, lookup, parseInteger, type CommandContext, type CommandSpec } from './shared';
import { formatScore } from './zset-core';

/**
 * SCAN, HSCAN, SSCAN, ZSCAN (db.c scanGenericCommand, Redis 7.0).
 *
 * Redis's cursor is a position in its hash table, visited in reverse-bit order. Lockstep's is a
 * position in a fixed 2^32 hash space: each element sits at a 32-bit hash of its name, a call
 * returns the elements from the cursor on in hash order (never splitting one hash value), and the
 * next cursor is one past the last hash returned. So, as Redis promises, an element present for
 * the whole iteration is returned, and returned once; the final cursor is 0. Small collections
 * that Redis keeps compact (listpack hashes and zsets, intsets) come back whole in one call, as
 * Redis returns them.
 */

const HASH_SPACE = 2n ** 32n;
const UINT64_SPAN = 2n ** 64n;

/** FNV-1a over the UTF-16 code units: stable across runs, spread enough for the order. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** parseScanCursorOrReply: strtoul of the whole text (no leading space; '-' wraps; "" is 0). */
function parseCursor(text: string): bigint | null {
  if (text === '') return 0n;
  if (!/^[+-]?[0-9]+$/.test(text)) return null;
  const negative = text.startsWith('-');
  const magnitude = BigInt(text.replace(/^[+-]/, ''));
  if (magnitude >= UINT64_SPAN) return null;
  return negative && magnitude !== 0n ? UINT64_SPAN - magnitude : magnitude;
}

interface ScanOptions {
  readonly count: number;
  readonly pattern: Uint8Array | null;
  readonly typeName: string | null;
}

/** The option loop: COUNT n (n >= 1), MATCH pattern, and for SCAN only TYPE name. */
function parseOptions(args: readonly string[], from: number, allowType: boolean): ScanOptions | Reply {
  let count = 10;
  let pattern: Uint8Array | null = null;
  let typeName: string | null = null;
  for (let i = from; i < args.length; i += 2) {
    const option = args[i].toLowerCase();
    const more = args.length - i >= 2;
    if (option === 'count' && more) {
      const parsed = parseInteger(args[i + 1]);
      if (parsed === null) return errors.notInteger();
      if (parsed < 1n) return errors.syntax();
      count = parsed > 1_000_000n ? 1_000_000 : Number(parsed);
    } else if (option === 'match' && more) {
      pattern = args[i + 1] === '*' ? null : encodeString(args[i + 1]);
    } else if (option === 'type' && allowType && more) {
      typeName = args[i + 1].toLowerCase();
    } else return errors.syntax();
  }
  return { count, pattern, typeName };
}

/**
 * One page of `names` from `cursor`: up to `count` names in hash order (whole hash values), or all
 * of them when `whole`, and the next cursor (0 once nothing is left).
 */
function page(names: readonly string[], cursor: bigint, count: number, whole: boolean): { cursor: bigint; names: string[] } {
  if (whole) return { cursor: 0n, names: cursor === 0n ? names.slice() : [] };
  if (cursor >= HASH_SPACE) return { cursor: 0n, names: [] };
  const hashed = names
    .map((name) => [hash32(name), name] as const)
    .filter(([h]) => BigInt(h) >= cursor)
    .sort(([ha, a], [hb, b]) => ha - hb || (a < b ? -1 : a > b ? 1 : 0));
  const out: string[] = [];
  let i = 0;
  while (i < hashed.length && (out.length < count || hashed[i][0] === hashed[i - 1][0])) out.push(hashed[i++][1]);
  const next = i < hashed.length ? BigInt(hashed[i - 1][0]) + 1n : 0n;
  return { cursor: next, names: out };
}

function scanReply(cursor: bigint, items: readonly string[]): Reply {
  return reply.array([reply.bulk(cursor.toString()), reply.array(items.map((item) => reply.bulk(item)))]);
}

function matches(options: ScanOptions, name: string): boolean {
  return options.pattern === null || stringMatch(options.pattern, encodeString(name));
}

const scan = command(-2, false, (ctx, args) => {
  const cursor = parseCursor(args[1]);
  if (cursor === null) return reply.error('ERR invalid cursor');
  const options = parseOptions(args, 2, true);
  if (isReply(options)) return options;
  const result = page(ctx.keyspace.keys(), cursor, options.count, false);
  const kept = result.names.filter((key) => matches(options, key) && (options.typeName === null || ctx.keyspace.typeOf(key) === options.typeName));
  return scanReply(result.cursor, kept);
});

function isReply(value: ScanOptions | Reply): value is Reply {
  return !('count' in value);
}

/** Field/member and value/score pairs of a collection, and whether Redis keeps it compact (one call). */
function collectionItems(stored: Exclude<StoredValue, { type: 'string' | 'list' }>): { names: string[]; values: Map<string, string> | null; compact: boolean } {
  switch (stored.type) {
    case 'hash': {
      const values = new Map(stored.value);
      // hash-max-listpack-entries 128, hash-max-listpack-value 64.
      const compact = values.size <= 128 && [...values].every(([f, v]) => byteLength(f) <= 64 && byteLength(v) <= 64);
      return { names: [...values.keys()], values, compact };
    }
    case 'zset': {
      const values = new Map(stored.value.map(([m, s]) => [m, formatScore(s)]));
      // zset-max-listpack-entries 128, zset-max-listpack-value 64.
      const compact = values.size <= 128 && [...values.keys()].every((m) => byteLength(m) <= 64);
      return { names: [...values.keys()], values, compact };
    }
    case 'set': {
      // set-max-intset-entries 512: an all-integer set is an intset (in 7.0 other sets are hash tables).
      const names = [...stored.value];
      return { names, values: null, compact: names.length <= 512 && names.every((m) => parseInteger(m) !== null) };
    }
  }
}

/** HSCAN/SSCAN/ZSCAN key cursor [MATCH pattern] [COUNT count]: the cursor, then the key, then the options. */
function collectionScan(type: 'hash' | 'set' | 'zset'): CommandSpec {
  return command(-3, false, (ctx: CommandContext, args) => {
    const cursor = parseCursor(args[2]);
    if (cursor === null) return reply.error('ERR invalid cursor');
    const found = lookup(ctx, args[1], type);
    if (!found.ok) return found.error;
    if (found.value === null) return scanReply(0n, []);
    const options = parseOptions(args, 3, false);
    if (isReply(options)) return options;
    const stored = ctx.keyspace.get(args[1]) as Exclude<StoredValue, { type: 'string' | 'list' }>;
    const { names, values, compact } = collectionItems(stored);
    // An intset answers in numeric order; a listpack in its own (insertion or score) order.
    const result = page(type === 'set' && compact ? sortIntegers(names) : names, cursor, options.count, compact);
    const items: string[] = [];
    for (const name of result.names) {
      if (!matches(options, name)) continue;
      items.push(name);
      if (values !== null) items.push(values.get(name) as string);
    }
    return scanReply(result.cursor, items);
  });
}

function sortIntegers(names: readonly string[]): string[] {
  return names.slice().sort((a, b) => {
    const x = parseInteger(a) as bigint;
    const y = parseInteger(b) as bigint;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

export const SCAN_COMMANDS: Record<string, CommandSpec> = {
  scan,
  hscan: collectionScan('hash'),
  sscan: collectionScan('set'),
  zscan: collectionScan('zset'),
};
