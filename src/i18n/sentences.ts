/**
 * Reading a catalog sentence back: the English text a message key rendered (with plain numbers,
 * traceText) back to its key and parameters, so text that was kept as English (a trace's
 * violation message, a refusal inside a notice) can be shown in another language.
 */
import type { MessageKey } from './catalog';
import { en } from './en';

interface Pattern {
  readonly regex: RegExp;
  readonly names: readonly string[];
}

const patterns = new Map<MessageKey, Pattern>();

function patternOf(key: MessageKey): Pattern {
  let pattern = patterns.get(key);
  if (!pattern) {
    const template = en[key];
    if (typeof template !== 'string') throw new Error(`sentence ${key} has plural forms`);
    const names: string[] = [];
    const source = template
      .split(/\{([a-zA-Z]+)\}/)
      .map((piece, i) => {
        if (i % 2 === 0) return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(piece);
        return '(.+?)';
      })
      .join('');
    pattern = { regex: new RegExp(`^${source}$`, 's'), names };
    patterns.set(key, pattern);
  }
  return pattern;
}

/** The first of `keys` whose English sentence is `text`, with its parameters; null if none fits. */
export function matchSentence(keys: readonly MessageKey[], text: string): { key: MessageKey; params: Record<string, string | number> } | null {
  for (const key of keys) {
    const { regex, names } = patternOf(key);
    const match = regex.exec(text);
    if (!match) continue;
    const params: Record<string, string | number> = {};
    // Digits are counts and times: numbers, so each language formats them its own way.
    names.forEach((name, i) => {
      const value = match[i + 1];
      params[name] = /^-?[0-9]+$/.test(value) ? Number(value) : value;
    });
    return { key, params };
  }
  return null;
}
