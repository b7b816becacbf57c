// Goal: `npm run sim -- replay` end to end: the side-by-side text report on stdout, the progress
// line on stderr, exit 0 when every reply matched although the run shows a violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealRedis, type RealRedis } from '../support/real-redis';
import { runSim as sim } from '../support/run-sim';

let redis: RealRedis;
beforeAll(async () => {
  redis = await startRealRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe('npm run sim -- replay', () => {
  it('replays get-then-del: both timelines side by side, no divergence, the violation in both runs, exit 0', async () => {
    const { status, stdout, stderr } = await sim(['replay', 'get-then-del', '--redis', `redis://127.0.0.1:${redis.port}`, '--time-scale', '2']);
    expect(stderr).toMatch(/replaying command 4 of 4, \d+\.\d s elapsed/);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^# +step +time +client +command +simulated +real$/m);
    expect(stdout).toMatch(/^4 +6 +7000 +A +DEL lock +1 +1$/m);
    expect(stdout).toContain('No divergence: all 4 replies matched.');
    expect(stdout).toContain("Violations in the real run (every reply matched, so every client made the same choices): 1\n  step 6  foreign-release: A deleted B's lock");
    expect(stdout).toContain("Removed the replay's keys");
  });
});
