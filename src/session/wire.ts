/**
 * The run session across a thread boundary: a `SessionServer` beside the session (a Web Worker)
 * answers each request with the result and what changed, and a `SessionMirror` on the other side
 * rebuilds the frame and the log from those answers. Only plain data crosses: the frame without
 * the log's parts (events, schedule text, violations, the last step's events), and the events and
 * choices appended since the last answer, or all of them after a reset. An answer costs what the
 * step changed, never the history. The mirror gives back the previous frame's objects where the
 * data is the same, as the session does: a structured clone makes everything new, and the page's
 * readers (the timeline's model, the lanes) compare by identity.
 */
import { RunProjection } from '../engine/projection';
import type { Scenario } from '../engine/scenario';
import type { Choice } from '../engine/schedule';
import type { TraceEvent } from '../engine/trace';
import type { CommandResult, LoadOutcome, SessionCommand, SessionSpec } from './commands';
import type { FeedMark } from './feed';
import { keep, violationsUpTo, type SessionFrame } from './frame';
import type { RunSession } from './run-session';
import { shareEqual } from './share-equal';

/**
 * The frame as it crosses: the log's parts are rebuilt by the mirror. Of the violations only their
 * count crosses: the session alone decides which happened before the cursor, the mirror takes as many.
 */
export type WireFrame = Omit<SessionFrame, 'events' | 'schedule' | 'violations' | 'lastStepEvents'> & { readonly violationCount: number };

/** What the log gained since the previous answer (`reset`: a new generation, everything from the start). */
export interface WireChange {
  readonly generation: number;
  readonly reset: boolean;
  readonly events: readonly TraceEvent[];
  readonly choices: readonly Choice[];
}

export interface WireUpdate {
  readonly frame: WireFrame;
  readonly change: WireChange;
}

/** The run a load names: a built-in scenario by id, or a definition (parsed where the session is). */
export type RunTarget = { readonly scenarioId: string } | { readonly definition: unknown };

export type SessionRequest =
  | { readonly id: number; readonly kind: 'load'; readonly target: RunTarget; readonly spec: SessionSpec }
  | { readonly id: number; readonly kind: 'command'; readonly command: SessionCommand };

export type SessionReply =
  | { readonly id: number; readonly kind: 'load'; readonly outcome: LoadOutcome; readonly update: WireUpdate }
  | { readonly id: number; readonly kind: 'command'; readonly result: CommandResult; readonly update: WireUpdate }
  /** The request could not be served (a scenario that failed to load, a bug): the run is unchanged. */
  | { readonly id: number; readonly kind: 'failed'; readonly detail: string; readonly update: WireUpdate };

/** Serves one client: remembers what it has sent, so each answer carries only what is new. */
export class SessionServer {
  private sent: FeedMark | null = null;

  constructor(private readonly session: RunSession) {}

  load(id: number, scenarioId: string, scenario: Scenario | undefined, spec: SessionSpec): SessionReply {
    const outcome = this.session.load({ ...spec, scenarioId, scenario });
    return { id, kind: 'load', outcome, update: this.update() };
  }

  command(id: number, command: SessionCommand): SessionReply {
    const result = this.session.apply(command);
    return { id, kind: 'command', result, update: this.update() };
  }

  failed(id: number, detail: string): SessionReply {
    return { id, kind: 'failed', detail, update: this.update() };
  }

  /** The frame and the log's news since the last answer. */
  update(): WireUpdate {
    const frame = wirePart(this.session.frame());
    const log = this.session.log;
    const sent = this.sent;
    const reset = sent === null || sent.generation !== log.generation;
    const eventFrom = reset ? 0 : sent.eventCount;
    const choiceFrom = reset ? 0 : sent.stepCount;
    this.sent = this.session.mark();
    return { frame, change: { generation: log.generation, reset, events: log.events.slice(eventFrom), choices: log.choices.slice(choiceFrom) } };
  }
}

/** The part of a frame that crosses. */
function wirePart(frame: SessionFrame): WireFrame {
  const { events: _events, schedule: _schedule, violations, lastStepEvents: _lastStepEvents, ...part } = frame;
  return { ...part, violationCount: violations.length };
}

/** The other side: the log rebuilt from the changes, and whole frames from the wire frames. */
export class SessionMirror {
  private projection = new RunProjection(-1);
  private lastFrame: SessionFrame | null = null;

  /**
   * Applies one answer's update; returns the whole frame. Within a generation every part equal to
   * the previous frame's is that object (the frame is O(clients + keys + nodes), never the log);
   * a new run shares only what the session's own frame shares across runs (frame.ts).
   */
  apply(update: WireUpdate): SessionFrame {
    const { change, frame } = update;
    const reset = change.reset || change.generation !== this.projection.generation;
    if (reset) this.projection = new RunProjection(change.generation);
    this.projection.append(change.events, change.choices);
    const log = this.projection;
    const previous = this.lastFrame;
    const kept = reset ? null : previous;
    const shared: WireFrame =
      kept === null
        ? {
            ...frame,
            clientIds: shareEqual(previous?.clientIds, frame.clientIds),
            nodeIds: shareEqual(previous?.nodeIds, frame.nodeIds),
            lock: shareEqual(previous?.lock, frame.lock),
          }
        : shareEqual(wirePart(kept), frame);
    const { violationCount, ...parts } = shared;
    this.lastFrame = {
      ...parts,
      events: log.events,
      schedule: log.schedule,
      lastStepEvents: keep(kept?.lastStepEvents, frame.cursor > 0 ? log.eventsOfStep(frame.cursor - 1) : []),
      violations: violationsUpTo(log, violationCount, kept?.violations),
    };
    return this.lastFrame;
  }

  get log(): RunProjection {
    return this.projection;
  }
  get frame(): SessionFrame | null {
    return this.lastFrame;
  }
}
