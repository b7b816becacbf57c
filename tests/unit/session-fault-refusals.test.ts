import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NodeChoice } from '../../src/engine/schedule';
import { findScenario } from '../../src/scenarios';
import { faultRefusalOf } from '../../src/session/fault-refusals';
import { RunSession } from '../../src/session/run-session';
import { runs } from '../support/size';

// Goal: the nodes dialog disables a fault with the engine's own refusal although the engine may
// be in another thread: the frame's table answers exactly what `Simulation.refusalRef` answers,
// for every fault the dialog can make, at any point of a run with nodes.

function faultsAt(nodeIds: readonly string[], clientIds: readonly string[]): NodeChoice[] {
  const ids = [...nodeIds, 'r9'];
  const clients = [...clientIds, 'Z'];
  return ids.flatMap((nodeId) => [
    { kind: 'node-crash', nodeId },
    { kind: 'node-restart', nodeId },
    { kind: 'promote', nodeId },
    { kind: 'node-clock', nodeId, ms: -500 },
    { kind: 'replication-delay', nodeId, ms: 40 },
    ...clients.flatMap((clientId): NodeChoice[] => [
      { kind: 'partition', clientId, nodeId },
      { kind: 'heal', clientId, nodeId },
      { kind: 'lose', clientId, nodeId, direction: 'reply' },
      { kind: 'client-clock', clientId, ms: 700 },
    ]),
  ]);
}

describe('fault refusals in the frame', () => {
  for (const scenarioId of ['failover-before-replication', 'redlock-happy-path']) {
    it(`${scenarioId}: the table answers what the engine answers, after any steps and faults (fast-check seed 7)`, () => {
      const scenario = findScenario(scenarioId);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 10 }), (picks) => {
          const session = new RunSession(scenario);
          session.load({ scenarioId, scenario, schedule: '', cursor: 0 });
          for (const pick of picks) {
            const { nodeIds, clientIds } = session.frame();
            const moves = [...clientIds.map((clientId) => ({ kind: 'step' as const, clientId })), ...faultsAt(nodeIds, clientIds).filter((f) => !('nodeId' in f && f.nodeId === 'r9') && !('clientId' in f && f.clientId === 'Z'))];
            session.apply({ kind: 'choice', choice: moves[pick % moves.length], checkFirst: true });
          }
          const frame = session.frame();
          for (const fault of faultsAt(frame.nodeIds, frame.clientIds)) {
            expect(faultRefusalOf(frame.faultRefusals, frame.nodeIds, frame.clientIds, fault), JSON.stringify(fault)).toEqual(session.simulation.refusalRef(fault));
          }
        }),
        { seed: 7, numRuns: runs(60) },
      );
    });
  }

  it('one node: every fault is refused as the engine refuses it, and the table is empty', () => {
    const session = new RunSession(findScenario('get-then-del'));
    const frame = session.frame();
    expect(frame.faultRefusals).toEqual({});
    const fault: NodeChoice = { kind: 'node-crash', nodeId: 'r1' };
    expect(faultRefusalOf(frame.faultRefusals, frame.nodeIds, frame.clientIds, fault)).toEqual(session.simulation.refusalRef(fault));
  });
});
