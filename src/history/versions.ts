/**
 * The lock's versions: each value written to the key, from its acquisition until a removal, an
 * overwrite, another client's acquisition or its expiry ended it. Which versions may have been the
 * key's value when an event ran is what every verdict on ownership asks. Bounded: at most
 * LIVE_VERSIONS_MAX live at once and VERSIONS_BY_TOKEN_MAX remembered by token.
 */
import type { Findings } from './findings';
import { holdFinding } from './hold';
import type { Ev, Version, VersionEndedBy } from './model';

const VERSIONS_BY_TOKEN_MAX = 4096;
const LIVE_VERSIONS_MAX = 64;

export class Versions {
  live: Version[] = [];
  /** The newest event whose effect on the key is unknown (null: none since a sure acquisition). */
  ownerUnknownSince: Ev | null = null;
  private readonly byToken = new Map<string, Version>();
  /** Each client's newest version that no other client's acquisition has followed yet. */
  private readonly unsuperseded = new Map<string, Version>();

  constructor(
    private readonly findings: Findings,
    private readonly maxHoldMs: number | undefined,
    /** The recording's last instant so far. */
    private readonly lastMs: () => number | null,
  ) {}

  withToken(token: string): Version | undefined {
    return this.byToken.get(token);
  }

  /** Versions that may have been the key's value when `ev` ran. */
  candidates(ev: Ev): Version[] {
    return this.live.filter((v) => v.ended === null && (v.displacedBy === null || v.displacedBy.t1 > ev.t0) && v.acquire.t0 < ev.t1 && (v.expiry === null || v.expiry.hi > ev.t0));
  }

  /** Certainly written before `ev` ran and certainly not expired by then. */
  certainlyLive(v: Version, ev: Ev): boolean {
    return v.ended === null && v.displacedBy === null && v.acquire.t1 < ev.t0 && (v.expiry === null || v.expiry.lo > ev.t1);
  }

  /** No command of unknown effect on the key since the version was written. */
  ownerKnown(v: Version): boolean {
    return this.ownerUnknownSince === null || this.ownerUnknownSince.t1 < v.acquire.t0;
  }

  end(v: Version, ev: Ev | null, by: VersionEndedBy): void {
    if (v.ended !== null) return;
    v.ended = { ev, by };
    this.live = this.live.filter((x) => x !== v);
    this.checkHold(v, false);
  }

  /** A new version: it supersedes every other client's, and is remembered by its token. */
  add(version: Version, ev: Ev): void {
    for (const [other, v] of this.unsuperseded) {
      if (other === version.client) continue;
      v.supersededBy = ev;
      this.unsuperseded.delete(other);
    }
    this.unsuperseded.set(version.client, version);
    this.byToken.delete(version.token);
    this.byToken.set(version.token, version);
    if (this.byToken.size > VERSIONS_BY_TOKEN_MAX) this.byToken.delete(this.byToken.keys().next().value as string);
    this.live.push(version);
    if (this.live.length > LIVE_VERSIONS_MAX) {
      const dropped = this.live.shift() as Version;
      this.findings.problem(ev.line, { key: 'hTooManyVersions', params: { max: LIVE_VERSIONS_MAX, line: dropped.acquire.line } });
    }
  }

  /** Versions certainly expired before `ev` leave the live list; so do displaced ones no removal explained. */
  pruneExpired(ev: Ev | null): void {
    if (this.live.length === 0) return;
    const t0 = ev?.t0 ?? Infinity;
    if (!this.live.some((v) => v.displacedBy !== null || (v.expiry !== null && v.expiry.hi <= t0))) return;
    for (const v of [...this.live]) {
      const by = v.displacedBy;
      if (v.ended === null && by !== null && (ev === null || by.t1 <= ev.t0)) {
        if (v.displacedWhileCertain) {
          this.findings.problem(by.line, { key: 'hDisplacedUnexplained', params: { client: by.client, owner: v.client, line: v.acquire.line } });
        }
        this.end(v, by, 'acquire');
      } else if (v.ended === null && v.expiry !== null && v.expiry.hi <= (ev?.t0 ?? -Infinity)) this.end(v, null, 'expire');
    }
  }

  /** The recording ended: a version without expiry was never released; each one left is checked for its hold. */
  atEnd(): void {
    const lastMs = this.lastMs() ?? 0;
    for (const v of this.live) {
      if (v.ended !== null) continue;
      if (v.expiry === null) {
        this.findings.violation('lock-never-released', v.sure && this.ownerKnown(v) ? 'certain' : 'possible', [v.client], { key: 'hNeverReleased', params: { client: v.client } }, [v.acquire]);
      }
      if (v.expiry === null || v.expiry.lo > lastMs) this.checkHold(v, true);
      else this.checkHold(v, false);
    }
  }

  /** How long the version held the key, once per version. */
  private checkHold(v: Version, recordingEnded: boolean): void {
    if (this.maxHoldMs === undefined || v.heldTooLongReported) return;
    const found = holdFinding(v, this.maxHoldMs, recordingEnded ? (this.lastMs() ?? v.acquire.t1) : null);
    if (found === null) return;
    v.heldTooLongReported = true;
    this.findings.push(found);
  }
}
