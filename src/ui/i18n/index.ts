import type { LocalizedText } from '../../engine/program';
import { en, zh, type StringKey } from './strings';

export type Lang = 'en' | 'zh';
export const LANGS: readonly Lang[] = ['en', 'zh'];
export type { StringKey };


/** The `lang` attribute for the document: Chinese here is Simplified Chinese. */
export const HTML_LANG: Record<Lang, string> = { en: 'en', zh: 'zh-CN' };
/** The language switch shows each language in its own words. */
export const LANG_LABEL: Record<Lang, string> = { en: 'English', zh: '中文' };

export function isLang(value: unknown): value is Lang {
  return value === 'en' || value === 'zh';
}

/** The browser's preferred language, if it is one Lockstep speaks; English otherwise. */
export function detectLang(languages: readonly string[] | undefined): Lang {
  for (const tag of languages ?? []) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

export type Params = Readonly<Record<string, string | number>>;
export type Translate = (key: StringKey, params?: Params) => string;

export function format(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(/\{([a-zA-Z]+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

const TRANSLATORS: Record<Lang, Translate> = {
  en: (key, params) => format(en[key], params),
  zh: (key, params) => format(zh[key], params),
};

/** The translate function for a language; the same function each time (safe as a selector result). */
export function translator(lang: Lang): Translate {
  return TRANSLATORS[lang];
}

export function localized(text: LocalizedText | undefined, lang: Lang): string {
  if (!text) return '';
  return text[lang] || text.en;
}
