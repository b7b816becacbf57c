// Goal: the session's change feed is enough to follow a run. A reader that keeps its own view of
// the log only from `changesSince` (appending what it is told was appended, rebuilding from the
// log on a reset) always equals the view rebuilt from scratch from the simulation's events (an
// uncached twin, as tldraw keeps for its store indexes), over random commands: steps, faults, time,
// seeks back and then new steps (forks), refused choices, rebuilds and loads.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/trace';
import { findScenario } from '../../src/scenarios';
import type { SessionCommand } from '../../src/session/commands';
import type { FeedMark, StepBounds } from '../../src/session/feed';
import { RunSession } from '../../src/session/run-session';

const PROPERTY_SEED = 20261204;

/** What the reader keeps: every event (by seq, step and kind), each step's bounds, and a lane count per client. */
interface View {
  readonly events: { seq: number; step: number; kind: string }[];
  readonly steps: StepBounds[];
  readonly lanes: Map<string, number>;
}

function addEvents(view: View, events: readonly TraceEvent[]): void {
  for (const e of events) {
    view.events.push({ seq: e.seq, step: e.step, kind: e.kind });
    if (e.clientId !== null) view.lanes.set(e.clientId, (view.lanes.get(e.clientId) ?? 0) + 1);
  }
}

/** The uncached twin: the view of a whole timeline, from its events alone (no projection, no feed). */
function viewFromScratch(events: readonly TraceEvent[], stepCount: number): View {
  const view: View = { events: [], steps: [], lanes: new Map() };
  addEvents(view, events);
  let index = 0;
  for (let step = 0; step < stepCount; step++) {
    const firstEvent = index;
    while (index < events.length && events[index].step === step) index++;
    view.steps.push({ step, firstEvent, endEvent: index });
  }
  return view;
}

/** The incremental reader: its view, extended by each change the feed reports. */
class Reader {
  view: View = { events: [], steps: [], lanes: new Map() };
  resets = 0;
  constructor(
    private readonly session: RunSession,
    private mark: FeedMark = session.mark(),
  ) {
    this.rebuild();
  }
  follow(): void {
    const change = this.session.changesSince(this.mark);
    this.mark = change.mark;
    if (change.kind === 'reset') return this.rebuild();
    addEvents(this.view, change.events);
    this.view.steps.push(...change.steps);
  }
  private rebuild(): void {
    this.resets += 1;
    const log = this.session.log;
    this.view = { events: [], steps: [], lanes: new Map() };
    addEvents(this.view, log.events.slice(0, this.mark.eventCount));
    for (let step = 0; step < this.mark.stepCount; step++) this.view.steps.push({ step, firstEvent: log.firstEventOfStep(step), endEvent: log.firstEventOfStep(step + 1) });
  }
}

type Action =
  | { kind: 'command'; command: SessionCommand }
  | { kind: 'seekFraction'; fraction: number }
  | { kind: 'load'; variant: number; cursorFraction: number | null };

const clientArb = fc.constantFrom('A', 'B', 'W', 'C');
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: clientArb.map((clientId) => ({ kind: 'command' as const, command: { kind: 'step' as const, clientId } })) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 6000 }).map((ms) => ({ kind: 'command' as const, command: { kind: 'advance' as const, ms } })) },
  { weight: 1, arbitrary: fc.tuple(clientArb, fc.integer({ min: 1, max: 6000 })).map(([clientId, ms]) => ({ kind: 'command' as const, command: { kind: 'stall' as const, clientId, ms } })) },
  { weight: 1, arbitrary: clientArb.map((clientId) => ({ kind: 'command' as const, command: { kind: 'crash' as const, clientId } })) },
  { weight: 1, arbitrary: clientArb.map((clientId) => ({ kind: 'command' as const, command: { kind: 'runToNextCommand' as const, clientId } })) },
  { weight: 1, arbitrary: fc.constantFrom('A B', '+100 A', 'B B +5', 'A +x').map((text) => ({ kind: 'command' as const, command: { kind: 'appendSchedule' as const, text } })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'command' as const, command: { kind: 'jumpToNextExpiry' as const } }) },
  { weight: 2, arbitrary: fc.constantFrom({ kind: 'stepBack' as const }, { kind: 'stepForward' as const }).map((command) => ({ kind: 'command' as const, command })) },
  { weight: 3, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((fraction) => ({ kind: 'seekFraction' as const, fraction })) },
  { weight: 1, arbitrary: fc.tuple(fc.nat(5), fc.integer({ min: 1, max: 3 })).map(([variant, seed]) => ({ kind: 'command' as const, command: { kind: 'rebuild' as const, variantId: String(variant), seed } })) },
  { weight: 1, arbitrary: fc.tuple(fc.nat(5), fc.option(fc.double({ min: 0, max: 1, noNaN: true }))).map(([variant, cursorFraction]) => ({ kind: 'load' as const, variant, cursorFraction })) },
);

function perform(session: RunSession, action: Action): void {
  const scenario = session.scenario;
  const variantOf = (index: number) => scenario.variants[index % scenario.variants.length].id;
  if (action.kind === 'seekFraction') {
    session.apply({ kind: 'seek', cursor: Math.round(action.fraction * session.simulation.length) });
  } else if (action.kind === 'load') {
    const cursor = action.cursorFraction === null ? null : Math.round(action.cursorFraction * 6);
    session.load({ scenarioId: scenario.id, scenario, variantId: variantOf(action.variant), cursor, cutToFit: true });
  } else if (action.command.kind === 'rebuild') {
    session.apply({ ...action.command, variantId: variantOf(Number(action.command.variantId)) });
  } else {
    session.apply(action.command);
  }
}

function expectSame(reader: Reader, sim: Simulation): void {
  expect(reader.view).toEqual(viewFromScratch(sim.allEvents(), sim.length));
}

describe('the session change feed', () => {
  it.each(['get-then-del', 'watchdog'])(`%s: a view built from changesSince equals one rebuilt from scratch (fast-check seed ${PROPERTY_SEED})`, (id) => {
    const scenario = findScenario(id);
    fc.assert(
      fc.property(fc.array(actionArb, { minLength: 1, maxLength: 40 }), (actions) => {
        const session = new RunSession(scenario);
        session.load({ scenarioId: scenario.id, scenario, cursor: 2 });
        const reader = new Reader(session);
        for (const action of actions) {
          perform(session, action);
          reader.follow();
          expectSame(reader, session.simulation);
        }
      }),
      { seed: PROPERTY_SEED, numRuns: 150 },
    );
  });

  it('a new step after seeking back is a fork: the reader is told to reset', () => {
    const scenario = findScenario('get-then-del');
    const session = new RunSession(scenario);
    session.load({ scenarioId: scenario.id, scenario, cursor: null });
    const reader = new Reader(session);
    const resets = reader.resets;
    session.apply({ kind: 'seek', cursor: 1 });
    session.apply({ kind: 'step', clientId: 'B' });
    const change = session.changesSince(session.mark());
    expect(change.kind).toBe('append');
    reader.follow();
    expect(reader.resets).toBe(resets + 1);
    expectSame(reader, session.simulation);
  });
});
