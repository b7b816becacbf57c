/**
 * Lock scripts recognised by their shape, not their exact text: every lock library writes its own
 * compare-and-delete and compare-and-extend (and Redisson keeps its owner in a hash field), and
 * they differ in spaces, quotes and names. A script that matches no shape is `unknown`, and the
 * checker says so rather than guessing its effect.
 */
import { sha1Hex } from '../engine/redis/lua/sha1';

type ScriptShape =
  /** `if get(KEYS[1]) == ARGV[1] then return del(KEYS[1])`, or Redisson's unlock: removes the owner's lock. */
  | 'compare-and-delete'
  /** `if get(KEYS[1]) == ARGV[1] then pexpire(KEYS[1], ARGV[2])` (or set it again with PX): extends the owner's lock. */
  | 'compare-and-extend'
  /** Sets the key only when absent (or, for a re-entrant lock, when the caller owns it). */
  | 'acquire'
  | 'unknown';

export interface ScriptInfo {
  readonly shape: ScriptShape;
  /** Which ARGV (0-based) holds the owner's token, and which the TTL in ms (null: none). */
  readonly tokenArg: number;
  readonly ttlArg: number | null;
  /** Redisson's scripts answer nil when they did their thing; most others answer 1 or a count. */
  readonly successIsNil: boolean;
  /** A re-entrant release (hincrby -1): 0 means "still held, expiry renewed", 1 "removed". */
  readonly reentrant: boolean;
}

const UNKNOWN: ScriptInfo = { shape: 'unknown', tokenArg: 0, ttlArg: null, successIsNil: false, reentrant: false };

/** The shape of a script's source text. */
function scriptInfo(source: string): ScriptInfo {
  const text = source.toLowerCase().replace(/\s+/g, ' ');
  const call = (name: string): RegExp => new RegExp(`\\.p?call\\s*\\(\\s*['"]${name}['"]\\s*,\\s*keys\\s*\\[\\s*1\\s*\\]([^)]*)\\)`);
  const calls = (name: string): boolean => call(name).test(text);
  const argOf = (name: string): number | null => {
    const m = call(name).exec(text);
    const arg = m === null ? null : /argv\s*\[\s*([0-9]+)\s*\]/.exec(m[1]);
    return arg === null ? null : Number(arg[1]) - 1;
  };
  const compared = /\.p?call\s*\(\s*['"]get['"]\s*,\s*keys\s*\[\s*1\s*\]\s*\)\s*[=~]=\s*argv\s*\[\s*([0-9]+)\s*\]/.exec(text);
  const hashOwner = argOf('hexists');
  const tokenArg = compared !== null ? Number(compared[1]) - 1 : hashOwner;
  const deletes = calls('del') || calls('unlink');
  const expires = calls('pexpire') || calls('expire');
  const sets = calls('set') || calls('setnx');
  const ttlArg = argOf('pexpire') ?? (/['"]px['"]\s*,\s*argv\s*\[\s*([0-9]+)\s*\]/.exec(text) !== null ? Number(/['"]px['"]\s*,\s*argv\s*\[\s*([0-9]+)\s*\]/.exec(text)?.[1]) - 1 : null);
  const successIsNil = /return nil/.test(text) && !/return 1/.test(text.replace(/return nil[\s\S]*/, ''));
  if (calls('hincrby') && calls('exists') && !deletes) return { shape: 'acquire', tokenArg: argOf('hincrby') ?? 1, ttlArg, successIsNil: /return nil/.test(text), reentrant: true };
  if (tokenArg !== null && deletes) return { shape: 'compare-and-delete', tokenArg, ttlArg, successIsNil: false, reentrant: calls('hincrby') };
  if (sets && !deletes && (calls('exists') || /['"]nx['"]/.test(text) || calls('setnx'))) return { shape: 'acquire', tokenArg: 0, ttlArg, successIsNil, reentrant: false };
  // Extending by PEXPIRE, or by writing the same token again with PX (redlock's extend).
  if (tokenArg !== null && !deletes && (expires || sets)) return { shape: 'compare-and-extend', tokenArg, ttlArg, successIsNil: false, reentrant: false };
  return UNKNOWN;
}

/** Scripts seen so far (EVAL, SCRIPT LOAD), by their SHA-1, so an EVALSHA finds its source. Bounded. */
export class ScriptBook {
  private readonly infos = new Map<string, ScriptInfo>();
  private readonly bySource = new Map<string, ScriptInfo>();
  private static readonly scriptCountMax = 4096;

  learn(source: string): ScriptInfo {
    const known = this.bySource.get(source);
    if (known !== undefined) return known;
    const info = scriptInfo(source);
    // A recording with thousands of distinct scripts is generating them: forget the oldest.
    if (this.infos.size >= ScriptBook.scriptCountMax) {
      this.infos.delete(this.infos.keys().next().value as string);
      this.bySource.delete(this.bySource.keys().next().value as string);
    }
    this.infos.set(sha1Hex(source), info);
    this.bySource.set(source, info);
    return info;
  }

  /** A script by its SHA-1, or null when the recording never showed its source. */
  infoOf(sha: string): ScriptInfo | null {
    return this.infos.get(sha.toLowerCase()) ?? null;
  }
}
