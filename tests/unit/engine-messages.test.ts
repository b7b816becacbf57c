// Goal: simulated clients use Pub/Sub and transactions as real clients do. Each client has its own
// connection(s); a message published to a channel a client subscribed to lands in its inbox at the
// publish instant and wakes its `waitMessage` then, or the wait ends at its timeout, whichever is
// first; a stall makes either late, and says so. A crash closes the client's connections (its
// subscriptions, WATCHes and MULTI are gone). A `transaction` step sends MULTI ... EXEC and EXEC
// answers nil when a WATCHed key changed. Property (fast-check): no message wait ends later than its
// timeout unless its process was stalled, and a wake by message is never before the message.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/engine/program';
import type { Scenario } from '../../src/engine/scenario';
import type { Choice } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { testScenario } from './support/test-scenario';
import type { TraceEvent } from '../../src/engine/trace';
import { runs } from '../support/size';

function scenario(programs: Record<string, readonly Step[]>): Scenario {
  const clients = Object.entries(programs).map(([id, program]) => ({ id, program }));
  return testScenario(clients, { params: { lockKey: 'lock', channel: 'news' } });
}

function run(programs: Record<string, readonly Step[]>, schedule: string): Simulation {
  const sim = new Simulation(scenario(programs));
  sim.applySchedule(schedule);
  return sim;
}

type Of<K extends TraceEvent['kind']> = Extract<TraceEvent, { kind: K }>;
const eventsOf = <K extends TraceEvent['kind']>(sim: Simulation, kind: K, clientId?: string): Of<K>[] =>
  sim.allEvents().filter((e): e is Of<K> => e.kind === kind && (clientId === undefined || e.clientId === clientId));

const subscriber = (timeoutMs: number | string = 5000, channel = '${channel}'): Step[] => [
  { op: 'command', argv: ['SUBSCRIBE', channel], connection: 'pubsub' },
  { op: 'waitMessage', channel, timeoutMs, saveAs: 'got' },
  { op: 'command', argv: ['SET', 'got', '${got}'] },
  { op: 'end' },
];
const publisher = (afterMs: number, channel = '${channel}'): Step[] => [
  { op: 'sleep', durationMs: afterMs },
  { op: 'command', argv: ['PUBLISH', channel, 'hello'], saveAs: 'receivers' },
  { op: 'end' },
];

describe('Pub/Sub between simulated clients', () => {
  it('a waiter wakes at the instant of the PUBLISH, with the payload, on time', () => {
    const sim = run({ S: subscriber(5000), P: publisher(1200) }, 'S P +6000');
    const publish = eventsOf(sim, 'command', 'P').find((e) => e.argv[0] === 'PUBLISH');
    expect(publish?.reply).toEqual({ type: 'integer', value: '1' });
    const [message] = eventsOf(sim, 'message', 'S');
    expect(message).toMatchObject({ atMs: 1200, connection: 'S/pubsub', channel: 'news', payload: 'hello', pattern: null });
    const [wake] = eventsOf(sim, 'wake', 'S');
    expect(wake).toMatchObject({ atMs: 1200, reason: 'message', dueMs: 1200, lateMs: 0, lateCause: null });
    const set = eventsOf(sim, 'command', 'S').find((e) => e.argv[0] === 'SET');
    expect(set?.argv).toEqual(['SET', 'got', 'hello']);
  });

  it('with no message the wait ends at its timeout, and the saved reply is nil', () => {
    const sim = run({ S: subscriber(700), P: publisher(1200) }, 'S P +6000');
    const [wake] = eventsOf(sim, 'wake', 'S');
    expect(wake).toMatchObject({ atMs: 700, reason: 'timeout', dueMs: 700, lateMs: 0 });
    expect(eventsOf(sim, 'command', 'S').find((e) => e.argv[0] === 'SET')?.argv).toEqual(['SET', 'got', '']);
  });

  it('the timeout may come from a saved reply (a template), and a 0 ms wait lasts the clock\'s 1 ms', () => {
    const program: Step[] = [
      { op: 'command', argv: ['SET', 'wait', '0'] },
      { op: 'command', argv: ['GET', 'wait'], saveAs: 'waitMs' },
      ...subscriber('${waitMs}'),
    ];
    const sim = run({ S: program }, 'S S S S +10');
    expect(eventsOf(sim, 'block', 'S').find((e) => e.reason === 'message')).toMatchObject({ durationMs: 1, untilMs: 1 });
    expect(eventsOf(sim, 'wake', 'S')[0]).toMatchObject({ atMs: 1, reason: 'timeout' });
  });

  it('a message that arrived before the wait waits in the buffer and ends the wait at once', () => {
    const program: Step[] = [
      { op: 'command', argv: ['SUBSCRIBE', '${channel}'], connection: 'pubsub' },
      { op: 'sleep', durationMs: 1000 },
      { op: 'waitMessage', timeoutMs: 5000, saveAs: 'got' },
      { op: 'end' },
    ];
    const sim = run({ S: program, P: publisher(500) }, 'S P +6000');
    expect(eventsOf(sim, 'message', 'S')[0].atMs).toBe(500);
    const wake = eventsOf(sim, 'wake', 'S').find((e) => e.reason === 'message');
    expect(wake).toMatchObject({ atMs: 1000, dueMs: 1000, lateMs: 0 });
  });

  it('a message on another channel neither wakes the wait nor is taken by it', () => {
    const sim = run({ S: [{ op: 'command', argv: ['PSUBSCRIBE', 'n*'], connection: 'pubsub' }, { op: 'waitMessage', channel: 'news', timeoutMs: 3000 }, { op: 'end' }], P: publisher(500, 'nope') }, 'S P +6000');
    expect(eventsOf(sim, 'message', 'S')).toMatchObject([{ atMs: 500, channel: 'nope', pattern: 'n*' }]);
    expect(eventsOf(sim, 'wake', 'S')).toMatchObject([{ atMs: 3000, reason: 'timeout' }]);
  });

  it('a stall holds the wake-up: the message arrives on time, the waiter runs late and the trace says why', () => {
    const sim = run({ S: subscriber(5000), P: publisher(1200) }, 'S P S~2000 +6000');
    expect(eventsOf(sim, 'message', 'S')[0].atMs).toBe(1200);
    expect(eventsOf(sim, 'wake', 'S')[0]).toMatchObject({ atMs: 2000, reason: 'message', dueMs: 1200, lateMs: 800, lateCause: 'stall' });
  });

  it('a crash closes the client\'s connections: its subscription ends, and a PUBLISH reaches nobody', () => {
    const sim = run({ S: subscriber(5000), P: publisher(1200) }, 'S !S P +6000');
    const publish = eventsOf(sim, 'command', 'P').find((e) => e.argv[0] === 'PUBLISH');
    expect(publish?.reply).toEqual({ type: 'integer', value: '0' });
    expect(eventsOf(sim, 'message')).toHaveLength(0);
    expect(JSON.parse(sim.stateKey()).server.pubsub).toBeUndefined();
  });

  it('a subscribed connection refuses other commands, which is why the waiter subscribes on its own connection', () => {
    const sim = run({ S: [{ op: 'command', argv: ['SUBSCRIBE', 'news'] }, { op: 'command', argv: ['GET', 'k'], saveAs: 'v' }, { op: 'end' }] }, 'S S');
    expect(eventsOf(sim, 'command', 'S')[1].reply).toMatchObject({ type: 'error', value: expect.stringContaining("Can't execute 'get'") });
  });
});

describe('transactions in programs', () => {
  const buyer: Step[] = [
    { op: 'command', argv: ['WATCH', 'stock'] },
    { op: 'command', argv: ['GET', 'stock'], saveAs: 'stock' },
    { op: 'transaction', commands: [['DECRBY', 'stock', '1'], ['GET', 'stock']], saveAs: 'done' },
    { op: 'command', argv: ['SET', 'result:${clientId}', '${done}'] },
    { op: 'end' },
  ];

  it('MULTI, the queued commands and EXEC go out in one step; EXEC answers their replies', () => {
    const sim = run({ A: [{ op: 'command', argv: ['SET', 'stock', '3'] }, ...buyer] }, 'A A A A');
    const argvs = eventsOf(sim, 'command', 'A').map((e) => `${e.argv.join(' ')} -> ${JSON.stringify(e.reply)}`);
    expect(argvs.slice(3, 7)).toEqual([
      'MULTI -> {"type":"status","value":"OK"}',
      'DECRBY stock 1 -> {"type":"status","value":"QUEUED"}',
      'GET stock -> {"type":"status","value":"QUEUED"}',
      'EXEC -> {"type":"array","value":[{"type":"integer","value":"2"},{"type":"bulk","value":"2"}]}',
    ]);
    expect(new Set(eventsOf(sim, 'command', 'A').slice(3, 7).map((e) => e.step))).toEqual(new Set([3]));
  });

  it('EXEC answers nil when another client changed a WATCHed key, and nothing queued ran', () => {
    const setup: Step = { op: 'command', argv: ['SET', 'stock', '3'] };
    const sim = run({ A: [setup, ...buyer], B: [...buyer] }, 'A A B B A A B');
    const execOf = (id: string) => eventsOf(sim, 'command', id).find((e) => e.argv[0] === 'EXEC');
    expect(execOf('A')?.reply?.type).toBe('array');
    expect(execOf('B')?.reply).toEqual({ type: 'nil' });
    expect(sim.inspect().find((k) => k.key === 'stock')).toMatchObject({ value: '2' });
  });

  it('a crash discards the connection\'s WATCH and MULTI state', () => {
    const program: Step[] = [{ op: 'command', argv: ['WATCH', 'stock'] }, { op: 'command', argv: ['MULTI'] }, { op: 'command', argv: ['INCR', 'stock'] }, { op: 'end' }];
    const sim = run({ A: program }, 'A A');
    expect(JSON.parse(sim.stateKey()).server.clients).toMatchObject([{ id: 'A', multi: [], watched: ['stock'] }]);
    sim.applySchedule('!A');
    expect(JSON.parse(sim.stateKey()).server.clients).toBeUndefined();
  });
});

const PROPERTY_SEED = 20261203;

describe('message waits under random schedules', () => {
  it(`no wait ends later than its timeout unless a stall delayed it, nor before its message (fast-check seed ${PROPERTY_SEED})`, () => {
    const programs: Record<string, readonly Step[]> = {
      S: [
        { op: 'command', label: 'sub', argv: ['SUBSCRIBE', 'news'], connection: 'pubsub' },
        { op: 'waitMessage', label: 'wait', channel: 'news', timeoutMs: 700, saveAs: 'got' },
        { op: 'retry', goto: 'wait', afterMs: 0, attemptCountMax: 6 },
        { op: 'end' },
      ],
      T: [
        { op: 'command', argv: ['SUBSCRIBE', 'news'], connection: 'pubsub' },
        { op: 'waitMessage', label: 'wait', timeoutMs: 1100 },
        { op: 'retry', goto: 'wait', afterMs: 0, attemptCountMax: 4 },
        { op: 'end' },
      ],
      P: [
        { op: 'sleep', label: 'loop', durationMs: 300 },
        { op: 'command', argv: ['PUBLISH', 'news', 'tick'] },
        { op: 'retry', goto: 'loop', afterMs: 150, jitterMs: 400, attemptCountMax: 8 },
        { op: 'end' },
      ],
    };
    const alphabet: Choice[] = [
      ...['S', 'T', 'P'].map((clientId) => ({ kind: 'step' as const, clientId })),
      ...[1, 250, 900].map((ms) => ({ kind: 'advance' as const, ms })),
      ...['S', 'T', 'P'].flatMap((clientId) => [300, 1500].map((ms) => ({ kind: 'stall' as const, clientId, ms }))),
      { kind: 'crash', clientId: 'P' },
    ];
    fc.assert(
      fc.property(fc.array(fc.nat(alphabet.length - 1), { maxLength: 14 }), fc.nat(1000), (picks, seed) => {
        const sim = new Simulation(scenario(programs), { seed });
        for (const pick of picks) if (sim.refusal(alphabet[pick]) === null) sim.apply(alphabet[pick]);
        sim.apply({ kind: 'advance', ms: 5000 });
        const events = sim.allEvents();
        const waitBlock = new Map<string, Of<'block'>>();
        const lastMessage = new Map<string, number>();
        for (const e of events) {
          if (e.clientId === null) continue;
          if (e.kind === 'block' && e.reason === 'message') waitBlock.set(e.clientId, e);
          if (e.kind === 'message') lastMessage.set(e.clientId, e.atMs);
          if (e.kind !== 'wake' || (e.reason !== 'message' && e.reason !== 'timeout')) continue;
          const block = waitBlock.get(e.clientId);
          expect(block).toBeDefined();
          // Due no later than the timeout; woken at the due time unless a stall held it.
          expect(e.dueMs).toBeLessThanOrEqual(block?.untilMs as number);
          if (e.lateCause === null) expect(e.atMs).toBe(e.dueMs);
          else expect(e.lateMs).toBe(e.atMs - e.dueMs);
          if (e.reason === 'timeout') expect(e.dueMs).toBe(block?.untilMs);
          // A wake by message never precedes the message.
          if (e.reason === 'message') expect(lastMessage.get(e.clientId)).toBeLessThanOrEqual(e.atMs);
        }
      }),
      { seed: PROPERTY_SEED, numRuns: runs(300) },
    );
  });
});
