import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine/simulation';
import { SCENARIOS, findScenario } from '../../src/scenarios';
import { createTimelineLayoutBuilder, layoutTimeline, zoomLayout } from '../../src/ui/views/timeline-layout';
import { buildTimelineModel, createTimelineModelBuilder } from '../../src/ui/views/timeline-model';
import { RunSession } from '../../src/session/run-session';
import { TimelineSource } from '../../src/ui/views/timeline-source';
import { allVariants, applyIntents, faultyIntentArb, intentArb } from './support/random-schedule';
import { runs } from '../support/size';

// Goal: the timeline grows by appending. A model (and layout) extended event by event, in chunks
// that cut steps anywhere, equals the one built from scratch, over every scenario and random
// schedules with faults; the source extends while the session's log grows within a generation and
// rebuilds at a new one (the run replaced, or cut by a new choice after seeking back).

const SLOTS = { commandStepPx: 120, plainStepPx: 44 };

function tokenOwners(sim: Simulation): Record<string, string> {
  const owners: Record<string, string> = {};
  for (const c of sim.clients) if (c.vars.token) owners[c.vars.token] = c.id;
  return owners;
}

/** Plain data (the model's arrays are shared with its builder: compare copies). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('the timeline model and layout grow by appending', () => {
  it('appending in chunks gives the model and layout built from scratch (fast-check seed 20261203)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...allVariants(SCENARIOS)),
        fc.boolean(),
        fc.array(fc.oneof(intentArb, faultyIntentArb), { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 30 }),
        ({ scenario, variantId }, fromDefault, intents, chunks) => {
          const sim = new Simulation(scenario, { variantId });
          if (fromDefault) sim.applySchedule(scenario.defaultSchedule);
          applyIntents(sim, intents);
          const events = sim.allEvents();
          const ids = sim.clients.map((c) => c.id);
          const owners = tokenOwners(sim);
          const builder = createTimelineModelBuilder(ids, owners);
          const layoutBuilder = createTimelineLayoutBuilder(SLOTS);
          let count = 0;
          let k = 0;
          while (count < events.length) {
            count = Math.min(events.length, count + chunks[k++ % chunks.length]);
            layoutBuilder.extend(builder.append(events.slice(0, count)));
          }
          const model = builder.append(events);
          const layout = zoomLayout(layoutBuilder.extend(model), 1);
          const scratch = buildTimelineModel(events, ids, owners);
          expect(plain(model)).toEqual(plain(scratch));
          const scratchLayout = layoutTimeline(scratch, SLOTS);
          expect(layout.widthPx).toBe(scratchLayout.widthPx);
          for (const e of events) expect(layout.xOfSeq(e.seq)).toBe(scratchLayout.xOfSeq(e.seq));
          for (let step = 0; step <= layout.slotCount + 1; step++) expect(layout.cursorX(step)).toBe(scratchLayout.cursorX(step));
          expect(layout.ticksIn(-Infinity, Infinity)).toEqual(scratchLayout.ticksIn(-Infinity, Infinity));
        },
      ),
      { seed: 20261203, numRuns: runs(60) },
    );
  }, 120_000);
});

describe('TimelineSource', () => {
  const scenario = findScenario('get-then-del');

  /** A session with `variantId` loaded empty, and its log as the store hands it to the views. */
  function sessionOf(variantId: string) {
    const session = new RunSession(scenario);
    expect(session.load({ scenarioId: scenario.id, scenario, variantId, schedule: '', cursor: null }).ok).toBe(true);
    const log = (eventCount = session.mark().eventCount) => ({ generation: session.mark().generation, events: session.log.events, eventCount });
    return { session, log };
  }

  it('extends the model while the log grows in place within a generation', () => {
    const { session, log } = sessionOf('get-then-del');
    const ids = session.simulation.clients.map((c) => c.id);
    const owners = {};
    const source = new TimelineSource();
    for (const choice of ['A', 'A', 'A~5000', '+4000', 'B', '+1000']) {
      expect(session.apply({ kind: 'appendSchedule', text: choice }).ok).toBe(true);
      const model = source.update(log(), ids, owners);
      const events = session.log.events.slice(0, session.mark().eventCount);
      expect(plain(model)).toEqual(plain(buildTimelineModel(events, ids, owners)));
      expect(source.update(log(), ids, owners).eventCount).toBe(events.length);
    }
    expect(source.rebuildCount).toBe(1);
  });

  it('rebuilds at a new generation (a cut after seeking back, another run) and for a shorter prefix', () => {
    const { session, log } = sessionOf('get-then-del');
    session.apply({ kind: 'appendSchedule', text: 'A A A~5000 +4000 B' });
    const ids = session.simulation.clients.map((c) => c.id);
    const source = new TimelineSource();
    source.update(log(), ids, {});
    session.apply({ kind: 'seek', cursor: 2 });
    session.apply({ kind: 'step', clientId: 'B' });
    const forked = session.simulation.allEvents().slice();
    expect(plain(source.update(log(), ids, {}))).toEqual(plain(buildTimelineModel(forked, ids, {})));
    expect(source.rebuildCount).toBe(2);
    // Predict mode draws only the past: a shorter prefix of the same generation starts over.
    const past = session.frame().eventCountToCursor - 1;
    expect(plain(source.update(log(past), ids, {}))).toEqual(plain(buildTimelineModel(forked.slice(0, past), ids, {})));
    expect(source.rebuildCount).toBe(3);
    session.load({ scenarioId: scenario.id, scenario, variantId: 'lua', cursor: null });
    const replaced = session.simulation.allEvents().slice();
    expect(plain(source.update(log(), ids, {}))).toEqual(plain(buildTimelineModel(replaced, ids, {})));
    expect(source.rebuildCount).toBe(4);
  });
});
