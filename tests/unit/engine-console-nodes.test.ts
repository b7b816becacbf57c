// Goal: in a scenario with several nodes the console is aimed at one of them (`$@r1|GET|lock`):
// the command runs there at once (no link), a primary's write replicates as a client's does, a
// replica answers READONLY to a write, and the console is refused when it is aimed at no node,
// at a node that is down, or at a node when the scenario has only one.
import { describe, expect, it } from 'vitest';
import { formatSchedule, parseSchedule, ScheduleSyntaxError, type Choice } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/trace';
import { findScenario } from '../../src/scenarios';

const failover = findScenario('failover-before-replication');

const commandsOfConsole = (events: readonly TraceEvent[]) =>
  events.flatMap((e) => (e.kind === 'command' && e.clientId === 'console' ? [{ argv: e.argv, reply: e.reply, node: e.node }] : []));

describe('the console aimed at one node', () => {
  it('parses and formats $@node|CMD|arg, and keeps a command of its own that starts with @ apart', () => {
    const choices = parseSchedule('A $@r2|GET|lock', ['A', 'B'], ['r1', 'r2']);
    expect(choices[1]).toEqual({ kind: 'console', argv: ['GET', 'lock'], nodeId: 'r2' });
    expect(formatSchedule(choices)).toBe('A $@r2|GET|lock');
    const odd: Choice = { kind: 'console', argv: ['@r2', 'x'] };
    expect(formatSchedule([odd])).toBe('$%40r2|x');
    expect(parseSchedule(formatSchedule([odd]))).toEqual([odd]);
    expect(() => parseSchedule('$@r9|GET|lock', ['A'], ['r1', 'r2'])).toThrow(ScheduleSyntaxError);
    expect(() => parseSchedule('$@r9|GET|lock', ['A'], ['r1', 'r2'])).toThrow(/unknown node "@r9"/);
  });

  it('runs on the node at once; a primary write reaches its replica after the replication delay', () => {
    const sim = new Simulation(failover, { variantId: 'async' });
    sim.applySchedule('$@r1|SET|k|v $@r2|GET|k +1000 $@r2|GET|k');
    const seen = commandsOfConsole(sim.allEvents());
    expect(seen.map((c) => c.node)).toEqual(['r1', 'r2', 'r2']);
    expect(seen[0].reply).toEqual({ type: 'status', value: 'OK' });
    // r2 applies r1's writes 1 s after they are made (the lesson's replication delay).
    expect(seen[1].reply).toEqual({ type: 'nil' });
    expect(seen[2].reply).toEqual({ type: 'bulk', value: 'v' });
  });

  it('answers READONLY to a write on a replica, and the run replays byte for byte', () => {
    const schedule = 'A $@r2|SET|k|v $@r1|GET|lock';
    const first = new Simulation(failover, { variantId: 'async' });
    first.applySchedule(schedule);
    const seen = commandsOfConsole(first.allEvents());
    expect(seen[0].reply).toMatchObject({ type: 'error' });
    expect(JSON.stringify(seen[0].reply)).toMatch(/READONLY/);
    expect(seen[1].reply).toMatchObject({ type: 'bulk' });
    const again = new Simulation(failover, { variantId: 'async' });
    again.applySchedule(schedule);
    expect(JSON.stringify(again.allEvents())).toBe(JSON.stringify(first.allEvents()));
  });

  it('is refused aimed at no node, at a node that is down, or at a node in a one-node scenario', () => {
    const sim = new Simulation(failover, { variantId: 'async' });
    expect(sim.refusalRef({ kind: 'console', argv: ['GET', 'lock'] })).toEqual({ key: 'refuseConsoleNeedsNode', params: { node: 'r1' } });
    sim.applySchedule('!@r1');
    expect(sim.refusalRef({ kind: 'console', argv: ['GET', 'lock'], nodeId: 'r1' })).toEqual({ key: 'refuseConsoleNodeDown', params: { node: 'r1' } });
    expect(sim.refusal({ kind: 'console', argv: ['GET', 'lock'], nodeId: 'r1' })).toBe('the console cannot reach @r1: it is down');
    expect(sim.refusalRef({ kind: 'console', argv: ['GET', 'lock'], nodeId: 'r2' })).toBeNull();
    const single = new Simulation(findScenario('get-then-del'));
    expect(single.refusalRef({ kind: 'console', argv: ['GET', 'lock'], nodeId: 'r1' })).toEqual({ key: 'refuseConsoleNoNodes' });
  });
});
