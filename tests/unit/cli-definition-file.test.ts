// Goal: `npm run sim -- run --file my-scenario.json` runs a scenario definition like a built-in one,
// and a missing, broken or invalid file, or --file beside a scenario id, exits 2 with a readable
// message naming the path of every problem.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { definitionOfScenario } from '../../src/definition';
import { findScenario } from '../../src/scenarios';

function sim(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/cli/main.ts', ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'lockstep-cli-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('npm run sim -- run --file', () => {
  it('runs a definition file: the same JSON trace as the built-in it was exported from', () => {
    const path = file('get-then-del.json', JSON.stringify(definitionOfScenario(findScenario('get-then-del')), null, 2));
    const fromFile = sim('run', '--file', path, '--variant', 'lua', '--schedule', 'A A A~5000 +4000 B +1000', '--json');
    const builtIn = sim('run', 'get-then-del', '--variant', 'lua', '--schedule', 'A A A~5000 +4000 B +1000', '--json');
    expect(fromFile.status).toBe(0);
    expect(fromFile.stdout).toBe(builtIn.stdout);
  });

  it('prints the timeline of a definition file as text', () => {
    const path = file('mine.json', JSON.stringify({ version: 1, id: 'mine', defaultSchedule: 'A', variants: [{ id: 'one', clients: [{ id: 'A', program: [{ op: 'command', argv: ['SET', 'lock', '${token}', 'NX'] }] }] }] }));
    const { status, stdout } = sim('run', '--file', path);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^mine \/ one {3}seed 1 {3}schedule: A/);
    expect(stdout).toMatch(/SET lock/);
  });

  const refusals: [string, () => string[], RegExp][] = [
    ['a missing file', () => ['run', '--file', join(dir, 'nope.json')], /nope\.json: cannot read the file \(ENOENT\)/],
    ['text that is not JSON', () => ['run', '--file', file('broken.json', '{ "version": 1,')], /broken\.json: not a valid scenario definition:\n {2}\(definition\): not valid JSON/],
    [
      'an invalid definition, every problem with its path',
      () => ['run', '--file', file('bad.json', JSON.stringify({ version: 1, id: 'Bad', variants: [{ id: 'v', clients: [{ id: 'A', program: [{ op: 'goto', goto: 'nowhere' }] }] }] }))],
      /bad\.json: not a valid scenario definition:\n {2}id: an id: lower-case letters/,
    ],
    [
      'a goto to no label',
      () => ['run', '--file', file('label.json', JSON.stringify({ version: 1, id: 'x', variants: [{ id: 'v', clients: [{ id: 'A', program: [{ op: 'goto', goto: 'nowhere' }] }] }] }))],
      /variants\[0\]\.clients\[0\]\.program\[0\]\.goto: no step of client A has the label "nowhere"/,
    ],
    ['--file and a scenario id', () => ['run', 'get-then-del', '--file', 'x.json'], /give a scenario id or --file, not both/],
    ['explore --file with an invalid definition', () => ['explore', '--file', file('bad-explore.json', JSON.stringify({ version: 1, id: 'x', variants: [] }))], /bad-explore\.json: not a valid scenario definition:\n {2}variants/],
    ['a schedule that does not fit the file', () => ['run', '--file', file('fit.json', JSON.stringify({ version: 1, id: 'x', variants: [{ id: 'v', clients: [{ id: 'A', program: [] }] }] })), '--schedule', 'A A'], /step 2: cannot step A: it has finished/],
  ];
  it('explore --file searches a definition made of programs with the engine explorer', () => {
    const definition = { version: 1, id: 'x', variants: [{ id: 'v', clients: [{ id: 'A', program: [{ op: 'command', argv: ['SET', 'k', '1'] }] }] }] };
    const { status, stdout } = sim('explore', '--file', file('programs.json', JSON.stringify(definition)), '--json');
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ scenario: 'x', variant: 'v', exhaustive: true, violations: [] });
  });

  for (const [name, args, message] of refusals) {
    it(`${name}: exit 2 with a readable message`, () => {
      const { status, stderr, stdout } = sim(...args());
      expect(status).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
    });
  }
});
