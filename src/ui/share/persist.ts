/**
 * What Lockstep remembers between visits, in localStorage: preferences (language, theme,
 * presentation mode), the last run (as a share-link hash, so it is validated like any link) and the
 * lesson progress (validated with a schema; unreadable progress is kept aside, never dropped).
 * Storage can be missing or full (private mode, embeds): every access is guarded.
 */
import * as v from 'valibot';
import { isLang, type Lang } from '../../i18n';
import { EMPTY_PROGRESS, type Progress } from '../store/slices/learn';
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

const PROGRESS_KEY = 'lockstep.progress.v1';
/** Where unreadable progress is kept, so a bad write or a newer format never loses it. */
export const PROGRESS_UNREADABLE_KEY = 'lockstep.progress.v1.unreadable';
const idLengthMax = 64;
const lessonCountMax = 500;
const challengeCountMax = 100;
const choiceCountMax = 10_000;

const Id = v.pipe(v.string(), v.maxLength(idLengthMax), v.regex(/^[a-z0-9][a-z0-9-]*$/));
const LessonSchema = v.strictObject({
  visited: v.boolean(),
  met: v.pipe(v.record(Id, v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(choiceCountMax))), v.check((r) => Object.keys(r).length <= challengeCountMax, 'too many challenges')),
});
const ProgressSchema = v.strictObject({
  version: v.literal(1),
  lessons: v.pipe(v.record(Id, LessonSchema), v.check((r) => Object.keys(r).length <= lessonCountMax, 'too many lessons')),
});

export type ProgressLoad = { readonly progress: Progress; readonly error: string | null };

/**
 * The lesson progress this browser saved. Text that does not pass the schema is not dropped: it is
 * copied to PROGRESS_UNREADABLE_KEY and the caller is told why, so the page can say so.
 */
export function loadProgress(storage: KeyValueStorage | null): ProgressLoad {
  const text = read(storage, PROGRESS_KEY);
  if (text === null) return { progress: EMPTY_PROGRESS, error: null };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    write(storage, PROGRESS_UNREADABLE_KEY, text);
    return { progress: EMPTY_PROGRESS, error: 'not JSON' };
  }
  const parsed = v.safeParse(ProgressSchema, raw);
  if (!parsed.success) {
    write(storage, PROGRESS_UNREADABLE_KEY, text);
    const issue = parsed.issues[0];
    const where = v.getDotPath(issue) ?? 'progress';
    return { progress: EMPTY_PROGRESS, error: `${where}: ${issue.message}`.slice(0, 120) };
  }
  return { progress: { lessons: parsed.output.lessons }, error: null };
}

export function saveProgress(storage: KeyValueStorage | null, progress: Progress): void {
  write(storage, PROGRESS_KEY, JSON.stringify({ version: 1, lessons: progress.lessons }));
}
