import { describe, expect, it } from 'vitest';
import { helpText, parseCommandLine, UsageError } from '../../src/cli/args';

// Goal: the CLI's command line is parsed strictly (node:util parseArgs): every command has
// --help, which wins over everything else on the line; numbers are plain decimal digits only;
// unknown options and stray arguments are usage errors with a message, never guesses.

function usageError(argv: string[]): UsageError {
  try {
    parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`no usage error for ${JSON.stringify(argv)}`);
}

describe('parseCommandLine', () => {
  it('parses each command with its options', () => {
    expect(parseCommandLine(['run', 'get-then-del', '--variant', 'lua', '--schedule', 'A A +4000 B A', '--seed', '42', '--json'])).toEqual({
      name: 'run',
      scenario: 'get-then-del',
      file: null,
      variant: 'lua',
      schedule: 'A A +4000 B A',
      seed: 42,
      json: true,
    });
    expect(parseCommandLine(['run', 'x', '--seed=0'])).toMatchObject({ seed: 0 });
    expect(parseCommandLine(['run', '--file', 'mine.json', '--json'])).toMatchObject({ name: 'run', scenario: null, file: 'mine.json', json: true });
    expect(parseCommandLine(['explore', '--file', 'mine.json', '--stalls', '1', '--stall-ms', '2000,6000', '--crashes', '0', '--depth', '8', '--seed', '3'])).toMatchObject({
      name: 'explore',
      scenario: null,
      file: 'mine.json',
      variant: undefined,
      seed: 3,
      stalls: 1,
      stallMs: [2000, 6000],
      crashes: 0,
      depth: 8,
      json: false,
    });
    expect(() => parseCommandLine(['explore', 'x', '--runs', '500'])).toThrow(/--runs/);
    expect(parseCommandLine(['explore', 'get-then-del', '--variant', 'lua', '--json'])).toMatchObject({ name: 'explore', scenario: 'get-then-del', file: null, variant: 'lua', json: true });
    expect(() => parseCommandLine(['explore'])).toThrow(/explore needs a scenario id/);
    expect(() => parseCommandLine(['explore', 'x', '--stall-ms', '5000,'])).toThrow(/--stall-ms/);
    expect(() => parseCommandLine(['explore', 'x', '--file', 'y.json'])).toThrow(/not both/);
    expect(parseCommandLine(['list', '--lang', 'zh'])).toEqual({ name: 'list', json: false, lang: 'zh' });
    expect(parseCommandLine(['console', '--json'])).toEqual({ name: 'console', json: true });
  });

  it('answers --help (and -h, and help <command>) for every command, whatever else is on the line', () => {
    for (const command of ['list', 'run', 'console'] as const) {
      expect(parseCommandLine([command, '--help'])).toEqual({ name: 'help', topic: command, exitCode: 0 });
      expect(parseCommandLine([command, '-h'])).toEqual({ name: 'help', topic: command, exitCode: 0 });
      expect(parseCommandLine(['help', command])).toEqual({ name: 'help', topic: command, exitCode: 0 });
      expect(helpText(command)).toContain(`npm run sim -- ${command}`);
      expect(helpText(command)).toMatch(/--help/);
    }
    // `run x --help` helps and runs nothing, even with a bad seed on the line.
    expect(parseCommandLine(['run', 'get-then-del', '--seed', '00001', '--help'])).toEqual({ name: 'help', topic: 'run', exitCode: 0 });
    expect(parseCommandLine(['help'])).toEqual({ name: 'help', topic: null, exitCode: 0 });
    expect(parseCommandLine([])).toEqual({ name: 'help', topic: null, exitCode: 2 });
  });

  it.each(['00001', '1e3', '0x10', '-1', '1.5', '+1', ' 1', '4294967296', '', 'x'])('refuses the seed %j and says what is accepted', (seed) => {
    const error = usageError(['run', 'get-then-del', `--seed=${seed}`]);
    expect(error.message).toBe(
      `--seed must be a whole number from 0 to 4294967295 (plain decimal digits, no sign, no leading zeros, no exponent), got "${seed}"`,
    );
    expect(error.topic).toBe('run');
  });

  it('says what accepted numbers look like in the help', () => {
    expect(helpText('run')).toContain('--seed <n>            the random seed, a whole number from 0 to 4294967295');
    expect(helpText('run')).toContain('plain decimal digits, no sign, no leading zeros, no exponent');
    expect(helpText('console')).toContain('.advance <ms>');
  });

  it.each([
    [['frobnicate'], /unknown command "frobnicate"/, null],
    [['run'], /run needs a scenario id/, 'run'],
    [['run', 'a', 'b'], /run takes one scenario id, got also "b"/, 'run'],
    [['run', 'a', '--bogus'], /Unknown option '--bogus'/, 'run'],
    [['run', 'a', '--seed'], /--seed/, 'run'],
    [['run', 'a', '--seed', '-1'], /--seed/, 'run'],
    [['list', '--lang', 'fr'], /--lang must be en or zh, got "fr"/, 'list'],
    [['console', 'extra'], /console takes no arguments, got "extra"/, 'console'],
    [['console', '--json=yes'], /--json/, 'console'],
    [['help', 'nope'], /no help for "nope"/, null],
  ] as const)('%j is a usage error', (argv, message, topic) => {
    const error = usageError([...argv]);
    expect(error.message).toMatch(message);
    expect(error.topic).toBe(topic);
  });
});
