import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../../src/cli/args';
import { runCheck } from '../../src/cli/check';
import { MonitorImport, parseQuoted } from '../../src/history/monitor';

/** `lockstep check`: arguments, exit codes, text and JSON verdicts, and MONITOR import. */
function spawnCli(...args: string[]) {
  return spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/cli/main.ts', ...args], { encoding: 'utf8' });
}
/** The command in process (spawning costs a second each): what main.ts runs for `check`. */
async function cli(...args: string[]) {
  const command = parseCommandLine(args);
  if (command.name !== 'check') throw new Error('not check');
  let stdout = '';
  let stderr = '';
  const status = await runCheck(command, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { status, stdout, stderr };
}
const T = 1_700_000_000_000;
const cmd = (client: string, argv: string[], reply: unknown, startMs: number) => JSON.stringify({ client, argv, reply, startMs, endMs: startMs + 1, startWallMs: T + startMs, endWallMs: T + startMs + 1 });
function file(name: string, lines: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-check-'));
  const p = path.join(dir, name);
  fs.writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

describe('check: arguments', () => {
  it('parses its options and refuses bad ones with the check help', () => {
    expect(parseCommandLine(['check', 'h.jsonl', '--lock-key', 'job', '--max-hold-ms', '500', '--json'])).toEqual({
      name: 'check',
      file: 'h.jsonl',
      format: 'jsonl',
      lockKey: 'job',
      maxHoldMs: 500,
      clockSkewMs: undefined,
      json: true,
    });
    expect(() => parseCommandLine(['check'])).toThrow(UsageError);
    expect(() => parseCommandLine(['check', 'a', '--format', 'csv'])).toThrow(/jsonl or monitor/);
    expect(() => parseCommandLine(['check', 'a', '--max-hold-ms', '1.5'])).toThrow(/whole number/);
  });
});

describe('check: the command', () => {
  it('is wired into the CLI: exit 1 and the verdict on stdout', () => {
    const bad = file('bad.jsonl', [cmd('A', ['SET', 'lock', 'a', 'NX', 'PX', '100'], 'OK', 0), cmd('B', ['SET', 'lock', 'b', 'NX', 'PX', '100'], 'OK', 200), cmd('A', ['DEL', 'lock'], 1, 250)]);
    const out = spawnCli('check', bad);
    expect(out.status).toBe(1);
    expect(out.stdout).toContain('foreign-release');
  });

  it('exits 0 on a clean history, 1 with the evidence lines on a violation, 2 when lines are unreadable', async () => {
    const clean = file('clean.jsonl', [cmd('A', ['SET', 'lock', 'a', 'NX', 'PX', '100'], 'OK', 0), cmd('A', ['DEL', 'lock'], 1, 10)]);
    const ok = await cli('check', clean);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('No violation found.');

    const bad = file('bad.jsonl', [cmd('A', ['SET', 'lock', 'a', 'NX', 'PX', '100'], 'OK', 0), cmd('B', ['SET', 'lock', 'b', 'NX', 'PX', '100'], 'OK', 200), cmd('A', ['DEL', 'lock'], 1, 250)]);
    const found = await cli('check', bad);
    expect(found.status).toBe(1);
    expect(found.stdout).toMatch(/CERTAIN\s+foreign-release: A deleted B's lock/);
    expect(found.stdout).toMatch(/line 3 +A/);
    const json = JSON.parse((await cli('check', bad, '--json')).stdout);
    expect(json.violations.find((v: { kind: string }) => v.kind === 'foreign-release').evidence.map((e: { line: number }) => e.line)).toEqual([2, 3]);

    const truncated = file('cut.jsonl', [cmd('A', ['SET', 'lock', 'a', 'NX', 'PX', '100'], 'OK', 0), '{"client":"A","argv":["DEL"']);
    const cut = await cli('check', truncated);
    expect(cut.status).toBe(2);
    expect(cut.stdout).toMatch(/line 2: not JSON/);
    expect((await cli('check', '/nonexistent/h.jsonl')).status).toBe(2);
  });

  it('imports MONITOR output: replies worked out on the simulated Redis, the unknowns said', async () => {
    const monitor = file('monitor.txt', [
      'OK',
      '1700000000.000100 [0 127.0.0.1:5001] "SET" "lock" "a1" "NX" "PX" "100"',
      '1700000000.200000 [0 127.0.0.1:5002] "SET" "lock" "b1" "NX" "PX" "100"',
      '1700000000.250000 [0 127.0.0.1:5001] "DEL" "lock"',
      '1700000000.300000 [0 127.0.0.1:5002] "EVAL" "if redis.call(\\"get\\", KEYS[1]) == ARGV[1] then return redis.call(\\"del\\", KEYS[1]) else return 0 end" "1" "lock" "b1"',
      '1700000000.300000 [0 lua] "get" "lock"',
      '1700000000.4 [0 127.0.0.1:5002] "GET',
    ]);
    const out = await cli('check', monitor, '--format', 'monitor', '--json');
    expect(out.status).toBe(1);
    const verdict = JSON.parse(out.stdout);
    expect(verdict.violations.map((v: { kind: string; certainty: string }) => `${v.kind}:${v.certainty}`)).toContain('foreign-release:certain');
    expect(verdict.unknowns.join(' ')).toMatch(/no replies \(MONITOR\)/);
    expect(verdict.problems).toEqual([{ line: 7, message: expect.stringMatching(/not a list of quoted strings/) }]);
  });

  it('reads Redis quoting back, and runs the commands on the simulated server in order', () => {
    expect(parseQuoted('"SET" "k\\"q" "\\x00\\n"')).toEqual(['SET', 'k"q', '\x00\n']);
    expect(parseQuoted('"unterminated')).toBeNull();
    const m = new MonitorImport();
    const set = m.line('1.000000 [0 a:1] "SET" "lock" "x" "NX" "PX" "1000"', 1);
    const again = m.line('1.500000 [0 b:2] "SET" "lock" "y" "NX" "PX" "1000"', 2);
    const later = m.line('2.100000 [0 b:2] "SET" "lock" "y" "NX" "PX" "1000"', 3);
    expect([set, again, later].map((c) => (c !== null && 'reply' in c ? c.reply : 'none'))).toEqual(['OK', null, 'OK']);
  });
});
