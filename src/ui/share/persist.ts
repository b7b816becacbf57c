/**
 * What Lockstep remembers between visits, in localStorage: preferences (language, theme,
 * presentation mode) and the last run (as a share-link hash, so it is validated like any link).
 * Storage can be missing or full (private mode, embeds): every access is guarded.
 */
import { isLang, type Lang } from '../../i18n';
import type { SavedRun, Theme } from '../store/types';

export interface Prefs {
  readonly lang?: Lang;
  readonly theme?: Theme;
  readonly presentation?: boolean;
}

const PREFS_KEY = 'lockstep.prefs.v1';
const SESSION_KEY = 'lockstep.session.v1';
const UNRESTORED_KEY = 'lockstep.session.unrestored.v1';
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

/** The last run this browser saved (see `SavedRun`), its text whole so the page can report and keep it. */
export function loadSavedRun(storage: KeyValueStorage | null): SavedRun {
  let text: string | null;
  try {
    text = storage?.getItem(SESSION_KEY) ?? null;
  } catch {
    return { kind: 'none' };
  }
  if (text === null || text === '') return { kind: 'none' };
  // A text too long to be a link is refused by the link parser with its length: report it, keep it.
  return text.startsWith('#/') ? { kind: 'hash', hash: text } : { kind: 'unreadable', text };
}

/**
 * Keeps a saved run that could not be restored under its own key, so the next save of the
 * current run does not destroy it: the notice offers to copy it, and it stays until replaced by
 * the next unrestorable one.
 */
export function keepUnrestoredRun(storage: KeyValueStorage | null, text: string): void {
  write(storage, UNRESTORED_KEY, text);
}

export function saveSessionHash(storage: KeyValueStorage | null, hash: string): void {
  write(storage, SESSION_KEY, hash);
}
