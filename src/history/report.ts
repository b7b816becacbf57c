/**
 * The verdict's violations in words a reader can follow without the file: each with its evidence
 * events in line order, each event in a few words. Made only for the evidence, never per line, so
 * a file of a million lines stays cheap.
 */
import type { Found } from './findings';
import type { HistoryRecord, HistoryReply } from './format';
import type { Ev } from './model';
import type { EvidenceEvent, HistoryViolation } from './verdict';

const TEXT_CHARS_MAX = 160;

/** The violations found, in the order of their last evidence line; `skewHalfMs` is taken off each interval again. */
export function violationsOf(found: readonly Found[], skewHalfMs: number): HistoryViolation[] {
  const evidence = (e: Ev): EvidenceEvent => ({ line: e.line, client: e.client, text: eventText(e.record), startMs: e.t0 + skewHalfMs, endMs: e.t1 - skewHalfMs });
  return found
    .map((f) => ({ kind: f.kind, certainty: f.certainty, clients: f.clients, message: f.message, ref: f.ref, evidence: uniqueByLine(f.evidence).map(evidence) }))
    .sort((a, b) => (a.evidence.at(-1)?.line ?? 0) - (b.evidence.at(-1)?.line ?? 0));
}

/** An event in a few words: `SET lock t1 NX PX 10000 -> OK`. */
function eventText(record: HistoryRecord): string {
  if (record.kind === 'command') {
    const c = record.command;
    const reply = c.error !== undefined ? `(error) ${c.error}` : c.reply === undefined ? '?' : replyText(c.reply);
    return clip(`${c.argv.map(argText).join(' ')} -> ${reply}`);
  }
  if (record.kind === 'mark') {
    const m = record.mark;
    return clip(m.mark === 'write' ? `mark write ${m.resource ?? ''} ${m.token ?? ''}` : `mark ${m.mark}`);
  }
  return 'header';
}

function uniqueByLine(events: readonly Ev[]): Ev[] {
  return [...new Map(events.map((e) => [e.line, e])).values()].sort((a, b) => a.line - b.line);
}

function replyText(reply: HistoryReply): string {
  if (reply === null) return '(nil)';
  if (typeof reply === 'number') return `(integer) ${reply}`;
  if (typeof reply === 'string') return argText(reply);
  return `[${reply.map(replyText).join(', ')}]`;
}

function argText(arg: string): string {
  const short = arg.length > 40 ? `${arg.slice(0, 40)}…` : arg;
  return /^[\x21-\x7e]+$/.test(short) ? short : JSON.stringify(short);
}

function clip(text: string): string {
  return text.length > TEXT_CHARS_MAX ? `${text.slice(0, TEXT_CHARS_MAX)}…` : text;
}
