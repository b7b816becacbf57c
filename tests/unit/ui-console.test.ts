// Goal: the page's Redis console reads lines as redis-cli does, prints replies as redis-cli does,
// and its store action turns a line into the console client's choice at the cursor (joining the
// schedule and the run's events), keeps refused or malformed lines out of the run as notes, and
// keeps a history for the up and down keys.
import { describe, expect, it } from 'vitest';
import { reply } from '../../src/engine/redis/reply';
import { ConsoleTranscript, formatConsoleLine, formatConsoleReply, parseConsoleLine } from '../../src/ui/store/console-line';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { parseRunLink } from '../../src/ui/store/run-link';
import { formatRunLink } from '../../src/ui/store/run-link';
import { SCENARIOS } from '../../src/scenarios';

describe('console lines', () => {
  it('splits words with redis-cli quoting', () => {
    expect(parseConsoleLine('SET k "a b\\n" \'it\\\'s\'')).toEqual({ ok: true, argv: ['SET', 'k', 'a b\n', "it's"] });
    expect(parseConsoleLine('SET k "open')).toEqual({ ok: false, error: 'ERR Invalid argument(s): unbalanced quotes' });
    expect(parseConsoleLine('.advance 100')).toMatchObject({ ok: false, error: expect.stringMatching(/directive of the command-line console/) });
  });

  it('writes argv back as a line that parses to the same words', () => {
    for (const argv of [['SET', 'k', 'v'], ['SET', 'k', 'a b'], ['SET', '', '"q"'], ['ECHO', 'line\nbreak', "it's"]]) {
      const line = formatConsoleLine(argv);
      expect(parseConsoleLine(line)).toEqual({ ok: true, argv });
    }
    expect(formatConsoleLine(['SET', 'k', 'a b'])).toBe('SET k "a b"');
  });

  it('prints replies as redis-cli does', () => {
    expect(formatConsoleReply(reply.integer(1))).toBe('(integer) 1');
    expect(formatConsoleReply(reply.nil())).toBe('(nil)');
    expect(formatConsoleReply(reply.bulk('text'))).toBe('"text"');
    expect(formatConsoleReply(reply.ok())).toBe('OK');
    expect(formatConsoleReply(reply.error('ERR wrong'))).toBe('(error) ERR wrong');
    expect(formatConsoleReply(reply.array([reply.bulk('a'), reply.integer(2)]))).toBe('1) "a"\n2) (integer) 2');
    expect(formatConsoleReply(reply.array([]))).toBe('(empty array)');
  });
});

describe('consoleRun (store)', () => {
  const store = () => createSimStore({ run: { scenarioId: 'get-then-del', schedule: 'A', cursor: null } });

  it('runs a line as the console client at the cursor: the schedule and the events carry it', async () => {
    const s = store();
    expect(await s.getState().consoleRun('SET k "a b"')).toEqual({ kind: 'ran', step: 1 });
    await s.getState().consoleRun('GET k');
    const state = s.getState();
    expect(state.schedule).toBe('A $SET|k|a%20b $GET|k');
    const entries = new ConsoleTranscript().sync(state.runLog, 'console');
    expect(entries.map((e) => [e.input, e.output])).toEqual([
      ['SET k "a b"', 'OK'],
      ['GET k', '"a b"'],
    ]);
    expect(state.consoleHistory).toEqual(['SET k "a b"', 'GET k']);
  });

  it('a link of the run carries the console commands and loads them back', async () => {
    const s = store();
    await s.getState().consoleRun('SET k 1.5');
    const { scenarioId, variantId, seed } = s.getState();
    const hash = formatRunLink({ scenarioId, variantId, seed, schedule: s.simulation().timeline, cursor: null, challengeId: null, predict: false });
    const parsed = parseRunLink(hash, SCENARIOS);
    expect(parsed).toMatchObject({ kind: 'ok', link: { schedule: [{ kind: 'step', clientId: 'A' }, { kind: 'console', argv: ['SET', 'k', '1.5'] }] } });
    const again = createSimStore({ link: hash });
    expect(again.getState().schedule).toBe('A $SET|k|1.5');
  });

  it('keeps refused and malformed lines out of the run, as notes', async () => {
    const s = store();
    const refused = await s.getState().consoleRun('SHUTDOWN');
    expect(refused).toMatchObject({ kind: 'note', note: { kind: 'refused', message: expect.stringMatching(/SHUTDOWN/), step: 1 } });
    const malformed = await s.getState().consoleRun('GET "k');
    expect(malformed).toMatchObject({ kind: 'note', note: { kind: 'invalid' } });
    expect(s.getState().schedule).toBe('A');
    expect(s.getState().consoleNotes).toHaveLength(2);
    expect(await s.getState().consoleRun('   ')).toEqual({ kind: 'blank' });
    expect(s.getState().consoleHistory).toEqual(['SHUTDOWN', 'GET "k']);
  });

  it('typed at an earlier step, replaces the later steps as any step taken there does', async () => {
    const s = createSimStore({ run: { scenarioId: 'get-then-del', cursor: 2 } });
    expect(s.getState().length).toBeGreaterThan(2);
    await s.getState().consoleRun('GET lock');
    expect(s.getState().schedule).toBe('A A $GET|lock');
    expect(s.getState().cursor).toBe(3);
  });
});
