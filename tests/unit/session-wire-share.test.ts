// Goal: the mirror of a session across a thread gives the page the same frame as the session, and
// keeps the previous frame's objects where the data did not change, although every answer arrives
// as a structured clone: readers that compare by identity (the timeline's model is rebuilt when
// the client list or the token owners change) must not see a change on every step.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findScenario } from '../../src/scenarios';
import type { SessionCommand } from '../../src/session/commands';
import { RunSession } from '../../src/session/run-session';
import { shareEqual } from '../../src/session/share-equal';
import { SessionMirror, SessionServer, type SessionReply } from '../../src/session/wire';
import { runs } from '../support/size';

const PROPERTY_SEED = 20261206;

function pair(scenarioId: string, variantId?: string) {
  const scenario = findScenario(scenarioId);
  if (scenario === undefined) throw new Error(scenarioId);
  const session = new RunSession(scenario);
  const server = new SessionServer(session);
  const mirror = new SessionMirror();
  const cross = (reply: SessionReply) => mirror.apply(structuredClone(reply).update);
  cross(server.load(1, scenario.id, scenario, { variantId, cursor: undefined }));
  return { session, server, mirror, cross };
}

describe('shareEqual', () => {
  it('returns the previous object for equal data, and shares the equal parts of changed data', () => {
    const previous = { a: [1, 2, { b: 'x' }], c: { d: null as number | null }, e: Number.NaN };
    expect(shareEqual(previous, structuredClone(previous))).toBe(previous);
    const next = structuredClone(previous);
    next.c.d = 3;
    const shared = shareEqual(previous, next);
    expect(shared).toEqual(next);
    expect(shared).not.toBe(previous);
    expect(shared.a).toBe(previous.a);
    expect(shared.c).not.toBe(previous.c);
    expect(shareEqual([1, 2], [1, 2, 3])).toEqual([1, 2, 3]);
    expect(shareEqual<Record<string, number>>({ a: 1, b: 2 }, { a: 1 })).toEqual({ a: 1 });
  });
});

describe('SessionMirror', () => {
  it('keeps the run-long parts of the frame through steps back and forward', () => {
    const { session, server, cross } = pair('watchdog', 'zombie');
    let id = 2;
    const step = (command: SessionCommand) => cross(server.command(id++, command));
    const first = step({ kind: 'stepBack' });
    const second = step({ kind: 'stepBack' });
    for (const key of ['clientIds', 'tokens', 'tokenOwners', 'nodeIds', 'faultRefusals', 'nodes'] as const) expect(second[key], key).toBe(first[key]);
    // A client that did not change keeps its view; the frame is the session's, part for part.
    second.clients.forEach((client, i) => {
      if (JSON.stringify(client) === JSON.stringify(first.clients[i])) expect(client).toBe(first.clients[i]);
    });
    const { events: _e, ...mirrored } = second;
    const { events: _s, ...own } = session.frame();
    expect(mirrored).toEqual(own);
    // The last step's events are the log's own objects.
    const log = session.log;
    expect(second.lastStepEvents.map((e) => e.seq)).toEqual(log.eventsOfStep(second.cursor - 1).map((e) => e.seq));
  });

  it(`equals the session's frame after any commands (fast-check seed ${PROPERTY_SEED})`, () => {
    const command = fc.oneof(
      fc.constant<SessionCommand>({ kind: 'stepBack' }),
      fc.constant<SessionCommand>({ kind: 'stepForward' }),
      fc.constantFrom<SessionCommand>({ kind: 'step', clientId: 'A' }, { kind: 'step', clientId: 'B' }, { kind: 'advance', ms: 1500 }, { kind: 'crash', clientId: 'A' }),
      fc.nat({ max: 8 }).map((cursor): SessionCommand => ({ kind: 'seek', cursor })),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 14 }), (commands) => {
        const { session, server, cross } = pair('get-then-del');
        let id = 2;
        for (const c of commands) {
          const frame = cross(server.command(id++, c));
          const { events: _e, ...mirrored } = frame;
          const { events: _s, ...own } = session.frame();
          expect(mirrored).toEqual(own);
          expect(frame.events.length).toBe(session.log.events.length);
        }
      }),
      { seed: PROPERTY_SEED, numRuns: runs(60) },
    );
  });
});
