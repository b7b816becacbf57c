/**
 * Removals and extensions that answered "done", kept while an acquisition that starts later could
 * still have run before them: such an acquisition may be what a removal deleted (a foreign
 * release), or the very version an orphan removal or extension ran on. Once no acquisition can
 * precede one any more, an orphan nothing matched is said to be unknown.
 */
import type { Findings } from './findings';
import { PENDING_PER_CLIENT_MAX, type Ev } from './model';

/** `orphan`: it found no version the recording showed (yet); `first`: it certainly ran before any later acquisition. */
export interface RecentWrite {
  readonly ev: Ev;
  readonly first: boolean;
  readonly orphan: boolean;
  readonly token: string | null;
  matched: boolean;
}

type RecentExtend = RecentWrite & { readonly ttlMs: number | null };

export class RecentWrites {
  /** Recent removals that may have run after acquisitions that start later (their intervals overlap). */
  removals: RecentWrite[] = [];
  /** Recent extensions that found no version: the one they extended may be an acquisition that starts later. */
  extends: RecentExtend[] = [];

  constructor(private readonly findings: Findings) {}

  /** Recent removals and extensions no acquisition starting at `t0` or later can precede any more. */
  prune(t0: number): void {
    const gone = (r: RecentWrite) => r.ev.t1 <= t0;
    for (const r of this.removals) {
      if (gone(r) && r.orphan && !r.matched) this.findings.unknown({ key: 'hOrphanRemoved', params: { line: r.ev.line, client: r.ev.client } });
    }
    for (const e of this.extends) {
      if (gone(e) && e.orphan && !e.matched) this.findings.unknown({ key: 'hOrphanExtended', params: { line: e.ev.line, client: e.ev.client } });
    }
    if (this.removals.some(gone)) this.removals = this.removals.filter((r) => !gone(r));
    if (this.extends.some(gone)) this.extends = this.extends.filter((e) => !gone(e));
  }

  noteRemoval(ev: Ev, first: boolean, orphan: boolean, token: string | null): void {
    this.removals.push({ ev, first, orphan, token, matched: false });
    if (this.removals.length > PENDING_PER_CLIENT_MAX) this.prune((this.removals.shift() as RecentWrite).ev.t1);
  }

  noteExtend(ev: Ev, orphan: boolean, token: string | null, ttlMs: number | null): void {
    this.extends.push({ ev, first: false, orphan, token, matched: false, ttlMs });
    if (this.extends.length > PENDING_PER_CLIENT_MAX) this.extends.shift();
  }
}
