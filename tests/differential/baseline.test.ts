import { describe, expect, it } from 'vitest';
import { ioredisMockExecutor, stopIoredisMockBaseline } from './baseline/ioredis-mock';
import { measureCorpus, renderReport } from './fidelity';
import { simExecutor, useRealRedis } from './harness';

/**
 * The fidelity report (docs/REDIS-FIDELITY.md) is produced from the whole corpus for Lockstep and
 * for ioredis-mock, the library Lockstep outgrew. Lockstep must match every case; the baseline's
 * score is reported, never required: this suite does not fail because the mock is wrong.
 */
const real = useRealRedis();
describe('fidelity report', () => {
  it('measures Lockstep and the ioredis-mock baseline over the whole corpus; Lockstep matches every case', async () => {
    const lockstep = await measureCorpus('Lockstep', real(), (diff) => simExecutor({ unixEpochMs: diff.unixEpochMs }));
    const mock = await measureCorpus('ioredis-mock 8.13.1', real(), ioredisMockExecutor).finally(stopIoredisMockBaseline);
    const report = renderReport([lockstep, mock]);
    expect(lockstep.mismatched).toEqual([]);
    expect(lockstep.casesMatched).toBe(lockstep.cases);
    expect(mock.cases).toBe(lockstep.cases);
    expect(mock.casesMatched).toBeGreaterThanOrEqual(0);
    expect(report).toContain(`| Lockstep | ${lockstep.cases} / ${lockstep.cases} (100%) |`);
    expect(report).toMatch(new RegExp(`\\| ioredis-mock 8\\.13\\.1 \\| \\d+ / ${mock.cases} \\(\\d+%\\) \\| \\d+ / ${mock.replies} \\|`));
  }, 120_000);
});
