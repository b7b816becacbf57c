/**
 * The message catalog: one file per language (en.ts, zh-CN.ts), typed keys and parameters,
 * numbers, plurals and lists through Intl. A leaf: it imports nothing from the rest of Lockstep,
 * so the engine, the CLI, the worker and the page can all use it.
 */
export type { MessageKey, MessageRef } from './catalog';
export {
  LANGS,
  LANG_LABEL,
  LOCALES,
  detectLang,
  formatDuration,
  formatList,
  formatNumber,
  isLang,
  localized,
  traceRef,
  traceText,
  translateRef,
  translator,
  type Lang,
  type Translate,
} from './translate';
export { refusalRef, refusalText } from './refusals';
export { VIOLATIONS, violationKindLabel, violationSentence, violationText } from './violations';
export { boundsText, cutsText, exploreVerdictLines, faultsText, type BoundsInput, type VerdictInput } from './explore';
