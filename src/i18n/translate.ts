/**
 * Languages, the translate function, and number, duration and list formatting through Intl. Pure
 * and DOM-free: the page, the worker, the engine (for the trace's English) and the CLI use it.
 */
import type { Catalog, Message, MessageKey, MessageRef, ParamArgs } from './catalog';
import { en } from './en';
import { zhCN } from './zh-CN';

/** The languages Lockstep speaks. `zh` is Simplified Chinese (the file zh-CN.ts). */
export type Lang = 'en' | 'zh';
export const LANGS: readonly Lang[] = ['en', 'zh'];
/** BCP 47 tag of each language: the document's `lang` and the locale for Intl. */
export const LOCALES: Readonly<Record<Lang, string>> = { en: 'en', zh: 'zh-CN' };
/** The language switch shows each language in its own words. */
export const LANG_LABEL: Readonly<Record<Lang, string>> = { en: 'English', zh: '中文' };

const CATALOGS: Readonly<Record<Lang, Catalog>> = { en, zh: zhCN };

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

export interface Translate {
  <K extends MessageKey>(key: K, ...params: ParamArgs<K>): string;
}

type Values = Readonly<Record<string, string | number>>;

interface Formatters {
  readonly number: (n: number) => string;
  readonly plural: (n: number) => Intl.LDMLPluralRule;
}

function formattersFor(locale: string): Formatters {
  // Separators from five digits on ("4000 ms", "12,000 ms"): times read like the schedule's "+4000".
  // ('min2' is ES2023's NumberFormat v3, in Node 20 and every current browser; ES2022's types lack it.)
  const numbers = new Intl.NumberFormat(locale, { useGrouping: 'min2', maximumFractionDigits: 3 } as unknown as Intl.NumberFormatOptions);
  const plurals = new Intl.PluralRules(locale);
  return { number: (n) => numbers.format(n), plural: (n) => plurals.select(n) };
}

/** The trace's English: numbers as plain digits, so a trace never depends on a locale's data. */
const PLAIN: Formatters = { number: (n) => String(n), plural: (n) => (n === 1 ? 'one' : 'other') };

function render(message: Message, values: Values | undefined, f: Formatters): string {
  let template: string;
  if (typeof message === 'string') template = message;
  else {
    const n = values?.n;
    template = (typeof n === 'number' ? message[f.plural(n)] : undefined) ?? message.other;
  }
  if (!values) return template;
  // An unknown parameter stays visible as `{name}`: a wrong call shows, rather than vanishing.
  return template.replace(/\{([a-zA-Z]+)\}/g, (match, name: string) => {
    if (!(name in values)) return match;
    const value = values[name];
    return typeof value === 'number' ? f.number(value) : value;
  });
}

function makeTranslate(catalog: Catalog, f: Formatters): Translate {
  return ((key: MessageKey, params?: Values) => render(catalog[key], params, f)) as Translate;
}

const FORMATTERS: Readonly<Record<Lang, Formatters>> = { en: formattersFor(LOCALES.en), zh: formattersFor(LOCALES.zh) };
const TRANSLATORS: Readonly<Record<Lang, Translate>> = { en: makeTranslate(en, FORMATTERS.en), zh: makeTranslate(zhCN, FORMATTERS.zh) };

/** The translate function for a language; the same function each time (safe as a selector result). */
export function translator(lang: Lang): Translate {
  return TRANSLATORS[lang];
}

/** A message kept for later (a notice), in `lang`. */
export function translateRef(ref: MessageRef, lang: Lang): string {
  return render(CATALOGS[lang][ref.key], ref.params as Values | undefined, FORMATTERS[lang]);
}

/** English with plain numbers: the words the engine writes into a trace (violation messages). */
export const traceText: Translate = makeTranslate(en, PLAIN);

/** A kept message in the trace's English (plain numbers): a refusal the engine made as a MessageRef. */
export function traceRef(ref: MessageRef): string {
  return render(en[ref.key], ref.params as Values | undefined, PLAIN);
}

export function formatNumber(n: number, lang: Lang): string {
  return FORMATTERS[lang].number(n);
}

/** A duration for a reader: whole seconds as seconds ("6 s", "6 秒"), else milliseconds ("500 ms"). */
export function formatDuration(ms: number, lang: Lang): string {
  const t = TRANSLATORS[lang];
  if (ms >= 1000 && ms % 1000 === 0) return t('unitS', { n: ms / 1000 });
  if (ms >= 10_000) return t('unitS', { n: Math.round(ms / 100) / 10 });
  return t('unitMs', { n: ms });
}

const LISTS: Readonly<Record<Lang, Intl.ListFormat>> = {
  en: new Intl.ListFormat(LOCALES.en, { type: 'conjunction' }),
  zh: new Intl.ListFormat(LOCALES.zh, { type: 'conjunction' }),
};

/** "A and B", "A、B和C". */
export function formatList(items: readonly string[], lang: Lang): string {
  return LISTS[lang].format(items);
}

const ALTERNATIVES: Readonly<Record<Lang, Intl.ListFormat>> = {
  en: new Intl.ListFormat(LOCALES.en, { type: 'disjunction' }),
  zh: new Intl.ListFormat(LOCALES.zh, { type: 'disjunction' }),
};

/** "A or B", "A或B": one of several (a stall of 5 s or 7 s). */
export function formatAlternatives(items: readonly string[], lang: Lang): string {
  return ALTERNATIVES[lang].format(items);
}

/** A scenario text (per-scenario content, not in the catalog) in `lang`, English when missing. */
export function localized(text: { readonly en: string; readonly zh?: string } | undefined, lang: Lang): string {
  if (!text) return '';
  return (lang === 'zh' ? text.zh : text.en) || text.en;
}
