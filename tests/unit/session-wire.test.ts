// Goal: what crosses between the session's worker and the page is enough and no more. The mirror
// rebuilds, at every cursor of a run that breaks its lock, the violations the session's own frame
// lists, from the count the session sent: the violations themselves never cross (they are in the
// log the mirror already has), and an answer that did not change them keeps the mirror's list.
import { describe, expect, it } from 'vitest';
import { findScenario } from '../../src/scenarios';
import type { SessionCommand } from '../../src/session/commands';
import { RunSession } from '../../src/session/run-session';
import { SessionMirror, SessionServer, type SessionReply } from '../../src/session/wire';

const scenario = findScenario('get-then-del');

function pair() {
  const session = new RunSession(scenario);
  const server = new SessionServer(session);
  const mirror = new SessionMirror();
  // A Web Worker's message is a structured clone: so is this one.
  const cross = (reply: SessionReply) => mirror.apply(structuredClone(reply).update);
  const apply = (command: SessionCommand) => cross(server.command(0, command));
  cross(server.load(0, scenario.id, scenario, { cursor: null }));
  return { session, mirror, apply };
}

const seqs = (list: readonly { seq: number }[]) => list.map((v) => v.seq);

describe('SessionServer and SessionMirror', () => {
  it('the mirror lists the violations before the cursor as the session does, at every cursor', () => {
    const { session, mirror, apply } = pair();
    const length = session.frame().length;
    expect(session.log.violations.length).toBeGreaterThan(0);
    for (let cursor = length; cursor >= 0; cursor--) {
      const frame = apply({ kind: 'seek', cursor });
      expect(frame.cursor).toBe(cursor);
      expect(seqs(frame.violations)).toEqual(seqs(session.frame().violations));
      expect(mirror.frame).toBe(frame);
    }
  });

  it('sends a count, not the violations, and keeps the list when a step does not change it', () => {
    const session = new RunSession(scenario);
    const server = new SessionServer(session);
    server.load(0, scenario.id, scenario, { cursor: null });
    const reply = server.command(1, { kind: 'seek', cursor: session.frame().length });
    expect(reply.update.frame).not.toHaveProperty('violations');
    expect(reply.update.frame.violationCount).toBe(session.frame().violations.length);

    const { apply } = pair();
    const atEnd = apply({ kind: 'seek', cursor: Number.MAX_SAFE_INTEGER });
    const stepped = apply({ kind: 'stepBack' });
    const back = apply({ kind: 'stepForward' });
    expect(back.violations).toEqual(atEnd.violations);
    // Between the two answers at the same count the list is the same object (no re-render).
    const again = apply({ kind: 'seek', cursor: back.cursor });
    expect(again).not.toHaveProperty('violationCount');
    expect(again.violations).toBe(back.violations);
    expect(stepped.cursor).toBe(atEnd.cursor - 1);
  });
});
