/**
 * What Lockstep remembers between visits, in localStorage: preferences (language, theme,
 * presentation mode) and the last run (as a share-link hash, so it is validated like any link).
 * Storage can be missing or full (private mode, embeds): every access is guarded.
 */
import { isLang, type Lang } from '../../i18n';
import type { Theme } from '../store/types';

export interface Prefs {
  readonly lang?: Lang;
  readonly theme?: Theme;
  readonly presentation?: boolean;
}

const PREFS_KEY = 'lockstep.prefs.v1';
const SESSION_KEY = 'lockstep.session.v1';
const storedLengthMax = 140_000;

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function browserStorage(): KeyValueStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function read(storage: KeyValueStorage | null, key: string): string | null {
  try {
    const value = storage?.getItem(key) ?? null;
    return value !== null && value.length <= storedLengthMax ? value : null;
  } catch {
    return null;
  }
}

function write(storage: KeyValueStorage | null, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // Full or forbidden storage: remembering is a convenience, not a requirement.
  }
}

export function loadPrefs(storage: KeyValueStorage | null): Prefs {
  const text = read(storage, PREFS_KEY);
  if (text === null) return {};
  try {
    const raw: unknown = JSON.parse(text);
    if (typeof raw !== 'object' || raw === null) return {};
    const r = raw as Record<string, unknown>;
    return {
      lang: isLang(r.lang) ? r.lang : undefined,
      theme: r.theme === 'light' || r.theme === 'dark' ? r.theme : undefined,
      presentation: typeof r.presentation === 'boolean' ? r.presentation : undefined,
    };
  } catch {
    return {};
  }
}

export function savePrefs(storage: KeyValueStorage | null, prefs: Prefs): void {
  write(storage, PREFS_KEY, JSON.stringify({ lang: prefs.lang, theme: prefs.theme, presentation: prefs.presentation }));
}

/** The last run's share hash, or null. The caller validates it like any link. */
export function loadSessionHash(storage: KeyValueStorage | null): string | null {
  const text = read(storage, SESSION_KEY);
  return text !== null && text.startsWith('#/') ? text : null;
}

export function saveSessionHash(storage: KeyValueStorage | null, hash: string): void {
  write(storage, SESSION_KEY, hash);
}
