import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { replayCommandText } from '../../src/ui/store/replay-command';
import { selectReplayCommand } from '../../src/ui/store/selectors';

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
    const text = replayCommandText('failover-before-replication', 'async', 1, 'A +200 !@r1 @r2^ B +5000', 5, 'nodes');
    expect(parseCommandLine(shellWords(text).slice(4))).toMatchObject({ scenario: 'failover-before-replication', schedule: 'A +200 !@r1 @r2^ B', redis: null });
  });

  it('names a cluster for a scenario whose simulated Redis is a cluster (a plain server is refused by the CLI)', () => {
    const store = createSimStore({ run: { scenarioId: 'cluster-hash-slots', variantId: 'hash-tags' } });
    const args = parseCommandLine(shellWords(selectReplayCommand(store.getState())).slice(4));
    expect(args).toMatchObject({ scenario: 'cluster-hash-slots', variant: 'hash-tags', cluster: true });
    const plain = createSimStore({ run: { scenarioId: 'get-then-del' } });
    expect(parseCommandLine(shellWords(selectReplayCommand(plain.getState())).slice(4))).toMatchObject({ cluster: false });
  });
});
