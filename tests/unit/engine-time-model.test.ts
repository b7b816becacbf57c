// Goal: the time model of docs/SCHEDULES.md. Every wake-up happens at its due time, advancing the
// clock never skips one, faults come from the schedule and freeze whole processes, lateness is
// caused only by a stall and always says so, and a slow script holds Redis the way Redis does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/engine/program';
import { Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/trace';
import { findScenario, SCENARIOS } from '../../src/scenarios';
import { allVariants, applyIntents, faultyIntentArb } from './support/random-schedule';
import { testScenario } from './support/test-scenario';
import { runs } from '../support/size';

const kindsOf = (sim: Simulation) => [...new Set(sim.trace().violations.map((v) => v.violation))];
const commandsOf = (sim: Simulation, clientId: string) =>
  sim.allEvents().filter((e): e is Extract<TraceEvent, { kind: 'command' }> => e.kind === 'command' && e.clientId === clientId);

describe('due wake-ups fire during an advance, in time order', () => {
  const sleeper = (everyMs: number, rounds: number): Step[] => [
    { op: 'retry', label: 'timer', goto: 'tick', afterMs: everyMs, attemptCountMax: rounds },
    { op: 'end' },
    { op: 'command', label: 'tick', argv: ['INCR', 'ticks:${clientId}'] },
    { op: 'goto', goto: 'timer' },
  ];

  it('one +N runs every timer due on the way, each at its own due time', () => {
    const sim = new Simulation(testScenario([
      { id: 'A', program: sleeper(300, 10) },
      { id: 'B', program: sleeper(700, 10) },
    ]));
    sim.applySchedule('A B +2000');
    expect(commandsOf(sim, 'A').map((e) => e.atMs)).toEqual([300, 600, 900, 1200, 1500, 1800]);
    expect(commandsOf(sim, 'B').map((e) => e.atMs)).toEqual([700, 1400]);
    const times = sim.allEvents().map((e) => e.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(sim.nowMs).toBe(2000);
  });

  it('advancing in many small moves or one big one gives the same world', () => {
    const program = [{ id: 'A', program: sleeper(300, 10) }];
    const once = new Simulation(testScenario(program));
    once.applySchedule('A +2000');
    const often = new Simulation(testScenario(program));
    often.applySchedule('A +1 +299 +1 +999 +700');
    expect(often.stateKey()).toBe(once.stateKey());
    expect(commandsOf(often, 'A').map((e) => e.atMs)).toEqual(commandsOf(once, 'A').map((e) => e.atMs));
  });

  it('wake-ups due at the same instant fire in the order their waits began', () => {
    const sim = new Simulation(testScenario([
      { id: 'A', program: [{ op: 'work', durationMs: 500 }, { op: 'command', argv: ['RPUSH', 'order', 'A'] }] },
      { id: 'B', program: [{ op: 'work', durationMs: 500 }, { op: 'command', argv: ['RPUSH', 'order', 'B'] }] },
    ]));
    sim.applySchedule('B A +500');
    expect(sim.inspect().find((e) => e.key === 'order')?.value).toEqual(['B', 'A']);
  });

  it('stepping a sleeping client runs everything due before its wake-up first, then the client goes first', () => {
    const sim = new Simulation(testScenario([
      { id: 'A', program: [{ op: 'work', durationMs: 1000 }, { op: 'command', argv: ['RPUSH', 'order', 'A'] }] },
      { id: 'B', program: sleeper(400, 5) },
      { id: 'C', program: [{ op: 'work', durationMs: 1000 }, { op: 'command', argv: ['RPUSH', 'order', 'C'] }] },
    ]));
    sim.applySchedule('C A B A');
    expect(sim.nowMs).toBe(1000);
    expect(commandsOf(sim, 'B').map((e) => e.atMs)).toEqual([400, 800]);
    // C's work also ended at 1000, but A was chosen: A goes first and C is ready, not yet run.
    expect(sim.inspect().find((e) => e.key === 'order')?.value).toEqual(['A']);
    expect(sim.clients.find((c) => c.id === 'C')?.status).toBe('ready');
  });
});

describe('nothing due is skipped', () => {
  it('watchdog/renewal under A +7000 B: the renewals at 2, 4 and 6 s run, and A keeps its lock', () => {
    const sim = new Simulation(findScenario('watchdog'), { variantId: 'renewal' });
    sim.applySchedule('A +7000 B');
    expect(commandsOf(sim, 'W').map((e) => [e.atMs, e.reply])).toEqual([
      [2000, { type: 'integer', value: '1' }],
      [4000, { type: 'integer', value: '1' }],
      [6000, { type: 'integer', value: '1' }],
    ]);
    expect(kindsOf(sim)).not.toContain('mutual-exclusion');
    expect(sim.lock().holder).toBe('A');
  });

  it('a retry due at t=400 runs at t=400, however far the schedule advances', () => {
    const sim = new Simulation(findScenario('retry-and-backoff'), { variantId: 'fixed-interval' });
    sim.applySchedule('A B +5000');
    expect(commandsOf(sim, 'B').map((e) => e.atMs).slice(0, 4)).toEqual([0, 400, 800, 1200]);
  });

  it('a key expires at its due time with an expire event, even when nobody reads it', () => {
    const sim = new Simulation(testScenario([{ id: 'A', program: [{ op: 'command', argv: ['SET', 'k', 'v', 'PX', '1500'] }] }]));
    sim.applySchedule('A +10000');
    const expire = sim.allEvents().filter((e) => e.kind === 'expire');
    expect(expire.map((e) => [e.atMs, e.kind === 'expire' && e.key])).toEqual([[1501, 'k']]);
  });
});

describe('faults belong to the schedule and hit whole processes', () => {
  it('a stall freezes every client of the process; their wake-ups run late and say why', () => {
    const sim = new Simulation(findScenario('lease-expires-mid-work'), { variantId: 'watchdog' });
    sim.applySchedule('A +3000 A~7000 +8000');
    const wakes = sim.allEvents().filter((e): e is Extract<TraceEvent, { kind: 'wake' }> => e.kind === 'wake' && e.atMs === 10_000);
    expect(wakes.map((w) => [w.clientId, w.dueMs, w.lateMs, w.lateCause])).toEqual([
      ['A', 4000, 6000, 'stall'],
      ['W', 4000, 6000, 'stall'],
    ]);
    // Nothing of A's process ran while it was stalled.
    const during = sim.allEvents().filter((e) => (e.clientId === 'A' || e.clientId === 'W') && e.atMs > 3000 && e.atMs < 10_000);
    expect(during).toEqual([]);
  });

  it('a stall of one process leaves the others running on time', () => {
    const sim = new Simulation(findScenario('watchdog'), { variantId: 'renewal' });
    sim.applySchedule('A +1000 B B~100 A~3500 +6000');
    expect(commandsOf(sim, 'B').map((e) => e.atMs)).toEqual([1000, 4000, 7000]);
  });

  it('a crash kills the whole process: its helper stops renewing', () => {
    const sim = new Simulation(findScenario('watchdog'), { variantId: 'renewal' });
    sim.applySchedule('A +3000 !A +10000');
    expect(sim.clients.filter((c) => c.process === 'A').map((c) => c.status)).toEqual(['crashed', 'crashed']);
    expect(commandsOf(sim, 'W').map((e) => e.atMs)).toEqual([2000]);
    // The last renewal (t=2000) keeps the lock until t=8000, then Redis drops it.
    expect(sim.allEvents().find((e) => e.kind === 'expire')?.atMs).toBe(8001);
  });

  it('the programs of get-then-del are the code practitioners write: A and B run the same one, with no fault in it', () => {
    const scenario = findScenario('get-then-del');
    for (const variant of scenario.variants) {
      const [a, b] = variant.clients;
      expect(a.program).toEqual(b.program);
      expect(a.program.map((step) => step.op)).not.toContain('hang');
    }
    // The default schedule carries the fault that tells the story: A stalls after its GET.
    expect(scenario.defaultSchedule).toMatch(/A~\d+/);
  });

  it('a helper started by its owner cannot be stepped before it starts', () => {
    const sim = new Simulation(findScenario('watchdog'));
    expect(sim.refusal({ kind: 'step', clientId: 'W' })).toMatch(/has not started \(A starts it\)/);
    sim.apply({ kind: 'step', clientId: 'A' });
    expect(sim.refusal({ kind: 'step', clientId: 'W' })).toBeNull();
  });
});

describe('a slow script holds Redis, as a single-threaded server does', () => {
  const longScript = findScenario('long-script');

  it('long-script under A +1000 B B: B waits, gets BUSY, and never acquires while the script runs', () => {
    const sim = new Simulation(longScript, { variantId: 'read-only' });
    sim.applySchedule('A +1000 B B');
    const b = commandsOf(sim, 'B');
    expect(b.map((e) => [e.atMs, e.reply?.type])).toEqual([[5000, 'error']]);
    expect(b[0].reply?.type === 'error' && b[0].reply.value).toMatch(/^BUSY /);
    expect(sim.lock().holder).toBeNull();
  });

  it('the caller gets the script\'s reply when the script ends, not when it starts', () => {
    const sim = new Simulation(longScript, { variantId: 'wrote-first' });
    sim.applySchedule('A +20000');
    const [evalEvent] = commandsOf(sim, 'A');
    expect(evalEvent.reply).toBeNull();
    const reply = sim.allEvents().find((e) => e.kind === 'reply');
    expect(reply?.atMs).toBe(evalEvent.replyAtMs);
    expect(reply?.atMs).toBeGreaterThan(5000);
  });

  it('SCRIPT KILL waits for the busy threshold, then stops a read-only script; the caller wakes with the kill error', () => {
    const sim = new Simulation(longScript, { variantId: 'read-only' });
    sim.applySchedule('A +1000 O A');
    const [kill] = commandsOf(sim, 'O');
    expect([kill.atMs, kill.reply]).toEqual([5000, { type: 'status', value: 'OK' }]);
    const reply = sim.allEvents().find((e) => e.kind === 'reply');
    expect(reply?.atMs).toBe(5000);
    expect(reply?.kind === 'reply' && reply.reply.type === 'error' && reply.reply.value).toMatch(/^ERR Script killed by user with SCRIPT KILL/);
    expect(sim.nowMs).toBe(5000);
  });

  it('SCRIPT KILL answers UNKILLABLE once the script has written; writes before a later error stay (no rollback)', () => {
    const wrote = new Simulation(longScript, { variantId: 'wrote-first' });
    wrote.applySchedule('A +1000 O +5000');
    expect(commandsOf(wrote, 'O')[0].reply?.type === 'error' && commandsOf(wrote, 'O')[0].reply).toMatchObject({ value: expect.stringMatching(/^UNKILLABLE /) });
    const failed = new Simulation(longScript, { variantId: 'no-rollback' });
    failed.applySchedule('A +20000');
    const reply = failed.allEvents().find((e) => e.kind === 'reply');
    expect(reply?.kind === 'reply' && reply.reply.type).toBe('error');
    expect(failed.inspect().find((e) => e.key === 'report')?.value).toBe('rebuilding');
  });
});

describe('lateness exists only where the schedule causes it (property)', () => {
  const PROPERTY_SEED = 20261203;
  describe.each(allVariants(SCENARIOS).map((v) => [`${v.scenario.id}/${v.variantId}`, v] as const))('%s', (_name, { scenario, variantId }) => {
    it(`every wait ends at its due time unless a stall of its process delayed it, and says so (fast-check seed ${PROPERTY_SEED})`, () => {
      fc.assert(
        fc.property(fc.array(faultyIntentArb, { minLength: 8, maxLength: 30 }), (intents) => {
          const sim = new Simulation(scenario, { variantId });
          applyIntents(sim, intents);
          checkWaits(sim);
        }),
        { seed: PROPERTY_SEED, numRuns: runs(25) },
      );
    });
  });
});

/** Walks each client's events: a block is followed (unless the client crashes) by its wake, on time or late by a stall. */
function checkWaits(sim: Simulation): void {
  const events = sim.allEvents();
  const stalls = events.filter((e): e is Extract<TraceEvent, { kind: 'stall' }> => e.kind === 'stall');
  const processOf = (id: string) => sim.clients.find((c) => c.id === id)?.process;
  const stalledAt = (process: string | undefined, t: number) => stalls.some((s) => s.process === process && s.atMs <= t && s.untilMs >= t);
  for (const client of sim.clients) {
    // Messages arrive while the client waits (they are the world's doing, not the client's). With
    // several nodes, a client's request runs at its node, or is lost, and faults name its links while it waits: not its own steps.
    const own = events.filter(
      (e) =>
        e.clientId === client.id &&
        e.kind !== 'violation' &&
        e.kind !== 'stall' &&
        e.kind !== 'message' &&
        e.kind !== 'drop' &&
        e.kind !== 'fault' &&
        !(e.kind === 'command' && e.node !== undefined),
    );
    const messageAt = (t: number) => events.some((x) => x.kind === 'message' && x.clientId === client.id && x.atMs === t);
    own.forEach((e, i) => {
      if (e.kind === 'wake') {
        expect(e.lateMs).toBe(e.atMs - e.dueMs);
        expect(e.lateMs).toBeGreaterThanOrEqual(0);
        if (e.lateMs > 0) {
          expect(e.lateCause).toBe('stall');
          expect(stalledAt(processOf(client.id), e.dueMs)).toBe(true);
        } else expect(e.lateCause).toBeNull();
      }
      if (e.kind !== 'block' || e.untilMs === null) return;
      const next = own[i + 1];
      if (next === undefined) {
        // Still waiting at the end: its wake-up is not due yet, or a stall holds it.
        expect(e.untilMs > sim.nowMs || stalledAt(processOf(client.id), sim.nowMs)).toBe(true);
        return;
      }
      if (next.kind === 'crash') return;
      expect(next.kind).toBe('wake');
      if (next.kind !== 'wake') return;
      // A killed script's caller is due at the kill; any other wait is due when it said.
      const killAt = (t: number) => events.some((x) => x.kind === 'command' && x.atMs === t && /^script$/i.test(x.argv[0]) && /^kill$/i.test(x.argv[1] ?? ''));
      // A network wait ends when the reply arrives, at the latest at the client's timeout.
      const replyAt = (t: number) => events.some((x) => x.kind === 'command' && x.clientId === client.id && x.node !== undefined && x.atMs <= t && x.atMs >= e.atMs);
      // A message wait is due at the message (one already waiting: at once) or at its timeout.
      if (e.reason === 'reply' && next.dueMs < e.untilMs) expect(killAt(next.dueMs)).toBe(true);
      else if (e.reason === 'network' && next.dueMs < e.untilMs) expect(replyAt(next.dueMs)).toBe(true);
      else if (e.reason === 'message' && next.dueMs < e.untilMs) {
        expect(next.reason).toBe('message');
        expect(next.dueMs === e.atMs || messageAt(next.dueMs)).toBe(true);
      } else expect(next.dueMs).toBe(e.untilMs);
    });
  }
}
