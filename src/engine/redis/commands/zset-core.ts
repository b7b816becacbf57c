import { formatG } from '../lua/numbers';
import { encodeString } from './bytes';

/**
 * The sorted set's data and its number and range rules (t_zset.c and util.c, Redis 7.0).
 *
 * A zset is an immutable array of [member, score] sorted by score, then by member bytes (memcmp),
 * as Redis's skiplist and listpack order it. A lookup is a binary search (O(log n)); a write copies
 * the array (O(n)), the same copy-on-write cost lists pay, fine for the few members lock designs
 * keep (semaphore holders, waiters); loops run over the array and are bounded by its length.
 */
export type ZEntry = readonly [member: string, score: number];
export type ZSet = readonly ZEntry[];

/** memcmp order of two members' bytes; ASCII text (almost every member) compares as code units. */
function compareMembers(a: string, b: string): number {
  if (a === b) return 0;
  if (isAscii(a) && isAscii(b)) return a < b ? -1 : 1;
  const x = encodeString(a);
  const y = encodeString(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

function compareEntries(a: ZEntry, b: ZEntry): number {
  return a[1] !== b[1] ? (a[1] < b[1] ? -1 : 1) : compareMembers(a[0], b[0]);
}

/** Member -> index, built once per (immutable) zset. */
const indexes = new WeakMap<ZSet, Map<string, number>>();

export function indexOfMember(zset: ZSet, member: string): number {
  let index = indexes.get(zset);
  if (index === undefined) {
    index = new Map(zset.map(([m], i) => [m, i]));
    indexes.set(zset, index);
  }
  return index.get(member) ?? -1;
}

export function scoreOf(zset: ZSet, member: string): number | null {
  const i = indexOfMember(zset, member);
  return i < 0 ? null : zset[i][1];
}

/** Where `entry` goes in sorted `zset` (first index whose entry sorts after it). */
function insertionPoint(zset: ZSet, entry: ZEntry): number {
  let lo = 0;
  let hi = zset.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareEntries(zset[mid], entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The zset with `member` at `score` (added or moved). A small Redis zset (a listpack) stores a
 * score as text or an integer, so -0 reads back as 0: stored scores are normalized the same way.
 */
export function withMember(zset: ZSet, member: string, score: number): ZSet {
  const stored = score === 0 ? 0 : score;
  const without = indexOfMember(zset, member) < 0 ? zset : withoutMembers(zset, [member]);
  const entry: ZEntry = [member, stored];
  const at = insertionPoint(without, entry);
  return [...without.slice(0, at), entry, ...without.slice(at)];
}

export function withoutMembers(zset: ZSet, members: Iterable<string>): ZSet {
  const gone = new Set(members);
  return zset.filter(([m]) => !gone.has(m));
}

/**
 * A double as Redis 7.0 replies it (networking.c addReplyDouble, RESP2): "inf", "-inf", else
 * printf("%.17g"), so 0.1 is "0.10000000000000001" and 1e20 is "1e+20".
 */
export function formatScore(score: number): string {
  return formatG(score, 17);
}

/**
 * util.c getDoubleFromObject: the whole text read by strtod, no leading space, no NaN, and no
 * overflow or underflow to zero (ERANGE). Null when Redis answers "value is not a valid float".
 */
export function parseScore(text: string): number | null {
  if (text.length === 0 || isCSpace(text.charCodeAt(0))) return null;
  const read = strtod(text);
  if (read === null || read.end !== text.length) return null;
  if (Number.isNaN(read.value) || read.overflow || read.underflow) return null;
  return read.value;
}

/** C isspace in the "C" locale. */
function isCSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

interface StrtodRead {
  readonly value: number;
  /** Index after the last character read (0 when nothing was read). */
  readonly end: number;
  readonly overflow: boolean;
  readonly underflow: boolean;
}

const DECIMAL = /^([+-]?)([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?[0-9]+)?/;
const INF_NAN = /^([+-]?)(infinity|inf|nan)/i;

/** glibc strtod: skips leading space, reads the longest number prefix; null when nothing is read. */
function strtod(text: string): StrtodRead | null {
  let start = 0;
  while (start < text.length && isCSpace(text.charCodeAt(start))) start++;
  const rest = text.slice(start);
  const special = INF_NAN.exec(rest);
  if (special) {
    const negative = special[1] === '-';
    const value = special[2].toLowerCase() === 'nan' ? Number.NaN : negative ? -Infinity : Infinity;
    return { value, end: start + special[0].length, overflow: false, underflow: false };
  }
  const hex = HEX.exec(rest);
  if (hex) {
    const [all, sign, digits, exp] = hex;
    const [intPart, fracPart = ''] = digits.split('.');
    const mantissa = BigInt(`0x${intPart || '0'}${fracPart}`);
    const exponent = Number(exp ? exp.slice(1) : '0') - 4 * fracPart.length;
    // Exact while the mantissa fits 53 bits (every hex score a test writes); rounded beyond.
    const magnitude = Number(mantissa) * 2 ** exponent;
    return finish(sign === '-' ? -magnitude : magnitude, mantissa !== 0n, start + all.length);
  }
  const dec = DECIMAL.exec(rest);
  if (!dec) return null;
  const [all, sign] = dec;
  // JS parses decimal text correctly rounded, as glibc's strtod does.
  const magnitude = Number(all.slice(sign.length).replace(/\.(?=[eE]|$)/, ''));
  const nonZeroDigits = /[1-9]/.test(all.replace(/[eE].*$/, ''));
  return finish(sign === '-' ? -magnitude : magnitude, nonZeroDigits, start + all.length);
}

function finish(value: number, nonZero: boolean, end: number): StrtodRead {
  return { value, end, overflow: !Number.isFinite(value), underflow: nonZero && value === 0 };
}

/** A score range (zslParseRange): inclusive unless `(`; -inf/+inf are plain strtod values. */
export interface ScoreRange {
  readonly min: number;
  readonly max: number;
  readonly minExclusive: boolean;
  readonly maxExclusive: boolean;
}

/** zslParseRange over strtod, which skips leading space, may overflow to inf and reads "" as 0. */
export function parseScoreRange(minText: string, maxText: string): ScoreRange | null {
  const min = parseRangeBound(minText);
  const max = parseRangeBound(maxText);
  if (min === null || max === null) return null;
  return { min: min.value, max: max.value, minExclusive: min.exclusive, maxExclusive: max.exclusive };
}

function parseRangeBound(text: string): { value: number; exclusive: boolean } | null {
  const exclusive = text.startsWith('(');
  const body = exclusive ? text.slice(1) : text;
  // strtod reading nothing leaves the end at the start: valid only when nothing follows.
  const read = strtod(body) ?? { value: 0, end: 0 };
  if (read.end !== body.length || Number.isNaN(read.value)) return null;
  return { value: read.value, exclusive };
}

export function scoreAboveMin(score: number, range: ScoreRange): boolean {
  return range.minExclusive ? score > range.min : score >= range.min;
}

export function scoreBelowMax(score: number, range: ScoreRange): boolean {
  return range.maxExclusive ? score < range.max : score <= range.max;
}

/** zslIsInRange's test for a range no score can be in. */
export function scoreRangeIsEmpty(range: ScoreRange): boolean {
  return range.min > range.max || (range.min === range.max && (range.minExclusive || range.maxExclusive));
}

/** A lex bound: '-' (below everything), '+' (above everything), or a member, inclusive or not. */
type LexBound = { readonly kind: 'min' } | { readonly kind: 'max' } | { readonly kind: 'member'; readonly member: string; readonly exclusive: boolean };

export interface LexRange {
  readonly min: LexBound;
  readonly max: LexBound;
}

/** zslParseLexRangeItem: '+', '-', '(member' or '[member'; anything else is an error. */
function parseLexBound(text: string): LexBound | null {
  if (text === '+') return { kind: 'max' };
  if (text === '-') return { kind: 'min' };
  if (text.startsWith('(')) return { kind: 'member', member: text.slice(1), exclusive: true };
  if (text.startsWith('[')) return { kind: 'member', member: text.slice(1), exclusive: false };
  return null;
}

export function parseLexRange(minText: string, maxText: string): LexRange | null {
  const min = parseLexBound(minText);
  const max = parseLexBound(maxText);
  return min === null || max === null ? null : { min, max };
}

/** sdscmplex: '-' below and '+' above every member. */
function compareLex(a: LexBound | string, b: LexBound | string): number {
  const rank = (x: LexBound | string) => (typeof x === 'string' ? 1 : x.kind === 'min' ? 0 : x.kind === 'max' ? 2 : 1);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== 1 || rb !== 1) return ra === rb ? 0 : ra - rb;
  const text = (x: LexBound | string) => (typeof x === 'string' ? x : (x as { member: string }).member);
  return compareMembers(text(a), text(b));
}

export function lexAboveMin(member: string, range: LexRange): boolean {
  const cmp = compareLex(member, range.min);
  return range.min.kind === 'member' && range.min.exclusive ? cmp > 0 : cmp >= 0;
}

export function lexBelowMax(member: string, range: LexRange): boolean {
  const cmp = compareLex(member, range.max);
  return range.max.kind === 'member' && range.max.exclusive ? cmp < 0 : cmp <= 0;
}

/** zslIsInLexRange's test for a range no member can be in. */
export function lexRangeIsEmpty(range: LexRange): boolean {
  const cmp = compareLex(range.min, range.max);
  const exclusive = (b: LexBound) => b.kind === 'member' && b.exclusive;
  return cmp > 0 || (cmp === 0 && (exclusive(range.min) || exclusive(range.max)));
}

/** The stored form's text for a score (snapshots, the inspector): Redis's own reply text. */
export function scoreText(score: number): string {
  return formatScore(score);
}

/** Back from `scoreText` (plain data, e.g. a parsed snapshot). */
export function scoreFromText(text: string): number {
  if (text === 'inf') return Infinity;
  if (text === '-inf') return -Infinity;
  return Number(text);
}
