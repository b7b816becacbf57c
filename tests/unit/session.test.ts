// Goal: the run session, headless (no store, no React): a load is checked before it replaces the
// run (each refusal names its reason), every command changes the run as the engine would and a
// choice that does not fit is a refusal carrying the engine's own words, time travel keeps the
// inspector's "changed since the previous step" right, a rebuild keeps what fits, and the change
// feed says "append" for what was appended and "reset" for a cut or replaced timeline.
import { describe, expect, it, vi } from 'vitest';
import { ChoiceError } from '../../src/engine/choice-error';
import { parseSchedule } from '../../src/engine/schedule';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import { keyViews } from '../../src/session/derive';
import { RunSession, type LoadRequest } from '../../src/session/run-session';

const scenario = findScenario('get-then-del');

function loaded(spec: Partial<LoadRequest> = {}): RunSession {
  const session = new RunSession(scenario);
  const outcome = session.load({ scenarioId: scenario.id, scenario, ...spec });
  expect(outcome).toEqual({ ok: true, cut: null });
  return session;
}

/** What the engine itself says when `choice` is applied after `schedule`. */
function engineRefusal(schedule: string, choice: string): string {
  const sim = new Simulation(scenario, {});
  sim.applySchedule(schedule);
  try {
    sim.applySchedule(choice);
  } catch (error) {
    if (error instanceof ChoiceError) return error.message;
    throw error;
  }
  throw new Error(`${choice} fits after ${schedule}`);
}

describe('RunSession.load', () => {
  const session = new RunSession(scenario);
  const load = (spec: Partial<LoadRequest>) => session.load({ scenarioId: scenario.id, scenario, ...spec });

  it.each([
    ['an unknown scenario', { scenarioId: 'nope', scenario: undefined }, { reason: 'unknown-scenario', detail: 'nope' }],
    ['an unknown variant', { variantId: 'nope' }, { reason: 'unknown-variant', detail: 'nope' }],
    ['a scenario that cannot run here yet', { runnable: () => false }, { reason: 'not-ready', detail: scenario.id }],
    ['a negative seed', { seed: -1 }, { reason: 'bad-seed', detail: '-1' }],
    ['a seed past 32 bits', { seed: 2 ** 32 }, { reason: 'bad-seed', detail: String(2 ** 32) }],
    ['a fractional seed', { seed: 1.5 }, { reason: 'bad-seed', detail: '1.5' }],
    ['a cursor past the schedule', { schedule: 'A A', cursor: 3 }, { reason: 'bad-cursor', detail: '3' }],
    ['a negative cursor', { cursor: -1 }, { reason: 'bad-cursor', detail: '-1' }],
  ] as const)('refuses %s', (_name, spec, error) => {
    expect(load(spec as Partial<LoadRequest>)).toEqual({ ok: false, error });
  });

  it('refuses a schedule that does not parse, in the parser’s words', () => {
    const outcome = load({ schedule: 'A +4OOO' });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.reason).toBe('bad-schedule');
    expect(outcome.error.detail).toMatch(/\+4OOO/);
  });

  it('refuses a schedule that does not fit unless told to cut it, in the engine’s words', () => {
    const detail = engineRefusal('!A', 'A');
    expect(load({ schedule: '!A A B' })).toEqual({ ok: false, error: { reason: 'schedule-does-not-fit', detail } });
    expect(load({ schedule: '!A A B', cutToFit: true, cursor: null })).toEqual({ ok: true, cut: { step: 1, reason: detail } });
    expect(session.frame()).toMatchObject({ length: 1, cursor: 1, schedule: '!A' });
  });

  it('a refused load leaves the run on hand as it was', () => {
    const before = loaded({ schedule: 'A A', cursor: null });
    const frame = before.frame();
    expect(before.load({ scenarioId: scenario.id, scenario, seed: -5 }).ok).toBe(false);
    expect(before.frame()).toBe(frame);
    expect(before.simulation.schedule).toBe('A A');
  });

  it('shows the start unless told, the end for a null cursor', () => {
    expect(loaded().frame()).toMatchObject({ cursor: 0, length: 6, schedule: scenario.defaultSchedule });
    expect(loaded({ cursor: null }).frame()).toMatchObject({ cursor: 6, length: 6 });
    expect(loaded({ cursor: 2, variantId: 'lua', seed: 7 }).frame()).toMatchObject({ cursor: 2, variantId: 'lua', seed: 7 });
  });
});

describe('RunSession commands', () => {
  it('applies each choice command as the engine does', () => {
    const session = loaded({ schedule: '' });
    const commands = [
      { kind: 'step', clientId: 'A' },
      { kind: 'stall', clientId: 'A', ms: 5000 },
      { kind: 'advance', ms: 4000 },
      { kind: 'choice', choice: { kind: 'step', clientId: 'B' } },
      { kind: 'appendChoices', choices: parseSchedule('B +10', ['A', 'B']) },
      { kind: 'appendSchedule', text: '+5' },
      { kind: 'crash', clientId: 'B' },
    ] as const;
    for (const command of commands) expect(session.apply(command)).toEqual({ ok: true, timelineChanged: true });
    const sim = new Simulation(scenario, {});
    sim.applySchedule('A A~5000 +4000 B B +10 +5 !B');
    expect(session.simulation.schedule).toBe(sim.schedule);
    expect(session.simulation.allEvents()).toEqual(sim.allEvents());
    expect(session.frame()).toMatchObject({ cursor: 8, length: 8, schedule: sim.schedule, nowMs: sim.nowMs });
  });

  it('runs a client to its next command, and jumps to the next key expiry', () => {
    const session = loaded({ schedule: 'A' , cursor: null });
    session.apply({ kind: 'runToNextCommand', clientId: 'A' });
    const commands = session.simulation.allEvents().filter((e) => e.kind === 'command' && e.clientId === 'A');
    expect(commands.length).toBeGreaterThanOrEqual(1);
    const expiry = session.frame().nextExpiryAtMs;
    expect(expiry).not.toBeNull();
    expect(session.apply({ kind: 'jumpToNextExpiry' }).ok).toBe(true);
    expect(session.frame().nowMs).toBe((expiry ?? 0) + 1);
    expect(session.frame().keys.find((k) => k.change === 'expired')).toBeDefined();
    expect(session.apply({ kind: 'jumpToNextExpiry' })).toEqual({ ok: true, noop: true, timelineChanged: false });
  });

  it('refuses a choice that does not fit with the engine’s words, and a schedule that does not parse', () => {
    const session = loaded({ schedule: '!A', cursor: null });
    const result = session.apply({ kind: 'step', clientId: 'A' });
    expect(result).toMatchObject({ ok: false, timelineChanged: false, refusal: { kind: 'choice', detail: engineRefusal('!A', 'A') } });
    if (!result.ok && result.refusal.kind === 'choice') expect(result.refusal.ref).not.toBeNull();
    expect(session.apply({ kind: 'appendSchedule', text: 'A +4OOO' })).toMatchObject({ ok: false, refusal: { kind: 'schedule' } });
    expect(session.frame().length).toBe(1);
  });

  it('refuses every command while a scenario loads, until a run is installed', () => {
    const session = loaded();
    const ticket = session.beginLoading('other');
    expect(session.apply({ kind: 'step', clientId: 'A' })).toEqual({ ok: false, refusal: { kind: 'loading', scenarioId: 'other' }, timelineChanged: false });
    expect(session.apply({ kind: 'seek', cursor: 0 })).toMatchObject({ ok: false, refusal: { kind: 'loading' } });
    expect(session.isCurrentLoad(ticket)).toBe(true);
    session.load({ scenarioId: scenario.id, scenario });
    expect(session.isCurrentLoad(ticket)).toBe(false);
    expect(session.loading).toBeNull();
    expect(session.apply({ kind: 'step', clientId: 'A' }).ok).toBe(true);
  });

  it('seeks, steps back and forward without changing the timeline; the inspector compares with the step before', () => {
    const session = loaded({ cursor: null });
    const length = session.frame().length;
    const version = session.frame().timelineVersion;
    const reference = new Simulation(scenario, {});
    reference.applySchedule(scenario.defaultSchedule);
    const tokens = session.frame().tokens;
    const expectAt = (cursor: number) => {
      const frame = session.frame();
      expect(frame.cursor).toBe(cursor);
      reference.seek(cursor);
      const here = reference.inspect();
      const before = cursor > 0 ? (reference.seek(cursor - 1), reference.inspect()) : null;
      expect(frame.keys).toEqual(keyViews(here, before, frame.nowMs, tokens));
      expect(frame.length).toBe(length);
      expect(frame.timelineVersion).toBe(version);
    };
    for (const [command, cursor] of [
      [{ kind: 'seek', cursor: 2 }, 2],
      [{ kind: 'stepForward' }, 3],
      [{ kind: 'stepForward' }, 4],
      [{ kind: 'stepBack' }, 3],
      [{ kind: 'seek', cursor: 0 }, 0],
      [{ kind: 'stepBack' }, 0],
      [{ kind: 'seek', cursor: 99 }, length],
      [{ kind: 'seek', cursor: 5 }, 5],
    ] as const) {
      expect(session.apply(command)).toMatchObject({ ok: true, timelineChanged: false });
      expectAt(cursor);
    }
    expect(session.apply({ kind: 'seek', cursor: 5 })).toEqual({ ok: true, noop: true, timelineChanged: false });
  });

  it('shows what a step changed without a trip back in time', () => {
    const session = loaded({ schedule: 'A', cursor: null });
    session.frame();
    const seek = vi.spyOn(session.simulation, 'seek');
    session.apply({ kind: 'step', clientId: 'A' });
    session.apply({ kind: 'advance', ms: 10 });
    session.apply({ kind: 'stepForward' });
    expect(session.frame().keys.some((k) => k.change !== null)).toBe(true);
    expect(seek).not.toHaveBeenCalled();
    // A step back to a step whose "before" is known seeks once; to one not known, it visits the step before on the way.
    session.apply({ kind: 'stepBack' });
    session.frame();
    expect(seek.mock.calls.map(([step]) => step)).toEqual([2]);
    const far = loaded({ cursor: null });
    const farSeek = vi.spyOn(far.simulation, 'seek');
    far.apply({ kind: 'seek', cursor: 3 });
    far.frame();
    expect(farSeek.mock.calls.map(([step]) => step)).toEqual([2, 3]);
  });

  it('rebuilds under another variant or seed, keeping the schedule and the cursor, or what of them fits', () => {
    const session = loaded({ cursor: 3 });
    expect(session.apply({ kind: 'rebuild', variantId: 'lua', seed: 9 })).toEqual({ ok: true, timelineChanged: true, cut: null });
    expect(session.frame()).toMatchObject({ variantId: 'lua', seed: 9, cursor: 3, schedule: scenario.defaultSchedule });

    // A steps three times in the plain variant, twice in the script's: the third step does not fit.
    const cut = loaded({ schedule: 'A A A', cursor: null });
    const fits = 2;
    const reference = new Simulation(scenario, { variantId: 'lua' });
    reference.applySchedule('A A');
    expect(reference.refusal({ kind: 'step', clientId: 'A' })).not.toBeNull();
    expect(cut.apply({ kind: 'rebuild', variantId: 'lua', seed: 1 })).toMatchObject({ ok: true, cut: { step: fits } });
    expect(cut.frame()).toMatchObject({ variantId: 'lua', length: fits, cursor: fits });
  });
});

describe('RunSession change feed', () => {
  it('appends what a step appended, with its bounds; says nothing changed for a seek', () => {
    const session = loaded({ schedule: 'A', cursor: null });
    const mark = session.mark();
    session.apply({ kind: 'advance', ms: 100 });
    session.apply({ kind: 'step', clientId: 'B' });
    const change = session.changesSince(mark);
    expect(change.kind).toBe('append');
    if (change.kind !== 'append') return;
    expect(change.events).toEqual(session.simulation.allEvents().slice(mark.eventCount));
    expect(change.steps.map((s) => s.step)).toEqual([1, 2]);
    for (const bounds of change.steps) expect(session.log.events.slice(bounds.firstEvent, bounds.endEvent)).toEqual(session.simulation.eventsOfStep(bounds.step));
    session.apply({ kind: 'seek', cursor: 1 });
    expect(session.changesSince(change.mark)).toEqual({ kind: 'append', events: [], steps: [], mark: change.mark });
  });

  it('resets for a fork, a rebuild and a load, and only then', () => {
    const session = loaded({ cursor: null });
    let mark = session.mark();
    const expectNext = (kind: 'append' | 'reset') => {
      const change = session.changesSince(mark);
      expect(change.kind).toBe(kind);
      mark = change.mark;
    };
    session.apply({ kind: 'seek', cursor: 2 });
    expectNext('append');
    session.apply({ kind: 'step', clientId: 'B' });
    expectNext('reset');
    session.apply({ kind: 'step', clientId: 'B' });
    expectNext('append');
    session.apply({ kind: 'rebuild', variantId: 'lua', seed: 1 });
    expectNext('reset');
    session.load({ scenarioId: scenario.id, scenario });
    expectNext('reset');
    // A refused choice at the end cuts nothing.
    session.apply({ kind: 'seek', cursor: 99 });
    session.apply({ kind: 'appendSchedule', text: '!A A' });
    expectNext('append');
  });
});
