/**
 * What one command did to the lock key, read from the command and its reply: an acquisition, a
 * refused acquisition, a removal, an extension, a read, nothing, or `unknown` (a command or script
 * whose effect on the key the checker cannot tell). `applied: null` means the reply is not known.
 */
import type { HistoryMessageRef } from '../i18n/history';
import type { HistoryReply } from './format';
import type { ScriptBook } from './scripts';

export type LockEffect =
  | { readonly op: 'none' }
  /** A value written: `conditional` (NX, a script that checks) or an overwrite of whatever was there. */
  | { readonly op: 'acquire'; readonly token: string; readonly ttlMs: number | null; readonly conditional: boolean; readonly applied: boolean | null }
  /** The key removed: by token (compare-and-delete) or whatever it held (DEL, GETDEL, FLUSHALL). */
  | { readonly op: 'remove'; readonly token: string | null; readonly applied: boolean | null }
  /** The key's expiry set again: by token (compare-and-extend) or unconditionally (PEXPIRE); ttlMs null: PERSIST. */
  | { readonly op: 'extend'; readonly token: string | null; readonly ttlMs: number | null; readonly applied: boolean | null }
  /** A read that saw `value` (null: absent; undefined: not a value read, or the reply is unknown). */
  | { readonly op: 'read'; readonly value: string | null | undefined }
  /** `why`: a few words on what the checker could not follow, in the catalog (src/i18n/history.ts). */
  | { readonly op: 'unknown'; readonly why: HistoryMessageRef };

export interface CommandOutcome {
  readonly reply: HistoryReply | undefined;
  readonly error: string | undefined;
}

const NONE: LockEffect = { op: 'none' };

/** Read-only commands: they tell nothing about ownership and change nothing. */
const READS = new Set(['GET', 'PTTL', 'TTL', 'EXISTS', 'TYPE', 'STRLEN', 'GETRANGE', 'OBJECT', 'DUMP', 'PEXPIRETIME', 'EXPIRETIME', 'WATCH', 'MEMORY', 'DEBUG']);

export function lockEffect(argv: readonly string[], lockKey: string, outcome: CommandOutcome, scripts: ScriptBook): LockEffect {
  const name = argv[0].toUpperCase();
  if (name === 'SCRIPT' && argv[1]?.toUpperCase() === 'LOAD' && argv[2] !== undefined) scripts.learn(argv[2]);
  if (name === 'EVAL' || name === 'EVALSHA' || name === 'EVAL_RO' || name === 'EVALSHA_RO') return scriptEffect(name, argv, lockKey, outcome, scripts);
  if (name === 'FLUSHALL' || name === 'FLUSHDB') return { op: 'remove', token: null, applied: outcome.error !== undefined ? false : null };
  if (argv[1] !== lockKey) {
    // Multi-key commands that may name the lock key after the first position.
    if ((name === 'DEL' || name === 'UNLINK') && argv.slice(2).includes(lockKey)) return removeEffect(argv, outcome);
    if (argv.slice(2).includes(lockKey) && !READS.has(name) && name !== 'MGET') return { op: 'unknown', why: { key: 'hWhyNamesKey', params: { command: name } } };
    return NONE;
  }
  if (outcome.error !== undefined) return NONE;
  const reply = outcome.reply;
  const known = reply !== undefined;
  switch (name) {
    case 'SET':
      return setEffect(argv, reply);
    case 'SETNX':
      return { op: 'acquire', token: argv[2] ?? '', ttlMs: null, conditional: true, applied: known ? reply === 1 : null };
    case 'SETEX':
    case 'PSETEX':
      return { op: 'acquire', token: argv[3] ?? '', ttlMs: durationMs(argv[2], name === 'SETEX' ? 1000 : 1), conditional: false, applied: known ? true : null };
    case 'DEL':
    case 'UNLINK':
      return removeEffect(argv, outcome);
    case 'GETDEL':
      return { op: 'remove', token: null, applied: known ? reply !== null : null };
    case 'PEXPIRE':
    case 'EXPIRE':
      return { op: 'extend', token: null, ttlMs: durationMs(argv[2], name === 'EXPIRE' ? 1000 : 1), applied: known ? reply === 1 : null };
    case 'PERSIST':
      return { op: 'extend', token: null, ttlMs: null, applied: known ? reply === 1 : null };
    case 'GET':
      return { op: 'read', value: typeof reply === 'string' || reply === null ? reply : undefined };
    default:
      if (READS.has(name)) return { op: 'read', value: undefined };
      return { op: 'unknown', why: { key: 'hWhyOnKey', params: { command: name } } };
  }
}

function setEffect(argv: readonly string[], reply: HistoryReply | undefined): LockEffect {
  const token = argv[2] ?? '';
  let nx = false;
  let xx = false;
  let get = false;
  let ttlMs: number | null = null;
  for (let i = 3; i < argv.length; i++) {
    const option = argv[i].toUpperCase();
    if (option === 'NX') nx = true;
    else if (option === 'XX') xx = true;
    else if (option === 'GET') get = true;
    else if (option === 'PX' || option === 'EX') ttlMs = durationMs(argv[++i], option === 'EX' ? 1000 : 1);
    // EXAT/PXAT and KEEPTTL: the expiry is not a duration; the checker treats it as unknown (null ttl would claim "no TTL").
    else if (option === 'EXAT' || option === 'PXAT' || option === 'KEEPTTL') return { op: 'unknown', why: { key: 'hWhySetExpiry', params: { option } } };
  }
  if (reply === undefined) return { op: 'acquire', token, ttlMs, conditional: nx || xx, applied: null };
  // With GET the reply is the old value; with NX and GET (Redis 7) nil means it set.
  const applied = get ? (nx ? reply === null : true) : reply === 'OK';
  if (xx) return applied ? { op: 'acquire', token, ttlMs, conditional: true, applied } : { op: 'read', value: undefined };
  return { op: 'acquire', token, ttlMs, conditional: nx, applied };
}

function removeEffect(argv: readonly string[], outcome: CommandOutcome): LockEffect {
  if (outcome.error !== undefined) return NONE;
  const reply = outcome.reply;
  if (reply === undefined) return { op: 'remove', token: null, applied: null };
  const removed = typeof reply === 'number' ? reply : Number(reply);
  const keyCount = argv.length - 1;
  // DEL of several keys: a count short of all of them leaves the lock key's fate unknown.
  if (removed === 0) return { op: 'remove', token: null, applied: false };
  if (removed >= keyCount) return { op: 'remove', token: null, applied: true };
  return { op: 'remove', token: null, applied: null };
}

function scriptEffect(name: string, argv: readonly string[], lockKey: string, outcome: CommandOutcome, scripts: ScriptBook): LockEffect {
  const keyCount = Number(argv[2]);
  if (!Number.isInteger(keyCount) || keyCount < 0) return NONE;
  const keys = argv.slice(3, 3 + keyCount);
  const args = argv.slice(3 + keyCount);
  const info = name.startsWith('EVALSHA') ? scripts.infoOf(argv[1] ?? '') : scripts.learn(argv[1] ?? '');
  if (!keys.includes(lockKey)) return NONE;
  if (info === null) return { op: 'unknown', why: { key: 'hWhyScriptUnseen', params: { sha: String(argv[1]?.slice(0, 12)) } } };
  if (outcome.error !== undefined) return NONE;
  const reply = outcome.reply;
  const known = reply !== undefined;
  // Scripts answer 1 / the count of keys / "OK" when they did their thing (Redisson's: nil).
  const succeeded = known ? (info.successIsNil ? reply === null : isSuccess(reply)) : null;
  const token = args[info.tokenArg] ?? '';
  const ttlMs = info.ttlArg === null ? null : durationMs(args[info.ttlArg], 1);
  switch (info.shape) {
    case 'compare-and-delete':
      // A re-entrant release that only counted down (0) renewed the expiry instead.
      if (info.reentrant && reply === 0) return { op: 'extend', token, ttlMs, applied: true };
      return { op: 'remove', token, applied: succeeded };
    case 'compare-and-extend':
      return { op: 'extend', token, ttlMs, applied: succeeded };
    case 'acquire':
      return { op: 'acquire', token, ttlMs, conditional: true, applied: succeeded };
    case 'unknown':
      return { op: 'unknown', why: { key: 'hWhyScriptShape' } };
  }
}

function isSuccess(reply: HistoryReply): boolean {
  if (typeof reply === 'number') return reply > 0;
  if (typeof reply === 'string') return reply === 'OK' || /^[1-9][0-9]*$/.test(reply);
  return false;
}

function durationMs(text: string | undefined, unitMs: number): number | null {
  if (text === undefined || !/^[0-9]+$/.test(text)) return null;
  return Number(text) * unitMs;
}
