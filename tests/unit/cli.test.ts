// Goal: the CLI contract from the README: list, run with --json, clear errors with non-zero exit
// codes, and a violation is still a successful run.
import { spawnSync } from 'node:child_process';
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
    [['run', 'get-then-del', '--seed', 'x'], /--seed must be an integer/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('%j fails with a clear message on stderr and a non-zero exit', (args, message) => {
    const { status, stdout, stderr } = sim(...args);
    expect(status).not.toBe(0);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });
});
