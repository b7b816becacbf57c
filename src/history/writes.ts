/**
 * `write` marks: a write made with a token whose lease had already passed to another client, or,
 * for numeric (fencing) tokens, a write to a resource with a smaller token than one it already
 * took. Both are stale writes; fencing order is kept per resource, for at most RESOURCES_MAX.
 */
import type { Findings } from './findings';
import type { ClientState, Ev } from './model';
import type { Versions } from './versions';

const RESOURCES_MAX = 10_000;

export class WriteMarks {
  /** Each resource's largest fencing token so far, and the write that used it. */
  private readonly resources = new Map<string, { token: bigint; ev: Ev }>();

  constructor(
    private readonly findings: Findings,
    private readonly versions: Versions,
  ) {}

  write(ev: Ev, client: ClientState, resource: string, token: string): void {
    if (this.afterLeasePassed(ev, client, resource, token)) return;
    if (!/^[0-9]{1,30}$/.test(token)) return;
    const value = BigInt(token);
    const seen = this.resources.get(resource);
    if (seen !== undefined && value < seen.token && seen.ev.t0 < ev.t1) {
      const certain = seen.ev.t1 < ev.t0;
      this.findings.violation('stale-write', certain ? 'certain' : 'possible', [client.id, seen.ev.client], { key: 'hStaleFenced', params: { client: client.id, resource, token, other: seen.ev.client, otherToken: String(seen.token) } }, [
        seen.ev,
        ev,
      ]);
      return;
    }
    if (seen === undefined && this.resources.size >= RESOURCES_MAX) {
      this.findings.unknown({ key: 'hTooManyResources', params: { max: RESOURCES_MAX } });
      return;
    }
    if (seen === undefined || value > seen.token) this.resources.set(resource, { token: value, ev });
  }

  /** The token's version was superseded by another client's acquisition that may have run before this write. */
  private afterLeasePassed(ev: Ev, client: ClientState, resource: string, token: string): boolean {
    const v = this.versions.withToken(token);
    const superseding = v?.supersededBy ?? null;
    if (v === undefined || superseding === null || superseding.t0 >= ev.t1) return false;
    const certain = superseding.t1 < ev.t0 && v.sure;
    this.findings.violation('stale-write', certain ? 'certain' : 'possible', [client.id, superseding.client], { key: 'hStaleLease', params: { client: client.id, resource, token, other: superseding.client } }, [v.acquire, superseding, ev]);
    return true;
  }
}
