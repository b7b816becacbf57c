// Goal: the workbench's console and client texts (loaded with the workbench, outside the main
// catalogs) exist in both languages with the same parameters, so neither language shows a raw key
// or an unfilled {name}.
import { describe, expect, it } from 'vitest';
import { workbenchExtraText, type WorkbenchExtraKey } from '../../src/i18n/workbench-extra';

const KEYS: readonly WorkbenchExtraKey[] = ['tab', 'label', 'run', 'prompt', 'empty', 'forks', 'help', 'refused', 'error', 'noted', 'clients', 'addClient', 'addClientFrom', 'removeClient', 'clientsNote', 'insertStep', 'insertAt', 'insertEnd', 'insertKind', 'insertDo', 'kindCommand', 'kindScript', 'kindWork', 'kindSleep', 'insertMs'];

describe('workbench-extra texts', () => {
  it('has every text in both languages with the same parameters', () => {
    const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of KEYS) {
      const en = workbenchExtraText('en', key);
      const zh = workbenchExtraText('zh', key);
      expect(en.length, key).toBeGreaterThan(0);
      expect(zh.length, key).toBeGreaterThan(0);
      expect(params(zh), key).toEqual(params(en));
    }
    expect(workbenchExtraText('en', 'removeClient', { id: 'B' })).toBe('Remove client B');
    expect(workbenchExtraText('zh', 'prompt', { ms: 6000 })).toBe('t=6000 毫秒>');
  });
});
