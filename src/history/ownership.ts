/**
 * Ownership: the lock's commands applied to its versions. An acquisition writes a version (a
 * conditional one displaces what was there, an unconditional one overwrites it: a foreign release
 * when another client's); a removal by token or of whatever was there ends versions; an extension
 * moves their expiry. Replies decide what certainly happened; overlapping intervals leave it possible.
 */
import type { Beliefs } from './beliefs';
import type { LockEffect } from './effects';
import type { Findings } from './findings';
import { newVersion, type ClientState, type Ev, type Version } from './model';
import type { RecentWrites } from './recent-writes';
import type { Versions } from './versions';

export class Ownership {
  constructor(
    private readonly findings: Findings,
    private readonly versions: Versions,
    private readonly beliefs: Beliefs,
    private readonly recent: RecentWrites,
  ) {}

  apply(ev: Ev, client: ClientState, effect: LockEffect): void {
    this.versions.pruneExpired(ev);
    switch (effect.op) {
      case 'acquire':
        if (effect.applied === false) return;
        this.acquire(ev, client, effect.token, effect.ttlMs, effect.conditional, effect.applied === true);
        return;
      case 'remove':
        if (effect.token !== null) this.removeByToken(ev, client, effect.token, effect.applied);
        else this.removeWhatever(ev, client, effect.applied);
        return;
      case 'extend':
        this.extend(ev, effect.token, effect.ttlMs, effect.applied);
        return;
      case 'read':
      case 'none':
      case 'unknown':
        return;
    }
  }

  private acquire(ev: Ev, client: ClientState, token: string, ttlMs: number | null, conditional: boolean, sure: boolean): void {
    const candidates = this.versions.candidates(ev);
    if (conditional && this.reenter(ev, client, token, ttlMs, candidates)) return;
    this.racingRemovals(ev, client);
    if (conditional) this.displace(ev, candidates, sure);
    else this.overwrite(ev, client, candidates, sure);
    const version = newVersion(ev, client.id, token, ttlMs, sure);
    client.acquisitionCount++;
    this.versions.add(version, ev);
    this.beliefs.acquired(client, ev, version, sure);
    if (sure) this.matchOrphans(ev, client, version);
  }

  /** A re-entrant lock taken again by its owner: the same version, its expiry renewed. */
  private reenter(ev: Ev, client: ClientState, token: string, ttlMs: number | null, candidates: readonly Version[]): boolean {
    const own = this.versions.withToken(token);
    if (own === undefined || own.ended !== null || own.client !== client.id || !candidates.includes(own)) return false;
    own.expiry = ttlMs === null ? own.expiry : { lo: ev.t0 + ttlMs, hi: ev.t1 + ttlMs };
    return true;
  }

  /** A removal by another client that started earlier but may have run after this acquisition. */
  private racingRemovals(ev: Ev, client: ClientState): void {
    this.recent.prune(ev.t0);
    for (const r of this.recent.removals) {
      if (r.ev.client !== client.id && !r.first && !r.matched) this.findings.violation('foreign-release', 'possible', [r.ev.client, client.id], { key: 'hForeignDelMayFollow', params: { remover: r.ev.client, client: client.id } }, [ev, r.ev]);
    }
  }

  /**
   * It set the key only if absent: every earlier version was gone by then. Each stays a candidate
   * for removals that start while this acquisition may not have run yet.
   */
  private displace(ev: Ev, candidates: readonly Version[], sure: boolean): void {
    for (const v of candidates) {
      if (!sure) this.versions.end(v, ev, 'acquire');
      else if (v.displacedBy === null) {
        v.displacedWhileCertain = this.versions.certainlyLive(v, ev);
        v.displacedBy = ev;
      }
    }
    if (sure) this.versions.ownerUnknownSince = null;
  }

  /** An unconditional write replaced whatever was there: another client's version is a foreign release. */
  private overwrite(ev: Ev, client: ClientState, candidates: readonly Version[], sure: boolean): void {
    for (const v of candidates) {
      if (v.client !== client.id) {
        const certain = sure && v.sure && this.versions.certainlyLive(v, ev) && this.versions.ownerKnown(v);
        this.findings.violation('foreign-release', certain ? 'certain' : 'possible', [client.id, v.client], { key: 'hForeignOverwrote', params: { client: client.id, owner: v.client } }, [v.acquire, ev]);
      }
      this.versions.end(v, ev, 'overwrite');
    }
  }

  /**
   * A removal or extension that found nothing but answered "done" ran on something: if this
   * acquisition overlaps it (and has its token, when it names one), the reply says it ran after it, on it.
   */
  private matchOrphans(ev: Ev, client: ClientState, version: Version): void {
    for (const e of this.recent.extends) {
      if (e.matched || e.ev.t1 <= ev.t0 || (e.token !== null && e.token !== version.token)) continue;
      e.matched = true;
      version.expiry = e.ttlMs === null ? null : { lo: Math.max(e.ev.t0, ev.t0) + e.ttlMs, hi: e.ev.t1 + e.ttlMs };
    }
    for (const r of this.recent.removals) {
      if (!r.orphan || r.matched || r.ev.t1 <= ev.t0 || (r.token !== null && r.token !== version.token)) continue;
      r.matched = true;
      this.versions.end(version, r.ev, 'remove');
      if (r.ev.client === client.id) this.beliefs.letGo(client, r.ev, true, true);
      return;
    }
  }

  private removeByToken(ev: Ev, client: ClientState, token: string, applied: boolean | null): void {
    const v = this.versions.withToken(token);
    if (v === undefined) {
      if (applied === true) this.recent.noteRemoval(ev, false, true, token);
      if (client.holding !== null) this.beliefs.letGo(client, ev, false);
      return;
    }
    if (v.client !== client.id && applied !== false) {
      this.findings.violation('foreign-release', applied === true && v.sure ? 'certain' : 'possible', [client.id, v.client], { key: 'hForeignWithToken', params: { client: client.id, owner: v.client } }, [v.acquire, ev]);
    }
    if (applied === false && v.ended === null && v.sure && this.versions.certainlyLive(v, ev)) {
      this.findings.problem(ev.line, { key: 'hReleaseFoundNone', params: { client: ev.client, line: v.acquire.line } });
    }
    const first = applied === true && v.sure && this.versions.certainlyLive(v, ev);
    if (applied !== false) this.recent.noteRemoval(ev, first, false, token);
    if (v.ended === null && applied !== null) this.versions.end(v, ev, applied ? 'remove' : 'gone');
    if (client.holding !== null) this.beliefs.letGo(client, ev, applied === true && client.holding === v, first);
  }

  private removeWhatever(ev: Ev, client: ClientState, applied: boolean | null): void {
    const candidates = this.versions.candidates(ev);
    if (applied !== false) this.foreignDeletes(ev, client, candidates, applied);
    else {
      for (const v of candidates) {
        if (v.sure && this.versions.certainlyLive(v, ev)) this.findings.problem(ev.line, { key: 'hDelFoundNone', params: { client: ev.client, line: v.acquire.line } });
      }
    }
    // A version certainly there through the whole removal: any acquisition that starts later ran after it.
    const first = applied === true && candidates.some((v) => v.sure && this.versions.certainlyLive(v, ev));
    if (applied !== false) this.recent.noteRemoval(ev, first, applied === true && candidates.length === 0, null);
    if (applied === true && candidates.length > 1) {
      // It removed one of them: the older ones were gone by then in either order, the newest may live on.
      const newest = candidates.reduce((a, b) => (b.acquire.t0 > a.acquire.t0 ? b : a));
      for (const v of candidates) if (v !== newest) this.versions.end(v, ev, 'remove');
      newest.sure = false;
    } else if (applied !== null) for (const v of candidates) this.versions.end(v, ev, applied ? 'remove' : 'gone');
    if (client.holding !== null) {
      const own = applied === true && candidates.length === 1 && candidates[0] === client.holding;
      this.beliefs.letGo(client, ev, own, first);
    }
  }

  /** A DEL that may have removed other clients' versions: certain when it surely removed and only theirs were there. */
  private foreignDeletes(ev: Ev, client: ClientState, candidates: readonly Version[], applied: boolean | null): void {
    const foreign = candidates.filter((v) => v.client !== client.id);
    if (foreign.length === 0) return;
    const certain = applied === true && foreign.length === candidates.length && foreign.every((v) => v.sure && this.versions.ownerKnown(v));
    const owners = [...new Set(foreign.map((v) => v.client))];
    this.findings.violation('foreign-release', certain ? 'certain' : 'possible', [client.id, ...owners], { key: 'hForeignDeleted', params: { client: client.id, owners: { anyOf: owners } } }, [foreign[foreign.length - 1].acquire, ev]);
  }

  private extend(ev: Ev, token: string | null, ttlMs: number | null, applied: boolean | null): void {
    if (applied === false) return;
    const targets = (token === null ? this.versions.candidates(ev) : [this.versions.withToken(token)].filter((v): v is Version => v !== undefined)).filter((v) => v.ended === null);
    // A PEXPIRE names no token: it may have run on a version an acquisition that starts later wrote.
    if (applied === true && (targets.length === 0 || token === null)) this.recent.noteExtend(ev, targets.length === 0, token, ttlMs);
    // An acquisition that starts later could have run before it when its interval has any width (the reorder buffer holds what comes next).
    const sureOfTarget = applied === true && !(token === null && (targets.length > 1 || ev.t1 > ev.t0));
    for (const v of targets) {
      const expiry = ttlMs === null ? null : { lo: ev.t0 + ttlMs, hi: ev.t1 + ttlMs };
      // Not sure it extended this one (an unknown reply, or another version it may have run on): keep the widest interval.
      v.expiry = sureOfTarget || v.expiry === null || expiry === null ? expiry : { lo: v.expiry.lo, hi: Math.max(v.expiry.hi, expiry.hi) };
    }
  }
}
