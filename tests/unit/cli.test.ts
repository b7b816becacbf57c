// Goal: the CLI contract from the README: list, run with --json, clear errors with non-zero exit
// codes, a violation is still a successful run, --help on every command, and a reader that goes
// away (`| head`) ends the CLI quietly with exit code 0.
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function sim(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/cli/main.ts', ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run sim', () => {
  it('run get-then-del --json reports foreign-release at the DEL step, and exits 0', () => {
    const { status, stdout } = sim('run', 'get-then-del', '--json');
    expect(status).toBe(0);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ scenario: 'get-then-del', variant: 'get-then-del', seed: 1, schedule: 'A A A~5000 +4000 B +1000' });
    expect(out.violations.map((v: { kind: string }) => v.kind)).toEqual(['foreign-release']);
    const cause = out.events[out.violations[0].causeSeq];
    expect(cause.argv[0]).toBe('DEL');
    expect(out.violations[0].step).toBe(cause.step);
  });

  it('run get-then-del --variant lua --json reports no violation', () => {
    const { status, stdout } = sim('run', 'get-then-del', '--variant', 'lua', '--json', '--seed', '9');
    expect(status).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.variant).toBe('lua');
    expect(out.seed).toBe(9);
    expect(out.violations).toEqual([]);
  });

  it('list --json names every scenario with its variants', () => {
    const { status, stdout } = sim('list', '--json');
    expect(status).toBe(0);
    const scenarios = JSON.parse(stdout) as { id: string; variants: { id: string }[] }[];
    const headline = scenarios.find((s) => s.id === 'get-then-del');
    expect(headline?.variants.map((v) => v.id)).toEqual(expect.arrayContaining(['get-then-del', 'lua']));
  });

  it.each([
    [['run', 'no-such-scenario'], /unknown scenario "no-such-scenario"/],
    [['run', 'get-then-del', '--variant', 'nope'], /unknown variant "nope"/],
    [['run', 'get-then-del', '--schedule', 'A A +4OOO B'], /bad schedule: .*position 5: "\+4OOO"/],
    [['run', 'get-then-del', '--schedule', 'A A A A A A A'], /step \d+: cannot step A: it has finished/],
    [['run', 'get-then-del', '--seed', 'x'], /--seed must be a whole number from 0 to 4294967295/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('%j fails with a clear message on stderr and a non-zero exit', (args, message) => {
    const { status, stdout, stderr } = sim(...args);
    expect(status).not.toBe(0);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });

  it('run <scenario> --help prints the run help and runs nothing', () => {
    const { status, stdout, stderr } = sim('run', 'get-then-del', '--help');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run sim -- run <scenario>/);
    expect(stdout).not.toMatch(/schedule: A A/);
    expect(stderr).toBe('');
  });

  it('ends quietly with exit code 0 when its reader goes away (console | head)', async () => {
    const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/cli/main.ts', 'console'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    // The first reply read, the reader leaves, as `head -1` does; the CLI still has input to answer.
    child.stdout.once('data', () => child.stdout.destroy());
    child.stdin.on('error', () => undefined);
    child.stdin.end('PING\n'.repeat(50_000));
    const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
