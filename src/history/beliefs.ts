/**
 * What each client believes: it holds the lock from its acquisition to its release command. Another
 * client's acquisition inside that span is mutual exclusion read from acquisitions, decided when the
 * first client lets go (its reply tells whether its lease had run out); the recording's end leaves
 * the undecided ones unknown, as the first client may have crashed.
 */
import { found, type Findings } from './findings';
import { PENDING_PER_CLIENT_MAX, newClientState, type ClientState, type Ev, type Version } from './model';
import type { Certainty, ClientLane } from './verdict';

export class Beliefs {
  readonly clients = new Map<string, ClientState>();

  constructor(private readonly findings: Findings) {}

  /** The client's state, its first and last lines widened to `line`. */
  client(id: string, line: number): ClientState {
    let state = this.clients.get(id);
    if (state === undefined) {
      state = newClientState(id, line);
      this.clients.set(id, state);
    }
    state.firstLine = Math.min(state.firstLine, line);
    state.lastLine = Math.max(state.lastLine, line);
    return state;
  }

  /** `client` acquired `version` at `ev`: its own belief moves on, and every other holder's belief now overlaps. */
  acquired(client: ClientState, ev: Ev, version: Version, sure: boolean): void {
    if (client.holding !== null) this.letGo(client, ev, false);
    for (const other of this.clients.values()) {
      if (other === client) continue;
      if (other.holding !== null && other.pending.length < PENDING_PER_CLIENT_MAX) {
        other.pending.push({ first: other.holding.acquire, second: ev, secondClient: client.id, sure: sure && other.holding.sure });
      } else if (other.lastRelease !== null && !other.lastRelease.own && !other.lastRelease.first && other.lastRelease.ev.t1 > ev.t0) {
        // It let go only just now, and its release may have run after this acquisition.
        const r = other.lastRelease;
        this.overlap('possible', other.id, client.id, [r.version.acquire, ev, r.ev]);
      }
    }
    client.holding = version;
  }

  /** The client's belief that it holds the lock ends at `ev`; `own`: the reply shows it removed its own version. */
  letGo(client: ClientState, ev: Ev, own: boolean, first = false): void {
    const version = client.holding as Version;
    for (const p of client.pending) {
      if (own) {
        if (p.second.t1 < ev.t0 && p.sure) {
          this.findings.problem(ev.line, { key: 'hOwnRemovedAfter', params: { client: client.id, line: version.acquire.line, other: p.secondClient, otherLine: p.second.line } });
        }
        continue;
      }
      const certain = p.sure && p.second.t1 < ev.t0;
      this.overlap(certain ? 'certain' : 'possible', client.id, p.secondClient, [p.first, p.second, ev]);
    }
    client.pending = [];
    client.holding = null;
    client.lastRelease = { ev, own, first, version };
  }

  /** The recording ends with a client still holding: it may have stopped (crashed) or not. */
  atEnd(): void {
    for (const client of this.clients.values()) {
      for (const p of client.pending) {
        this.findings.unknown({ key: 'hNeverLetGo', params: { client: client.id, line: p.first.line, other: p.secondClient, otherLine: p.second.line } });
      }
    }
  }

  /** One lane per client, in order of first appearance in the file. */
  lanes(): ClientLane[] {
    return [...this.clients.values()]
      .map((c) => ({ client: c.id, commandCount: c.commandCount, markCount: c.markCount, acquisitionCount: c.acquisitionCount, firstLine: c.firstLine, lastLine: c.lastLine }))
      .sort((a, b) => a.firstLine - b.firstLine);
  }

  private overlap(certainty: Certainty, first: string, second: string, evidence: Ev[]): void {
    this.findings.acquisitionOverlap(found('mutual-exclusion', certainty, [second, first], { key: 'hMutexAcquired', params: { second, first } }, evidence));
  }
}
