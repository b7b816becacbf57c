/**
 * What the sequence diagram draws (pure, no React): the run as rows from top to bottom, each a
 * command with its reply, a note on one client's lifeline, a clock jump or a violation; plus where
 * each row sits, so the view can draw only the rows near the viewport.
 */
import type { Reply, TraceEvent, ViolationKind } from '../store/published';
import { commandParts, replyParts, tokenSplitter, type TextPart } from './text-parts';
import type { BlockReason, Moment, PointKind } from './timeline-types';

interface RowBase {
  readonly seq: number;
  readonly step: number;
  readonly atMs: number;
}

export type SequenceRow =
  | (RowBase & {
      readonly kind: 'message';
      readonly clientId: string;
      readonly command: readonly TextPart[];
      readonly reply: readonly TextPart[];
      readonly replyType: Reply['type'];
      readonly violationSeqs: readonly number[];
    })
  | (RowBase & {
      readonly kind: 'time';
      readonly fromMs: number;
      readonly toMs: number;
      /** 'start' is the row at the top that says where time begins. */
      readonly reason: 'advance' | 'wait' | 'start';
      readonly clientId: string | null;
    })
  | (RowBase & {
      readonly kind: 'note';
      readonly clientId: string;
      readonly note: PointKind | 'block';
      readonly block: { readonly reason: BlockReason; readonly durationMs: number | null; readonly untilMs: number | null } | null;
      readonly detail: readonly TextPart[];
      readonly rejected: boolean;
    })
  | (RowBase & {
      readonly kind: 'violation';
      readonly causeSeq: number;
      readonly violation: ViolationKind;
      readonly message: string;
      readonly clients: readonly string[];
      readonly deleted: boolean;
    });

const NO_PARTS: readonly TextPart[] = [];

export const SEQUENCE_ROW_HEIGHT: Record<SequenceRow['kind'], number> = {
  message: 62,
  time: 38,
  note: 30,
  violation: 36,
};

export interface SequenceModel {
  readonly rows: readonly SequenceRow[];
  /** Top of each row; one extra entry: the total height. */
  readonly tops: readonly number[];
  readonly height: number;
}

/** The reply of a command answered later (a slow script), until its `reply` event. */
const PENDING: readonly TextPart[] = ['…'];

/** The rows of a whole run. Branches and assignments are left out: the diagram shows what crosses the wire. */
export function buildSequenceModel(events: readonly TraceEvent[], tokenOwners: Readonly<Record<string, string>>, count = events.length): SequenceModel {
  const splitter = tokenSplitter(tokenOwners);
  const rows: SequenceRow[] = [];
  const causes = new Map<number, number[]>();
  const end = Math.min(count, events.length);
  for (let n = 0; n < end; n++) {
    const e = events[n];
    if (e.kind === 'violation') {
      const list = causes.get(e.causeSeq) ?? [];
      list.push(e.seq);
      causes.set(e.causeSeq, list);
    }
  }
  const first = end > 0 ? events[0] : undefined;
  if (first) rows.push({ kind: 'time', seq: -1, step: 0, atMs: first.atMs, fromMs: first.atMs, toMs: first.atMs, reason: 'start', clientId: null });

  for (let n = 0; n < end; n++) {
    const e = events[n];
    // Literal objects, not spreads: this loop runs once per event of a 10,000-event run.
    const seq = e.seq;
    const step = e.step;
    const atMs = e.atMs;
    switch (e.kind) {
      case 'command':
        if (e.clientId === null) break;
        rows.push({
          seq,
          step,
          atMs,
          kind: 'message',
          clientId: e.clientId,
          command: commandParts(e.argv, splitter),
          reply: e.reply === null ? PENDING : replyParts(e.reply, splitter),
          replyType: e.reply === null ? 'status' : e.reply.type,
          violationSeqs: causes.get(e.seq) ?? [],
        });
        break;
      case 'clock':
        rows.push({ seq, step, atMs, kind: 'time', fromMs: e.fromMs, toMs: e.toMs, reason: e.reason, clientId: e.clientId });
        break;
      case 'violation':
        rows.push({
          seq,
          step,
          atMs,
          kind: 'violation',
          causeSeq: e.causeSeq,
          violation: e.violation,
          message: e.message,
          clients: e.clients,
          deleted: e.lockAfter.value === null,
        });
        break;
      case 'block':
        if (e.clientId === null) break;
        rows.push({
          seq,
          step,
          atMs,
          kind: 'note',
          clientId: e.clientId,
          note: 'block',
          block: { reason: e.reason, durationMs: e.durationMs, untilMs: e.untilMs },
          detail: NO_PARTS,
          rejected: false,
        });
        break;
      case 'enter':
      case 'leave':
      case 'crash':
      case 'end':
      case 'give-up':
      case 'write':
      case 'mark': {
        if (e.clientId === null) break;
        const detail: readonly TextPart[] =
          e.kind === 'write'
            ? [e.resource, ' = ', ...splitter.split(e.value)]
            : e.kind === 'mark'
              ? [e.counter, ` #${e.count}`]
              : e.kind === 'give-up'
                ? [String(e.attempts)]
                : NO_PARTS;
        rows.push({ seq, step, atMs, kind: 'note', clientId: e.clientId, note: e.kind, block: null, detail, rejected: e.kind === 'write' && !e.accepted });
        break;
      }
      case 'stall':
        // A fault freezes the process: one note per frozen client, drawn like a wait.
        for (const clientId of e.clients) {
          rows.push({ seq, step, atMs, kind: 'note', clientId, note: 'block', block: { reason: 'stall', durationMs: e.durationMs, untilMs: e.untilMs }, detail: NO_PARTS, rejected: false });
        }
        break;
      case 'reply': {
        // A slow script's reply arrives now: the message drawn at the command gets it.
        if (e.clientId === null) break;
        for (let i = rows.length - 1; i >= 0; i--) {
          const row = rows[i];
          if (row.kind === 'message' && row.clientId === e.clientId && row.reply === PENDING) {
            rows[i] = { ...row, reply: replyParts(e.reply, splitter), replyType: e.reply.type };
            break;
          }
        }
        break;
      }
      case 'branch':
      case 'set':
      case 'start':
      case 'wake':
      case 'expire':
        break;
    }
  }
  const tops: number[] = [];
  let y = 0;
  for (const row of rows) {
    tops.push(y);
    y += SEQUENCE_ROW_HEIGHT[row.kind];
  }
  tops.push(y);
  return { rows, tops, height: y };
}

/** Index of the first row whose top is at or below `y` (binary search over `tops`). */
export function rowIndexAt(model: SequenceModel, y: number): number {
  let lo = 0;
  let hi = model.rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (model.tops[mid + 1] <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Vertical position of a moment: an event's row (or the next drawn row after it, for events the
 * diagram leaves out), a pure time's first row at or after it, or the bottom for the run's end.
 */
export function sequenceY(model: SequenceModel): (m: Moment) => number {
  const rows = model.rows;
  const firstRowAtOrAfterSeq = (seq: number): number => {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rows[mid].seq < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const firstRowAtOrAfterMs = (ms: number): number => {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      // A time row that moves the clock past `ms` is where that instant goes by.
      const rowMs = rows[mid].kind === 'time' ? (rows[mid] as { toMs: number }).toMs : rows[mid].atMs;
      if (rowMs < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return (m) => {
    if (m.runEnd) return model.height;
    const index = m.seq !== null ? firstRowAtOrAfterSeq(m.seq) : firstRowAtOrAfterMs(m.ms);
    const row = rows[index];
    if (!row) return model.height;
    // An event's own row: its middle; the next row's top when the event is not drawn itself.
    return row.seq === m.seq ? model.tops[index] + SEQUENCE_ROW_HEIGHT[row.kind] / 2 : model.tops[index];
  };
}

/** Top of the first row of `cursorStep` (where the cursor line goes), or the bottom at the end. */
export function sequenceCursorY(model: SequenceModel, cursorStep: number): number {
  let lo = 1; // Row 0 is the start row: the cursor is never above it.
  let hi = model.rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (model.rows[mid].step < cursorStep) lo = mid + 1;
    else hi = mid;
  }
  return model.tops[Math.min(lo, model.rows.length)];
}
