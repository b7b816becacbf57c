/**
 * Goal: activities of hosted clients in the engine (engine/activity.ts). A `spawn` step adds a
 * client `A·1` to the creator's process whose program (the host's log) starts with a sleep of its
 * delay, so it fires at exactly its due time; a stall of the process makes it fire late, a crash
 * kills it, `cancel` ends it before it fires, and an `await` step waits until another activity of
 * the process steps. Schedules name activities (`A·1`), seek and state keys see them.
 */
import { describe, expect, it } from 'vitest';
import type { ClientHost } from '../../src/engine/host';
import type { Step } from '../../src/engine/program';
import type { Scenario } from '../../src/engine/scenario';
import { formatSchedule, parseSchedule } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { cloneWorld } from '../../src/engine/world';

const text = { en: 't', zh: 't' };

function scenarioWith(clients: Record<string, Step[]>): Scenario {
  return {
    id: 'activities',
    title: text,
    summary: text,
    lesson: text,
    params: {},
    lockKey: 'lock',
    defaultSchedule: '',
    variants: [{ id: 'v', title: text, summary: text, expect: { violations: [], absent: [] }, clients: Object.entries(clients).map(([id, program]) => ({ id, program, hosted: true })) }],
    defaultVariant: 'v',
  };
}

/** A host whose logs are written up front (the engine reads an activity's program from it). */
function hostOf(activities: Record<string, Step[]>): ClientHost {
  return { reply: () => undefined, program: (id) => activities[id] };
}

function run(clients: Record<string, Step[]>, activities: Record<string, Step[]>, schedule: string): Simulation {
  const sim = new Simulation(scenarioWith(clients), { host: hostOf(activities), checkpointEverySteps: 1 });
  sim.applySchedule(parseSchedule(schedule, sim.ctx.clientIds));
  return sim;
}

const timer = (delayMs: number, ...actions: Step[]): Step[] => [{ op: 'sleep', durationMs: delayMs }, ...actions, { op: 'end' }];

describe('activities of hosted clients', () => {
  it('a timer fires at exactly its due time, in its creator’s process, and its commands are its own', () => {
    const sim = run(
      { A: [{ op: 'command', argv: ['SET', 'lock', 'a', 'PX', '1000'] }, { op: 'spawn', client: 'A·1', delayMs: 800 }, { op: 'end' }] },
      { 'A·1': timer(800, { op: 'command', argv: ['PEXPIRE', 'lock', '1000'] }) },
      'A +2000',
    );
    const activity = sim.clients.find((c) => c.id === 'A·1');
    expect(activity?.process).toBe('A');
    expect(activity?.status).toBe('done');
    const pexpire = sim.trace().events.find((e) => e.kind === 'command' && e.argv[0] === 'PEXPIRE');
    expect(pexpire?.clientId).toBe('A·1');
    expect(pexpire?.atMs).toBe(800);
    // Its refresh kept the lock past 1000 ms: it expires at 1800.
    const expire = sim.trace().events.find((e) => e.kind === 'expire');
    expect(expire?.atMs).toBe(1801);
    // The lock taken by A and refreshed by A·1 is A's: no foreign release.
    expect(sim.trace().violations).toEqual([]);
  });

  it('a stall of the process holds the timer: it fires late and the wake says so', () => {
    const sim = run({ A: [{ op: 'spawn', client: 'A·1', delayMs: 500 }, { op: 'end' }] }, { 'A·1': timer(500, { op: 'command', argv: ['SET', 'k', 'v'] }) }, 'A A~2000 +3000');
    const wake = sim.trace().events.find((e) => e.kind === 'wake' && e.clientId === 'A·1');
    expect(wake?.kind === 'wake' && [wake.atMs, wake.dueMs, wake.lateMs, wake.lateCause]).toEqual([2000, 500, 1500, 'stall']);
  });

  it('a crash of the process kills its pending timer', () => {
    const sim = run({ A: [{ op: 'spawn', client: 'A·1', delayMs: 500 }, { op: 'hang' }] }, { 'A·1': timer(500, { op: 'command', argv: ['SET', 'k', 'v'] }) }, 'A !A +3000');
    expect(sim.clients.map((c) => [c.id, c.status])).toEqual([
      ['A', 'crashed'],
      ['A·1', 'crashed'],
    ]);
    expect(sim.inspect()).toEqual([]);
  });

  it('cancel ends a timer before it fires', () => {
    const sim = run(
      { A: [{ op: 'spawn', client: 'A·1', delayMs: 500 }, { op: 'command', argv: ['GET', 'k'] }, { op: 'cancel', client: 'A·1' }, { op: 'end' }] },
      { 'A·1': timer(500, { op: 'command', argv: ['SET', 'k', 'v'] }) },
      'A +3000',
    );
    expect(sim.inspect()).toEqual([]);
    const ends = sim.trace().events.filter((e) => e.kind === 'end' && e.clientId === 'A·1');
    expect(ends.map((e) => e.atMs)).toEqual([0]);
  });

  it('await waits until another activity of the process steps; `A` runs the world until then', () => {
    const sim = run(
      { A: [{ op: 'spawn', client: 'A·1', delayMs: 300 }, { op: 'await' }, { op: 'command', argv: ['SET', 'k', 'after'] }, { op: 'end' }] },
      { 'A·1': timer(300) },
      'A A',
    );
    const set = sim.trace().events.find((e) => e.kind === 'command' && e.clientId === 'A');
    expect(set?.atMs).toBe(300);
    expect(sim.trace().events.some((e) => e.kind === 'wake' && e.clientId === 'A' && e.reason === 'await')).toBe(true);
    // Nothing left to wake it: stepping a client that awaits with no activity left is refused.
    const stuck = run({ A: [{ op: 'await' }, { op: 'end' }] }, {}, 'A');
    expect(stuck.refusal({ kind: 'step', clientId: 'A' })).toMatch(/no other activity/);
  });

  it('schedules name activities, seek and state keys see them', () => {
    const clients = { A: [{ op: 'spawn', client: 'A·1', delayMs: 0 } as Step, { op: 'end' } as Step] };
    const activities = { 'A·1': timer(0, { op: 'command', argv: ['SET', 'k', 'v'] }) };
    expect(formatSchedule(parseSchedule('A A·1 A~5 !A·1', ['A']))).toBe('A A·1 A~5 !A·1');
    expect(() => parseSchedule('B·1', ['A'])).toThrow(/unknown client "B·1"/);
    const sim = run(clients, activities, 'A A·1');
    expect(sim.inspect().map((k) => k.value)).toEqual(['v']);
    const key = sim.stateKey();
    expect(key).toContain('A·1');
    sim.seek(1);
    expect(sim.clients.map((c) => [c.id, c.status])).toEqual([
      ['A', 'done'],
      ['A·1', 'ready'],
    ]);
    sim.seek(0);
    expect(sim.clients.map((c) => c.id)).toEqual(['A']);
    expect(sim.refusal({ kind: 'step', clientId: 'A·1' })).toMatch(/no client "A·1"/);
    sim.seek(2);
    expect(sim.stateKey()).toBe(key);
    // Checkpoints copy activities as they copy any client.
    expect(cloneWorld(sim.state)).toEqual(structuredClone(sim.state));
  });
});
