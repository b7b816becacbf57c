// Goal: the `explore` command's contract (README, docs/EXPLORER.md): it finds get-then-del's
// foreign release and prints a schedule that `run --schedule` replays to it, exits 3 when it finds
// a violation and 0 when it proves none within the bounds, says "exhaustive" only when it was, and
// refuses bad options with a clear message and exit code 2.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../../src/cli/args';

function sim(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/cli/main.ts', ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run sim -- explore', () => {
  it('finds the foreign release with the stall between GET and DEL, exits 3, and the schedule replays', () => {
    const { status, stdout } = sim('explore', 'get-then-del', '--invariant', 'foreign-release', '--json');
    expect(status).toBe(3);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ scenario: 'get-then-del', variant: 'get-then-del', violation: { kind: 'foreign-release', steps: 5 } });
    expect(out.violation.schedule).toMatch(/A~5000/);
    for (const field of ['exhaustive', 'statesExplored', 'transitionsExplored', 'depthReached', 'elapsedMs']) expect(out).toHaveProperty(field);
    const replay = JSON.parse(sim('run', 'get-then-del', '--schedule', out.violation.schedule, '--json').stdout);
    expect(replay.violations.map((v: { kind: string }) => v.kind)).toContain('foreign-release');
  });

  it('--compare-variants replays the found schedule on every variant: which break, which refuse a step, where each differs', () => {
    const { status, stdout } = sim('explore', 'get-then-del', '--invariant', 'foreign-release', '--compare-variants', '--json');
    expect(status).toBe(3);
    const out = JSON.parse(stdout);
    const [compared] = out.compared;
    expect(compared.schedule).toBe(out.violation.schedule);
    const byVariant = Object.fromEntries(compared.variants.map((v: { variant: string }) => [v.variant, v]));
    expect(Object.keys(byVariant)).toEqual(['get-then-del', 'lua', 'delex']);
    expect(byVariant['get-then-del']).toMatchObject({ refused: null, firstDivergentStep: null });
    expect(byVariant['get-then-del'].violations.map((v: { kind: string }) => v.kind)).toContain('foreign-release');
    // The atomic release finishes A sooner: the schedule's last step of A does not fit there.
    expect(byVariant.lua).toMatchObject({ refused: 'cannot step A: it has finished', violations: [] });
    expect(byVariant.lua.firstDivergentStep).toBeLessThan(out.violation.steps);
    const text = sim('explore', 'get-then-del', '--invariant', 'foreign-release', '--compare-variants').stdout;
    expect(text).toContain(`the same schedule on every variant (${out.violation.schedule}):`);
    expect(text).toMatch(/lua\s+refuses step \d+: cannot step A: it has finished \(differs from step \d+\)/);
  });

  it('searches a scenario with several nodes: the failover found with a node fault, and `run --schedule` replays it', () => {
    const { status, stdout } = sim('explore', 'failover-before-replication', '--invariant', 'mutual-exclusion', '--json');
    expect(status).toBe(3);
    const out = JSON.parse(stdout);
    expect(out.violation).toMatchObject({ kind: 'mutual-exclusion', schedule: 'A @r2^ B', steps: 3 });
    const replay = JSON.parse(sim('run', 'failover-before-replication', '--schedule', out.violation.schedule, '--json').stdout);
    expect(replay.violations.map((v: { kind: string }) => v.kind)).toContain('mutual-exclusion');
  });

  it('--faults sets a whole budget with node faults, said in the verdict', () => {
    const { status, stdout } = sim('explore', 'redlock-clock-jump', '--faults', 'none', '--depth', '3', '--json');
    expect(status).toBe(0);
    expect(JSON.parse(stdout).bounds.faults).toMatchObject({ stallCountMax: 0, crashCountMax: 0 });
    const budget = sim('explore', 'failover-before-replication', '--faults', 'promotions=1,nodes=r2', '--invariant', 'mutual-exclusion');
    expect(budget.status).toBe(3);
    expect(budget.stdout).toMatch(/Found two holders in 3 choices: A @r2\^ B/);
  });

  it('proves the Lua release within the declared bounds: exit 0, an exhaustive verdict in words', () => {
    const { status, stdout } = sim('explore', 'get-then-del', '--variant', 'lua', '--invariant', 'foreign-release');
    expect(status).toBe(0);
    expect(stdout).toMatch(/No violation of foreign release within schedules of at most 24 choices, at most 1 stall of 5 s or 7 s, .*: \d+ states, \d+ transitions, exhaustive\./);
  });

  it('a depth bound that cuts the search is said, never "exhaustive"', () => {
    const { status, stdout } = sim('explore', 'get-then-del', '--variant', 'lua', '--depth', '3', '--json');
    expect(status).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.exhaustive).toBe(false);
    expect(out.cut.depthCutStates).toBeGreaterThan(0);
    expect(out.verdict.join('\n')).toMatch(/not exhaustive: the depth bound left \d+ states? unexpanded/);
  });

  it.each([
    [['explore'], /explore needs a scenario id/],
    [['explore', 'get-then-del', '--depth', '0'], /--depth must be at least 1/],
    [['explore', 'get-then-del', '--stalls', 'x'], /--stalls must be a whole number/],
    [['explore', 'get-then-del', '--invariant', 'nope'], /unknown invariant "nope"/],
    [['explore', 'get-then-del', '--walks', '5'], /--walks and --walk-seed need a random mode/],
    [['explore', 'get-then-del', '--mode', 'dfs'], /--mode must be one of bfs, random, pct, swarm, got "dfs"/],
    [['explore', 'get-then-del', '--bug-depth', '2'], /--bug-depth needs --mode pct/],
    [['explore', 'get-then-del', '--mode', 'pct', '--bug-depth', '0'], /--bug-depth must be at least 1/],
    [['explore', 'get-then-del', '--mode', 'pct', '--random'], /--random is --mode random: not with --mode pct/],
    [['explore', 'stock-oversell', '--stalls', '1'], /stalls need at least one length/],
    [['explore', 'get-then-del', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['explore', 'get-then-del', '--faults', 'node-crashes=1'], /one Redis node/],
    [['explore', 'failover-before-replication', '--faults', 'node-crashes=1,nodes=r9'], /unknown node "r9"/],
    [['explore', 'failover-before-replication', '--faults', 'jumps=1'], /clock jumps need lengths/],
  ])('%j fails with a clear message and exit code 2', (args, message) => {
    const { status, stdout, stderr } = sim(...args);
    expect(status).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });

  it('--shard i/n prints a shard file (exit 0), and explore merge of every shard gives one run\'s verdict and exit code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockstep-shards-'));
    const files = ['1/2', '2/2'].map((spec, i) => {
      const { status, stdout } = sim('explore', 'get-then-del', '--invariant', 'foreign-release', '--shard', spec);
      expect(status).toBe(0);
      const file = join(dir, `shard-${i + 1}.json`);
      writeFileSync(file, stdout);
      return file;
    });
    const merged = sim('explore', 'merge', ...files, '--json');
    expect(merged.status).toBe(3);
    const one = sim('explore', 'get-then-del', '--invariant', 'foreign-release', '--json');
    const [a, b] = [JSON.parse(merged.stdout), JSON.parse(one.stdout)];
    expect(a.violations).toEqual(b.violations);
    expect(a.verdict).toEqual(b.verdict);
    expect(a.shards).toBe(2);
    writeFileSync(join(dir, 'cut.json'), readFileSync(files[1], 'utf8').slice(0, 100));
    const cut = sim('explore', 'merge', files[0], join(dir, 'cut.json'));
    expect(cut.status).toBe(2);
    expect(cut.stderr).toMatch(/cut.json: not JSON, or cut short/);
  });

  it('refuses a shard spec or merge it cannot use', () => {
    expect(() => parseCommandLine(['explore', 'x', '--shard', '3/2'])).toThrow(/--shard: bad shard "3\/2": the shard must be 1 to 2/);
    expect(() => parseCommandLine(['explore', 'x', '--shard', '1/2', '--mode', 'pct'])).toThrow(/random modes split by --walk-seed/);
    expect(() => parseCommandLine(['explore', 'x', '--shard', '1/2', '--variant', 'all'])).toThrow(/one variant/);
    expect(() => parseCommandLine(['explore', 'merge'])).toThrow(/needs the shard files/);
    expect(() => parseCommandLine(['explore', 'merge', 'a.json', '--depth', '3'])).toThrow(/not --depth/);
    expect(parseCommandLine(['explore', 'x', '--shard', '2/4'])).toMatchObject({ shard: { index: 1, count: 4 } });
  });

  it('refuses a checkpoint file cut short or of another search, exit 2, and leaves it there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockstep-checkpoint-'));
    const file = join(dir, 'cp.json');
    writeFileSync(file, '{"format":"lockstep-explore-checkpoint","version":2,"ident');
    const cut = sim('explore', 'get-then-del', '--checkpoint', file);
    expect(cut.status).toBe(2);
    expect(cut.stderr).toMatch(/cp.json: not JSON, or cut short/);
    writeFileSync(file, JSON.stringify({ format: 'lockstep-explore-checkpoint', version: 99 }));
    const old = sim('explore', 'get-then-del', '--checkpoint', file);
    expect(old.status).toBe(2);
    expect(old.stderr).toMatch(/checkpoint version 99, this explorer reads version 2/);
    expect(readFileSync(file, 'utf8')).toContain('99');
  });

  it('parses the checkpoint options and refuses what does not go with them', () => {
    expect(parseCommandLine(['explore', 'x', '--checkpoint', 'cp.json', '--max-seconds', '60'])).toMatchObject({ checkpoint: 'cp.json', maxSeconds: 60 });
    expect(() => parseCommandLine(['explore', 'x', '--max-seconds', '60'])).toThrow(/--max-seconds needs --checkpoint/);
    expect(() => parseCommandLine(['explore', 'x', '--checkpoint', 'cp.json', '--mode', 'random'])).toThrow(/breadth-first/);
    expect(() => parseCommandLine(['explore', 'x', '--checkpoint', 'cp.json', '--shard', '1/2'])).toThrow(/do not go together/);
    expect(() => parseCommandLine(['explore', 'x', '--checkpoint', 'cp.json', '--variant', 'all'])).toThrow(/one variant/);
    expect(() => parseCommandLine(['explore', 'x', '--checkpoint', 'cp.json', '--max-seconds', '0'])).toThrow(/at least 1/);
    expect(parseCommandLine(['explore', 'x', '--workers', '4'])).toMatchObject({ workers: 4 });
    expect(parseCommandLine(['explore', 'x'])).toMatchObject({ workers: 1 });
    expect(() => parseCommandLine(['explore', 'x', '--workers', '2', '--mode', 'pct'])).toThrow(/random modes run on one/);
    expect(() => parseCommandLine(['explore', 'x', '--workers', '2', '--checkpoint', 'cp.json'])).toThrow(/does not go with --checkpoint/);
    expect(() => parseCommandLine(['explore', 'x', '--workers', '65'])).toThrow(UsageError);
  });

  it('parses every bound and fault option strictly', () => {
    const command = parseCommandLine(['explore', 'get-then-del', '--variant', 'all', '--depth', '12', '--stalls', '2', '--stall-ms', '2500,5000', '--crashes', '1', '--fault-clients', 'A', '--states', '1000', '--horizon-ms', '60000', '--no-reduce']);
    expect(command).toMatchObject({ name: 'explore', variant: 'all', depth: 12, stalls: 2, stallMs: [2500, 5000], crashes: 1, faultClients: ['A'], states: 1000, horizonMs: 60000, reduce: false, mode: 'bfs' });
    expect(parseCommandLine(['explore', 'x', '--mode', 'pct', '--bug-depth', '3', '--walks', '50', '--walk-seed', '9'])).toMatchObject({ mode: 'pct', bugDepth: 3, walks: 50, walkSeed: 9 });
    expect(parseCommandLine(['explore', 'x', '--random'])).toMatchObject({ mode: 'random', bugDepth: undefined });
    expect(() => parseCommandLine(['explore', 'x', '--stall-ms', '5000,,7000'])).toThrow(UsageError);
    expect(() => parseCommandLine(['explore', 'x', '--stall-ms', '0'])).toThrow(/at least 1 ms/);
    expect(parseCommandLine(['explore', 'x', '--help'])).toEqual({ name: 'help', topic: 'explore', exitCode: 0 });
  });
});
