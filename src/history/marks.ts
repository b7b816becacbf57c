/**
 * The critical-section marks: `enter` and `leave` say when a client was really inside, so two
 * clients inside at once is mutual exclusion, certain when one entered after the other's enter and
 * left after, possible when the marks' times overlap (or a client never said it left: it may have
 * crashed there). `write` marks go to the write checks (writes.ts).
 */
import type { Beliefs } from './beliefs';
import type { Findings } from './findings';
import { PENDING_PER_CLIENT_MAX, type ClientState, type Ev } from './model';
import type { Certainty } from './verdict';
import type { WriteMarks } from './writes';

export class Marks {
  constructor(
    private readonly findings: Findings,
    private readonly beliefs: Beliefs,
    private readonly writes: WriteMarks,
  ) {}

  mark(ev: Ev, client: ClientState): void {
    const mark = ev.record.kind === 'mark' ? ev.record.mark : null;
    if (mark === null) return;
    client.hasMarks = true;
    if (mark.mark === 'enter') this.enter(ev, client);
    else if (mark.mark === 'leave') {
      for (const p of client.sectionPending) this.overlap(p.second.t1 < ev.t0 ? 'certain' : 'possible', client.id, p.secondClient, [p.first, p.second, ev]);
      client.sectionPending = [];
      if (client.inSection !== null) client.lastLeave = { ev, enter: client.inSection };
      client.inSection = null;
    } else this.writes.write(ev, client, mark.resource ?? '', mark.token ?? '');
  }

  /** Marks say the first client was inside and never said it left: possible, as it may have crashed there. */
  atEnd(): void {
    for (const client of this.beliefs.clients.values()) {
      for (const p of client.sectionPending) this.overlap('possible', client.id, p.secondClient, [p.first, p.second]);
    }
  }

  private enter(ev: Ev, client: ClientState): void {
    for (const other of this.beliefs.clients.values()) {
      if (other === client) continue;
      if (other.inSection !== null && other.sectionPending.length < PENDING_PER_CLIENT_MAX) {
        other.sectionPending.push({ first: other.inSection, second: ev, secondClient: client.id, sure: true });
      } else if (other.lastLeave !== null && other.lastLeave.ev.t1 > ev.t0) {
        this.overlap('possible', other.id, client.id, [other.lastLeave.enter, ev, other.lastLeave.ev]);
      }
    }
    client.inSection = ev;
  }

  private overlap(certainty: Certainty, first: string, second: string, evidence: Ev[]): void {
    this.findings.violation('mutual-exclusion', certainty, [second, first], { key: 'hMutexEntered', params: { second, first } }, evidence);
  }
}
