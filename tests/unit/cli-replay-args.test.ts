import { describe, expect, it } from 'vitest';
import { helpText, parseCommandLine, UsageError } from '../../src/cli/args';

// Goal: `replay`'s command line is as strict as the others': --redis is required and must be a
// redis:// URL, --time-scale a whole number from 1 to 1000, --key-prefix a short word; mistakes
// are usage errors that name the option, and --help shows the replay's own help.

function usageMessage(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      expect(error.topic).toBe('replay');
      return error.message;
    }
    throw error;
  }
  throw new Error(`no usage error for ${JSON.stringify(argv)}`);
}

describe('replay arguments', () => {
  it('parses every option', () => {
    expect(
      parseCommandLine([
        'replay', 'get-then-del', '--redis', 'redis://127.0.0.1:6380/2', '--variant', 'lua', '--schedule', 'A A +4000 B',
        '--seed', '7', '--time-scale', '20', '--key-prefix', 'demo:{1}:', '--allow-server-wide', '--cluster', '--json',
      ]),
    ).toEqual({
      name: 'replay',
      scenario: 'get-then-del',
      redis: 'redis://127.0.0.1:6380/2',
      variant: 'lua',
      schedule: 'A A +4000 B',
      seed: 7,
      timeScale: 20,
      keyPrefix: 'demo:{1}:',
      allowServerWide: true,
      cluster: true,
      json: true,
    });
    expect(parseCommandLine(['replay', 'x', '--redis', 'redis://h:1'])).toMatchObject({ seed: 1, timeScale: 1, keyPrefix: undefined, allowServerWide: false, cluster: false, json: false });
  });

  it('refuses what it cannot use, naming the option', () => {
    expect(usageMessage(['replay', 'get-then-del'])).toMatch(/needs --redis/);
    expect(usageMessage(['replay', '--redis', 'redis://h:1'])).toMatch(/needs a scenario id/);
    expect(usageMessage(['replay', 'a', 'b', '--redis', 'redis://h:1'])).toMatch(/one scenario id, got also "b"/);
    expect(usageMessage(['replay', 'x', '--redis', 'localhost:6379'])).toMatch(/--redis must start with redis:\/\/ or rediss:\/\//);
    expect(usageMessage(['replay', 'x', '--redis', 'not a url'])).toMatch(/--redis must be a URL/);
    expect(usageMessage(['replay', 'x', '--redis', 'redis://h:1/db'])).toMatch(/database number/);
    expect(usageMessage(['replay', 'x', '--redis', 'redis://h:1', '--time-scale', '-2'])).toMatch(/--time-scale/);
    for (const scale of ['0', '1001', '1.5', '10x', '01', '1e2']) {
      expect(usageMessage(['replay', 'x', '--redis', 'redis://h:1', '--time-scale', scale])).toMatch(/--time-scale must be a whole number from (0|1) to 1000/);
    }
    expect(usageMessage(['replay', 'x', '--redis', 'redis://h:1', '--key-prefix', 'a b'])).toMatch(/--key-prefix must be 1 to 200 characters/);
    expect(usageMessage(['replay', 'x', '--redis', 'redis://h:1', '--seed=-1'])).toMatch(/--seed must be a whole number/);
    // Whether --cluster's prefix needs a hash tag depends on the scenario (prepareReplay checks it: tests/replay/cluster.test.ts).
    expect(usageMessage(['replay', 'x', '--redis', 'redis://h:1', '--redis', 'redis://h:2', '--cluster'])).toMatch(/--cluster takes one --redis/);
    expect(parseCommandLine(['replay', 'x', '--redis', 'redis://h:1', '--redis', 'redis://h:2'])).toMatchObject({ redis: ['redis://h:1', 'redis://h:2'] });
    expect(parseCommandLine(['replay', 'x', '--redis', 'redis://h:1', '--cluster', '--key-prefix', 'demo:{t}:'])).toMatchObject({ cluster: true, keyPrefix: 'demo:{t}:' });
    expect(parseCommandLine(['replay', 'x', '--start-server'])).toMatchObject({ redis: null });
    expect(usageMessage(['replay', 'x', '--start-server', '--redis', 'redis://h:1'])).toMatch(/--redis or --start-server, not both/);
    expect(usageMessage(['replay', 'x', '--start-server', '--cluster'])).toMatch(/--start-server starts servers, not a cluster/);
  });

  it('has its own help, listed in the overview', () => {
    expect(parseCommandLine(['replay', '--help'])).toEqual({ name: 'help', topic: 'replay', exitCode: 0 });
    expect(parseCommandLine(['help', 'replay'])).toEqual({ name: 'help', topic: 'replay', exitCode: 0 });
    expect(helpText('replay')).toContain('--time-scale <k>');
    expect(helpText(null)).toMatch(/replay\s+replay a run on a real Redis/);
  });
});
