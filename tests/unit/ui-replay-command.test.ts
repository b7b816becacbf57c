import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args';
import { replayCommandText } from '../../src/ui/store/replay-command';

// Goal: the command the page shows is one the CLI accepts, for the same run: scenario, variant,
// seed and the schedule up to the step shown.

/** Splits a command line as a POSIX shell does for words and double-quoted words (all the page writes). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

describe('replayCommandText', () => {
  it('is a replay command line for the run up to the step shown', () => {
    const text = replayCommandText('get-then-del', 'lua', 7, 'A A A~5000 +4000 B +1000', 4);
    const [npm, run, sim, dashes, ...args] = shellWords(text);
    expect([npm, run, sim, dashes]).toEqual(['npm', 'run', 'sim', '--']);
    expect(parseCommandLine(args)).toMatchObject({
      name: 'replay',
      scenario: 'get-then-del',
      variant: 'lua',
      seed: 7,
      schedule: 'A A A~5000 +4000',
      redis: 'redis://127.0.0.1:6379',
    });
    expect(parseCommandLine(shellWords(replayCommandText('plain-del', 'lua', 0, 'A +6000', 0)).slice(4))).toMatchObject({ schedule: '', seed: 0 });
  });

  it('starts one server per node for a run with several nodes (node faults happen only on servers the replay started)', () => {
    const text = replayCommandText('failover-before-replication', 'async', 1, 'A +200 !@r1 @r2^ B +5000', 5, true);
    expect(parseCommandLine(shellWords(text).slice(4))).toMatchObject({ scenario: 'failover-before-replication', schedule: 'A +200 !@r1 @r2^ B', redis: null });
  });
});
