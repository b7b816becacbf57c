// Goal: a blocking pop (BLPOP, BZPOPMIN, BLMOVE) with nothing to pop blocks its client on the
// virtual clock; another client's push serves it at the instant of the push (first blocked, first
// served), or the wait ends at its timeout with nil; with data ready it answers at once. A run with
// blocking pops replays identically from its schedule.
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/engine/program';
import { Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/trace';
import { testScenario } from './support/test-scenario';

function run(programs: Record<string, readonly Step[]>, schedule: string): Simulation {
  const clients = Object.entries(programs).map(([id, program]) => ({ id, program }));
  const sim = new Simulation(testScenario(clients, { params: { lockKey: 'lock' } }));
  sim.applySchedule(schedule);
  return sim;
}

type Of<K extends TraceEvent['kind']> = Extract<TraceEvent, { kind: K }>;
const eventsOf = <K extends TraceEvent['kind']>(sim: Simulation, kind: K, clientId?: string): Of<K>[] =>
  sim.allEvents().filter((e): e is Of<K> => e.kind === kind && (clientId === undefined || e.clientId === clientId));

const popper = (argv: string[]): Step[] => [
  { op: 'command', argv, saveAs: 'got' },
  { op: 'command', argv: ['SET', 'result', '${got}'] },
  { op: 'end' },
];
const pusher = (afterMs: number, argv: string[]): Step[] => [{ op: 'sleep', durationMs: afterMs }, { op: 'command', argv }, { op: 'end' }];

describe('blocking pops on the virtual clock', () => {
  it('BLPOP blocks until another client pushes, and gets the element at the push instant', () => {
    const sim = run({ A: popper(['BLPOP', 'q', '5']), B: pusher(1200, ['RPUSH', 'q', 'job-1']) }, 'A B +6000');
    expect(eventsOf(sim, 'block', 'A')[0]).toMatchObject({ reason: 'pop', untilMs: 5000 });
    const [delivered] = eventsOf(sim, 'reply', 'A');
    expect(delivered).toMatchObject({ atMs: 1200, reply: { type: 'array', value: [{ type: 'bulk', value: 'q' }, { type: 'bulk', value: 'job-1' }] } });
    // The element went to A, not into the list.
    const llen = sim.inspect().find((k) => k.key === 'q');
    expect(llen).toBeUndefined();
  });

  it('with no push the wait ends at its timeout with nil', () => {
    const sim = run({ A: popper(['BRPOP', 'q', '0.75']) }, 'A +2000');
    const [wake] = eventsOf(sim, 'wake', 'A');
    expect(wake).toMatchObject({ atMs: 750, reason: 'pop' });
    expect(eventsOf(sim, 'reply', 'A')[0].reply).toEqual({ type: 'nil' });
  });

  it('first blocked, first served: two waiters and one push', () => {
    const sim = run({ A: popper(['BLPOP', 'q', '10']), C: popper(['BLPOP', 'q', '10']), B: pusher(500, ['RPUSH', 'q', 'only']) }, 'A C B +11000');
    expect(eventsOf(sim, 'reply', 'A')[0]).toMatchObject({ atMs: 500 });
    expect(eventsOf(sim, 'reply', 'C')[0]).toMatchObject({ atMs: 10000, reply: { type: 'nil' } });
  });

  it('BZPOPMIN is served by a ZADD, BLMOVE by an LPUSH', () => {
    const sim = run(
      { A: popper(['BZPOPMIN', 'z', '3']), M: popper(['BLMOVE', 'src', 'dst', 'LEFT', 'RIGHT', '3']), B: [...pusher(100, ['ZADD', 'z', '1.5', 'm']).slice(0, 2), { op: 'command', argv: ['LPUSH', 'src', 'v'] }, { op: 'end' }] },
      'A M B +4000',
    );
    expect(eventsOf(sim, 'reply', 'A')[0].reply).toEqual({ type: 'array', value: [{ type: 'bulk', value: 'z' }, { type: 'bulk', value: 'm' }, { type: 'bulk', value: '1.5' }] });
    expect(eventsOf(sim, 'reply', 'M')[0]).toMatchObject({ atMs: 100, reply: { type: 'bulk', value: 'v' } });
    expect(sim.inspect().find((k) => k.key === 'dst')).toMatchObject({ type: 'list', value: ['v'] });
  });

  it('with an element ready it answers at once, without blocking', () => {
    const sim = run({ A: [{ op: 'command', argv: ['RPUSH', 'q', 'a'] }, ...popper(['BLPOP', 'q', '0'])] }, 'A A A');
    expect(eventsOf(sim, 'block', 'A')).toHaveLength(0);
    expect(eventsOf(sim, 'command', 'A')[1].reply).toEqual({ type: 'array', value: [{ type: 'bulk', value: 'q' }, { type: 'bulk', value: 'a' }] });
  });

  it('a run with blocking pops replays identically, also stepped back', () => {
    const programs = { A: popper(['BLPOP', 'q', '5']), B: pusher(1200, ['RPUSH', 'q', 'job-1']) };
    const first = run(programs, 'A B +6000');
    const second = run(programs, 'A B +6000');
    expect(JSON.stringify(second.allEvents())).toBe(JSON.stringify(first.allEvents()));
    second.seek(1);
    second.seek(second.length);
    expect(second.stateKey()).toBe(first.stateKey());
  });
});

describe('blocking pops in the views', () => {
  it('the describer, the sequence model and the timeline model take a run with a blocking pop', async () => {
    const { eventDescriber } = await import('../../src/engine/describe');
    const { buildSequenceModel } = await import('../../src/ui/views/sequence-model');
    const { buildTimelineModel } = await import('../../src/ui/views/timeline-model');
    const sim = run({ A: popper(['BLPOP', 'q', '0']), B: pusher(1200, ['RPUSH', 'q', 'job-1']) }, 'A B +6000');
    const events = sim.allEvents();
    const text = events.map(eventDescriber({ lang: 'en' }));
    expect(text.join('\n')).toContain('waits for an element to pop, with no timeout');
    expect(text.join('\n')).toContain('the blocking pop ends');
    const sequence = buildSequenceModel(events, {});
    expect(sequence.rows.length).toBeGreaterThan(0);
    expect(() => buildTimelineModel(events, ['A', 'B'], {})).not.toThrow();
  });
});
