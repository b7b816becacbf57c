import { describe, expect, it } from 'vitest';
import { VIOLATION_KINDS, type ViolationEvent } from '../../src/engine/trace';
import { detectLang, format, translator } from '../../src/ui/i18n';
import { violationKindLabel, violationMessage } from '../../src/ui/i18n/describe';
import { en, zh } from '../../src/ui/i18n/strings';

// Goal: both languages say everything, with the same parameters, and the page picks the reader's
// language. A missing or mismatched Chinese string would show English or a raw `{name}` to a class.

const placeholders = (text: string) => [...text.matchAll(/\{([a-zA-Z]+)\}/g)].map((m) => m[1]).sort();

describe('i18n', () => {
  it('has every string in Chinese, non-empty, with the same placeholders', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(zh[key], key).toBeTruthy();
      expect(placeholders(zh[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('names every violation kind in both languages', () => {
    for (const kind of VIOLATION_KINDS) {
      expect(violationKindLabel(kind, 'en')).toMatch(/^[a-z ]+$/);
      expect(violationKindLabel(kind, 'zh')).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('says the headline violation in plain Chinese', () => {
    const lock = { value: null, pttlMs: -2, holder: null };
    const v = { kind: 'violation', violation: 'foreign-release', clients: ['A', 'B'], message: "A deleted B's lock", lockBefore: lock, lockAfter: lock } as unknown as ViolationEvent;
    expect(violationMessage(v, 'en')).toBe("A deleted B's lock");
    expect(violationMessage(v, 'zh')).toBe('A 删除了 B 的锁');
  });

  it('picks the first language it speaks from the browser list', () => {
    expect(detectLang(['zh-CN', 'en'])).toBe('zh');
    expect(detectLang(['zh-TW'])).toBe('zh');
    expect(detectLang(['fr-FR', 'en-GB', 'zh'])).toBe('en');
    expect(detectLang(['fr-FR'])).toBe('en');
    expect(detectLang(undefined)).toBe('en');
  });

  it('fills parameters and leaves unknown ones visible', () => {
    expect(format('step {n} of {m}', { n: 2 })).toBe('step 2 of {m}');
    expect(translator('zh')('stepOf', { cursor: 3, length: 5 })).toBe('第 3 / 5 步');
  });
});
