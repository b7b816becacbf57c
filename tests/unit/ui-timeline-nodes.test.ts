import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import { createTimelineModelBuilder, buildTimelineModel } from '../../src/ui/views/timeline-model';
import type { NodeRow, NodeSegment, TimelineModel } from '../../src/ui/views/timeline-types';

// Goal: the timeline's node rows tell failover-before-replication on their own: r1 holds A's lock
// until it crashes and stays down; r2 lacks r1's write until the failover, is promoted, and then
// holds B's lock. The trace says what each node is (TraceEvent.nodes, only the nodes that
// changed; the first event all of them), and single-node traces carry no node views at all.

function run(scenarioId: string, variantId: string, schedule?: string): { sim: Simulation; model: TimelineModel } {
  const scenario = findScenario(scenarioId);
  const sim = new Simulation(scenario, { variantId });
  sim.applySchedule(schedule ?? scenario.defaultSchedule);
  const owners: Record<string, string> = {};
  for (const c of sim.clients) if (c.vars.token) owners[c.vars.token] = c.id;
  return { sim, model: buildTimelineModel(sim.allEvents(), sim.clients.map((c) => c.id), owners) };
}

const rowOf = (model: TimelineModel, id: string): NodeRow => {
  const row = model.nodes.find((r) => r.nodeId === id);
  if (!row) throw new Error(`no node row ${id}`);
  return row;
};
const summary = (s: NodeSegment) => `${s.up ? s.role : 'down'}:${s.holder ?? (s.lock === null ? '-' : '?')}:${s.lagWrites}`;

describe('node rows of the timeline', () => {
  it('failover-before-replication/async: r1 holds A’s lock then is down; r2 lacks the write, is promoted, holds B’s', () => {
    const { model } = run('failover-before-replication', 'async');
    expect(model.nodes.map((n) => n.nodeId)).toEqual(['r1', 'r2']);
    const r1 = rowOf(model, 'r1');
    const r2 = rowOf(model, 'r2');
    expect(r1.segments.map(summary)).toEqual(['primary:-:0', 'primary:A:0', 'down:-:0']);
    expect(r1.segments[r1.segments.length - 1].open).toBe(true);
    expect(r1.faults.map((f) => f.fault)).toEqual(['node-crash']);
    expect(r1.faults[0].lostKeys).toEqual(['lock']);
    // r2 is one write behind from A's SET until the failover; promoted, it takes B's lock, which B's release deletes.
    expect(r2.segments.map(summary)).toEqual(['replica:-:0', 'replica:-:1', 'primary:-:0', 'primary:B:0', 'primary:-:0']);
    expect(r2.faults.map((f) => f.fault)).toEqual(['promote']);
  });

  it('the trace lists every node at the first event, then only nodes that changed; one node: no views', () => {
    const { sim } = run('failover-before-replication', 'wait');
    const events = sim.allEvents();
    expect(events[0].nodes?.map((n) => n.node)).toEqual(['r1', 'r2', 'r3']);
    const set = events.find((e) => e.kind === 'command' && e.argv[0] === 'SET');
    expect(set?.nodes?.map((n) => [n.node, n.lock !== null, n.offset])).toEqual([['r1', true, 1]]);
    const single = run('get-then-del', 'lua').sim.allEvents();
    expect(single.some((e) => 'nodes' in e)).toBe(false);
  });

  it('appending event by event builds the rows a whole build does', () => {
    const { sim, model } = run('redlock-restart-without-fsync', 'no-fsync');
    const builder = createTimelineModelBuilder(model.clientIds, Object.fromEntries(sim.clients.map((c) => [c.vars.token, c.id])));
    const events = sim.allEvents();
    let grown: TimelineModel | null = null;
    for (let n = 1; n <= events.length; n++) grown = builder.append(events.slice(0, n));
    expect(JSON.stringify(grown?.nodes)).toBe(JSON.stringify(model.nodes));
    // The restart without fsync shows: r3 restarts empty.
    expect(rowOf(model, 'r3').faults.some((f) => f.fault === 'node-restart' && f.withData === false)).toBe(true);
  });

  it('redlock-clock-jump: a request lost in a partition is a "lost" point on its client’s row', () => {
    const { model } = run('redlock-clock-jump', 'clock-jump');
    const drops = (id: string) => (model.rows.find((r) => r.clientId === id)?.points ?? []).filter((p) => p.kind === 'drop').map((p) => p.detail.join(''));
    // B is partitioned from r1 and r2, A from r4 and r5: each SET on those links is lost on its way.
    expect(drops('B').slice(0, 2)).toEqual(['→ @r1', '→ @r2']);
    expect(drops('A').slice(0, 2)).toEqual(['→ @r4', '→ @r5']);
  });
});
