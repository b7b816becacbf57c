import { describe, expect, it } from 'vitest';
import { ChoiceError } from '../../src/engine/choice-error';
import { Simulation } from '../../src/engine/simulation';
import { en } from '../../src/i18n/en';
import { zhCN } from '../../src/i18n/zh-CN';
import { refusalRef, refusalText, traceRef, type MessageKey, type MessageRef } from '../../src/i18n';
import { findScenario } from '../../src/scenarios';

const REFUSAL_KEYS = (Object.keys(en) as MessageKey[]).filter((k) => k.startsWith('refuse') && k !== 'refuseAtStep' && k !== 'refuseProgram');

/** Sample parameters for a key: each `{name}` gets a value of its own, numbers for times and bounds. */
function sampleRef(key: MessageKey): MessageRef {
  const names = [...(en[key] as string).matchAll(/\{([a-zA-Z]+)\}/g)].map((m) => m[1]);
  const params: Record<string, string | number> = {};
  names.forEach((name, i) => (params[name] = /max|Ms$/.test(name) ? 10_000 + i : `X${i}`));
  return (names.length === 0 ? { key } : { key, params }) as MessageRef;
}

describe('refusals in every language', () => {
  it('has every refusal sentence in Chinese, with the same parameters and no untranslated copy', () => {
    expect(REFUSAL_KEYS.length).toBeGreaterThan(30);
    for (const key of [...REFUSAL_KEYS, 'refuseAtStep', 'refuseProgram'] as MessageKey[]) {
      const names = (s: unknown) => [...String(s).matchAll(/\{([a-zA-Z]+)\}/g)].map((m) => m[1]).sort();
      expect(names(zhCN[key]), key).toEqual(names(en[key]));
      expect(zhCN[key], key).not.toEqual(en[key]);
      expect(String(zhCN[key]), key).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('reads each English refusal back to its own key and parameters', () => {
    for (const key of REFUSAL_KEYS) {
      const ref = sampleRef(key);
      expect(refusalRef(traceRef(ref)), key).toEqual(ref);
    }
  });

  it('words a ChoiceError message (step prefix and all) in Chinese, and leaves text it does not know as it is', () => {
    const reason = traceRef({ key: 'refuseStepFinished', params: { client: 'A' } });
    expect(reason).toBe('cannot step A: it has finished');
    expect(refusalText(`step 7: ${reason}`, 'zh')).toBe('第 7 步：无法单步 A：它已结束');
    expect(refusalText(`step 7: ${reason}`, 'en')).toBe(`step 7: ${reason}`);
    expect(refusalText('ERR unbalanced quotes', 'zh')).toBe('ERR unbalanced quotes');
  });

  it('gives the engine refusal as a key the page words, and the same English as before in ChoiceError', () => {
    const sim = new Simulation(findScenario('get-then-del'));
    // Step A until it has finished (bounded: a lesson's client ends in a few steps).
    for (let i = 0; i < 50 && sim.refusal({ kind: 'step', clientId: 'A' }) === null; i++) sim.apply({ kind: 'step', clientId: 'A' });
    const ref = sim.refusalRef({ kind: 'step', clientId: 'A' });
    expect(ref).toEqual({ key: 'refuseStepFinished', params: { client: 'A' } });
    expect(sim.refusal({ kind: 'step', clientId: 'A' })).toBe('cannot step A: it has finished');
    let thrown: unknown;
    try {
      sim.apply({ kind: 'step', clientId: 'A' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ChoiceError);
    expect((thrown as ChoiceError).ref).toEqual(ref);
    expect(refusalText((thrown as ChoiceError).message, 'zh')).toMatch(/^第 \d+ 步：无法单步 A：它已结束$/);
    expect(refusalText(sim.refusalRef({ kind: 'console', argv: ['BLPOP', 'q', '0'] }) as MessageRef, 'zh')).toBe(
      '控制台不运行 BLPOP：它会阻塞到数据到达，而控制台不能在一步之内等待',
    );
  });
});
