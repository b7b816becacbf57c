// Goal: the run's append-only projection, extended step by step, equals the one built from the
// finished run at once and the naive derivations over its events; the simulation reports a cut
// timeline (its cutCount) and a projection refuses to extend over a shorter one; seeking never
// changes it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunProjection, type LockInterval } from '../../src/engine/projection';
import { formatSchedule } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/trace';
import { SCENARIOS } from '../../src/scenarios';
import { allVariants, applyIntents, intentArb } from './support/random-schedule';
import { runs } from '../support/size';

const PROPERTY_SEED = 4242;

/** Everything a projection answers, as plain data. */
function observe(projection: RunProjection, sim: Simulation) {
  const clientIds = [...new Set(projection.events.map((e) => e.clientId).filter((id): id is string => id !== null))];
  const keys = [...new Set(projection.events.flatMap((e) => (e.kind === 'command' ? e.argv.slice(1, 4) : [])))];
  return {
    eventCount: projection.eventCount,
    stepCount: projection.stepCount,
    schedule: projection.schedule,
    violations: projection.violations.map((v) => v.seq),
    locks: projection.lockIntervals,
    open: projection.openLock,
    lanes: clientIds.map((id) => [id, projection.lane(id)]),
    keys: keys.map((key) => [key, projection.keyHistory(key)]),
    steps: Array.from({ length: sim.length + 1 }, (_, step) => projection.eventsOfStep(step).map((e) => e.seq)),
  };
}

/** Lock intervals the slow way: one pass over every event, as a timeline would draw them. */
function naiveLocks(events: readonly TraceEvent[]): LockInterval[] {
  const closed: LockInterval[] = [];
  let open: Omit<LockInterval, 'endSeq' | 'endMs' | 'endReason'> | null = null;
  const close = (e: TraceEvent, endReason: NonNullable<LockInterval['endReason']>) => {
    if (open) closed.push({ ...open, endSeq: e.seq, endMs: e.atMs, endReason });
    open = null;
  };
  for (const e of events) {
    if (e.kind === 'violation') continue;
    if (open && e.lockBefore.value !== open.value) close(e, e.lockBefore.value === null ? 'expired' : 'overwritten');
    if (!open && e.lockBefore.value !== null) open = { value: e.lockBefore.value, holder: e.lockBefore.holder, startSeq: e.seq, startMs: e.atMs };
    if (e.lockAfter.value !== e.lockBefore.value || e.lockAfter.holder !== e.lockBefore.holder) {
      close(e, e.kind === 'command' ? (e.lockAfter.value === null ? 'deleted' : 'overwritten') : e.lockAfter.value === null ? 'expired' : 'overwritten');
      if (e.lockAfter.value !== null) open = { value: e.lockAfter.value, holder: e.lockAfter.holder, startSeq: e.seq, startMs: e.atMs };
    }
  }
  return closed;
}

describe('run projection', () => {
  it.each(allVariants(SCENARIOS).map((v) => [`${v.scenario.id}/${v.variantId}`, v] as const))(
    `%s: extended per step equals built at once and the naive derivations (fast-check seed ${PROPERTY_SEED})`,
    (_name, { scenario, variantId }) => {
      fc.assert(
        fc.property(fc.array(intentArb, { minLength: 1, maxLength: 40 }), (intents) => {
          const sim = new Simulation(scenario, { variantId, seed: 5 });
          const perStep = new RunProjection(1);
          for (const intent of intents) {
            applyIntents(sim, [intent]);
            perStep.extend(sim.allEvents(), sim.timeline);
          }
          const atOnce = new RunProjection(1);
          atOnce.extend(sim.allEvents(), sim.timeline);
          expect(observe(perStep, sim)).toEqual(observe(atOnce, sim));

          const events = sim.allEvents();
          expect(perStep.events).toEqual(events);
          expect(perStep.schedule).toBe(formatSchedule(sim.timeline));
          expect(perStep.violations).toEqual(events.filter((e) => e.kind === 'violation'));
          for (let step = 0; step <= sim.length; step++) expect(perStep.eventsOfStep(step)).toEqual(sim.eventsOfStep(step));
          for (const client of sim.clients) expect(perStep.lane(client.id).map((i) => events[i])).toEqual(events.filter((e) => e.clientId === client.id));
          expect(perStep.lockIntervals).toEqual(naiveLocks(events));
        }),
        { seed: PROPERTY_SEED, numRuns: runs(15) },
      );
    },
  );

  it('a fork is a cut the simulation counts; seeking counts none and changes nothing', () => {
    const scenario = SCENARIOS.find((s) => s.id === 'get-then-del') ?? SCENARIOS[0];
    const sim = new Simulation(scenario, {});
    sim.applySchedule(scenario.defaultSchedule);
    const projection = new RunProjection(1);
    expect(projection.extend(sim.allEvents(), sim.timeline)).toBe('appended');
    const before = { count: projection.eventCount, schedule: projection.schedule, events: projection.events };

    sim.seek(1);
    sim.seek(sim.length);
    sim.seek(2);
    expect(sim.cutCount).toBe(0);
    expect(projection.extend(sim.allEvents(), sim.timeline)).toBe('unchanged');
    expect(projection.eventCount).toBe(before.count);

    // A new choice at step 2 drops the future: counted as a cut, and the shorter timeline cannot extend the old projection.
    sim.apply({ kind: 'advance', ms: 1 });
    expect(sim.cutCount).toBe(1);
    expect(() => projection.extend(sim.allEvents(), sim.timeline)).toThrow(RangeError);
    expect(projection.schedule).toBe(before.schedule);
    expect(projection.events).toBe(before.events);
    expect(projection.eventCount).toBe(before.count);
  });

  it('an append keeps the prefix: the same array, its old events unchanged', () => {
    const scenario = SCENARIOS[0];
    const sim = new Simulation(scenario, {});
    const projection = new RunProjection(1);
    const seen: TraceEvent[][] = [];
    for (const choice of sim.ctx.clientIds.map((clientId) => ({ kind: 'step' as const, clientId }))) {
      if (sim.refusal(choice) !== null) continue;
      sim.apply(choice);
      const array = projection.events;
      projection.extend(sim.allEvents(), sim.timeline);
      expect(projection.events).toBe(array);
      seen.push(projection.events.slice());
    }
    for (const prefix of seen) expect(projection.events.slice(0, prefix.length)).toEqual(prefix);
  });
});
