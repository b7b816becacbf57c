// Goal: a command typed into the console is a schedule choice like any other: it runs on the
// `console` connection at the current instant, appears as a `command` event in the console's lane,
// formats to one token (no spaces or commas, so links and canonical text carry it) that parses
// back to the same argv, replays byte for byte, and commands that would wait, stream or leave the
// simulation are refused with their reason.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../src/engine/redis/commands/bytes';
import { CONSOLE_ID } from '../../src/engine/console-choice';
import { formatSchedule, parseSchedule, ScheduleSyntaxError, type Choice } from '../../src/engine/schedule';
import { runSchedule, Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';

const getThenDel = findScenario('get-then-del');

describe('console choices in schedules', () => {
  it('parses $CMD|arg tokens with %HH escapes and formats them back to the same text', () => {
    const choices = parseSchedule('A $SET|k|hello%20world +100 $GET|k', ['A', 'B']);
    expect(choices).toEqual([
      { kind: 'step', clientId: 'A' },
      { kind: 'console', argv: ['SET', 'k', 'hello world'] },
      { kind: 'advance', ms: 100 },
      { kind: 'console', argv: ['GET', 'k'] },
    ]);
    expect(formatSchedule(choices)).toBe('A $SET|k|hello%20world +100 $GET|k');
  });

  it('round-trips any argv, bytes that are not UTF-8 included, through one separator-free token', () => {
    const word = fc.oneof(fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 8 }).map((bytes) => decodeBytes(bytes)));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }).filter((argv) => argv[0] !== ''), (argv) => {
        const choice: Choice = { kind: 'console', argv };
        const text = formatSchedule([choice]);
        expect(text).not.toMatch(/[\s,]/);
        expect(parseSchedule(text)).toEqual([choice]);
      }),
    );
  });

  it('points at a bad console token', () => {
    const attempt = (text: string) => {
      try {
        parseSchedule(text);
      } catch (error) {
        if (error instanceof ScheduleSyntaxError) return { offset: error.offset, token: error.token, message: error.message };
        throw error;
      }
      throw new Error('parsed');
    };
    expect(attempt('A $SET|k|50%')).toMatchObject({ offset: 2, token: '$SET|k|50%' });
    expect(attempt('A $').message).toMatch(/needs a command name at position 3/);
    expect(attempt('$|x').message).toMatch(/needs a command name/);
  });
});

describe('console choices in runs', () => {
  it('runs at the current instant on its own connection, in the console lane', () => {
    const sim = new Simulation(getThenDel);
    sim.applySchedule('A $GET|lock $SET|k|v');
    const commands = sim.allEvents().filter((e) => e.kind === 'command' && e.clientId === CONSOLE_ID);
    expect(commands).toMatchObject([
      { argv: ['GET', 'lock'], pc: -1, step: 1, atMs: 0, reply: { type: 'bulk' } },
      { argv: ['SET', 'k', 'v'], reply: { type: 'status', value: 'OK' } },
    ]);
    expect(sim.schedule).toBe('A $GET|lock $SET|k|v');
  });

  it('deleting the holder\'s lock from the console is a foreign release, reported like any other', () => {
    const trace = runSchedule(getThenDel, { schedule: 'A $DEL|lock' });
    expect(trace.violations.map((v) => [v.violation, v.clientId])).toEqual([['foreign-release', CONSOLE_ID]]);
  });

  it('replays byte for byte from its schedule', () => {
    const schedule = 'A $SET|lock|x +6000 $PTTL|lock B';
    expect(JSON.stringify(runSchedule(getThenDel, { schedule }))).toBe(JSON.stringify(runSchedule(getThenDel, { schedule })));
  });

  it('refuses blocking, streaming and escaping commands with their reason', () => {
    const sim = new Simulation(getThenDel);
    const refusal = (...argv: string[]) => sim.refusal({ kind: 'console', argv });
    expect(refusal('BLPOP', 'q', '0')).toMatch(/does not run BLPOP: it blocks/);
    expect(refusal('subscribe', 'news')).toMatch(/does not run SUBSCRIBE: .*subscription/);
    expect(refusal('SHUTDOWN')).toMatch(/does not run SHUTDOWN: it would act outside/);
    expect(refusal('DEBUG', 'SLEEP', '1')).toMatch(/DEBUG/);
    expect(refusal('CLIENT', 'KILL', 'ID', '1')).toMatch(/CLIENT KILL/);
    expect(refusal('GET', 'lock')).toBeNull();
    expect(() => sim.apply({ kind: 'console', argv: ['SHUTDOWN'] })).toThrow(/SHUTDOWN/);
    expect(sim.length).toBe(0);
  });

  it('answers unknown commands as Redis does, inside the run', () => {
    const sim = new Simulation(getThenDel);
    sim.apply({ kind: 'console', argv: ['NOPE'] });
    expect(sim.allEvents().find((e) => e.kind === 'command')).toMatchObject({ reply: { type: 'error', value: expect.stringMatching(/^ERR unknown command 'NOPE'/) } });
  });

  it('forks the timeline like any choice applied before its end', () => {
    const sim = new Simulation(getThenDel);
    sim.applySchedule('A A B');
    sim.seek(1);
    sim.apply({ kind: 'console', argv: ['GET', 'lock'] });
    expect(sim.schedule).toBe('A $GET|lock');
  });

  it('is refused in a scenario with several Redis nodes unless it is aimed at one (engine-console-nodes.test.ts)', () => {
    const sim = new Simulation(findScenario('redlock-happy-path'));
    expect(sim.refusal({ kind: 'console', argv: ['GET', 'lock'] })).toMatch(/several Redis nodes: aim the console at one/);
  });
});
