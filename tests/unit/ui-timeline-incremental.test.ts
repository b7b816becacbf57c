import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/trace';
import { SCENARIOS, findScenario } from '../../src/scenarios';
import { createTimelineLayoutBuilder, layoutTimeline, zoomLayout } from '../../src/ui/views/timeline-layout';
import { buildTimelineModel, createTimelineModelBuilder } from '../../src/ui/views/timeline-model';
import { TimelineSource } from '../../src/ui/views/timeline-source';
import { allVariants, applyIntents, faultyIntentArb, intentArb } from './support/random-schedule';
import { runs } from '../support/size';

// Goal: the timeline grows by appending. A model (and layout) extended event by event, in chunks
// that cut steps anywhere, equals the one built from scratch, over every scenario and random
// schedules with faults; the source extends while the run grows and rebuilds when the run is
// replaced or cut (a new choice after seeking back).

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

  it('extends the model while the run grows, also when one array grows in place', () => {
    const sim = new Simulation(scenario, { variantId: 'get-then-del' });
    const ids = sim.clients.map((c) => c.id);
    const owners = {};
    const source = new TimelineSource();
    const grown: TraceEvent[] = [];
    for (const choice of ['A', 'A', 'A~5000', '+4000', 'B', '+1000']) {
      sim.applySchedule(choice);
      const events = sim.allEvents().slice();
      const model = source.update(events, ids, owners);
      expect(plain(model)).toEqual(plain(buildTimelineModel(events, ids, owners)));
      grown.push(...events.slice(grown.length));
      expect(source.update(grown, ids, owners).eventCount).toBe(events.length);
    }
    expect(source.rebuildCount).toBe(1);
  });

  it('rebuilds when the run is cut (a new choice after seeking back) or replaced', () => {
    const sim = new Simulation(scenario, { variantId: 'get-then-del' });
    sim.applySchedule('A A A~5000 +4000 B');
    const ids = sim.clients.map((c) => c.id);
    const source = new TimelineSource();
    source.update(sim.allEvents().slice(), ids, {});
    sim.seek(2);
    sim.applySchedule('B');
    const forked = sim.allEvents().slice();
    expect(plain(source.update(forked, ids, {}))).toEqual(plain(buildTimelineModel(forked, ids, {})));
    expect(source.rebuildCount).toBe(2);
    const other = new Simulation(scenario, { variantId: 'lua' });
    other.applySchedule(scenario.defaultSchedule);
    const replaced = other.allEvents().slice();
    expect(plain(source.update(replaced, ids, {}))).toEqual(plain(buildTimelineModel(replaced, ids, {})));
    expect(source.rebuildCount).toBe(3);
  });
});
