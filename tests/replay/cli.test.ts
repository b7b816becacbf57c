// Goal: `npm run sim -- replay` end to end: the side-by-side text report on stdout, the progress
// line on stderr, exit 0 when every reply matched although the run shows a violation.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealRedis, type RealRedis } from '../support/real-redis';

let redis: RealRedis;
beforeAll(async () => {
  redis = await startRealRedis();
});
afterAll(async () => {
  await redis?.stop();
});

function sim(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/cli/main.ts', ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

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
