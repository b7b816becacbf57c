// Goal: the history checker's differential test. Built-in lessons replay on a real redis-server
// with --record; the check of the recorded real history must agree with the simulation's verdict:
// every violation the simulation shows is found (certain or possible), every certain one the
// history shows is one the simulation shows, and a lesson without violation checks clean.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlan, timeScaleMax } from '../../src/cli/replay/plan';
import { checkHistoryText, HISTORY_VIOLATION_KINDS } from '../../src/history';
import { findScenario } from '../../src/scenarios';
import { startRealRedis, type RealRedis } from '../support/real-redis';
import { prepared, type JsonReport } from './support';

const LESSONS = [
  'plain-del/plain-del',
  'get-then-del/get-then-del',
  'get-then-del/lua',
  'lease-expires-mid-work/lua-release',
  'lease-expires-mid-work/fencing',
  'setnx-no-ttl/setnx',
  'watchdog/renewal',
  'watchdog/zombie',
  'sub-second-lease/px',
] as const;

/** As fast as leaves this many real ms between a command and an expiry (tests/replay/scenarios.test.ts does the same). */
const testMarginMs = 200;

let redis: RealRedis;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-replay-record-'));
const runs = new Map<string, { code: number; report: JsonReport; history: string; timeScale: number }>();

/** A replay that falls behind on a busy machine runs again at half the speed, at most this many times in all. */
const attemptCountMax = 4;

beforeAll(async () => {
  redis = await startRealRedis();
  // The lessons replay side by side (their keys are apart), each as fast as its margins allow.
  await Promise.all(
    LESSONS.map(async (id) => {
      const [scenario, variant] = id.split('/');
      const probe = buildPlan(findScenario(scenario), { variantId: variant, seed: 1, timeScale: 1, keyPrefix: 'probe:', allowServerWide: false });
      let timeScale = probe.margin === null ? 100 : Math.max(1, Math.min(timeScaleMax, Math.floor(probe.margin.virtualMs / testMarginMs)));
      for (let attempt = 1; attempt <= attemptCountMax; attempt++) {
        const file = path.join(dir, `${scenario}-${variant}-${attempt}.jsonl`);
        const run = prepared({ scenario, variant, redis: `redis://127.0.0.1:${redis.port}`, timeScale, keyPrefix: `rec:${scenario}:${variant}:`, record: file });
        const { code, stdout } = await run();
        const report = JSON.parse(stdout) as JsonReport;
        runs.set(id, { code, report, history: fs.readFileSync(file, 'utf8'), timeScale });
        if (!(code === 2 && /behind/.test(report.error ?? '')) || timeScale === 1) break;
        timeScale = Math.max(1, Math.floor(timeScale / 2));
      }
    }),
  );
}, 120_000);

afterAll(async () => {
  await redis.stop();
});

describe('replay --record: the check of the real history agrees with the simulation', () => {
  it.each(LESSONS)('%s', (id) => {
    const run = runs.get(id);
    expect(run?.code).toBe(0);
    if (run === undefined) return;
    const [scenarioId, variantId] = id.split('/');
    const scenario = findScenario(scenarioId);
    const variant = scenario.variants.find((v) => v.id === variantId);
    const lockKey = `rec:${scenarioId}:${variantId}:${variant?.lockKey ?? scenario.lockKey}`;
    const maxHoldMs = scenario.lockHoldMsMax === undefined ? undefined : scenario.lockHoldMsMax / run.timeScale;
    const verdict = checkHistoryText(run.history, { lockKey, maxHoldMs });
    expect(verdict.problems).toEqual([]);
    const known = new Set<string>(HISTORY_VIOLATION_KINDS);
    const simulated = new Set(run.report.verdicts.simulation.map((v) => v.kind).filter((k) => known.has(k)));
    const found = new Set(verdict.violations.map((v) => v.kind));
    const certain = new Set(verdict.violations.filter((v) => v.certainty === 'certain').map((v) => v.kind));
    for (const kind of simulated) expect(found, `the simulation shows ${kind}`).toContain(kind);
    for (const kind of certain) expect(simulated, `the history shows ${kind} for certain`).toContain(kind);
    if (simulated.size === 0) expect(verdict.violations.filter((v) => v.certainty === 'certain')).toEqual([]);
  });
});
