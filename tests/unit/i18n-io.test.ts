// Goal: the Import / export panel's own catalog (loaded on demand with the panel) says everything
// in every language, with the same parameters: a missing text would show English or a raw `{name}`.
import { describe, expect, it } from 'vitest';
import { IO_TEXTS, ioText } from '../../src/i18n/io';

const paramsOf = (text: string) => [...text.matchAll(/\{([a-zA-Z]+)\}/g)].map((m) => m[1]).sort();

describe('the Import / export catalog', () => {
  it('has every key in every language, non-empty, with the same parameters', () => {
    const keys = Object.keys(IO_TEXTS.en).sort();
    for (const [lang, texts] of Object.entries(IO_TEXTS)) {
      expect(Object.keys(texts).sort(), lang).toEqual(keys);
      for (const key of keys) {
        const text = texts[key as keyof typeof texts];
        expect(text.trim(), `${lang}.${key}`).not.toBe('');
        expect(paramsOf(text), `${lang}.${key}`).toEqual(paramsOf(IO_TEXTS.en[key as keyof typeof texts]));
      }
    }
  });

  it('fills parameters, numbers in the reader\'s format, and leaves text from a file as it is', () => {
    expect(ioText('en', 'ioLinkTooLong', { chars: 40_000, max: 32_000 })).toBe('This scenario is too large for a link (40,000 characters; at most 32,000): share the JSON file instead.');
    expect(ioText('zh', 'ioImportChecking', { file: '<img src=x>.json' })).toBe('正在检查 <img src=x>.json…');
  });
});
