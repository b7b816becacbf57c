// Goal: one catalog says everything in every language, with the same parameters, and nothing in
// it is dead; violations read back from the trace's English into any language; numbers, plurals,
// durations and lists follow the reader's locale. A missing or mismatched string would show
// English or a raw `{name}` to a class.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventDescriber } from '../../src/engine/describe';
import { Simulation } from '../../src/engine/simulation';
import { PROPERTY_VIOLATION_KIND, VIOLATION_KINDS } from '../../src/engine/trace';
import {
  detectLang,
  formatDuration,
  formatList,
  formatNumber,
  LANGS,
  traceText,
  translator,
  VIOLATIONS,
  violationKindLabel,
  violationSentence,
  violationText,
  type MessageKey,
} from '../../src/i18n';
import type { Catalog, Message } from '../../src/i18n/catalog';
import { en } from '../../src/i18n/en';
import { zhCN } from '../../src/i18n/zh-CN';
import { SCENARIOS } from '../../src/scenarios';

const CATALOGS: Record<string, Catalog> = { en, 'zh-CN': zhCN };
const KEYS = Object.keys(en) as MessageKey[];

const formsOf = (message: Message): string[] => (typeof message === 'string' ? [message] : Object.values(message));
const paramsOf = (message: Message): string[] => [...new Set(formsOf(message).flatMap((form) => [...form.matchAll(/\{([a-zA-Z]+)\}/g)].map((m) => m[1])))].sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every violation the scenarios produce under their default schedules, in every variant. */
function scenarioViolations() {
  return SCENARIOS.flatMap((scenario) =>
    scenario.variants.flatMap((variant) => {
      const sim = new Simulation(scenario, { variantId: variant.id });
      sim.applySchedule(scenario.defaultSchedule);
      return sim.trace().violations;
    }),
  );
}

describe('message catalog', () => {
  it('has every key in every language, non-empty, with the same parameters and plural forms', () => {
    for (const [name, catalog] of Object.entries(CATALOGS)) {
      expect(Object.keys(catalog).sort(), name).toEqual([...KEYS].sort());
      for (const key of KEYS) {
        const message = catalog[key];
        for (const form of formsOf(message)) expect(form.trim(), `${name}.${key}`).not.toBe('');
        expect(paramsOf(message), `${name}.${key} parameters`).toEqual(paramsOf(en[key]));
        if (typeof message !== 'string') {
          expect(message.other, `${name}.${key} needs an "other" form`).toBeTruthy();
          expect(paramsOf(message), `${name}.${key}: plural forms choose by {n}`).toContain('n');
        }
      }
    }
  });

  it('holds no dead message: every key is used by name somewhere in src/', () => {
    const code = sourceFiles('src')
      .filter((path) => !/[/\\]i18n[/\\](en|zh-CN)\.ts$/.test(path))
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
    const unused = KEYS.filter((key) => !code.includes(`'${key}'`));
    expect(unused).toEqual([]);
  });

  it('knows every violation kind the engine reports, with a label in each language', () => {
    // The checkers' kinds, and `property` (a scenario's own property broke).
    const reported = [...VIOLATION_KINDS, PROPERTY_VIOLATION_KIND];
    expect(Object.keys(VIOLATIONS).sort()).toEqual(reported.sort());
    for (const kind of reported) {
      expect(violationKindLabel(kind, 'en')).toMatch(/^[a-z ]+$/);
      expect(violationKindLabel(kind, 'zh')).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('reads every scenario violation back from the trace English and says it in each language', () => {
    const violations = scenarioViolations();
    expect(new Set(violations.map((v) => v.violation)).size).toBeGreaterThanOrEqual(6);
    for (const v of violations) {
      const sentence = violationSentence(v.violation, v.message);
      expect(sentence, v.message).not.toBeNull();
      // The checker wrote exactly this sentence: the catalog's English with plain numbers.
      expect((traceText as (key: MessageKey, params: object) => string)(sentence!.key, sentence!.params)).toBe(v.message);
      const zh = violationText(v.violation, v.message, 'zh');
      expect(zh, v.message).toMatch(/[\u4e00-\u9fff]/);
      expect(zh).not.toMatch(/[{}]/);
      // Every detail of the English (who, which key, how many) is in the Chinese too.
      for (const value of Object.values(sentence!.params)) expect(zh).toContain(typeof value === 'number' ? formatNumber(value, 'zh') : value);
    }
  });

  it('says the headline violation and the duplicate rebuild in Chinese, details included', () => {
    expect(violationText('foreign-release', "A deleted B's lock", 'zh')).toBe('A 删除了 B 的锁');
    expect(violationText('duplicate-rebuild', 'B queried the database for product:42 again: 2 queries where 1 would do', 'zh')).toBe(
      'B 又一次为 product:42 查询了数据库：查询了 2 次，1 次就够了',
    );
    expect(violationText('load-spike', '4 database queries within 500 ms, more than the 2 the database takes', 'zh')).toBe(
      '500 毫秒内有 4 次数据库查询，超过了数据库能承受的 2 次',
    );
    expect(violationText('lock-held-too-long', 'A has held the lock for 13000 ms, longer than the 12000 ms any critical section here should take', 'zh')).toBe(
      'A 已持锁 13,000 毫秒，超过了这里任何临界区应有的 12,000 毫秒',
    );
    // A sentence the catalog cannot read back stays the checker's English rather than vanishing.
    expect(violationText('foreign-release', 'something else entirely', 'zh')).toBe('something else entirely');
  });

  it('describes every event kind of the scenarios in each language without a raw parameter', () => {
    const kinds = new Set<string>();
    for (const scenario of SCENARIOS) {
      for (const variant of scenario.variants) {
        const sim = new Simulation(scenario, { variantId: variant.id });
        sim.applySchedule(scenario.defaultSchedule);
        const tokens = Object.fromEntries(sim.clients.map((c) => [c.id, c.vars.token ?? '']));
        for (const lang of LANGS) {
          const describe = eventDescriber({ lang, tokens });
          for (const event of sim.allEvents()) {
            kinds.add(event.kind);
            const text = describe(event);
            expect(text, `${scenario.id} ${event.kind} in ${lang}`).not.toMatch(/\{[a-zA-Z]+\}/);
            if (lang === 'zh' && !['set', 'command'].includes(event.kind)) expect(text, `${event.kind} in zh`).toMatch(/[\u4e00-\u9fff]/);
          }
        }
      }
    }
    expect(kinds.size).toBeGreaterThanOrEqual(12);
  });

  it('formats numbers, plurals, durations and lists per locale', () => {
    expect(formatNumber(4000, 'en')).toBe('4000');
    expect(formatNumber(12000, 'en')).toBe('12,000');
    expect(formatNumber(1234567, 'zh')).toBe('1,234,567');
    expect(formatDuration(500, 'zh')).toBe('500 毫秒');
    expect(formatDuration(6000, 'zh')).toBe('6 秒');
    expect(formatDuration(6000, 'en')).toBe('6 s');
    expect(formatDuration(12_500, 'en')).toBe('12.5 s');
    const t = translator('en');
    expect(t('evGiveUp', { n: 1 })).toBe('gives up after 1 retry');
    expect(t('evGiveUp', { n: 3 })).toBe('gives up after 3 retries');
    expect(translator('zh')('evGiveUp', { n: 1 })).toBe('重试 1 次后放弃');
    expect(t('speedValue', { n: 0.5 })).toBe('0.5 steps/s');
    expect(t('stepOf', { cursor: 10000, length: 10000 })).toBe('Step 10,000 / 10,000');
    expect(translator('zh')('stepOf', { cursor: 3, length: 5 })).toBe('第 3 / 5 步');
    expect(formatList(['A', 'B'], 'en')).toBe('A and B');
    expect(formatList(['A', 'B', 'C'], 'zh')).toBe('A、B和C');
  });

  it('writes the trace English with plain digits, whatever the locale', () => {
    expect(traceText('vLockHeldTooLong', { a: 'A', heldMs: 13000, limitMs: 12000 })).toBe(
      'A has held the lock for 13000 ms, longer than the 12000 ms any critical section here should take',
    );
  });

  it('picks the first language it speaks from the browser list', () => {
    expect(detectLang(['zh-CN', 'en'])).toBe('zh');
    expect(detectLang(['zh-TW'])).toBe('zh');
    expect(detectLang(['fr-FR', 'en-GB', 'zh'])).toBe('en');
    expect(detectLang(['fr-FR'])).toBe('en');
    expect(detectLang(undefined)).toBe('en');
  });
});
