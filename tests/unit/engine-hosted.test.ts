/**
 * Goal: the engine's hook for hosted clients (engine/host.ts) changes nothing for programs as data,
 * stops a choice cleanly when a hosted client runs past its log (HostPending, the world as it was
 * before the choice), sends a hosted client's values literally, and hands each reply to the host.
 */
import { describe, expect, it } from 'vitest';
import { HostPending, type ClientHost } from '../../src/engine/host';
import type { Step } from '../../src/engine/program';
import type { Reply } from '../../src/engine/redis/reply';
import type { Scenario } from '../../src/engine/scenario';
import { Simulation } from '../../src/engine/simulation';

function scenarioWith(log: Step[]): Scenario {
  const text = { en: 't', zh: 't' };
  return {
    id: 'hosted',
    title: text,
    summary: text,
    lesson: text,
    params: {},
    lockKey: 'lock',
    defaultSchedule: '',
    variants: [{ id: 'v', title: text, summary: text, expect: { violations: [], absent: [] }, clients: [{ id: 'A', program: log, hosted: true }] }],
    defaultVariant: 'v',
  };
}

describe('hosted clients in the engine', () => {
  it('a choice past the end of the log throws HostPending and leaves the world as it was', () => {
    const log: Step[] = [];
    const replies: [string, number, Reply, number][] = [];
    const host: ClientHost = { reply: (id, pc, reply, atMs) => void replies.push([id, pc, reply, atMs]), program: () => undefined };
    const sim = new Simulation(scenarioWith(log), { host, checkpointEverySteps: 1 });
    const before = sim.stateKey();
    expect(() => sim.apply({ kind: 'step', clientId: 'A' })).toThrow(HostPending);
    expect(sim.stateKey()).toBe(before);
    expect(sim.length).toBe(0);

    log.push({ op: 'command', argv: ['SET', 'lock', '${token}'] });
    let pending: unknown = null;
    try {
      sim.apply({ kind: 'step', clientId: 'A' });
    } catch (error) {
      pending = error;
    }
    // It sent the SET, then needed its next action: pending at pc 1, and the reply reached the host.
    expect(pending).toBeInstanceOf(HostPending);
    expect((pending as HostPending).pc).toBe(1);
    expect(replies).toEqual([['A', 0, { type: 'status', value: 'OK' }, 0]]);

    log.push({ op: 'end' });
    sim.apply({ kind: 'step', clientId: 'A' });
    const command = sim.trace().events.find((e) => e.kind === 'command');
    // Literal: a hosted value is never a template.
    expect(command?.kind === 'command' && command.argv).toEqual(['SET', 'lock', '${token}']);
    expect(sim.inspect().map((k) => k.value)).toEqual(['${token}']);
    expect(sim.clients[0].status).toBe('done');
  });
});
